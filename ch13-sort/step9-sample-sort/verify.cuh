/* verify.cuh - the sample sort's checks. Those that scale (ss_check): each
 * rank checks its own run on its GPU in one pass (sample_gpu.h), and a few
 * numbers per rank go over the ranks' link (NCCL, or copies), so 2^33 keys
 * are checked without a host ever holding them. Up to the step's reference
 * size, each run against the CPU too, element by element (sample_ref.h); and
 * each rank's device memory against its bound. Included by sample_sort.cu. */
#ifndef SS_VERIFY_CUH
#define SS_VERIFY_CUH

#include "rank.h"
#include "sample_gpu.h"
#include "sample_ref.h"

/* The hashes and count of rank R's input, before its sort. */
static ss_hash ss_hash_input(ss_rank *R, const ss_config *c)
{
    uint64_t h[3];
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaMemsetAsync(R->check_d, 0, sizeof h, R->comm_stream));
    sample_hash(R->keys, c->with_values ? R->values : NULL, R->n, R->check_d, R->comm_stream);
    CUDA_CHECK(cudaMemcpyAsync(h, R->check_d, sizeof h, cudaMemcpyDeviceToHost, R->comm_stream));
    CUDA_CHECK(cudaStreamSynchronize(R->comm_stream));
    const ss_hash out = {.keys = h[0], .pairs = h[1], .count = h[2]};
    return out;
}

/* The checks that scale, combined over all ranks: the failures, each printed by the rank that sees it. */
static int ss_check(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, const ss_hash *in)
{
    uint64_t **sums = (uint64_t **)lab_xmalloc(sizeof(uint64_t *) * (size_t)nlocal);
    void **edges = (void **)lab_xmalloc(sizeof(void *) * (size_t)nlocal);
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        const uint64_t hashes[3] = {in[i].keys, in[i].pairs, in[i].count};
        CUDA_CHECK(cudaSetDevice(r->device));
        sample_check_run(r->run_k, r->run_v, r->run_n, c->N, r->split_key_d, r->split_pos_d, plan->B - 1,
                         r->rank * plan->K, (r->rank + 1) * plan->K, hashes, r->check_d, r->comm_stream);
        CUDA_CHECK(cudaMemcpyAsync(r->check_d + SG_SLOTS + 5 * (size_t)r->rank, r->check_d + SG_EDGE,
                                   5 * sizeof(uint64_t), cudaMemcpyDeviceToDevice, r->comm_stream));
        sums[i] = r->check_d + SG_IN_KEYS, edges[i] = r->check_d + SG_SLOTS;
    }
    ss_all_sum(R, nlocal, c, sums, 6);
    ss_all_gather(R, nlocal, c, edges, 5 * sizeof(uint64_t));
    free(sums), free(edges);
    int fails = 0;
    uint64_t *h = (uint64_t *)lab_xmalloc(sample_check_bytes(c->G));
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(
            cudaMemcpyAsync(h, R[i].check_d, sample_check_bytes(c->G), cudaMemcpyDeviceToHost, R[i].comm_stream));
        CUDA_CHECK(cudaStreamSynchronize(R[i].comm_stream));
        fails += sample_check_report(h, R[i].rank, c->N, plan_received(plan, R[i].rank), c->with_values);
    }
    free(h);
    return fails;
}

/* Each owned rank's run downloaded and compared with the CPU's sort of the
 * same input: the failures, at most five lines a rank (with quiet, none). */
static int ss_check_reference(const ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, int dist,
                              uint64_t seed, int quiet)
{
    sample_ref ref = sample_ref_make(c->N, dist, seed, c->with_values);
    int fails = 0;
    for (int i = 0; i < nlocal; i++) {
        const ss_rank *r = &R[i];
        const size_t bytes = sizeof(unsigned int) * (size_t)(r->run_n > 0 ? r->run_n : 1);
        unsigned int *k = (unsigned int *)lab_xmalloc(bytes),
                     *v = c->with_values ? (unsigned int *)lab_xmalloc(bytes) : NULL;
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(cudaMemcpy(k, r->run_k, sizeof(unsigned int) * (size_t)r->run_n, cudaMemcpyDeviceToHost));
        if (v != NULL)
            CUDA_CHECK(cudaMemcpy(v, r->run_v, sizeof(unsigned int) * (size_t)r->run_n, cudaMemcpyDeviceToHost));
        const int64_t wrong =
            sample_ref_check_run(&ref, k, v, r->run_n, plan_output_start(plan, r->rank), r->rank, quiet ? 0 : 5);
        if (wrong > 0 && !quiet)
            printf("  FAIL GPU %d: %lld of its %lld keys wrong against the CPU reference%s\n", r->rank,
                   (long long)wrong, (long long)r->run_n, lab_todo_note());
        fails += wrong > 0;
        free(k), free(v);
    }
    if (c->with_values && nlocal == c->G) /* every rank is here: a position never seen is a lost key */
        fails += sample_ref_lost(&ref, quiet ? 0 : 5) > 0;
    sample_ref_free(&ref);
    return fails;
}

/* The last sort of X checked: the checks that scale, the CPU's with
 * reference, the device memory; the failures, and the bucket and peak. */
static int ss_ranks_check(ss_ranks *X, int dist, uint64_t seed, int reference, int quiet, ss_shape *shape)
{
    const ss_config *c = &X->c;
    int fails = ss_check(X->R, X->nlocal, c, &X->plan, X->in);
    if (reference)
        fails += ss_check_reference(X->R, X->nlocal, c, &X->plan, dist, seed, quiet);
    shape->bucket = c->N > 0 ? (double)plan_largest(&X->plan, NULL) / ((double)c->N / c->G) : 0;
    shape->peak = 0;
    for (int i = 0; i < X->nlocal; i++) {
        const ss_rank *r = &X->R[i];
        const double share = (double)r->n * sizeof(unsigned int) * (c->with_values ? 2 : 1);
        fails += sample_check_memory(r->rank, r->device, r->bytes_allocated, r->free_before, r->sort_temp_bytes, share,
                                     c->link == SS_LINK_COPIES, &shape->peak);
    }
    return fails;
}

#endif
