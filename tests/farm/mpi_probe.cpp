// Started by the farm's N-task bake job in place of nothing but a check
// (tests/farm/bake_tasks_test.sh): under the bake's own srun line, MPI_Init
// joins the tasks into one MPI job, and a sum over it reaches every task.
// Prints "mpi-probe: rank R of N, ranks sum to S" from each task.
#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    std::printf("mpi-probe: rank %d of %d, ranks sum to %d\n", rank, size, sum);
    MPI_Finalize();
    return 0;
}
