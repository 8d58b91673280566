/* sample_world.h - this process's place among the processes of a sort
 * across GPUs (mpirun -np P ./run), and what they do together: join, meet,
 * combine a number, leave. Without MPI (built with no mpicc, or not launched
 * by mpirun) one process of rank 0. Included by sample_sort_driver.c alone,
 * which is compiled with MPI's flags (-DLAB_MPI) where mpicc is present. */
#ifndef LAB_SAMPLE_WORLD_H
#define LAB_SAMPLE_WORLD_H

#include <stdlib.h>

#include "sample_sort.h" /* ss_node */
#ifdef LAB_MPI
#include <mpi.h>
#endif

/* This process among all: its place in the MPI world (1 process, rank 0, when not launched by mpirun). */
typedef struct {
    int size, rank, local_rank; /* local_rank: among the processes of this node */
    int one_node;               /* every process on this node */
    int mpi;                    /* launched by mpirun: the communicator is bootstrapped through MPI */
} world;

static world world_join(int *argc, char ***argv)
{
    world w = {.size = 1, .rank = 0, .local_rank = 0, .one_node = 1, .mpi = 0};
#ifdef LAB_MPI
    if (getenv("OMPI_COMM_WORLD_SIZE") != NULL || getenv("PMI_SIZE") != NULL || getenv("PMIX_RANK") != NULL) {
        MPI_Comm node;
        MPI_Init(argc, argv);
        MPI_Comm_size(MPI_COMM_WORLD, &w.size);
        MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank, MPI_INFO_NULL, &node);
        MPI_Comm_rank(node, &w.local_rank);
        int here = 0;
        MPI_Comm_size(node, &here);
        w.one_node = here == w.size;
        MPI_Comm_free(&node);
        w.mpi = 1;
    }
#else
    (void)argc, (void)argv;
#endif
    return w;
}

static void world_leave(const world *w, int code)
{
#ifdef LAB_MPI
    if (w->mpi)
        MPI_Finalize();
#endif
    (void)w;
    exit(code);
}

static void world_barrier(const world *w)
{
#ifdef LAB_MPI
    if (w->size > 1)
        MPI_Barrier(MPI_COMM_WORLD);
#endif
    (void)w;
}

#ifdef LAB_MPI
static int world_meet(double limit_s)
{
    MPI_Request q;
    int done = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &q);
    const double start = MPI_Wtime();
    while (!done) { /* a peer that never comes must not hang this process: the caller stops the run */
        MPI_Test(&q, &done, MPI_STATUS_IGNORE);
        if (!done && MPI_Wtime() - start > limit_s)
            return 0;
    }
    return 1;
}

static void world_gather(const void *mine, void *all, size_t bytes)
{
    MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
}
#endif

/* What the processes do together on the host, for a step that joins them
 * (ss_node): under mpirun on one node, one rank a process; else NULL. */
static const ss_node *world_node(const world *w, int nlocal)
{
#ifdef LAB_MPI
    static const ss_node node = {.meet = world_meet, .gather = world_gather};
    if (w->mpi && w->size > 1 && w->one_node && nlocal == 1)
        return &node;
#endif
    (void)w, (void)nlocal;
    return NULL;
}

/* x over every process: the largest (a phase's time is the slowest rank's) or the sum. */
static double world_all(const world *w, double x, int largest)
{
#ifdef LAB_MPI
    if (w->size > 1)
        MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, largest ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
#endif
    (void)w, (void)largest;
    return x;
}

#endif
