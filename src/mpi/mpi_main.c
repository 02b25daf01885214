/*
 * iorate-mpi: iorate's run command on every rank of an MPI job, started by mpirun, for many hosts
 * in one coordinated run (as IOR does). A separate binary so that iorate itself never loads
 * libmpi. --help and --version work without mpirun: they are answered before MPI_Init.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include "cmd/cmd.h"
#include "mpi/mpi_run.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: mpirun [mpirun options] iorate-mpi run [options] TARGET...\n\n"
		   "iorate-mpi runs one iorate job on every MPI rank and reports the whole run.\n"
		   "'iorate-mpi run --help' (and 'man iorate-mpi') lists the options; %%r and %%h\n"
		   "in targets name each rank's files. Example, on one host as root:\n"
		   "  mpirun -q --allow-run-as-root --oversubscribe -np 2 --mca btl self,vader \\\n"
		   "      iorate-mpi run --engine null --ios 100000\n");
}

static bool asks_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "-?"))
			return true;
	}
	return false;
}

int main(int argc, char **argv)
{
	int provided, rc;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* help --man: what tools/gen-man.sh makes docs/iorate-mpi.1 of. */
	if (!strcmp(argv[1], "help") && argc > 2 && !strcmp(argv[2], "--man")) {
		mpi_man(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("iorate-mpi %s (%s)\n", IORATE_VERSION, IORATE_GITREV);
		return 0;
	}
	if (strcmp(argv[1], "run"))
		return usage_error("'%s' is not a command of iorate-mpi: only 'run' is (see "
				   "'iorate-mpi --help')", argv[1]);
	if (asks_help(argc - 1, argv + 1)) {
		mpi_run_usage(stdout);
		return 0;
	}
	/* Only the runner's own thread calls MPI; the workers never do. */
	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	cmd_signals_install();
	rc = mpi_cmd_run(argc - 1, argv + 1);
	MPI_Finalize();
	return rc; /* the ranks agreed on it, signals included */
}
