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
// internal to the engine, class_lines.hpp (the tables of single lines), class_rows.hpp (a work
// item's rows and row combinations), class_numbering.hpp (a class's states numbered, their
// moves and keys), class_search.hpp (a class's breadth-first search: indices and components),
// class_solver.hpp (a worker that solves the classes of one work item) and
// class_records.hpp (the records' minimal test and selection); the options in
// class_options.hpp. This
// header gives the work items and their solvers; the sweep over them (threads, checkpoints,
// resume, MPI ranks) is the run layer's (run/class_sweep.hpp).
#include <cstdint>
#include <memory>
#include <vector>

#include "board/rules.hpp"
#include "explicit/class_census.hpp"
#include "explicit/class_options.hpp"

namespace rushhour {

namespace class_engine {
struct LineTables;
}

// The path a class is solved on: state by state (ClassSearch), state by state on its exit
// row's part (a class in parts that never meet), on sets of states as bits (ClassBitSearch),
// or by the class solver (the symbolic path).
enum class ClassPath : std::uint8_t { Explicit, Parts, Bits, Symbolic };
constexpr int kClassPaths = 4;

// A class drawn from a work item (ClassEngineOptions::draw_classes_above): the configurations
// it stands for (its states, twice for a mirror pair), how often it was drawn, the CPU it took
// and its path.
struct ClassDraw {
  std::uint64_t configurations = 0;
  std::uint64_t times = 0;
  double cpu_seconds = 0;
  ClassPath path = ClassPath::Explicit;
  friend bool operator==(const ClassDraw&, const ClassDraw&) = default;
};

// What one work item adds to a sweep.
struct ItemFigures {
  ClassSweepState delta;    // the item's own state (add_sweep); a refused item lists itself
  ClusterRecords clusters;  // with options.on_clusters: its records (minimal ones with minimal_clusters)
  // With options.measure_class_sizes: its classes by size (ClassCensus::class_sizes), each
  // bucket's classes, states and CPU seconds; empty buckets at the end left out.
  std::vector<ClassSizeBucket> class_sizes, solver_class_sizes;
  std::uint64_t largest_class = 0;  // the most states of a class the worker has solved so far
  double cpu_seconds = 0;           // the CPU its solving took (the solving thread's), set by the job
  // With draws: the item's configurations and its classes drawn (the figures are theirs
  // alone), and the CPU of the draw's second column search, which a sweep does not make.
  std::uint64_t drawn_from = 0;
  std::vector<ClassDraw> class_draws;
  double draw_search_seconds = 0;
};

// Solves work items one at a time; one per thread.
class ItemSolver {
 public:
  virtual ~ItemSolver() = default;
  virtual ItemFigures solve(std::uint64_t item) = 0;
};

// The work items of a board (size <= kMaxClassEngineSize) and what their solvers share: the
// line tables.
class ClassItems {
 public:
  // Throws InputError for larger sizes. options.threads sets each solver's share of
  // options.max_memory; `options` must outlive the solvers.
  ClassItems(const Rules& rules, const ClassEngineOptions& options);
  ~ClassItems();
  ClassItems(const ClassItems&) = delete;
  ClassItems& operator=(const ClassItems&) = delete;

  std::uint64_t count() const { return items_; }
  // The items that hold a class within the rules' vehicle limits, as sorted ranges (every item
  // without limits); the others add nothing.
  std::vector<ItemRange> within_limits() const;
  // The items that can hold a class options.fixed_lines selects (their rows' kind sequences),
  // ascending, every wall placement's.
  std::vector<std::uint64_t> items_of_fixed_rows() const;
  // Each item's configurations within the vehicle limits, found without solving it (0 for an
  // item that holds no class, and for an item whose mirror item solves its classes: that one
  // counts them twice), so that they add up to the domain's. Thread-safe. Within vehicle
  // limits an item is sized by listing its classes: `largest_class`, if given, receives the
  // most states of a class listed (0 where none was).
  std::vector<std::uint64_t> item_sizes(const std::vector<std::uint64_t>& items, std::uint64_t* largest_class = nullptr) const;
  // A solver (thread-safe to call from any thread).
  std::unique_ptr<ItemSolver> solver() const;

 private:
  Rules rules_;
  const ClassEngineOptions& options_;
  bool wide_;
  std::unique_ptr<const class_engine::LineTables> tables_;
  std::uint64_t items_ = 0;
};

// The number of work items of the rules' board (size <= kMaxClassEngineSize).
std::uint64_t class_work_items(const Rules& rules);

// The memory a class takes per state while the engine solves it.
std::uint64_t class_bytes_per_state();

}  // namespace rushhour
