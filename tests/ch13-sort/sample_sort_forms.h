/* sample_sort_forms.h - the GPU tests of tests/ch13-sort/sample_sort.c that
 * run ./run itself, in every launch form: `--ranks G`, `--gpus 1`, `mpirun
 * -np 1`, and on a machine with several GPUs `--gpus G`, `mpirun -np G`, and
 * `mpirun -np G` over NCCL's network transport (as between nodes); a lost
 * message and a stalled peer stopped, not hung. Each is skipped with its
 * reason where ./run was not built beside the suite, or mpirun, MPI or a
 * second GPU is missing. Included once, at the end of sample_sort.c (STEP,
 * its descriptor, is defined there). */

static void expect_run_passes(const char *launcher, const char *args)
{
    const char *run = lab_test_need_run();
    char cmd[4800], out[8192];
    snprintf(cmd, sizeof cmd, "NCCL_NVLS_ENABLE=0 %s %s %s 2>&1", launcher, run, args);
    const int rc = lab_test_command(cmd, out, sizeof out);
    cr_assert_eq(rc, 0, "%s: exit %d, expected 0; it said:\n%s", cmd, rc, out);
    cr_assert(strstr(out, "FAIL") == NULL && strstr(out, "PASS") != NULL, "%s: said:\n%s", cmd, out);
}

GPU_TEST(sample_sort_run, ranks_on_one_gpu_every_distribution_keys_and_pairs)
{
    expect_run_passes("", "--ranks 4 -n 0,1000,2^20+3 --dist all --reps 1");
    expect_run_passes("", "--ranks 8 -n 1000,2^20+3 --dist all --reps 1 --keys-only");
    expect_run_passes("", "--gpus 1 -n 1000,2^20+3 --dist all --reps 1");
}

/* The GPUs this machine has (0 when it cannot say). */
static int gpu_count(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

/* The mpirun form's command line, or NULL (and why in *skip) when it cannot run here. */
static const char *mpirun_for(int np, char *buf, size_t len, const char **skip)
{
    char out[256], cmd[4200];
    *skip = NULL;
    if (lab_test_run_path() == NULL)
        *skip = "./run is not built beside this suite (make builds build/<step>/run with it)";
    else if (lab_test_command("command -v mpirun >/dev/null 2>&1", out, sizeof out) != 0)
        *skip = "mpirun is not on PATH: the MPI form (mpirun -np G ./run) was not run";
    else {
        snprintf(cmd, sizeof cmd, "nm %s 2>/dev/null | grep -q ' U MPI_Init'", lab_test_run_path());
        if (lab_test_command(cmd, out, sizeof out) != 0)
            *skip = "./run was built without MPI (no mpicc at build time): the MPI form was not run";
    }
    snprintf(buf, len, "mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE -np %d", np);
    return *skip == NULL ? buf : NULL;
}

/* NCCL's own exchange (a step with a policy takes it by --exchange link). */
static const char *over_nccl(void)
{
    return STEP->takes & SS_TAKES_EXCHANGE ? "--exchange link" : "";
}

/* A message that never arrives (rank 1 keeps its first round's sends back: LAB_SS_FAULT, a test's
 * fault, common/ch13-sort/sample_watch.h) must not hang the run. In one process NCCL finds the
 * unmatched receive inside its group and fails at once; between processes a receive waits for what
 * never comes, and the watchdog aborts the communicators, says so in one line and exits 1, well
 * before the outer timeout (exit 124). */
GPU_TEST(sample_sort_run, a_lost_message_stops_the_run)
{
    const char *run = lab_test_need_run();
    if (gpu_count() < 2)
        cr_skip_test("one GPU here: NCCL's exchange, which can wait forever, needs two GPUs");
    char cmd[4800], out[8192], buf[256];
    const char *fault = "LAB_SS_FAULT=lose-send NCCL_NVLS_ENABLE=0 timeout 60";
    snprintf(cmd, sizeof cmd, "%s %s --gpus 2 %s -n 2^20 --reps 1 --timeout 2 2>&1", fault, run, over_nccl());
    int rc = lab_test_command(cmd, out, sizeof out);
    cr_assert(rc != 0 && rc != 124, "%s: exit %d, expected a failure that is not a hang; it said:\n%s", cmd, rc, out);
    const char *skip, *mpirun = mpirun_for(2, buf, sizeof buf, &skip);
    if (mpirun == NULL)
        cr_skip_test("one process stopped (exit %d); %s", rc, skip);
    snprintf(cmd, sizeof cmd, "%s %s -x LAB_SS_FAULT %s %s -n 2^20 --reps 1 --timeout 2 2>&1", fault, mpirun, run,
             over_nccl());
    rc = lab_test_command(cmd, out, sizeof out);
    cr_assert(rc != 0 && rc != 124, "%s: exit %d, expected a failure that is not a hang; it said:\n%s", cmd, rc, out);
    /* NCCL pairs a peer's sends in order, so the lost one may shift the rest: the watchdog or NCCL says why */
    cr_assert(strstr(out, "did not finish within") != NULL || strstr(out, "NCCL error") != NULL,
              "%s: stopped without saying why; it said:\n%s", cmd, out);
}

/* A peer that stops (rank 1's process halts before its second sort's first round: LAB_SS_FAULT=
 * stall) leaves rank 0's exchange waiting on the GPU with nothing for NCCL to refuse: the watchdog
 * must abort the communicators, say so in one line and exit 1, long before the peer wakes (30 s)
 * or the outer timeout (exit 124). */
GPU_TEST(sample_sort_run, a_stalled_peer_is_stopped_by_the_watchdog)
{
    const char *run = lab_test_need_run();
    if (gpu_count() < 2)
        cr_skip_test("one GPU here: a peer that stops needs two GPUs, one per process");
    char cmd[4800], out[8192], buf[256];
    const char *skip, *mpirun = mpirun_for(2, buf, sizeof buf, &skip);
    if (mpirun == NULL)
        cr_skip_test("%s", skip);
    snprintf(cmd, sizeof cmd,
             "LAB_SS_FAULT=stall NCCL_NVLS_ENABLE=0 timeout 60 %s -x LAB_SS_FAULT %s -n 2^20 --reps 1 --timeout 2 2>&1",
             mpirun, run);
    const time_t t0 = time(NULL);
    const int rc = lab_test_command(cmd, out, sizeof out);
    const double took = difftime(time(NULL), t0);
    cr_assert(rc != 0 && rc != 124, "%s: exit %d, expected a failure that is not a hang; it said:\n%s", cmd, rc, out);
    cr_assert(strstr(out, "did not finish within") != NULL && strstr(out, "aborting its NCCL communicators") != NULL,
              "%s: stopped without the watchdog's line; it said:\n%s", cmd, out);
    cr_assert(took < 25, "%s: took %.0f s: the run waited for the stalled peer (30 s)", cmd, took);
}

GPU_TEST(sample_sort_run, mpirun_np_1_every_distribution_keys_and_pairs)
{
    char buf[256], out[8192], cmd[4600];
    const char *skip, *mpirun = mpirun_for(1, buf, sizeof buf, &skip);
    if (mpirun == NULL)
        cr_skip_test("%s", skip);
    expect_run_passes(mpirun, "-n 0,1000,2^20+3 --dist all --chunks 4 --reps 1");
    expect_run_passes(mpirun, "-n 1000,2^20+3 --dist all --chunks 4 --reps 1 --keys-only");
    snprintf(cmd, sizeof cmd, "%s %s -n 1000 --reps 1 2>&1", mpirun, lab_test_run_path());
    lab_test_command(cmd, out, sizeof out);
    cr_assert(strstr(out, "x 1, MPI)") != NULL, "mpirun -np 1 ./run must bootstrap NCCL through MPI; it said:\n%s",
              out);
}

/* --gpus G over every GPU here, and mpirun -np G; a step with a policy in each of its exchanges. */
GPU_TEST(sample_sort_run, every_gpu_of_this_machine_in_both_launch_forms)
{
    const int G = gpu_count();
    if (G < 2)
        cr_skip_test("one GPU here: --gpus G and mpirun -np G need two or more (--ranks runs the exchange on one)");
    char args[256], buf[256];
    snprintf(args, sizeof args, "--gpus %d -n 0,1000,2^20+3,2^24 --dist all --reps 1", G);
    expect_run_passes("", args);
    snprintf(args, sizeof args, "--gpus %d -n 2^22+1 --dist all --reps 1 --keys-only", G);
    expect_run_passes("", args);
    snprintf(args, sizeof args, "--gpus %d -n 1000,2^20+3 --dist all --reps 1 --chunks 3 %s", G, over_nccl());
    expect_run_passes("", args);
    if (STEP->takes & SS_TAKES_EXCHANGE) { /* round 0 by the copy engines too; the sample and step 9's tables */
        snprintf(args, sizeof args, "--gpus %d -n 2^22+1 --dist all --reps 1 --exchange copy --splitters sample", G);
        expect_run_passes("", args);
        snprintf(args, sizeof args, "--gpus %d -n 2^22+1 --dist all --reps 1 --split table --keys-only", G);
        expect_run_passes("", args);
    }
    const char *skip, *mpirun = mpirun_for(G, buf, sizeof buf, &skip);
    if (mpirun == NULL)
        cr_skip_test("--gpus %d passed; %s", G, skip);
    expect_run_passes(mpirun, "-n 1000,2^20+3,2^24 --dist all --reps 1");
    expect_run_passes(mpirun, "-n 2^22+1 --dist all --reps 1 --keys-only");
    if (!(STEP->takes & SS_TAKES_EXCHANGE))
        return;
    /* a step with a policy joins the processes of one node by CUDA IPC wherever one process's GPUs reach each
     * other: round 0 straight in, the later rounds by the copy engines (--exchange copy: every round), and says
     * so; a silent fall back to NCCL does not pass */
    char cmd[4800], out[8192];
    snprintf(cmd, sizeof cmd, "NCCL_NVLS_ENABLE=0 %s --gpus %d -n 2^20+3 --chunks 3 --reps 1 2>&1", lab_test_run_path(),
             G);
    lab_test_command(cmd, out, sizeof out);
    const char *want = strstr(out, "exchange=direct") != NULL ? "exchange=direct" : "exchange=nccl";
    snprintf(cmd, sizeof cmd, "NCCL_NVLS_ENABLE=0 %s %s -n 2^20+3 --chunks 3 --reps 1 2>&1", mpirun,
             lab_test_run_path());
    lab_test_command(cmd, out, sizeof out);
    cr_assert(strstr(out, "PASS") != NULL && strstr(out, want) != NULL,
              "%s: expected a pass with %s (one process's way: the processes joined by CUDA IPC where the GPUs reach "
              "each other); it said:\n%s",
              cmd, want, out);
    /* each process seeing its own GPU alone (CUDA_VISIBLE_DEVICES a process, as a batch system may bind them):
     * whether the GPUs reach each other cannot be asked there, so NCCL, and the run passes */
    snprintf(cmd, sizeof cmd,
             "NCCL_NVLS_ENABLE=0 mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE -np 1 "
             "-x CUDA_VISIBLE_DEVICES=0 %s -n 2^20+3 --reps 1 : -np 1 -x CUDA_VISIBLE_DEVICES=1 %s -n 2^20+3 --reps 1 "
             "2>&1",
             lab_test_run_path(), lab_test_run_path());
    const int rc = lab_test_command(cmd, out, sizeof out);
    cr_assert(rc == 0 && strstr(out, "PASS") != NULL && strstr(out, "FAIL") == NULL &&
                  strstr(out, "exchange=nccl") != NULL,
              "%s: exit %d, expected a pass with exchange=nccl (no GPU of the other process visible); it said:\n%s",
              cmd, rc, out);
    expect_run_passes(mpirun, "-n 1000,2^22+1 --dist all --reps 1 --chunks 3 --exchange copy --splitters sample");
    expect_run_passes(mpirun, "-n 2^22+1 --dist all --reps 1 --keys-only --chunks 3 --exchange copy");
}

/* NCCL's network transport, the path between nodes: under `mpirun -np G` with
 * NCCL's peer-to-peer and shared-memory transports off (NCCL_P2P_DISABLE=1
 * NCCL_SHM_DISABLE=1), NCCL sends through its network plugin (sockets on one
 * host, InfiniBand between nodes), as every exchange between two nodes would.
 * Every distribution, keys and pairs, each sort checked, the exchange by
 * NCCL (a step with a policy would join the processes of one node by CUDA
 * IPC, which no two nodes share); then NCCL's own log must show the ranks
 * connected over NET and never by P2P or SHM, or the runs above proved
 * nothing about that path. */
#define SS_NET_ONLY "NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1"
#define SS_NET_VARS "-x NCCL_P2P_DISABLE -x NCCL_SHM_DISABLE"

GPU_TEST(sample_sort_run, between_processes_over_the_network_transport)
{
    const int G = gpu_count();
    if (G < 2)
        cr_skip_test("one GPU here: the network transport joins two processes, one GPU each");
    char buf[256], launcher[512], cmd[4800], out[8192];
    const char *skip, *mpirun = mpirun_for(G, buf, sizeof buf, &skip);
    if (mpirun == NULL)
        cr_skip_test("%s", skip);
    snprintf(launcher, sizeof launcher, "%s %s %s", SS_NET_ONLY, mpirun, SS_NET_VARS);
    char args[256];
    snprintf(args, sizeof args, "-n 1000,2^20+3,2^24 --dist all --reps 1 %s", over_nccl());
    expect_run_passes(launcher, args);
    snprintf(args, sizeof args, "-n 2^22+1 --dist all --reps 1 --keys-only %s", over_nccl());
    expect_run_passes(launcher, args);
    /* the proof of the path: each connection NCCL made, by its transport (NCCL_DEBUG=INFO's lines) */
    snprintf(
        cmd, sizeof cmd,
        "NCCL_NVLS_ENABLE=0 NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET %s %s -x NCCL_DEBUG -x NCCL_DEBUG_SUBSYS %s "
        "-n 2^20 --reps 1 2>&1 | grep -oE 'via (NET|P2P|SHM)/[A-Za-z]+' | sort | uniq -c",
        SS_NET_ONLY, mpirun, lab_test_run_path());
    lab_test_command(cmd, out, sizeof out);
    cr_assert(strstr(out, "via NET/") != NULL, "%s: NCCL logged no connection over NET; it said:\n%s", cmd, out);
    cr_assert(strstr(out, "via P2P/") == NULL && strstr(out, "via SHM/") == NULL,
              "%s: with P2P and SHM off, a connection went another way:\n%s", cmd, out);
}
