/* policy.c - ch13 step 10's policy (tuned.h): what a sort runs, from what
 * the command line asks and, where it says auto, from the problem and the
 * machine. The defaults are the fastest measured (docs/ch13-sample-sort-tuned.md,
 * docs/ch13-sample-sort-measured.md and the step's README: two H200s at 2^30
 * keys, and four). Plain C, no GPU. */
#include <stdio.h>
#include <string.h>

#include "tuned.h"

/* The first chunk's weight: its round's exchange is the wait before the
 * first sort, and the sort of it must outlast the next round's exchange;
 * best where they meet, about exchange / sort time. With round 0 direct the
 * first sort waits for no round. Two ranks, keys in four chunks, 2^30 on two
 * H200s (2026-11-28): uniform 50 % 11.20 ms, 75 % 11.17, 100 % 11.15;
 * reversed keys, whose every key crosses, 11.49, 11.34 and 11.56; Zipf 12.38
 * at 50 %, but 13.98 at 75 % (chunk 0 no longer fits part's front: round 0
 * crosses by the copy engines). Pairs in two chunks: 30 % 19.74, 50 % 19.98
 * (2026-11-26). More ranks send (G - 1) / G of a share over links their peers
 * share: 75 and 100 % measured best on four H200s. [more than two ranks][pairs] */
static const double first_weight[2][2] = {{0.5, 0.3}, {0.75, 1.0}};

/* Two processes joined by CUDA IPC (ipc.c): their copies ran slower than one process's (round 1
 * of 2^30 keys on two H100s took 3.8 ms against 2.6), so chunk 0's sort must be longer to hide
 * them. Keys 20 % 13.99 ms, 40 % 12.99, 60 % 12.63; pairs 30 % 24.79, 60 % 22.79 (one process:
 * 12.75 and 22.89). Four processes kept theirs (6.87 ms against one process's 6.77). */
#define FIRST_WEIGHT_IPC_TWO 0.6

static int asked(const char *value, const char *name)
{
    return value != NULL && strcmp(value, name) == 0;
}

int policy_asked_split(const ss_config *c)
{
    return asked(c->asked.split, "table") || asked(c->asked.split, "held");
}

/* Two GPUs, keys: four chunks. Where every key crosses (reversed keys) the exchange outlasts a
 * sort of half the keys; smaller chunks hide it. Two H200s, 2^30 keys, at 50 % (two chunks at 20 %
 * before): uniform 11.20 ms (11.37), reversed 11.49 (14.01), sorted 10.84 (10.66), few 12.24
 * (12.13), Zipf 12.38 (14.73: its fallback holds 7 splitters in registers for 8 buckets, where 4
 * held 3). Six chunks took Zipf to step 9's tables (14.71). Pairs keep two: four cost uniform pairs
 * 1.4 % on H200s (18.17 -> 18.42 ms) and 1.3 % on H100s (22.87 -> 23.17), where they are at their
 * target. Four GPUs or more: three chunks (2^30 keys on four H100s: 7.05 and 6.78 ms against 7.30
 * and 7.21 with two; 2^32 25.98 against 27.86; README). Three GPUs: the plan's default. */
#define DIGIT_CHUNKS_TWO_KEYS 4
#define DIGIT_CHUNKS_FROM_4   3

int policy_chunks(const ss_config *c)
{
    const int K = c->G == 2 ? (c->with_values ? 0 : DIGIT_CHUNKS_TWO_KEYS) : c->G >= 4 ? DIGIT_CHUNKS_FROM_4 : 0;
    if (K == 0 || policy_asked_split(c) || asked(c->asked.splitters, "sample") || K * c->G > PLAN_BIN_BUCKETS)
        return 0;
    return K;
}

const char *policy_check(const ss_config *c)
{
    const int B = c->G * c->K;
    if (asked(c->asked.split, "held") && B > SS_FEW_BUCKETS)
        return "--split held holds at most 7 splitters: at most 8 buckets (GPUs x chunks)";
    if (asked(c->asked.splitters, "bins") && B > PLAN_BIN_BUCKETS)
        return "--splitters bins takes at most 64 buckets (GPUs x chunks)";
    if (asked(c->asked.split, "digit") && (asked(c->asked.splitters, "sample") || B > PLAN_BIN_BUCKETS))
        return "--split digit puts the splitters on top-byte edges: the bins' way (--splitters bins), at most 64 "
               "buckets";
    return NULL;
}

ss_policy policy_choose(const ss_config *c, int nlocal, int peers)
{
    /* every rank in this process, or (c->node) the processes of one node joined by CUDA IPC */
    const int B = c->G * c->K, joined = c->G > 1 && (nlocal == c->G || c->node != NULL);
    ss_policy p;
    p.bins = !asked(c->asked.splitters, "sample") && B > 1 && B <= PLAN_BIN_BUCKETS;
    p.held = asked(c->asked.split, "table") || B > SS_FEW_BUCKETS ? 0 : B <= 4 ? 3 : 7;
    p.exchange = SS_EXCHANGE_LINK; /* between nodes, NCCL */
    if (joined && peers && !asked(c->asked.exchange, "link"))
        p.exchange = asked(c->asked.exchange, "copy") ? SS_EXCHANGE_COPY : SS_EXCHANGE_DIRECT;
    p.digit = !policy_asked_split(c) && p.bins; /* and, each sort, the chunks fit (digit_fits) */
    p.first = c->asked.first > 0 ? c->asked.first / 100.0 : first_weight[c->G > 2][c->with_values != 0];
    if (c->asked.first <= 0 && c->G == 2 && nlocal < c->G && p.exchange != SS_EXCHANGE_LINK)
        p.first = FIRST_WEIGHT_IPC_TWO;
    return p;
}

void policy_text(const ss_policy *p, const ss_config *c, char *buf, size_t len)
{
    static const char *const exchange[] = {"link", "copy", "direct"};
    char split[16] = "table";
    if (p->digit)
        snprintf(split, sizeof split, "digit");
    else if (p->held > 0)
        snprintf(split, sizeof split, "held%d", p->held);
    snprintf(buf, len, " splitters=%s split=%s exchange=%s first=%.0f", p->bins ? "bins" : "sample", split,
             p->exchange == SS_EXCHANGE_LINK ? (c->link == SS_LINK_NCCL ? "nccl" : "device") : exchange[p->exchange],
             100 * p->first);
}
