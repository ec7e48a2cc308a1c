#pragma once
// The class engine: an explicit classification that never holds more than one small class
// of configurations at a time, so that it runs on the full 6x6 board (4·10^10 states) in a
// few hundred megabytes. Like the explicit engine it depends on board/ only.
//
// Classes. Vehicles never pass each other, so the kind sequence of every line (e.g. "car,
// truck" in a row, read left to right) never changes: the configurations with the same kind
// sequence in all 2n lines form a class that is a union of whole components. Every index
// (a shortest path stays inside its component) and every dominance figure is therefore a sum
// over classes, and each class is solved on its own: breadth-first search from its winning
// states for the indices, then one search per component for the dominance figures. A class
// also fixes the numbers of cars and trucks, so vehicle limits select classes, and the
// figures of every limit come out of one sweep (ClassCensus::classification).
//
// Work items. A work item is one choice of kind sequence per row (n = 6: 8^6 choices, those
// whose exit row ends in a car). Its row arrangements are enumerated once; a depth-first
// search over the columns' kind sequences then yields the classes of the item, keeping the
// row arrangements each column choice still admits. Items run on `threads` threads.
//
// Numbering inside a class. A state is (row combination r, one arrangement per column
// disjoint from r's horizontal vehicles). Given r, column j admits cnt_j(r) arrangements of
// its kind sequence; the state's number is offset(r) + Σ_j pos_j · stride_j(r), a mixed radix
// over those positions. A vertical move changes one digit; a horizontal move changes r and
// the radices of the columns it touches. The index of each state takes one byte. Up to 6x6 a
// column admits at most 6 arrangements, so a row combination holds < 2^16 states and its
// numbers are taken in 16-bit lanes; 7x7 and 8x8 (up to 15 arrangements, 15^8 < 2^32 states)
// take the same code with 32-bit lanes.
//
// The mirror. With the exit in the middle row (odd n, default exit row), reflecting the board
// top to bottom maps the domain onto itself and keeps every index, component and vehicle
// count; a class maps onto the class of its rows in reverse order and its columns' kind
// sequences reversed. Of each mirror pair one class is solved and counted twice (its samples
// with its mirror images'), a class that is its own mirror once.
//
// Large classes. A class needs about 22 bytes per state while it is solved here. A class above
// the memory bound, or above ClassEngineOptions::solver_above states, goes to the class
// solver when the caller gives one (ClassEngineOptions::class_solver: the run layer gives the
// BDD engine restricted to the class); its figures are then counted like those of a class
// solved here. A work item with a class that neither path can take (or whose row
// combinations would not fit the bound) is refused: it adds nothing, the sweep goes on with
// the other items, the item is listed in the sweep's state (ClassSweepState::refused), and a
// resume with a larger bound retries it.
//
// Where each part lives: sample_keys.hpp (keys and boards), class_census.hpp (a sweep's state,
// its algebra and its census), cluster_records.hpp (the puzzle database's records), and,
// internal to the engine, class_lines.hpp (the tables of single lines) and class_solver.hpp
// (a worker that solves the classes of one work item). This header and class_engine.cpp hold
// the options and the sweep over work items.
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "board/rules.hpp"
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
// is the middle row of an odd board, and options.mirror is on.
bool mirror_applies(const Rules& rules, bool mirror_option);

struct ClassProgress {
  std::uint64_t items_done = 0;
  std::uint64_t items_total = 0;
  std::uint64_t classes = 0;
  std::uint64_t states = 0;  // states of the domain classified so far
  double elapsed = 0;
};

struct ClassEngineOptions {
  int threads = 1;
  int samples_per_index = 5;  // K boards per sampled index (the K least explicit-engine keys)
  int sample_indices = 10;    // for the T highest indices
  // Benchmarks: only every k-th work item (a fixed sample of the classes); the census is then
  // not complete.
  int item_stride = 1;
  double progress_seconds = 30;  // on_progress at most this often (and once at the end)
  std::function<void(const ClassProgress&)> on_progress;
  // Polled between work items; true ends the sweep early (the census is then incomplete).
  std::function<bool()> should_stop;
  // Continue this sweep (from on_checkpoint of a run with the same rules and sample options)
  // instead of starting at the first work item.
  const ClassSweepState* resume = nullptr;
  // Called with the workers paused between items, every checkpoint_seconds and once at the
  // end (also after a stop): the state is consistent, every item before next_item is in it.
  std::function<void(const ClassSweepState&)> on_checkpoint;
  double checkpoint_seconds = 300;
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
  // Measurements: the class sizes and the CPU time per size (ClassCensus::class_sizes).
  bool measure_class_sizes = false;
  // The second path for large classes: a class of more than solver_above states, or one above
  // the memory bound, is solved by class_solver when it is set (else its item is refused).
  // The worker that meets such a class waits for it; the other workers go on.
  ClassSolver class_solver;
  std::uint64_t solver_above = std::numeric_limits<std::uint64_t>::max();
  // The puzzle database: after each work item, the records of its clusters whose highest
  // index is at least cluster_min_index, in the order the item's search met them (a class
  // counted twice for the mirror gives its records, then its images'); one call at a time,
  // made before the worker takes another item, so every item a checkpoint holds has been
  // reported. Items without such clusters are not reported. Not with sweep_work_items.
  std::function<void(std::uint64_t item, ClusterRecords&& records)> on_clusters;
  int cluster_min_index = 0;
  // Only the clusters whose canonical hardest configuration is minimal (board/search.hpp
  // is_minimal: removing any vehicle but the target lowers its index). A few searches per
  // record, on the worker threads.
  bool minimal_clusters = false;
  // The records also carry the figures of the other metric (ClusterRecord::other_*): each
  // class with records gets a second breadth-first search under it, over the same states
  // and numbering. The census stays that of the rules' metric; cluster_min_index and
  // minimal_clusters apply to the rules' metric.
  bool cluster_both_metrics = false;
};

// The number of work items of the rules' board (size <= kMaxClassEngineSize).
std::uint64_t class_work_items(const Rules& rules);

// Runs the work items that `next_item` hands out (called on the worker threads, one call at
// a time; nullopt ends the sweep) on options.threads threads, and calls `on_item` (also one
// call at a time) with each finished item's own state: a delta for add_sweep. options'
// should_stop is polled between items; resume, on_checkpoint, on_progress and item_stride
// are not used (the caller owns the set of items). Throws like classify_by_classes; a
// failure ends the sweep after the running items.
void sweep_work_items(const Rules& rules, const ClassEngineOptions& options,
                      const std::function<std::optional<std::uint64_t>()>& next_item,
                      const std::function<void(std::uint64_t item, ClassSweepState&& delta)>& on_item);

// Sweeps every class of the rules' domain (size <= kMaxClassEngineSize; its limits skip
// classes). Throws InputError for larger sizes, std::runtime_error if an index exceeds 254
// or a sum exceeds 2^64. Items with a class above the memory bound are refused (listed in
// the census, which is then incomplete).
ClassCensus classify_by_classes(const Rules& rules, const ClassEngineOptions& options = {});

}  // namespace rushhour
