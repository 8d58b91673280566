/* Exercise made from solutions/ch13-sort/step1-radix-naive/sort.cu by `make exercises`: fill in each TODO. `make diff STEP=ch13-sort/step1-radix-naive` compares. */
/* sort.cu - ch13 step 1: the naive parallel radix sort of section 13.3. One
 * thread per key, one bit per iteration, 32 iterations. Each iteration is the
 * kernel of Fig 13.4 cut at its exclusive scan into three launches, as the
 * text allows: extract the bits, scan them (the lab's device scan), scatter. */
#include "scan.h"
#include "sort.h"

/* Fig 13.4 lines 03-08: thread i extracts bit `iter` of key i and stores it for the scan. */
__global__ void radix_sort_bits(const unsigned int *input, unsigned int *bits, unsigned int N, unsigned int iter)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        /* TODO(1): Fig 13.4 lines 06-08: load key i, extract the bit of this iteration ((key >> iter) & 1), store it in bits[i] */
        bits[i] = 0; (void)input; (void)iter;
    }
}

/* Fig 13.4 lines 11-16, after the scan: bits[i] now counts the ones before key
 * i and bits[N] the ones in total; thread i moves its key (and value) there. */
__global__ void radix_sort_scatter(const unsigned int *input, const unsigned int *values_in, unsigned int *output,
                                   unsigned int *values_out, const unsigned int *bits, unsigned int N,
                                   unsigned int iter, int printed)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        const unsigned int key = input[i];
        const unsigned int bit = (key >> iter) & 1; /* again: the scan overwrote bits[i] */
        const unsigned int numOnesBefore = bits[i];
        const unsigned int numOnesTotal = bits[N];
        /* TODO(2): Fig 13.4 lines 14-15 (section 13.3's derivation): a zero goes to i - ones before; a one goes after all the zeros, to N - ones in total + ones before */
        unsigned int dst = i; (void)bit; (void)numOnesBefore; (void)numOnesTotal;
        if (printed) { /* --printed: line 15 as printed subtracts the ones before (docs/errata.md) */
            if (bit == 1)
                dst = N - numOnesTotal - numOnesBefore;
            if (dst >= N) /* our guard, not the book's: the printed index can leave [0, N) */
                return;
        }
        output[dst] = key;
        if (values_in != NULL)
            values_out[dst] = values_in[i];
    }
}

/* One iteration: the three launches that stand for Fig 13.4's one kernel. */
const char *radix_sort_iter_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                                   unsigned int *values_out, unsigned int *bits_d, int64_t n, unsigned int iter,
                                   void *temp_d, const sort_params *p)
{
    const char *why = sort_check_block(p->block, 0);
    if (why != NULL)
        return why;
    if (n < 0 || n > SORT_MAX_N)
        return "n must be 0 to 2^31 - 1 (unsigned int indices, as in Fig 13.4)";
    if (iter > 31)
        return "iter must be 0 to 31";
    const unsigned int N = (unsigned int)n, grid = (unsigned int)((n + p->block - 1) / p->block);
    if (N > 0) {
        radix_sort_bits<<<grid, p->block>>>(keys_in, bits_d, N, iter);
        CUDA_CHECK_LAUNCH();
    }
    why = scan_exclusive(bits_d, bits_d, n, temp_d); /* line 10's exclusiveScan(bits, N): bits[N] = total */
    if (why != NULL)
        return why;
    if (N > 0) {
        radix_sort_scatter<<<grid, p->block>>>(keys_in, values_in, keys_out, values_out, bits_d, N, iter, p->printed);
        CUDA_CHECK_LAUNCH();
    }
    return NULL;
}

/* temp: the other key (and value) buffer, bits (N + 1 entries) and the scan's temporaries. */
static void layout(sort_ws *ws, int64_t n, int with_values, unsigned int **keys_alt, unsigned int **values_alt,
                   unsigned int **bits, void **scan_temp)
{
    *keys_alt = (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n);
    *values_alt = with_values ? (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n) : NULL;
    *bits = (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)(n + 1));
    *scan_temp = sort_ws_take(ws, scan_temp_bytes(n));
}

size_t sort_temp_bytes(int64_t n, int with_values, const sort_params *p)
{
    (void)p;
    sort_ws ws = {0};
    unsigned int *k, *v, *b;
    void *s;
    layout(&ws, n < 0 ? 0 : n, with_values, &k, &v, &b, &s);
    return (size_t)ws.at;
}

/* Section 13.2: 32 one-bit iterations from the least significant bit; each
 * reads the previous one's output, ping-ponging so the last lands in keys_out. */
const char *sort_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                        unsigned int *values_out, int64_t n, void *temp_d, const sort_params *p)
{
    const char *why = sort_check_block(p->block, 0);
    if (why != NULL)
        return why;
    if (n < 0 || n > SORT_MAX_N)
        return "n must be 0 to 2^31 - 1 (unsigned int indices, as in Fig 13.4)";
    if (n == 0)
        return NULL;
    sort_ws ws = {(uintptr_t)temp_d};
    unsigned int *keys_alt, *values_alt, *bits;
    void *scan_temp;
    layout(&ws, n, values_in != NULL, &keys_alt, &values_alt, &bits, &scan_temp);
    const unsigned int *src_k = keys_in, *src_v = values_in;
    for (unsigned int iter = 0; iter < 32; iter++) {
        /* 32 is even: odd iterations write keys_out, so the last one (31) does */
        unsigned int *dst_k = iter % 2 ? keys_out : keys_alt, *dst_v = iter % 2 ? values_out : values_alt;
        why = radix_sort_iter_launch(src_k, src_v, dst_k, dst_v, bits, n, iter, scan_temp, p);
        if (why != NULL)
            return why;
        src_k = dst_k, src_v = dst_v;
    }
    return NULL;
}

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch13-sort/step1-radix-naive (`make diff STEP=ch13-sort/step1-radix-naive` shows the solution):\n"
    "    ch13-sort/step1-radix-naive/sort.cu:14: TODO(1) Fig 13.4 lines 06-08: load key i, extract the bit of this iteration ((key >> iter) & 1), store it in bits[i]\n"
    "    ch13-sort/step1-radix-naive/sort.cu:31: TODO(2) Fig 13.4 lines 14-15 (section 13.3's derivation): a zero goes to i - ones before; a one goes after all the zeros, to N - ones in total + ones before\n";
