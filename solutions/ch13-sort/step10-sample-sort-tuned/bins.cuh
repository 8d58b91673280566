/* bins.cuh - ch13 step 10's splitters from bins: every rank counts its
 * keys by their top 12 bits (count_bins_kernel, one read of the share), the
 * bins of every rank go to the host, and where bin edges split the keys
 * within 0.5 % of N/G of every boundary (plan_bin_splitters, bins.c; uniform
 * keys do) the splitters sit on those edges: every count is then a sum of
 * bins, each block's column of step 9's table comes from its bins
 * (bins_table_kernel), and the sample, its round trip and the count pass are
 * one read and one gather. Keys that crowd into few bins take the sample's
 * way. Included by sample_sort.cu. */
#ifndef SS_BINS_CUH
#define SS_BINS_CUH

#include "held.cuh"   /* load_blocked_tile */
#include "phases.cuh" /* step 9's */

/* Each block's keys per bin (plan_bin_of) over its chunk of the share, as the
 * count's blocks take them: its row of block_bins, and added to the rank's
 * bins. One shared atomic a key. */
__global__ void __launch_bounds__(SS_BLOCK)
    count_bins_kernel(const unsigned int *keys, int64_t n, int64_t chunk, unsigned int *block_bins, unsigned int *bins)
{
    __shared__ unsigned int s_bins[PLAN_BINS];
    for (int i = threadIdx.x; i < PLAN_BINS; i += blockDim.x)
        s_bins[i] = 0;
    __syncthreads();
    const int64_t lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    unsigned int key[SS_ITEMS], next[SS_ITEMS];
    if (lo < hi)
        load_blocked_tile(keys, lo, (int)min((int64_t)SS_TILE, hi - lo), key);
    for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += SS_TILE) {
        const int tile_n = (int)min((int64_t)SS_TILE, hi - tile_lo);
        if (tile_lo + SS_TILE < hi) /* the next tile in flight while this one is counted */
            load_blocked_tile(keys, tile_lo + SS_TILE, (int)min((int64_t)SS_TILE, hi - tile_lo - SS_TILE), next);
#pragma unroll
        for (int j = 0; j < SS_ITEMS; j++) {
            if (threadIdx.x * SS_ITEMS + j < tile_n)
                atomicAdd(&s_bins[plan_bin_of(key[j])], 1u);
            key[j] = next[j];
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < PLAN_BINS; i += blockDim.x) {
        const unsigned int c = s_bins[i];
        block_bins[(size_t)blockIdx.x * PLAN_BINS + i] = c;
        if (c != 0)
            atomicAdd(&bins[i], c);
    }
}

/* The count's table (bucket-major, a column per block) from the blocks' bins:
 * bucket b of block c holds its bins [first_bin[b], first_bin[b + 1]). */
__global__ void __launch_bounds__(SS_BLOCK)
    bins_table_kernel(const unsigned int *block_bins, const int *first_bin, int B, unsigned int *table)
{
    __shared__ unsigned int s_sum[PLAN_BIN_BUCKETS];
    for (int b = threadIdx.x; b < B; b += blockDim.x)
        s_sum[b] = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < PLAN_BINS; i += blockDim.x) {
        int b = 0;
        while (b + 1 < B && i >= first_bin[b + 1])
            b++;
        const unsigned int c = block_bins[(size_t)blockIdx.x * PLAN_BINS + i];
        if (c != 0)
            atomicAdd(&s_sum[b], c);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < B; b += blockDim.x)
        table[(size_t)b * gridDim.x + blockIdx.x] = s_sum[b];
}

#define SS_BIN_SLACK 0.005 /* a boundary within 0.5 % of N / G of its target: the buckets even to a bin */

/* The bins' way to the splitters and the counts, its first half: each rank
 * counts its keys per bin, and every rank's bins go to the host (each row
 * straight from its GPU when every rank is in this process, else gathered
 * first). Where plan_bin_splitters (or digit_edges) then accepts them, they
 * set the plan's splitters and counts (bin_tables takes them to the GPUs). */
static void gather_bins(ss_rank *R, ss_extra *E, int nlocal, const ss_config *c, unsigned int *host_bins)
{
    const size_t row = sizeof(unsigned int) * PLAN_BINS;
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        unsigned int *mine = E[i].bins_d + (size_t)r->rank * PLAN_BINS;
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(cudaMemsetAsync(mine, 0, row, r->comm_stream));
        if (r->cols > 0)
            count_bins_kernel<<<r->cols, SS_BLOCK, 0, r->comm_stream>>>(r->keys, r->n, r->chunk, E[i].block_bins_d,
                                                                        mine);
        CUDA_CHECK_LAUNCH();
    }
    for (int i = 0; i < nlocal && nlocal == c->G; i++) { /* after every count is launched: host_bins is pinned */
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaMemcpyAsync(host_bins + (size_t)R[i].rank * PLAN_BINS,
                                   E[i].bins_d + (size_t)R[i].rank * PLAN_BINS, row, cudaMemcpyDeviceToHost,
                                   R[i].comm_stream));
    }
    if (nlocal < c->G) { /* mpirun: every rank's row to all, then all of them to the host */
        void **rows = (void **)lab_xmalloc(sizeof(void *) * (size_t)nlocal);
        for (int i = 0; i < nlocal; i++)
            rows[i] = E[i].bins_d;
        ss_all_gather(R, nlocal, c, rows, row);
        free(rows);
        CUDA_CHECK(cudaSetDevice(R[0].device));
        CUDA_CHECK(
            cudaMemcpyAsync(host_bins, E[0].bins_d, row * (size_t)c->G, cudaMemcpyDeviceToHost, R[0].comm_stream));
    }
    for (int i = 0; i < nlocal; i++)
        CUDA_CHECK(cudaStreamSynchronize(R[i].comm_stream));
}

/* The splitters at bin edges first_bin up to every rank, and each rank's
 * table (step 9's count and its scan) from its blocks' bins. */
static void bin_tables(ss_rank *R, ss_extra *E, int nlocal, const ss_plan *plan, const int *first_bin)
{
    upload_splitters(R, nlocal, plan);
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(cudaMemcpyAsync(E[i].first_bin_d, first_bin, sizeof(int) * (size_t)(plan->B + 1),
                                   cudaMemcpyHostToDevice, r->comm_stream));
        if (r->cols == 0)
            continue;
        bins_table_kernel<<<r->cols, SS_BLOCK, 0, r->comm_stream>>>(E[i].block_bins_d, E[i].first_bin_d, plan->B,
                                                                    r->table_d);
        scan_table_kernel<<<plan->B, 32, 0, r->comm_stream>>>(r->table_d, r->cols, r->row_prefix_d,
                                                              r->counts_d + (size_t)r->rank * plan->B);
        CUDA_CHECK_LAUNCH();
    }
}

#endif
