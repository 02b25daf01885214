#ifndef IORATE_MPI_MPI_RUN_H
#define IORATE_MPI_MPI_RUN_H
#include <stdio.h>

/*
 * iorate-mpi run: every rank of MPI_COMM_WORLD runs the same job (targets expanded per rank),
 * the ranks set up, start together, and rank 0 prints one report of the whole run. Called
 * between MPI_Init and MPI_Finalize with argv[0] = "run"; returns the exit code, the same on
 * every rank.
 */
int mpi_cmd_run(int argc, char **argv);

/* The usage text of iorate-mpi run (needs no MPI). */
void mpi_run_usage(FILE *f);
/* The man page's SYNOPSIS and COMMANDS sections (troff), from the same table (needs no MPI). */
void mpi_man(FILE *f);

#endif
