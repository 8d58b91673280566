# trace.awk - which kernel launches of a ./run make its first timed run, from the trace that
# launch_trace.c wrote (one "launch NAME", "memset BYTES" or "event HANDLE" line per driver call).
# common/timing.c flushes the L2 before every timed run (a memset of twice the L2 size) and
# records its start event right after it: the launches between the first two such flushes are
# the first timed run (./run --reps 2 makes at least two). A driver that times its runs itself,
# by events (ch13 step 9's phases), has no such flush: then its first event marks each run, and
# the first timed run is its second run (the first is the checked one), from that event's second
# record up to the last event recorded before its third (what follows is the next run's input).
# Prints "SKIP COUNT": the launches before that run, and the run's own; then one "kernel NAME
# LAUNCHES" line per kernel of the run, in the order they first launch. Exit 1 with the reason on
# stderr when the trace has no such run.
$1 == "launch" { kind[++n] = "launch"; what[n] = $2; next }
$1 == "memset" { kind[++n] = "memset"; what[n] = $2 + 0; next }
$1 == "event" { kind[++n] = "event"; what[n] = $2; next }
$1 == "error" { sub(/^error /, ""); print "trace: " $0 > "/dev/stderr"; failed = 1; exit 1 }
END {
    if (failed)
        exit 1
    # a flush: a memset followed at once by an event record; the flush size is the largest such
    # size that happens at least twice (a step's own memsets are smaller than twice the L2; and a
    # flush is 8 MB at least)
    for (i = 1; i < n; i++)
        if (kind[i] == "memset" && kind[i + 1] == "event")
            times[what[i]]++
    size = -1
    for (s in times)
        if (times[s] >= 2 && s + 0 >= 8388608 && s + 0 > size) # 8 MB at least: twice the smallest L2
            size = s + 0
    if (size < 0) # a single flush: one timed run only (said below)
        for (s in times)
            if (s + 0 >= 8388608 && s + 0 > size)
                size = s + 0
    if (size < 0)
        by_events()
    launches = 0
    first = second = 0
    for (i = 1; i <= n; i++) {
        if (kind[i] == "memset" && what[i] == size && i < n && kind[i + 1] == "event") {
            if (!first)
                first = i
            else if (!second)
                second = i
        }
        if (kind[i] == "launch") {
            launches++
            if (!first)
                skip++
            else if (!second)
                take(i)
        }
    }
    if (!second) {
        print "trace: only one timed run found: ./run needs --reps 2 or more here" > "/dev/stderr"
        exit 1
    }
    report()
}
function take(i) {
    count++
    if (!(what[i] in seen))
        order[++nk] = what[i]
    seen[what[i]]++
}
function report(    k) {
    if (count == 0) {
        print "trace: the timed run launched no kernel" > "/dev/stderr"
        exit 1
    }
    print skip + 0, count
    for (k = 1; k <= nk; k++)
        print "kernel", order[k], seen[order[k]]
    exit 0
}
# no L2 flush: the runs of a driver that marks each with its first event (see above)
function by_events(    i, h, rec, last, launched) {
    for (i = 1; i <= n; i++)
        if (kind[i] == "event") {
            h = what[i]
            break
        }
    if (h == "") {
        print "trace: no timed runs found (no L2 flush before them, as common/timing.c makes, and no event " \
              "that marks them): did ./run stop early?" > "/dev/stderr"
        exit 1
    }
    for (i = 1; i <= n; i++)
        if (kind[i] == "event" && what[i] == h)
            rec[++nrec] = i
    if (nrec < 3) {
        print "trace: fewer than two timed runs found (by their events): ./run needs --reps 2 or more here" > "/dev/stderr"
        exit 1
    }
    last = rec[2]
    for (i = rec[2] + 1; i < rec[3]; i++)
        if (kind[i] == "event")
            last = i
    for (i = 1; i <= last; i++)
        if (kind[i] == "launch") {
            if (i < rec[2])
                skip++
            else
                take(i)
        }
    report()
}
