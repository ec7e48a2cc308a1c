#pragma once
// A class sweep spread over processes: parts of the work items run on their own and merged
// later (job arrays, machines by hand), or one job over MPI ranks.
//
// Parts of the work items (explicit/item_parts.hpp) run on their own are merged here.
//
// MPI. Under mpirun (or srun) with MPI built in, rank 0 deals the job's missing work items in
// batches on request (run/rank_dealing.hpp: guided, at least what the rank's threads take at
// once). Every rank runs its items on its own threads and sends the state of
// its finished items to rank 0 at least every second; rank 0 also runs items on its threads,
// adds every state it receives and owns the one checkpoint (DIR/classes-checkpoint.txt,
// written atomically every checkpoint_seconds and at once on SIGTERM/SIGINT), the census and
// classification.h5. A checkpoint may hold items finished out of order; --resume with any
// number of ranks (or none) deals only the missing ones.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "board/rules.hpp"
#include "explicit/class_engine.hpp"
#include "explicit/item_parts.hpp"
#include "run/rank_dealing.hpp"

namespace rushhour::run {

struct ClassJob {
  Rules rules;
  ClassEngineOptions options;  // threads, samples, progress and checkpoint intervals
  std::filesystem::path out;   // empty: no checkpoint
  bool resume = false;
  bool over_mpi = false;       // started by an MPI launcher: the job runs over its ranks
  ItemPart part;
  std::function<void(const std::string&)> log;  // progress lines
  std::function<bool()> should_stop;            // a stop signal arrived
};

struct ClassJobResult {
  // Rank 0 only (or the one process): the job's census, complete when every item of the
  // whole job is in it. For a part, the part's state is in the checkpoint and `finished` says
  // whether every item of the part is.
  std::optional<ClassCensus> census;
  bool finished = false;
  bool stopped = false;  // a stop signal ended it early
  int ranks = 1;
  std::string checkpoint;  // rank 0: the checkpoint's path, empty without --out
};

// Runs the job: over MPI with job.over_mpi (initialising and finalising MPI), else in
// this process. Throws InputError for a checkpoint of other parameters (on rank 0; under MPI
// every rank ends), std::runtime_error on failures after saving what is finished.
ClassJobResult run_class_job(const ClassJob& job);

// `rushhour merge`: the states of finished parts 1..N of one job (their directories, in any
// order), added into one. Throws InputError naming the reason when a directory holds no part
// checkpoint, the parts belong to other parameters or other N, a part is there twice or
// missing, or a part is not finished.
struct MergedParts {
  std::string parameters;  // the whole job's parameter line
  ClassSweepState state;
};
MergedParts merge_item_parts(const std::vector<std::filesystem::path>& part_directories);

}  // namespace rushhour::run
