/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step9` gives graded hints. */
/* verify.cuh - the sample sort's checks that scale (sample_sort.h, ss_check):
 * each rank checks its own run on its GPU in one pass, and a few numbers per
 * rank go over the ranks' link (NCCL, or copies), so 2^33 keys are checked without a host ever holding
 * them: each run sorted (and stable: values are input positions), every item
 * inside its rank's splitters, the runs in order across ranks, and the count
 * and an order-independent hash of the keys and of the pairs kept. Included
 * by sample_sort.cu. */
#ifndef SS_VERIFY_CUH
#define SS_VERIFY_CUH

enum { /* check_d slots */
       CK_INVERSIONS,
       CK_FIRST_INVERSION,
       CK_UNSTABLE,
       CK_FIRST_UNSTABLE,
       CK_OUTSIDE,
       CK_FIRST_OUTSIDE,
       CK_IN_KEYS,
       CK_IN_PAIRS,
       CK_IN_COUNT,
       CK_OUT_KEYS,
       CK_OUT_PAIRS,
       CK_OUT_COUNT, /* summed over ranks */
       CK_EDGE,      /* 5 slots: n, first key, first value, last key, last value; then G x 5 gathered */
       CK_SLOTS = CK_EDGE + 5
};

static size_t ss_check_bytes(int G)
{
    return sizeof(uint64_t) * (CK_SLOTS + 5 * (size_t)G);
}

static __device__ __forceinline__ uint64_t hash_key(unsigned int k)
{
    return plan_mix64(k ^ 0x6B6579730000ull);
}

static __device__ __forceinline__ uint64_t hash_pair(unsigned int k, unsigned int v)
{
    return plan_mix64(((uint64_t)k << 32 | v) ^ 0x7061697273ull);
}

static __device__ __forceinline__ uint64_t warp_sum(uint64_t x)
{
    for (int d = 16; d > 0; d >>= 1)
        x += __shfl_down_sync(0xffffffffu, x, d);
    return x;
}

static __device__ __forceinline__ uint64_t warp_min(uint64_t x)
{
    for (int d = 16; d > 0; d >>= 1) {
        const uint64_t y = __shfl_down_sync(0xffffffffu, x, d);
        x = y < x ? y : x;
    }
    return x;
}

/* Sums of the hashes of the keys (and pairs) and the count, into out[0..2]. */
__global__ void hash_kernel(const unsigned int *k, const unsigned int *v, int64_t n, unsigned long long *out)
{
    uint64_t hk = 0, hp = 0, c = 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        hk += hash_key(k[i]);
        if (v != NULL)
            hp += hash_pair(k[i], v[i]);
        c++;
    }
    hk = warp_sum(hk), hp = warp_sum(hp), c = warp_sum(c);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(&out[0], (unsigned long long)hk);
        atomicAdd(&out[1], (unsigned long long)hp);
        atomicAdd(&out[2], (unsigned long long)c);
    }
}

/* A failure count and its first index, reduced over the block's warps into out[at], out[at + 1]. */
static __device__ __forceinline__ void add_failures(uint64_t count, uint64_t first, unsigned long long *out, int at)
{
    count = warp_sum(count), first = warp_min(first);
    if ((threadIdx.x & 31) == 0 && count > 0) {
        atomicAdd(&out[at], (unsigned long long)count);
        atomicMin(&out[at + 1], (unsigned long long)first);
    }
}

/* A rank's run: order, stability (when the values are global positions,
 * equal keys have rising values), and every item inside the rank's buckets
 * [b_lo, b_hi) (by item when the values are positions, else by key). */
__global__ void check_run_kernel(const unsigned int *k, const unsigned int *v, int64_t n, const unsigned int *split_key,
                                 const uint64_t *split_pos, int nsplit, int b_lo, int b_hi, int values_are_positions,
                                 unsigned long long *out)
{
    uint64_t inv = 0, uns = 0, outside = 0, first_inv = UINT64_MAX, first_uns = UINT64_MAX, first_out = UINT64_MAX;
    const unsigned int key_lo = b_lo > 0 ? split_key[b_lo - 1] : 0u;
    const unsigned int key_hi = b_hi <= nsplit ? split_key[b_hi - 1] : 0xFFFFFFFFu;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        const unsigned int key = k[i];
        if (i + 1 < n && key > k[i + 1]) {
            inv++;
            first_inv = min(first_inv, (uint64_t)i + 1);
        } else if (i + 1 < n && values_are_positions && key == k[i + 1] && v[i] > v[i + 1]) {
            uns++;
            first_uns = min(first_uns, (uint64_t)i + 1);
        }
        int in;
        if (values_are_positions) {
            const int b = plan_bucket_of(key, v[i], split_key, split_pos, nsplit);
            in = b >= b_lo && b < b_hi;
        } else {
            in = key >= key_lo && key <= key_hi;
        }
        if (!in) {
            outside++;
            first_out = min(first_out, (uint64_t)i);
        }
    }
    add_failures(inv, first_inv, out, CK_INVERSIONS);
    add_failures(uns, first_uns, out, CK_UNSTABLE);
    add_failures(outside, first_out, out, CK_OUTSIDE);
}

/* The run's first and last items, for the order across ranks. */
__global__ void edge_kernel(const unsigned int *k, const unsigned int *v, int64_t n, unsigned long long *edge)
{
    edge[0] = (unsigned long long)n;
    edge[1] = n > 0 ? k[0] : 0, edge[2] = n > 0 && v != NULL ? v[0] : 0;
    edge[3] = n > 0 ? k[n - 1] : 0, edge[4] = n > 0 && v != NULL ? v[n - 1] : 0;
}

ss_hash ss_hash_input(ss_rank *R, const ss_config *c)
{
    unsigned long long h[3];
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaMemsetAsync(R->check_d, 0, sizeof(uint64_t) * 3, R->comm_stream));
    if (R->n > 0) {
        hash_kernel<<<1024, 256, 0, R->comm_stream>>>(R->keys, c->with_values ? R->values : NULL, R->n,
                                                      (unsigned long long *)R->check_d);
        CUDA_CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaMemcpyAsync(h, R->check_d, sizeof h, cudaMemcpyDeviceToHost, R->comm_stream));
    CUDA_CHECK(cudaStreamSynchronize(R->comm_stream));
    ss_hash out = {.keys = h[0], .pairs = h[1], .count = h[2]};
    return out;
}

/* Rank r's run checked on its device into its check_d slots (and its edge). */
static void check_run(ss_rank *r, const ss_config *c, const ss_plan *plan, const ss_hash *in, int positions)
{
    unsigned long long *d = (unsigned long long *)r->check_d;
    unsigned long long init[CK_SLOTS] = {0};
    const unsigned int *v = c->with_values ? r->run_v : NULL;
    init[CK_FIRST_INVERSION] = init[CK_FIRST_UNSTABLE] = init[CK_FIRST_OUTSIDE] = ~0ull;
    init[CK_IN_KEYS] = in->keys, init[CK_IN_PAIRS] = in->pairs, init[CK_IN_COUNT] = in->count;
    CUDA_CHECK(cudaSetDevice(r->device));
    CUDA_CHECK(cudaMemcpyAsync(d, init, sizeof init, cudaMemcpyHostToDevice, r->comm_stream));
    if (r->run_n > 0) {
        check_run_kernel<<<1024, 256, 0, r->comm_stream>>>(r->run_k, v, r->run_n, r->split_key_d, r->split_pos_d,
                                                           plan->B - 1, r->rank * c->K, (r->rank + 1) * c->K, positions,
                                                           d);
        CUDA_CHECK_LAUNCH();
        hash_kernel<<<1024, 256, 0, r->comm_stream>>>(r->run_k, v, r->run_n, d + CK_OUT_KEYS);
        CUDA_CHECK_LAUNCH();
    }
    edge_kernel<<<1, 1, 0, r->comm_stream>>>(r->run_k, v, r->run_n, d + CK_EDGE);
    CUDA_CHECK_LAUNCH();
}

/* a's last item against b's first: out of order when b's first comes before a's last */
static int edge_less(const uint64_t *a, const uint64_t *b, int by_value)
{
    return b[1] < a[3] || (by_value && b[1] == a[3] && b[2] < a[4]);
}

/* What rank r's slots (h) and every rank's edges say; the failures, each printed. */
static int report_run(const ss_rank *r, const ss_config *c, const ss_plan *plan, const uint64_t *h, int positions)
{
    int fails = 0;
    static const struct {
        int count, first;
        const char *what;
    } kinds[] = {
        {.count = CK_INVERSIONS, .first = CK_FIRST_INVERSION, .what = "keys out of order"},
        {.count = CK_UNSTABLE, .first = CK_FIRST_UNSTABLE, .what = "equal keys out of input order (not stable)"},
        {.count = CK_OUTSIDE, .first = CK_FIRST_OUTSIDE, .what = "keys outside its splitters"}};
    for (int k = 0; k < 3; k++)
        if (h[kinds[k].count])
            fails++, printf("  FAIL GPU %d: %llu %s, the first at index %llu%s\n", r->rank,
                            (unsigned long long)h[kinds[k].count], kinds[k].what, (unsigned long long)h[kinds[k].first],
                            lab_todo_note());
    if ((int64_t)h[CK_EDGE] != plan_received(plan, r->rank))
        fails++, printf("  FAIL GPU %d: holds %llu keys, the plan sent it %lld (keys lost or duplicated on it)\n",
                        r->rank, (unsigned long long)h[CK_EDGE], (long long)plan_received(plan, r->rank));
    /* the order across ranks: this rank's first item after the last non-empty rank's last */
    const uint64_t *edges = h + CK_SLOTS, *mine = edges + 5 * (size_t)r->rank;
    for (int p = r->rank - 1; p >= 0 && mine[0] > 0; p--)
        if (edges[5 * p] > 0) {
            if (edge_less(edges + 5 * p, mine, positions))
                fails++, printf("  FAIL GPU %d: its first key %llu comes before GPU %d's last key %llu (index %llu)\n",
                                r->rank, (unsigned long long)mine[1], p, (unsigned long long)edges[5 * p + 3],
                                (unsigned long long)(edges[5 * p] - 1));
            break;
        }
    if (r->rank == 0) { /* the sums are global: one rank says it */
        if (h[CK_OUT_COUNT] != h[CK_IN_COUNT] || h[CK_IN_COUNT] != (uint64_t)c->N)
            fails++, printf("  FAIL: %llu keys out of %llu in (N = %lld)\n", (unsigned long long)h[CK_OUT_COUNT],
                            (unsigned long long)h[CK_IN_COUNT], (long long)c->N);
        if (h[CK_OUT_KEYS] != h[CK_IN_KEYS])
            fails++, printf("  FAIL: the keys' hash changed: a key was lost, duplicated or altered\n");
        if (c->with_values && h[CK_OUT_PAIRS] != h[CK_IN_PAIRS])
            fails++, printf("  FAIL: the pairs' hash changed: a value left its key\n");
    }
    return fails;
}

int ss_check(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, const ss_hash *in)
{
    const int positions = c->with_values && c->N <= (1LL << 32); /* values are global positions */
    for (int i = 0; i < nlocal; i++)
        check_run(&R[i], c, plan, &in[i], positions);
    uint64_t **sums = (uint64_t **)lab_xmalloc(sizeof(uint64_t *) * (size_t)nlocal);
    void **edges = (void **)lab_xmalloc(sizeof(void *) * (size_t)nlocal);
    for (int i = 0; i < nlocal; i++) /* each rank's edge to its slot of the gathered ones */
        sums[i] = R[i].check_d + CK_IN_KEYS, edges[i] = R[i].check_d + CK_SLOTS;
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaMemcpyAsync(R[i].check_d + CK_SLOTS + 5 * (size_t)R[i].rank, R[i].check_d + CK_EDGE,
                                   5 * sizeof(uint64_t), cudaMemcpyDeviceToDevice, R[i].comm_stream));
    }
    ss_all_sum(R, nlocal, c, sums, 6);
    ss_all_gather(R, nlocal, c, edges, 5 * sizeof(uint64_t));
    free(sums), free(edges);
    int fails = 0;
    uint64_t *h = (uint64_t *)lab_xmalloc(ss_check_bytes(c->G));
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaMemcpyAsync(h, R[i].check_d, ss_check_bytes(c->G), cudaMemcpyDeviceToHost, R[i].comm_stream));
        CUDA_CHECK(cudaStreamSynchronize(R[i].comm_stream));
        fails += report_run(&R[i], c, plan, h, positions);
    }
    free(h);
    return fails;
}

#endif
