#pragma once
// The class sweep as a job of the scheduler (run/job_scheduler.hpp): its units are the class
// engine's work items (explicit/class_engine.hpp), each solved into an ItemFigures and added
// to the sweep's state (add_sweep) on the coordinator, which owns the checkpoint
// (DIR/classes-checkpoint.txt), the census and the progress line. The same job runs on
// threads in one process, as part K/N of the items (explicit/item_parts.hpp; merged later by
// `rushhour merge`), or over MPI ranks (rank 0 deals batches of items, every rank runs them on
// its threads and sends each item's figures). A checkpoint may hold items finished out of
// order; --resume with any number of threads or ranks runs only the missing ones, and retries
// the items an earlier run refused for the memory bound.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "board/rules.hpp"
#include "explicit/class_engine.hpp"
#include "explicit/item_parts.hpp"
#include "run/cost_projection.hpp"

namespace rushhour::run {

struct ClassJob {
  Rules rules;
  // Threads, samples, intervals, cluster records, the class solver. options.resume: continue
  // that state (else, with `out` and `resume`, the directory's checkpoint). on_checkpoint
  // runs before the checkpoint file is written, on_progress with each progress line.
  ClassEngineOptions options;
  std::filesystem::path out;  // empty: no checkpoint file
  bool resume = false;
  bool over_mpi = false;  // started by an MPI launcher: the job runs over its ranks
  ItemPart part;
  // Non-empty: only these items of the job run (ascending; --estimate's sample).
  std::vector<std::uint64_t> only_items;
  std::function<void(const std::string&)> log;  // progress lines
  std::function<bool()> should_stop;            // a stop signal arrived
  // Benchmarks of the dealing (bench/rank0_bench.cpp): the work items' solvers, one per
  // worker on every rank (empty: the class engine's).
  std::function<std::unique_ptr<ItemSolver>()> item_solver;
};

// A digest of one work item's figures (its tallies per number of walls, cars and trucks, and
// whether it was refused; not its sample keys): what a run with a directory records of each
// finished item (storage/item_records.hpp) and `verify` compares with the item solved again.
std::uint64_t item_digest(const ClassSweepState& figures);

struct ClassJobResult {
  // Rank 0 only (or the one process): the job's census, complete when every item of the
  // whole job is in it. For a part, the part's state is in the checkpoint and `finished` says
  // whether every item of the part is.
  std::optional<ClassCensus> census;
  bool finished = false;
  bool stopped = false;  // a stop signal ended it early
  int ranks = 1;
  std::string checkpoint;  // rank 0: the checkpoint's path, empty without `out`
  // With options.record_item_costs, rank 0: each solved item's cost (refused items left out).
  std::vector<ItemCost> item_costs;
  // On one process: the process's CPU while the scheduler ran the items (solving them, and
  // handing each from its worker to the job).
  double scheduling_cpu_seconds = 0;
};

// The words that carry one work item's figures from the worker (thread, process or rank)
// that solved it to the coordinator; decode_item throws std::runtime_error on words that are
// no item's.
std::vector<std::uint64_t> encode_item(const ItemFigures& figures);
ItemFigures decode_item(const std::vector<std::uint64_t>& words);

// Runs the job: over MPI with job.over_mpi (initialising and finalising MPI), else on the
// threads of this process. Throws InputError for a checkpoint of other parameters (on rank
// 0; under MPI every rank ends), std::runtime_error on failures after saving what is
// finished. With a work sample (options.item_stride k > 1) only every k-th item (within the
// vehicle limits) runs, and the census is incomplete.
ClassJobResult run_class_job(const ClassJob& job);

// The state a resumed job starts from: the directory's checkpoint of the job's parameters,
// or nullopt when there is none (logged). Throws InputError if the checkpoint is of other
// parameters or unreadable.
std::optional<ClassSweepState> class_sweep_to_resume(const ClassJob& job);

// The class sweep of the rules on options.threads threads of this process, without a
// directory (tests, benchmarks). A stopped sweep's census is incomplete.
ClassCensus classify_by_classes(const Rules& rules, const ClassEngineOptions& options = {});

}  // namespace rushhour::run
