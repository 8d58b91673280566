/* report.c - result lines and element-wise comparison. */
#include "report.h"

void lab_poison_device(void *d, size_t bytes)
{
    if (bytes > 0)
        CUDA_CHECK(cudaMemset(d, LAB_POISON_BYTE, bytes));
}

/* What a wrong value means when it is a marker the lab writes. */
const char *lab_marker_meaning(uint32_t word)
{
    if (word == LAB_POISON_WORD)
        return " (the poison the output was filled with: never written)";
    return "";
}

lab_mismatch lab_compare_i32(const int32_t *got, const int32_t *want, int64_t n, const char *what, int max_report)
{
    lab_mismatch mm = {0, -1};
    for (int64_t i = 0; i < n; i++) {
        if (got[i] == want[i])
            continue;
        if (mm.count < max_report)
            printf("  %s[%lld] = %d, expected %d%s\n", what, (long long)i, got[i], want[i],
                   lab_marker_meaning((uint32_t)got[i]));
        if (mm.count++ == 0)
            mm.first = i;
    }
    if (mm.count > max_report)
        printf("  ... %lld mismatches in all\n", (long long)mm.count);
    return mm;
}

lab_mismatch lab_compare_u32(const uint32_t *got, const uint32_t *want, int64_t n, const char *what, int max_report)
{
    lab_mismatch mm = {0, -1};
    for (int64_t i = 0; i < n; i++) {
        if (got[i] == want[i])
            continue;
        if (mm.count < max_report)
            printf("  %s[%lld] = %u (0x%08x), expected %u (0x%08x)%s\n", what, (long long)i, got[i], got[i], want[i],
                   want[i], lab_marker_meaning(got[i]));
        if (mm.count++ == 0)
            mm.first = i;
    }
    if (mm.count > max_report)
        printf("  ... %lld mismatches in all\n", (long long)mm.count);
    return mm;
}

void lab_print_result(const lab_run *o, const lab_result *r)
{
    const double s = r->time.median_ms * 1e-3;
    const double gbs = s > 0.0 ? r->bytes / s * 1e-9 : 0.0;
    const double geps = s > 0.0 ? (double)r->n / s * 1e-9 : 0.0;
    const double spread = r->time.median_ms > 0.0 ? (r->time.max_ms - r->time.min_ms) / r->time.median_ms : 0.0;
    if (o->csv) {
        printf("%s,%s,%s,%lld,%llu,%.6f,%.4f,%.2f,%.4f\n", r->pass ? "PASS" : "FAIL", r->step, r->params,
               (long long)r->n, (unsigned long long)o->seed, r->time.median_ms, spread, gbs, geps);
        return;
    }
    printf("%s %s  n=%lld seed=%llu %s  median %.4f ms (min %.4f, max %.4f, %d reps)  %.1f GB/s  %.3f Gelem/s\n",
           r->pass ? "PASS" : "FAIL", r->step, (long long)r->n, (unsigned long long)o->seed, r->params,
           r->time.median_ms, r->time.min_ms, r->time.max_ms, r->time.reps, gbs, geps);
}

void lab_print_ints(const char *name, const int *X, int len)
{
    printf("  %-9s =", name);
    for (int i = 0; i < len; i++)
        printf(" %d", X[i]);
    printf("\n");
}

void lab_print_todo_hint(void)
{
    const char *note = lab_todo_note();
    if (note[0] != '\0')
        printf("%s\n", note);
}
