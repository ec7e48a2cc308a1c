#pragma once
// The facts of the machine and of the launch that a run depends on: the cores, whether an MPI
// launcher started the process and its rank. They are read once, at start-up in app/
// (Environment::of_this_process), and reach the settings and the engines as this value, so
// that the settings are a function of the options and the environment alone (tests pass
// their own).
namespace rushhour::run {

// Whether this binary was built with its MPI mode.
bool mpi_built_in();

struct Environment {
  int cores = 1;              // hardware threads, at least 1
  bool mpi_launcher = false;  // started by an MPI launcher (mpirun, srun: their variables)
  int rank = 0;               // this process's rank as the launcher names it, 0 without one

  // Reads the hardware thread count and the launcher's environment variables.
  static Environment of_this_process();

  // A thread or worker count as asked (--threads, --part-workers): every core for 0.
  int threads_for(int requested) const { return requested != 0 ? requested : cores; }
  // Ranks other than 0 print no progress and write no result.
  bool reports() const { return rank == 0; }
};

}  // namespace rushhour::run
