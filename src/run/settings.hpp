#pragma once
// The settings of a classification run, in groups: common to every engine, the symbolic
// engine's, the class sweep's. Options enter as text in app/, are parsed and checked here
// once, and reach the engines as typed values. An option that the chosen engine does not use
// is refused here (InputError, exit 2), never silently ignored.
#include <boost/program_options.hpp>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>

#include "bdd/session.hpp"
#include "board/rules.hpp"
#include "encoding/encoding_factory.hpp"
#include "explicit/class_engine.hpp"
#include "explicit/explicit_engine.hpp"
#include "retrograde/retrograde.hpp"
#include "explicit/item_parts.hpp"
#include "run/environment.hpp"

namespace rushhour::run {

enum class EngineKind { Symbolic, Explicit, Classes };

std::string to_string(EngineKind engine);      // "bdd", "explicit", "classes"
// Throws InputError naming the choices.
EngineKind parse_engine(const std::string& text);

// What every engine honours.
struct CommonSettings {
  Rules rules;
  std::filesystem::path out{};  // the run directory; empty = none
  bool resume = false;
  bool dominance = true;        // the dominance figures at all
  int samples_per_index = 5;
  int sample_indices = 10;
  bool quiet = false;
  std::string log_file{};
  std::string configuration{};  // the effective options, "key = value" per line
  // --rank-timeout: under MPI, a rank silent this long is lost
  double lost_rank_seconds = ClassEngineOptions{}.lost_rank_seconds;

  void check(EngineKind engine) const;
};

// The BDD engine: encoding, BuDDy, layers and the symbolic dominance pass.
struct SymbolicSettings {
  EncodingKind encoding = EncodingKind::Slot;
  SlotEncodingOptions slot{};
  CellEncodingOptions cell{};
  BddSettings bdd{};
  int dominance_indices = -1;            // resolved: -1 = all
  std::int64_t dominance_components = -1;
  int components_from = 0;  // --dominance-components-from: components only for indices >= I
  int dominance_stop = -1;
  int max_layers = -1;
  Frontiers frontiers = Frontiers::Auto;
  // The dominance figures from a class sweep after the layers instead of the symbolic pass.
  bool dominance_by_classes = false;
  // The domain cut into parts by line kind sequences (encoding/line_partition.hpp), each
  // classified on its own (run/partitioned_run.hpp); "none" = the whole domain at once.
  std::string partition = "none";
  int part_stride = 1;  // --part-sample: classify only every K-th part (a benchmark)
  int part_workers = 1;  // --part-workers: processes classifying parts at once
  int whole_layers = 0;  // --whole-layers: layers computed on the whole domain before the parts
  // --part-files: with --out, a file per finished part with its layers (queryable), or only
  // the finished parts' summed figures in one checkpoint (storage/parts_checkpoint.hpp).
  bool part_layers = true;
  double checkpoint_seconds = ClassEngineOptions{}.checkpoint_seconds;  // with !part_layers

  bool partitioned() const { return partition != "none"; }

  void check(const CommonSettings& common) const;
  // The driver's options (callbacks left empty).
  RetrogradeOptions retrograde(const CommonSettings& common) const;
};

// --symbolic-above bound: only the classes above the memory bound.
inline constexpr std::uint64_t kSymbolicAboveBound = std::numeric_limits<std::uint64_t>::max();
// --symbolic-above auto on 7x7 and 8x8: the classes of more than 2^22 states. On the 7x7
// projection's classes, drawn by size, the explicit path cost less up to there (perf-log §38);
// an explicit class of 2^22 states holds 92 MB.
inline constexpr std::uint64_t kSymbolicAboveLargeBoards = std::uint64_t{1} << 22;

// The threshold --symbolic-above auto stands for on a board of this size: bound up to 6x6,
// whose classes stay far below it (the largest 6x6 class has 43 352 states), so that a sweep
// there does not pay for looking for large classes (results/7x7/bench-6x6-symbolic.md);
// kSymbolicAboveLargeBoards from 7x7 on.
std::uint64_t automatic_symbolic_above(int size);

// "auto" (nullopt), "bound" or a number of states. Throws InputError.
std::optional<std::uint64_t> parse_symbolic_above(const std::string& text);

// --bit-search-above: which classes a class sweep searches on bit sets
// (explicit/class_bit_search.hpp): those of at least `states` states and `per_combination`
// states per row combination.
struct BitSearchRule {
  std::uint64_t states = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t per_combination = 0;
  friend bool operator==(const BitSearchRule&, const BitSearchRule&) = default;
};
// auto: classes of 2^14 states or more whose row combinations hold on average 32 states or
// more under steps, 64 or more under moves. On the 7x7 projection's classes of 2^14 states and
// more the bit sets took 0.30-0.79 of the state-by-state search's CPU under steps from 32
// states a combination on and 0.99-2.7 times it below; under moves (more slides a row
// combination to table) 0.63-1.01 from 48 on and 1.2-3.4 times it below (perf-log §48, §51).
// A 6x6 combination holds 3.3 states on average.
BitSearchRule automatic_bit_search(Metric metric);

// "auto" (nullopt: automatic_bit_search), "never" or a number of states K (every class of at
// least K). Throws InputError.
std::optional<BitSearchRule> parse_bit_search_above(const std::string& text);

// A class sweep: the classes engine, or the dominance figures of the bdd engine.

struct ClassSweepSettings {
  int threads = 1;          // resolved: never 0
  int item_stride = 1;      // --work-sample
  bool estimate = false;    // --estimate: a stratified sample of items, then the job's projected cost
  int estimate_items = 128;       // --estimate-items: about this many items solved
  std::uint64_t estimate_seed = 1;  // --estimate-seed
  // With --estimate, the job's configurations (counted once: a 7x7 puzzle count takes seconds).
  Count estimate_configurations = 0;
  double checkpoint_seconds = ClassEngineOptions{}.checkpoint_seconds;
  ItemPart part{};          // --items K/N (run/distributed)
  bool mirror = true;            // not --no-mirror
  std::uint64_t max_memory = 0;  // --max-memory: for the classes being solved (0: half of RAM)
  // --symbolic-above: classes of more states go to the symbolic path (run/symbolic_class.hpp);
  // so do classes above the memory bound, whatever it says. nullopt: auto, by board size.
  std::optional<std::uint64_t> symbolic_above;
  std::optional<BitSearchRule> bit_search;  // --bit-search-above (unset: auto)
  // The puzzle database (storage/cluster_database.hpp): empty = none.
  std::filesystem::path clusters{};
  std::filesystem::path clusters_text{};
  int cluster_min_index = 0;
  bool cluster_minimal = false;  // --minimal
  MinimalRule minimal_rule = MinimalRule::Any;  // --minimal-rule
  std::vector<MinimalRule> minimal_counts;  // --minimal-counts: the rules every cluster is tested under
  bool cluster_both_metrics = false;  // --clusters-metrics both: step and move figures in every record

  // `out`: the run directory (--out), where the database may be written though it is not made yet.
  void check(const Environment& environment, const std::filesystem::path& out) const;
  // The engine's options (callbacks left empty).
  ClassEngineOptions engine_options(const CommonSettings& common) const;
};

struct RunSettings {
  EngineKind engine = EngineKind::Symbolic;
  CommonSettings common;
  Environment environment{};
  SymbolicSettings symbolic{};
  ClassSweepSettings sweep{};

  // Whether the run sweeps classes (engine classes, or the bdd engine's dominance by classes).
  bool sweeps() const;
  ExplicitOptions explicit_options() const;
};

// The options of `rushhour classify`, grouped for --help.
boost::program_options::options_description classify_options();

// The settings of parsed classify options in `environment`, every check done. Throws InputError.
RunSettings settings_from(const boost::program_options::variables_map& vm, const Environment& environment);

// "8G", "512M", "1000000" -> bytes. Throws InputError.
std::uint64_t parse_bytes(const std::string& text);

}  // namespace rushhour::run
