/* digit_tests.h - the CPU tests of step 10's split by the top byte (digit.c,
 * --split digit): the splitters at top-byte edges, or refused with nothing
 * changed; where each sender's keys of each top byte go; and the
 * ranges and tiles of a chunk's three passes. Random bins from the lab's
 * fixed seeds (printed with every failure), never all zero, with ranges and
 * a whole top byte that hold no key. Included once by
 * tests/ch13-sort/step10-sample-sort-tuned.c, digit_edges_tests.h after it. */

#define DIGIT_EMPTY_TOP 77 /* a top byte no rank has a key of: an empty segment */

/* Every rank's keys per bin from `seed`: 0 to 8 in each bin, except rank 0
 * has none of every fifth top byte (a segment whose first range is empty)
 * and no rank any of DIGIT_EMPTY_TOP. *N: their sum. */
static unsigned int *digit_bins(int G, uint64_t seed, int64_t *N)
{
    lab_rng rng = lab_rng_seeded(seed);
    unsigned int *bins = (unsigned int *)calloc((size_t)G * PLAN_BINS, sizeof(unsigned int));
    *N = 0;
    for (int s = 0; s < G; s++)
        for (int e = 0; e < PLAN_BINS; e++) {
            const int t = e / DIGIT_PER_TOP, none = t == DIGIT_EMPTY_TOP || (s == 0 && t % 5 == 0);
            bins[(size_t)s * PLAN_BINS + e] = none ? 0 : lab_rng_below(&rng, 9);
            *N += bins[(size_t)s * PLAN_BINS + e];
        }
    return bins;
}

/* Rank s's keys of top byte t, summed here from its bins (digit.c's own sum is what is tested). */
static uint64_t digit_top_keys(const unsigned int *bins, int s, int t)
{
    uint64_t n = 0;
    for (int e = t * DIGIT_PER_TOP; e < (t + 1) * DIGIT_PER_TOP; e++)
        n += bins[(size_t)s * PLAN_BINS + e];
    return n;
}

/* Keys of every rank in the top bytes [0, t). */
static double digit_keys_below(const unsigned int *bins, int G, int t)
{
    double below = 0;
    for (int u = 0; u < t; u++)
        for (int s = 0; s < G; s++)
            below += (double)digit_top_keys(bins, s, u);
    return below;
}

/* The plan of G ranks, K chunks, on digit_bins(seed), its edges from
 * digit_edges, which these bins must pass (every top byte < 1 % of N / G). */
static unsigned int *digit_plan(ss_plan *p, int G, int K, uint64_t seed, int *first, const char *name)
{
    int64_t N;
    unsigned int *bins = digit_bins(G, seed, &N);
    cr_assert_null(plan_init(p, N, G, K, 4096, 0.5));
    cr_assert(digit_edges(p, bins, DIGIT_SLACK, first), "%s: refused, but every top byte holds < 1 %% of N / G%s", name,
              lab_todo_note());
    return bins;
}

/* What every accepted plan holds: edges on top bytes, rising from 0 to
 * PLAN_BINS, each chunk's between its GPU's two; the splitters (top byte <<
 * 24, 0); each top byte's keys in one bucket by the cut itself; each rank's
 * count per bucket the sum of its whole top bytes there; each GPU's boundary
 * within the slack of its target. */
static void digit_check_plan(const ss_plan *p, const unsigned int *bins, const int *first, const char *name)
{
    const int G = p->G, K = p->K, B = p->B;
    cr_assert(first[0] == 0 && first[B] == PLAN_BINS, "%s: edges from %d to %d, not 0 to %d%s", name, first[0],
              first[B], PLAN_BINS, lab_todo_note());
    for (int t = 1; t < B; t++) {
        const int gpu_lo = first[t - t % K], gpu_hi = first[t - t % K + K];
        cr_assert(first[t] % DIGIT_PER_TOP == 0 && first[t] >= first[t - 1] && gpu_lo <= first[t] && first[t] <= gpu_hi,
                  "%s: boundary %d at bin %d: not a top-byte edge, before boundary %d's %d, or out of its GPU's [%d, "
                  "%d]%s",
                  name, t, first[t], t - 1, first[t - 1], gpu_lo, gpu_hi, lab_todo_note());
        cr_assert(p->split_key[t - 1] == (unsigned int)(first[t] / DIGIT_PER_TOP) << 24 && p->split_pos[t - 1] == 0,
                  "%s: splitter %d is (%u, %llu), its edge top byte %d", name, t - 1, p->split_key[t - 1],
                  (unsigned long long)p->split_pos[t - 1], first[t] / DIGIT_PER_TOP);
        const double off = fabs(digit_keys_below(bins, G, first[t] / DIGIT_PER_TOP) - plan_boundary_target(p, t));
        cr_assert(t % K || off <= DIGIT_SLACK * (double)p->N / G, "%s: GPU boundary %d accepted %.0f keys off%s", name,
                  t, off, lab_todo_note());
    }
    for (int t = 0; t < DIGIT_TOPS; t++) { /* a top byte's first and last key: one bucket, its own */
        const unsigned int lo = (unsigned int)t << 24, hi = lo | 0xFFFFFFu;
        const int b = plan_bucket_of(lo, 0, p->split_key, p->split_pos, B - 1);
        cr_assert(b == plan_bucket_of(hi, UINT64_MAX, p->split_key, p->split_pos, B - 1) &&
                      t >= first[b] / DIGIT_PER_TOP && t < first[b + 1] / DIGIT_PER_TOP,
                  "%s: top byte %d split across buckets, or cut into bucket %d of top bytes [%d, %d)%s", name, t, b,
                  first[b] / DIGIT_PER_TOP, first[b + 1] / DIGIT_PER_TOP, lab_todo_note());
    }
    for (int s = 0; s < G; s++)
        for (int b = 0; b < B; b++) {
            uint64_t want = 0;
            for (int t = first[b] / DIGIT_PER_TOP; t < first[b + 1] / DIGIT_PER_TOP; t++)
                want += digit_top_keys(bins, s, t);
            cr_assert_eq(p->counts[(size_t)s * B + b], want, "%s: rank %d's count of bucket %d is %llu, not %llu", name,
                         s, b, (unsigned long long)p->counts[(size_t)s * B + b], (unsigned long long)want);
        }
}

/* Thin random bins, one to three chunks a GPU: every plan as digit_check_plan says. */
Test(digit, edges_sit_on_top_bytes_and_count_exactly)
{
    for (int G = 2; G <= 4; G++)
        for (int K = 1; K <= 3; K++)
            for (int i = 0; i < LAB_TEST_NSEEDS; i++) {
                char name[120];
                snprintf(name, sizeof name, "G=%d chunks=%d seed=%llu", G, K, (unsigned long long)lab_test_seeds[i]);
                ss_plan p;
                int first[PLAN_MAX_BUCKETS + 1];
                unsigned int *bins = digit_plan(&p, G, K, lab_test_seeds[i], first, name);
                digit_check_plan(&p, bins, first, name);
                free(bins);
                plan_free(&p);
            }
}

/* One heavy top byte (2000 keys a bin a rank) across the GPUs' boundary: no
 * top-byte edge lies within the slack of its target, so digit_edges refuses
 * and leaves first_bin (poisoned here), the splitters and the counts as they were. */
Test(digit, edges_that_move_too_far_are_refused_and_nothing_changes)
{
    const int G = 2, K = 2, B = G * K, heavy = 128;
    for (int i = 0; i < LAB_TEST_NSEEDS; i++) {
        int64_t N;
        unsigned int *bins = digit_bins(G, lab_test_seeds[i], &N);
        for (int s = 0; s < G; s++)
            for (int e = heavy * DIGIT_PER_TOP; e < (heavy + 1) * DIGIT_PER_TOP; e++) {
                bins[(size_t)s * PLAN_BINS + e] += 2000;
                N += 2000;
            }
        ss_plan p;
        cr_assert_null(plan_init(&p, N, G, K, 4096, 1.0));
        int first[PLAN_MAX_BUCKETS + 1], before[PLAN_MAX_BUCKETS + 1];
        cr_assert(plan_bin_splitters(&p, bins, 0.1, first), "seed=%llu: bins of 4000 keys within 10 %% of N / G",
                  (unsigned long long)lab_test_seeds[i]);
        for (int e = 0; e <= DIGIT_TOPS; e++) /* no top-byte edge near the GPUs' boundary */
            cr_assert(fabs(digit_keys_below(bins, G, e) - plan_boundary_target(&p, K)) > DIGIT_SLACK * (double)N / G,
                      "seed=%llu: the test's heavy top byte left edge %d near the GPUs' boundary",
                      (unsigned long long)lab_test_seeds[i], e);
        unsigned int key[PLAN_MAX_BUCKETS];
        uint64_t pos[PLAN_MAX_BUCKETS], counts[PLAN_MAX_BUCKETS];
        for (int t = 0; t <= B; t++)
            first[t] = before[t] = -7 - t; /* poison: a refusal writes no edge */
        memcpy(key, p.split_key, sizeof(unsigned int) * (B - 1));
        memcpy(pos, p.split_pos, sizeof(uint64_t) * (B - 1));
        memcpy(counts, p.counts, sizeof(uint64_t) * G * B);
        cr_assert(!digit_edges(&p, bins, DIGIT_SLACK, first), "seed=%llu: accepted a GPU boundary past the slack%s",
                  (unsigned long long)lab_test_seeds[i], lab_todo_note());
        cr_assert(memcmp(before, first, sizeof(int) * (B + 1)) == 0 &&
                      memcmp(key, p.split_key, sizeof(unsigned int) * (B - 1)) == 0 &&
                      memcmp(pos, p.split_pos, sizeof(uint64_t) * (B - 1)) == 0 &&
                      memcmp(counts, p.counts, sizeof(uint64_t) * G * B) == 0,
                  "seed=%llu: refused, but the edges, splitters or counts changed%s",
                  (unsigned long long)lab_test_seeds[i], lab_todo_note());
        free(bins);
        plan_free(&p);
    }
}

/* Sender s's keys of top byte t go to send_off[b] (made up here, some
 * negative as round 0 direct's are) plus its keys of b's top bytes before t;
 * b's top bytes fill exactly its count. */
Test(digit, a_senders_top_bytes_follow_each_other_in_their_bucket)
{
    for (int G = 2; G <= 4; G++)
        for (int i = 0; i < LAB_TEST_NSEEDS; i++) {
            const int K = 2, B = G * K;
            char name[120];
            snprintf(name, sizeof name, "G=%d chunks=%d seed=%llu", G, K, (unsigned long long)lab_test_seeds[i]);
            ss_plan p;
            int first[PLAN_MAX_BUCKETS + 1];
            unsigned int *bins = digit_plan(&p, G, K, lab_test_seeds[i], first, name);
            for (int s = 0; s < G; s++) {
                int64_t send_off[PLAN_MAX_BUCKETS], dst[DIGIT_TOPS];
                for (int b = 0; b < B; b++)
                    send_off[b] = (b % 2 ? -1 : 1) * 1000003LL * (b + 1) + 17 * s;
                for (int t = 0; t < DIGIT_TOPS; t++)
                    dst[t] = INT64_MIN;
                digit_split_offsets(&p, bins, s, first, send_off, dst);
                for (int b = 0; b < B; b++) {
                    const int t_lo = first[b] / DIGIT_PER_TOP, t_hi = first[b + 1] / DIGIT_PER_TOP;
                    cr_assert(t_lo == t_hi || dst[t_lo] == send_off[b],
                              "%s: rank %d's first top byte %d of bucket %d at %lld, not its bucket's %lld%s", name, s,
                              t_lo, b, (long long)dst[t_lo], (long long)send_off[b], lab_todo_note());
                    int64_t at = send_off[b];
                    for (int t = t_lo; t < t_hi; t++) {
                        cr_assert_eq(dst[t], at, "%s: rank %d's top byte %d (bucket %d) at %lld, expected %lld%s", name,
                                     s, t, b, (long long)dst[t], (long long)at, lab_todo_note());
                        at += (int64_t)digit_top_keys(bins, s, t);
                    }
                    cr_assert_eq((uint64_t)(at - send_off[b]), p.counts[(size_t)s * B + b],
                                 "%s: rank %d's top bytes of bucket %d hold %lld keys, its count %llu", name, s, b,
                                 (long long)(at - send_off[b]), (unsigned long long)p.counts[(size_t)s * B + b]);
                }
            }
            free(bins);
            plan_free(&p);
        }
}

/* Each chunk's tables, tile 7 (short tiles everywhere): A, G ranges a top
 * byte (top-byte-major, then sender), each at its sender's piece plus that
 * sender's keys of the top bytes before, tiles numbered on, an empty range
 * none, and every range's chain starting at its top byte's first tile; B, a
 * range a top byte where the first pass put it; seg_out, where each starts. */
Test(digit, a_chunks_ranges_chain_within_their_top_byte)
{
    const unsigned int tile = 7;
    int empty = 0, short_tiles = 0, late_first = 0;
    for (int G = 2; G <= 4; G++)
        for (int i = 0; i < LAB_TEST_NSEEDS; i++) {
            const int K = G < 4 ? 2 : 3, B = G * K;
            ss_plan p;
            int first[PLAN_MAX_BUCKETS + 1];
            char name[160];
            snprintf(name, sizeof name, "G=%d chunks=%d seed=%llu", G, K, (unsigned long long)lab_test_seeds[i]);
            unsigned int *bins = digit_plan(&p, G, K, lab_test_seeds[i], first, name);
            for (int b = 0; b < B; b++) {
                const int t_lo = first[b] / DIGIT_PER_TOP, t_hi = first[b + 1] / DIGIT_PER_TOP, S = t_hi - t_lo;
                int64_t piece_at[4], next[4], chunk = 0;
                for (int s = 0; s < G; s++) { /* in rank order, 5 keys apart: in_at must follow piece_at */
                    piece_at[s] = next[s] = 3 + chunk + 5 * s;
                    chunk += (int64_t)p.counts[(size_t)s * B + b];
                }
                digit_ranges A = digit_ranges_alloc(G * S), T = digit_ranges_alloc(S);
                unsigned int seg_out[DIGIT_TOPS + 1], tiles = 0, tiles_b = 0, out = 0;
                digit_chunk_ranges(bins, G, t_lo, t_hi, piece_at, tile, &A, &T, seg_out);
                cr_assert(A.ranges == G * S && T.ranges == S, "%s: bucket %d: %d and %d ranges for %d top bytes", name,
                          b, A.ranges, T.ranges, S);
                for (int t = t_lo; t < t_hi; t++) {
                    const int seg = t - t_lo, r0 = seg * G;
                    unsigned int total = 0;
                    cr_assert_eq(seg_out[seg], out, "%s: bucket %d: top byte %d starts at %u, not %u", name, b, t,
                                 seg_out[seg], out);
                    for (int s = 0; s < G; s++) {
                        const int r = r0 + s;
                        const unsigned int n = (unsigned int)digit_top_keys(bins, s, t);
                        cr_assert(A.seg[r] == (unsigned int)seg && A.len[r] == n && A.in_at[r] == next[s] &&
                                      A.tile_at[r] == tiles,
                                  "%s: bucket %d, top byte %d, sender %d: range (seg %u, %u keys at %u, tile %u), "
                                  "expected (%d, %u at %lld, %u)%s",
                                  name, b, t, s, A.seg[r], A.len[r], A.in_at[r], A.tile_at[r], seg, n,
                                  (long long)next[s], tiles, lab_todo_note());
                        cr_assert_eq(A.first[r], A.tile_at[r0],
                                     "%s: bucket %d, top byte %d, sender %d: its chain starts at tile %u, its top "
                                     "byte's first tile is %u%s",
                                     name, b, t, s, A.first[r], A.tile_at[r0], lab_todo_note());
                        late_first += s > 0 && n > 0 && A.tile_at[r] == A.tile_at[r0] && A.len[r0] == 0;
                        empty += n == 0, short_tiles += n % tile != 0;
                        tiles += (n + tile - 1) / tile, next[s] += n, total += n;
                    }
                    cr_assert(T.seg[seg] == (unsigned int)seg && T.in_at[seg] == seg_out[seg] && T.len[seg] == total &&
                                  T.tile_at[seg] == tiles_b && T.first[seg] == tiles_b,
                              "%s: bucket %d, top byte %d: the later passes' range (seg %u, %u keys at %u, tile %u, "
                              "first %u), expected (%d, %u at %u, %u, %u)",
                              name, b, t, T.seg[seg], T.len[seg], T.in_at[seg], T.tile_at[seg], T.first[seg], seg,
                              total, seg_out[seg], tiles_b, tiles_b);
                    tiles_b += (total + tile - 1) / tile, out += total;
                }
                cr_assert(A.tiles == tiles && A.tile_at[A.ranges] == tiles && T.tiles == tiles_b &&
                              T.tile_at[T.ranges] == tiles_b,
                          "%s: bucket %d: %u and %u tiles, expected %u and %u", name, b, A.tiles, T.tiles, tiles,
                          tiles_b);
                cr_assert(seg_out[S] == out && out == (unsigned int)chunk,
                          "%s: bucket %d: the sorted chunk ends at %u, its keys %lld", name, b, seg_out[S],
                          (long long)chunk);
                digit_ranges_free(&A), digit_ranges_free(&T);
            }
            free(bins);
            plan_free(&p);
        }
    cr_assert(empty > 0 && short_tiles > 0 && late_first > 0,
              "the test's bins made %d empty ranges, %d short tiles, %d chains begun by a second sender", empty,
              short_tiles, late_first);
}

/* A sort takes the split by the top byte only where its places fit: every
 * chunk (bucket, over all senders) at most 2^31 - 1 keys, as step 7's 31-bit
 * prefixes hold, and every share at most DIGIT_MAX_SHARE (32-bit tile places). */
Test(digit, a_sort_takes_it_only_where_its_chunks_fit)
{
    ss_plan p;
    const uint64_t E = 1ULL << 29; /* 2^32 keys on two GPUs, two chunks each: 2^29 a sender and bucket */
    cr_assert_null(plan_init(&p, 1LL << 32, 2, 2, 1, 1.0));
    const uint64_t even[8] = {E, E, E, E, E, E, E, E}; /* [sender][bucket] */
    plan_set_counts(&p, even);
    cr_assert(digit_fits(&p), "2^32 keys on two GPUs, four chunks of 2^30: they fit");
    const uint64_t most[8] = {2 * E, E, E, 0, 2 * E - 1, E + 1, E, 0};
    plan_set_counts(&p, most);
    cr_assert(digit_fits(&p), "bucket 0 holds 2^31 - 1 keys over both senders: the most a chunk may");
    const uint64_t over[8] = {2 * E, E, E, 0, 2 * E, E, E, 0};
    plan_set_counts(&p, over);
    cr_assert(!digit_fits(&p), "bucket 0 holds 2^31 keys over both senders: past 2^31 - 1");
    plan_free(&p);
    for (int extra = 0; extra <= 1; extra++) { /* eight chunks a GPU, about 2^29 keys each: only the share is past */
        const uint64_t share = (uint64_t)DIGIT_MAX_SHARE + (uint64_t)extra, piece = share / 16;
        uint64_t spread[2 * 16]; /* [sender][bucket]: 2 GPUs x 8 chunks = 16 buckets */
        for (int k = 0; k < 2 * 16; k++)
            spread[k] = k % 16 == 15 ? share - 15 * piece : piece;
        cr_assert_null(plan_init(&p, 2 * (int64_t)share, 2, 8, 1, 1.0));
        plan_set_counts(&p, spread);
        cr_assert(digit_fits(&p) == !extra, "shares of DIGIT_MAX_SHARE%s keys: %s", extra ? " + 1" : "",
                  extra ? "past the split's 32-bit tile places" : "the most a share may hold");
        plan_free(&p);
    }
    plan_free(&p);
}
