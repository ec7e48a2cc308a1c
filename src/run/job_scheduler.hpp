#pragma once
// The one job scheduler: every job made of numbered work units (the class sweep's work items,
// a partitioned run's parts) runs through it. It deals the units to workers of one back-end:
//   threads    settings.workers threads of this process;
//   processes  settings.workers forked worker processes (util/forked_workers.hpp), for units
//              that use state global to a process (BuDDy's node table);
//   mpi        the ranks of an MPI job (run/rank_dealing.hpp: guided batches on request), each
//              running its units on settings.workers threads; rank 0 runs units too.
// Every finished unit's result (words whose meaning is the job's) goes to the job on one
// thread, the coordinator's (this process's main thread, or rank 0's), in the order they
// arrive: the job adds it to its figures there, so its state is consistent whenever it is
// asked for a checkpoint. The scheduler asks for one every checkpoint_seconds, at once when a
// stop arrives, at the end, and before a failure goes on. It prints the progress: the job's
// line, then one line per worker or rank (their spread beyond kWorkerLines).
//
// A stop (settings.should_stop, a signal) ends the dealing; running units finish or end early
// (solvers poll the stop they are given) and their results still reach the job, which
// decides whether an interrupted unit counts. A solver's exception ends the job the same way
// and is rethrown once every finished unit is added and the checkpoint taken (under MPI: the
// job's every rank ends with exit 1, rank 0 having saved its checkpoint).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "explicit/class_census.hpp"
#include "util/clock.hpp"

namespace rushhour::run {

using Words = std::vector<std::uint64_t>;

// Solves units in one worker: a thread, a forked process, one of a rank's threads.
class UnitSolver {
 public:
  virtual ~UnitSolver() = default;
  // The result of `unit` in the job's words. `stop` holds once the job stops: a long unit
  // may end early and say so in its result.
  virtual Words solve(std::uint64_t unit, const std::function<bool()>& stop) = 0;
};

struct FinishedUnit {
  std::uint64_t unit = 0;
  int worker = 0;       // the thread, process or rank that solved it
  double seconds = 0;   // its wall time
  Words result;
};

// What the job's progress line may tell, from the scheduler.
struct ProgressView {
  std::uint64_t units_done = 0;   // results received in this run
  std::uint64_t units_total = 0;  // units of this run (ScheduledJob::units)
  int ranks = 1;                  // MPI ranks (1: not under MPI)
  double elapsed = 0;             // seconds since this run's start
};

struct ScheduledJob {
  std::string name = "job";          // the progress lines' prefix ("classes")
  std::string unit_name = "units";   // "work items", "parts"
  std::vector<ItemRange> units;      // to run, dealt in this order
  // Made once in every worker, in the worker (on its thread, in the forked process, on the
  // rank); also on ranks other than 0 (run_job_rank).
  std::function<std::unique_ptr<UnitSolver>()> make_solver;
  // On the coordinator's thread, one call at a time.
  std::function<void(FinishedUnit&&)> add;
  std::function<void()> checkpoint;       // may be empty
  std::function<std::string(const ProgressView&)> progress;  // the job's progress line
};

enum class Backend { threads, processes, mpi };

struct SchedulerSettings {
  Backend backend = Backend::threads;
  int workers = 1;  // threads or processes; under MPI, threads per rank
  double progress_seconds = 30;
  double checkpoint_seconds = 300;
  // Under MPI: a rank not heard from this long (it reports every kHeartbeatSeconds at least)
  // is lost, a host or a link down; the job ends with exit 1, its finished units kept.
  double lost_rank_seconds = 60;
  std::function<bool()> should_stop;              // polled on the coordinator's thread
  std::function<void(const std::string&)> log;    // progress lines
};

// What one worker (thread, process or rank) has done, as the coordinator learns it.
struct WorkerLoad {
  std::uint64_t units = 0;
  double busy = 0;  // seconds spent in units
  double cpu = -1;  // its process's CPU seconds (ranks), < 0 if not known
  Clock::time_point heard = Clock::now();
};

struct SchedulerOutcome {
  bool stopped = false;   // a stop ended the dealing
  bool finished = false;  // every unit's result reached the job
  int ranks = 1;
  std::vector<WorkerLoad> loads;  // per thread, process or rank
};

// More workers than this: the periodic progress gives their spread, not a line each.
inline constexpr int kWorkerLines = 16;

// Runs the job (under MPI: on rank 0, inside with_mpi; the other ranks call run_job_rank).
SchedulerOutcome run_job(const ScheduledJob& job, const SchedulerSettings& settings);

#ifdef RUSHHOUR_WITH_MPI
// A rank other than 0: runs the units rank 0 deals it on settings.workers threads and sends
// their results, until rank 0 has no more or stops the job.
void run_job_rank(const std::function<std::unique_ptr<UnitSolver>()>& make_solver,
                  const SchedulerSettings& settings, int rank);
#endif

}  // namespace rushhour::run
