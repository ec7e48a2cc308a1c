#pragma once
// The class engine's options and the class solver's interface (explicit/class_engine.hpp):
// what a caller sets, and what the solver of one work item (class_solver.hpp) reads.
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

#include "board/rules.hpp"
#include "board/search.hpp"
#include "explicit/class_census.hpp"
#include "explicit/cluster_records.hpp"
#include "explicit/sample_keys.hpp"

namespace rushhour {

// The highest index a class sweep stores (one byte per state, one value kept for "unreached").
inline constexpr int kMaxClusterIndex = 254;

// A class handed to a solver outside the engine (ClassEngineOptions::class_solver).
struct ClassLines {
  // The kind sequence of every line, rows 0..n-1 then columns 0..n-1: the lengths (kCar,
  // kTruck) of its vehicles, left to right or top to bottom.
  std::vector<std::vector<int>> sequences;
  std::uint64_t states = 0;     // the class's configurations, as the engine counts them
  bool with_mirror = false;     // counted for its mirror image too: least_mirror_keys wanted
  std::uint64_t max_bytes = 0;  // the memory the solver may take for it (0: no bound)
};

// What the engine needs of one class, in its own terms.
struct ClassFigures {
  std::uint64_t states = 0;                 // configurations of the class
  std::vector<std::uint64_t> count;         // per index, 0 to the class's highest
  std::vector<std::uint64_t> nondominated;  // per index
  std::vector<std::uint64_t> components;    // per index (solvable components)
  // Per index, for the sample_indices highest indices of the class (empty below): the
  // samples_per_index least keys of its states, ascending; with ClassLines::with_mirror also
  // the keys of the samples_per_index states whose mirror images have the least keys.
  std::vector<std::vector<SampleKey>> least_keys, least_mirror_keys;
};

// Solves one class; nullopt if it cannot (too large for max_bytes, or stopped): the work
// item is then refused. Called from every worker thread.
using ClassSolver = std::function<std::optional<ClassFigures>(const ClassLines&)>;

// True if the sweep of these rules solves only one class of each mirror pair: the exit row
// is the middle row of an odd board, there are no walls (a class's mirror image would lie in
// another wall placement's items), and options.mirror is on.
inline bool mirror_applies(const Rules& rules, bool mirror_option) {
  return mirror_option && rules.size() % 2 == 1 && rules.exit_row() == rules.size() / 2 && rules.walls().none();
}

struct ClassProgress {
  std::uint64_t items_done = 0;
  std::uint64_t items_total = 0;
  std::uint64_t classes = 0;
  std::uint64_t states = 0;  // states of the domain classified so far
  double elapsed = 0;
};

// The solver's options, and those of the sweep over work items (run/class_sweep.hpp: threads,
// the work sample, progress, stop, resume and checkpoints), which the solver does not read.
struct ClassEngineOptions {
  int threads = 1;
  int samples_per_index = 5;  // K boards per sampled index (the K least explicit-engine keys)
  int sample_indices = 10;    // for the T highest indices
  // Benchmarks: only every k-th work item (a fixed sample of the classes); the census is then
  // not complete.
  int item_stride = 1;
  double progress_seconds = 30;  // on_progress at most this often (and once at the end)
  std::function<void(const ClassProgress&)> on_progress;
  // Polled by the sweep; true ends it early (the census is then incomplete).
  std::function<bool()> should_stop;
  // Continue this sweep (from on_checkpoint of a run with the same rules and sample options)
  // instead of starting at the first work item.
  const ClassSweepState* resume = nullptr;
  // Called with the sweep's state (the items finished so far, in or out of order) every
  // checkpoint_seconds, at once on a stop, and once at the end.
  std::function<void(const ClassSweepState&)> on_checkpoint;
  double checkpoint_seconds = 300;
  // Under MPI: a rank not heard from this long is lost (run/job_scheduler.hpp).
  double lost_rank_seconds = 60;
  // Solve one class of each mirror pair where the mirror applies (mirror_applies).
  bool mirror = true;
  // Memory for the classes being solved, all threads together, in bytes (0: half the
  // physical memory). A class that needs more than its thread's share goes to class_solver
  // (with the share as its ClassLines::max_bytes); a work item with a class neither takes is
  // refused (ClassSweepState::refused).
  std::uint64_t max_memory = 0;
  // Tests: the bound in states of one class instead (0: from max_memory).
  std::uint64_t max_class_states = 0;
  // Tests: the numbering of 7x7 and 8x8 (32-bit lanes) also on smaller boards.
  bool wide_numbering = false;
  // A class whose lines fall into parts that never meet is solved on its exit row's part
  // alone, its figures multiplied by the other parts' states and components (not with
  // on_clusters, whose records are per component). Tests: false solves every class whole.
  bool split_classes = true;
  // Measurements: the class sizes and the CPU time per size (ClassCensus::class_sizes).
  bool measure_class_sizes = false;
  // --estimate: each solved item's configurations and CPU (ClassJobResult::item_costs).
  bool record_item_costs = false;
  // --estimate on boards whose items are too heavy to solve whole (7x7: up to 10^11
  // configurations an item): an item of more configurations than this has only
  // `classes_drawn` of its classes solved, drawn with replacement with probabilities
  // proportional to their configurations (seeded by class_draw_seed and the item), and says
  // what each took (ItemFigures::class_draws). Its figures are then a part of the item's.
  // 0: every class solved.
  std::uint64_t draw_classes_above = 0;
  int classes_drawn = 4;
  std::uint64_t class_draw_seed = 1;
  // A class of at least bit_search_above states, and of at least bit_search_per_combination
  // states per row combination, that the engine solves itself and whose lines do not fall
  // into parts is searched on sets of states as bits (class_bit_search.hpp) rather than state
  // by state. The bit sets pay where a row combination holds many states (one word of 64 bits
  // spans many): on 7x7 classes of 32 states a combination or more they took 0.39-0.9 of the
  // CPU, on those of fewer than 24 up to 3 times more (perf-log §48). Not with on_clusters.
  std::uint64_t bit_search_above = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t bit_search_per_combination = 0;
  // After an item of at least this many row combinations, or one with a class of at least
  // this many states, a thread gives its arrays back (an item that size takes a tenth of a
  // second or more), so that the largest arrays of different items do not add up; 0: after
  // every item.
  std::uint64_t release_after_combos = std::uint64_t{1} << 17;
  std::uint64_t release_after_states = std::uint64_t{1} << 18;
  // The second path for large classes: a class of more than solver_above states that the bit
  // sets do not take, or one above the memory bound, is solved by class_solver when it is set
  // (else its item is refused). The bit sets take a dense class at any size the memory bound
  // holds: the 7x7 projection is 0.93 of what it is with those classes symbolic (perf-log §50).
  // The worker that meets such a class waits for it; the other workers go on.
  ClassSolver class_solver;
  std::uint64_t solver_above = std::numeric_limits<std::uint64_t>::max();
  // The puzzle database: after each work item, the records of its clusters whose highest
  // index is at least cluster_min_index, in the order the item's search met them (a class
  // counted twice for the mirror gives its records, then its images'); one call at a time,
  // made as the item is added to the sweep's state, so every item a checkpoint holds has been
  // reported. Items without such clusters are not reported.
  std::function<void(std::uint64_t item, ClusterRecords&& records)> on_clusters;
  int cluster_min_index = 0;
  // Only the minimal clusters (board/search.hpp minimal_choice under minimal_rule: removing any
  // piece but the target lowers the index of one of its hardest configurations, the least such
  // listed; or of the public database's representative). A few searches per record, on the
  // worker threads.
  bool minimal_clusters = false;
  MinimalRule minimal_rule = MinimalRule::Any;
  // Every cluster is tested under each of these rules, whatever cluster_min_index, and the
  // minimal ones are counted per highest index in the item's figures (VehicleTally::minimal);
  // the records reported are those from cluster_min_index on (only the minimal ones under
  // minimal_rule with minimal_clusters). A sweep whose database would be too large to keep
  // between stops keeps its minimal counts in its checkpoint instead. A cluster minimal under
  // the public or the canonical rule is minimal under any: with any among them, the others
  // test only the clusters minimal under any.
  std::vector<MinimalRule> minimal_counts;
  // The records also carry the figures of the other metric (ClusterRecord::other_*): each
  // class with records gets a second breadth-first search under it, over the same states
  // and numbering. The census stays that of the rules' metric; cluster_min_index and
  // minimal_clusters apply to the rules' metric.
  bool cluster_both_metrics = false;
  // Only the classes whose lines have these kind sequences (vehicle lengths along the line;
  // entry l for line l: rows 0..n-1, then columns; nullopt or a missing entry: any), e.g. a
  // part of a partitioned run recomputed (ClassItems::items_with_rows lists its items). The
  // mirror must be off (a class's mirror image has other kind sequences).
  std::vector<std::optional<std::vector<int>>> fixed_lines;
};

}  // namespace rushhour
