#include "run/settings.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <sstream>
#include <vector>

#include <boost/make_shared.hpp>

#include <unistd.h>

#include "board/count.hpp"
#include "board/errors.hpp"
#include "encoding/line_partition.hpp"
#include "explicit/counting.hpp"
#include "explicit/explicit_engine.hpp"
#include "run/part_run.hpp"

namespace rushhour::run {
namespace po = boost::program_options;
namespace {

// Which engines use an option. An option set to anything but its default value for an
// engine that does not use it is refused: its value would change nothing.
enum Use : unsigned {
  kSymbolic = 1u << static_cast<unsigned>(EngineKind::Symbolic),
  kExplicit = 1u << static_cast<unsigned>(EngineKind::Explicit),
  kClasses = 1u << static_cast<unsigned>(EngineKind::Classes),
  kEvery = kSymbolic | kExplicit | kClasses,
};

std::string engine_list(unsigned engines) {
  std::string text;
  for (EngineKind engine : {EngineKind::Symbolic, EngineKind::Explicit, EngineKind::Classes}) {
    if ((engines & (1u << static_cast<unsigned>(engine))) == 0) continue;
    text += (text.empty() ? "" : " and ") + to_string(engine);
  }
  return text;
}

// One option of `classify`: its group in --help, its name, its type and default, its help
// line, the engines that use it. --help (and so docs/cli.md), config files and the refusal of
// an option the engine does not use all come from this table. Checks of a value that depend
// on other options stay in the settings' check().
struct OptionRow {
  const char* group;
  const char* name;
  std::function<po::value_semantic*()> value;  // a new one per options_description (which owns it)
  std::string help;
  unsigned engines = kEvery;
  // What the refusal says the option applies to, where the engines alone say too little
  // (default: "the ... engine(s) only").
  const char* scope = nullptr;
  // The check of the value on its own (InputError); checks that involve other options are
  // the settings' check().
  std::function<void(const boost::any&)> check = nullptr;
};

// Checks of one value: at least `least`, or within [least, most].
template <class T>
std::function<void(const boost::any&)> at_least(T least, std::string message) {
  return [least, message](const boost::any& value) {
    if (!(boost::any_cast<T>(value) >= least)) throw InputError(message);  // !(>=): also NaN
  };
}
template <class T>
std::function<void(const boost::any&)> within(T least, T most, std::string message) {
  return [least, most, message](const boost::any& value) {
    const T v = boost::any_cast<T>(value);
    if (v < least || v > most) throw InputError(message);
  };
}

constexpr const char* kClassSweeps = "class sweeps only (engine classes, --dominance-by classes)";

template <class T>
std::function<po::value_semantic*()> with_default(T value) {
  return [value] { return po::value<T>()->default_value(value); };
}
template <class T>
std::function<po::value_semantic*()> without_default() {
  return [] { return po::value<T>(); };
}
std::function<po::value_semantic*()> flag() {
  return [] { return po::bool_switch(); };
}

const std::vector<OptionRow>& option_table() {
  static const std::vector<OptionRow> table = [] {
    const char* board = "Board";
    const char* engine = "Engine";
    const char* buddy = "BuDDy (bdd engine)";
    const char* output = "Output";
    return std::vector<OptionRow>{
        {board, "size", without_default<int>(), "board size N (2..8)"},
        {board, "exit-row", with_default(-1), "exit row (default (N-1)/2)"},
        {board, "metric", with_default<std::string>("step"), "step | move"},
        {board, "max-cars", with_default(-1), "at most K cars (-1 = no limit)"},
        {board, "max-trucks", with_default(-1), "at most K trucks (-1 = no limit)"},
        {board, "max-vehicles", with_default(-1), "at most K vehicles (-1 = no limit)"},
        {board, "domain", with_default<std::string>("all"),
         "all | puzzle (the exit row holds no horizontal vehicle but the target, no row or column is "
         "filled by its own vehicles; bdd engine: slot encoding, no --partition)"},
        {board, "walls", with_default<std::string>("0"),
         "K (0 to K walls) or A-B: fixed 1x1 obstacles ('x' in board strings) on cells the vehicles "
         "leave free (explicit engine up to 5x5; bdd engine without --partition)"},
        {engine, "engine", with_default<std::string>("bdd"),
         "bdd | explicit | classes (explicit, one class of line kind sequences at a time)"},
        {engine, "threads", with_default(0), "class sweeps: worker threads (0 = one per hardware thread)",
         kSymbolic | kClasses, kClassSweeps, within(0, 256, "--threads must be 0 (all) to 256")},
        {engine, "estimate", flag(),
         "print the job's projected CPU time (with a 95% interval), wall time on --threads and memory "
         "per process, and stop, writing nothing (--out and --clusters name what the job would write; "
         "its cluster records and minimal tests are part of the cost): items sized without solving "
         "them, stratified by size, a few of each stratum solved (docs/engines.md)",
         kClasses},
        {engine, "estimate-items", with_default(128),
         "--estimate: solve about K items (more: a narrower interval, a longer estimate)", kClasses, nullptr,
         at_least(2, "--estimate-items must be >= 2")},
        {engine, "estimate-seed", with_default<std::uint64_t>(1),
         "--estimate: the seed of the items drawn (the same seed, the same items)", kClasses},
        {engine, "work-sample", with_default(1),
         "benchmark: sweep only every K-th work item and print the rate (no --out)", kClasses, nullptr,
         at_least(1, "--work-sample must be >= 1")},
        {engine, "items", with_default<std::string>(""),
         "run part K/N of the work items (needs --out; `rushhour merge` adds the finished parts; "
         "docs/cluster.md)",
         kClasses},
        {engine, "checkpoint-seconds", with_default(ClassEngineOptions{}.checkpoint_seconds),
         "class sweeps with --out: save DIR/classes-checkpoint.txt this often (and at the end); "
         "partitioned bdd runs with --part-files figures: DIR/parts-checkpoint.txt",
         kSymbolic | kClasses,
         "class sweeps (engine classes, --dominance-by classes) and to partitioned runs with --part-files figures "
         "only",
         at_least(0.0, "--checkpoint-seconds must be >= 0")},
        {engine, "rank-timeout", with_default(ClassEngineOptions{}.lost_rank_seconds),
         "under an MPI launcher: a rank not heard from for S seconds is lost (a host or link down; ranks "
         "report every 2 s): the job ends with exit 1, every finished unit kept for --resume",
         kSymbolic | kClasses, "jobs under an MPI launcher (engine classes, engine bdd with --partition)",
         at_least(5.0, "--rank-timeout must be >= 5 (seconds)")},
        {engine, "symbolic-above", with_default<std::string>("auto"),
         "class sweeps: solve a class of more than K states with the BDD engine restricted to it, "
         "unless --bit-search-above takes it: K, bound (only classes above the memory bound, which "
         "always go there) or auto (4194304 from 7x7 on, the threshold measured cheapest; bound up "
         "to 6x6; docs/class-engine.md)",
         kSymbolic | kClasses, kClassSweeps},
        {engine, "bit-search-above", with_default<std::string>("auto"),
         "class sweeps: search a class of at least K states on sets of states as bits rather "
         "than state by state: K, never or auto (classes of 16384 states or more whose row "
         "combinations hold on average 32 or more under steps, 64 or more under moves, where it "
         "was measured faster; docs/class-engine.md)",
         kSymbolic | kClasses, kClassSweeps},
        {engine, "clusters", with_default<std::string>(""),
         "write the puzzle database FILE.h5, a record per cluster (hardest configuration, highest "
         "index, size, histogram; docs/file-formats.md)",
         kClasses},
        {engine, "clusters-text", with_default<std::string>(""),
         "with --clusters: also FILE.txt, `<index> <board> <cluster size>` per cluster, hardest first", kClasses},
        {engine, "clusters-min-index", with_default(0),
         "with --clusters: only the clusters whose highest index is at least K", kClasses, nullptr,
         within(0, kMaxClusterIndex, "--clusters-min-index must be 0 to " + std::to_string(kMaxClusterIndex))},
        {engine, "minimal", flag(),
         "with --clusters: only the minimal clusters (removing any piece but the target, a vehicle or "
         "a wall, lowers the index of a hardest configuration; a few searches per cluster: pair it "
         "with --clusters-min-index on 6x6)",
         kClasses},
        {engine, "minimal-rule", with_default<std::string>("any"),
         "with --minimal: any (a cluster is minimal when one of its hardest configurations is; the "
         "least such is listed), canonical (only the listed hardest configuration, the least "
         "explicit-engine key, is tested) or public (the public database's choice: only its "
         "representative, the least by horizontal then vertical mask, is tested and listed)",
         kClasses},
        {engine, "minimal-counts", with_default<std::string>(""),
         "with --clusters: RULES (any, canonical, public, comma-separated): test every cluster under "
         "each and count the minimal ones per highest index and per walls, cars and trucks in the "
         "sweep's figures (its checkpoint, the database), whatever --clusters-min-index keeps, so "
         "a sweep in resumed segments keeps little between them",
         kClasses},
        {engine, "clusters-metrics", with_default<std::string>("run"),
         "with --clusters: the metrics of each record: run (the run's --metric) or both (step and "
         "move, each class with records searched under both; --clusters-min-index, --minimal, the "
         "text list and the classification stay those of --metric)",
         kClasses},
        {engine, "no-mirror", flag(),
         "class sweeps: solve every class, not one of each top-bottom mirror pair (odd N, middle exit row)",
         kSymbolic | kClasses, kClassSweeps},
        {engine, "encoding", with_default<std::string>("slot"), "state encoding: slot | cell", kSymbolic},
        {engine, "order", with_default<std::string>(""),
         "variable order; slot: interleaved (default) | rows-columns | columns-rows; "
         "cell: row-major (default) | anti-diagonal | column-major",
         kSymbolic},
        {engine, "line-code", with_default<std::string>("index"), "code of one line's filling: slot | index",
         kSymbolic},
        {engine, "samples", with_default(5), "sample boards per index", kEvery, nullptr,
         at_least(0, "--samples and --sample-indices must be >= 0")},
        {engine, "sample-indices", with_default(10), "sample the K highest indices", kEvery, nullptr,
         at_least(0, "--samples and --sample-indices must be >= 0")},
        {engine, "no-dominance", flag(), "skip the dominance figures"},
        {engine, "dominance-by", with_default<std::string>("auto"),
         "classes (a class sweep after the layers, its counts checked against them; checkpointed "
         "in DIR/classes-checkpoint.txt) | symbolic (closures on the layers) | auto (classes up to "
         "the class engine's largest size, else symbolic)",
         kSymbolic},
        {engine, "dominance-indices", with_default<std::string>("auto"),
         "symbolic dominance: count components for the K highest indices: K, all, or auto "
         "(all for N <= 5, else 30)",
         kSymbolic},
        {engine, "dominance-components", with_default<std::int64_t>(-1),
         "symbolic dominance: at most K component closures in all (-1 = no limit)", kSymbolic, nullptr,
         at_least<std::int64_t>(-1, "--dominance-components and --max-layers must be >= -1")},
        {engine, "dominance-components-from", with_default(0),
         "symbolic dominance: count components only for indices >= I (-1 in the table below "
         "it); with --partition, what bounds the pass's explicit work",
         kSymbolic, nullptr, at_least(0, "--dominance-components-from must be >= 0")},
        {engine, "dominance-stop", with_default(-1),
         "symbolic dominance: end the pass after index I, resumably (-1 = down to index 0)", kSymbolic, nullptr,
         at_least(-1, "--dominance-stop must be >= -1")},
        {engine, "frontiers", with_default<std::string>("auto"),
         "with vehicle limits: limited | unlimited (frontiers on the board without limits, "
         "each layer restricted) | auto (unlimited if the limits keep half the winning set)",
         kSymbolic},
        {engine, "max-layers", with_default(-1), "stop after K layers, leaving an incomplete run (-1 = all)",
         kSymbolic, nullptr,
         [](const boost::any& value) {
           const int layers = boost::any_cast<int>(value);
           if (layers < -1) throw InputError("--dominance-components and --max-layers must be >= -1");
           if (layers == 0) throw InputError("--max-layers must be at least 1");
         }},
        {engine, "partition", with_default<std::string>("none"),
         "classify the domain in parts fixed by the kind sequences of some lines: none | exit-row | "
         "rows | rows+K (rows and the first K columns) | lines:R2,R1,C0 (the lines named); "
         "docs/partition.md",
         kSymbolic},
        {engine, "part-sample", with_default(1),
         "benchmark: with --partition, classify only every K-th part (no --out)", kSymbolic, nullptr,
         at_least(1, "--part-sample must be >= 1")},
        {engine, "part-workers", with_default(0),
         "with --partition: worker processes classifying parts at once (0 = one per hardware "
         "thread; under MPI each rank classifies one part at a time)",
         kSymbolic, nullptr, within(0, 256, "--part-workers must be 0 (all) to 256")},
        {engine, "whole-layers", with_default(0),
         "with --partition: compute the first K layers on the whole domain, where they are cheap, "
         "and start every part from them (0 = every layer part by part)",
         kSymbolic, nullptr, at_least(0, "--whole-layers must be >= 0")},
        {engine, "part-files", with_default<std::string>("layers"),
         "with --partition and --out: layers (a file per finished part with its layers, for query "
         "and --resume) | figures (no part files: the finished parts' summed figures in "
         "DIR/parts-checkpoint.txt, for --resume and classification.h5 only)",
         kSymbolic},
        {buddy, "bdd-nodes", with_default(BddSettings{}.initial_nodes), "initial node table size", kSymbolic},
        {buddy, "bdd-cache", with_default(BddSettings{}.cache_size), "initial cache entries", kSymbolic},
        {buddy, "bdd-cache-ratio", with_default(BddSettings{}.cache_ratio),
         "nodes per cache entry as the table grows (0 = fixed cache; " + std::to_string(kPartCacheRatio) +
             " with --partition unless given)",
         kSymbolic},
        {buddy, "bdd-max-increase", with_default(0), "max nodes added per growth (0 = doubling)", kSymbolic},
        {buddy, "bdd-min-free", with_default(BddSettings{}.min_free_percent),
         "grow the table when a GC frees less than this percentage", kSymbolic},
        {buddy, "bdd-max-nodes", with_default<std::int64_t>(0), "node table ceiling (0 = none)", kSymbolic},
        {buddy, "max-memory", with_default<std::string>("0"),
         "bdd: ceiling for node table + caches, e.g. 8G (0 = none); class sweeps: memory for the "
         "classes being solved, all threads (0 = half the physical memory); a larger class goes to "
         "the symbolic path (--symbolic-above), an item with a class neither path takes is refused "
         "(exit 1, --resume retries it)",
         kSymbolic | kClasses},
        {output, "out", without_default<std::string>(), "run directory: classification.h5 and layers/"},
        {output, "resume", flag(), "continue from the finished layers in --out", kSymbolic | kClasses},
        {output, "log", without_default<std::string>(), "also append progress lines to FILE"},
        {output, "quiet,q", flag(), "no progress lines on stderr"},
    };
  }();
  return table;
}

template <class T>
bool same_value(const boost::any& a, const boost::any& b) {
  const T* x = boost::any_cast<T>(&a);
  const T* y = boost::any_cast<T>(&b);
  return x != nullptr && y != nullptr && *x == *y;
}

// Whether option `name` holds another value than its default: compared by value, not by
// defaulted(), so that an effective configuration (which lists every default) read back
// as a config file is accepted.
bool is_set(const po::variables_map& vm, const std::string& name) {
  static const po::options_description options = classify_options();
  if (!vm.count(name)) return false;
  const po::option_description* option = options.find_nothrow(name, false);
  boost::any fallback;
  if (option == nullptr || !option->semantic()->apply_default(fallback)) return true;
  const boost::any& value = vm[name].value();
  return !(same_value<int>(value, fallback) || same_value<std::int64_t>(value, fallback) ||
           same_value<std::uint64_t>(value, fallback) ||
           same_value<double>(value, fallback) || same_value<bool>(value, fallback) ||
           same_value<std::string>(value, fallback));
}

int dominance_indices_of(const std::string& text, int size) {
  if (text == "auto") return size <= 5 ? -1 : 30;
  if (text == "all") return -1;
  std::size_t used = 0;
  int value = -1;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || value < 0)
    throw InputError("--dominance-indices: '" + text + "' is not auto, all or a count >= 0");
  return value;
}

Frontiers frontiers_of(const std::string& text) {
  if (text == "auto") return Frontiers::Auto;
  if (text == "limited") return Frontiers::Limited;
  if (text == "unlimited") return Frontiers::Unlimited;
  throw InputError("unknown frontiers '" + text + "' (expected auto, limited or unlimited)");
}

std::string effective_configuration(const po::variables_map& vm) {
  std::ostringstream config;
  for (const auto& [name, value] : vm) {
    if (name == "config" || name == "help") continue;
    config << name << " = ";
    const auto& any = value.value();
    if (const auto* i = boost::any_cast<int>(&any)) config << *i;
    else if (const auto* l = boost::any_cast<std::int64_t>(&any)) config << *l;
    else if (const auto* u = boost::any_cast<std::uint64_t>(&any)) config << *u;
    else if (const auto* b = boost::any_cast<bool>(&any)) config << (*b ? "true" : "false");
    else if (const auto* d = boost::any_cast<double>(&any)) config << *d;
    else if (const auto* t = boost::any_cast<std::string>(&any)) config << *t;
    config << "\n";
  }
  return config.str();
}

}  // namespace

std::string to_string(EngineKind engine) {
  switch (engine) {
    case EngineKind::Symbolic: return "bdd";
    case EngineKind::Explicit: return "explicit";
    case EngineKind::Classes: return "classes";
  }
  return "?";
}

EngineKind parse_engine(const std::string& text) {
  for (EngineKind engine : {EngineKind::Symbolic, EngineKind::Explicit, EngineKind::Classes})
    if (text == to_string(engine)) return engine;
  throw InputError("unknown engine '" + text + "' (expected bdd, explicit or classes)");
}

std::uint64_t parse_bytes(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string suffix = used > 0 ? text.substr(used) : "";
  const double scale = suffix.empty() || suffix == "B"  ? 1.0
                       : suffix == "K" || suffix == "KiB" ? 1024.0
                       : suffix == "M" || suffix == "MiB" ? 1024.0 * 1024
                       : suffix == "G" || suffix == "GiB" ? 1024.0 * 1024 * 1024
                                                           : -1;
  // !(x >= 0) also rejects "nan"; "inf" and sizes beyond 2^64 bytes would make the cast
  // below undefined (found by fuzzing with UBSan: "max-memory = 21474836437512M").
  if (used == 0 || scale < 0 || !(value >= 0) || !(value * scale < 18446744073709551616.0))
    throw InputError("--max-memory: '" + text + "' is not a size (e.g. 8G, 512M, 1000000)");
  return static_cast<std::uint64_t>(value * scale);
}

std::uint64_t automatic_symbolic_above(int size) {
  return size <= 6 ? kSymbolicAboveBound : kSymbolicAboveLargeBoards;
}

namespace {

// A whole number of states, or InputError naming the option and the words it also takes.
std::uint64_t state_count(const std::string& text, const std::string& option, const std::string& words) {
  std::size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text[0] == '-')
    throw InputError(option + ": '" + text + "' is not " + words + " or a number of states");
  return value;
}

}  // namespace

BitSearchRule automatic_bit_search(Metric metric) {
  return {std::uint64_t{1} << 14, metric == Metric::Move ? std::uint64_t{64} : std::uint64_t{32}};
}

std::optional<BitSearchRule> parse_bit_search_above(const std::string& text) {
  if (text == "auto") return std::nullopt;
  if (text == "never") return BitSearchRule{};
  return BitSearchRule{state_count(text, "--bit-search-above", "auto, never"), 0};
}

std::optional<std::uint64_t> parse_symbolic_above(const std::string& text) {
  if (text == "auto") return std::nullopt;
  if (text == "bound") return kSymbolicAboveBound;
  return state_count(text, "--symbolic-above", "auto, bound");
}

void CommonSettings::check(EngineKind engine) const {
  if (resume && out.empty()) throw InputError("--resume needs --out DIR");
  if (engine == EngineKind::Explicit) check_explicit_walls(rules);
  if (engine == EngineKind::Classes && rules.size() > kMaxClassEngineSize)
    throw InputError("the classes engine supports sizes up to " + std::to_string(kMaxClassEngineSize));
}

void SymbolicSettings::check(const CommonSettings& common) const {
  // StateSet::count is exact at any size, but the engine's paths past 2^53 configurations
  // (where the node walk replaces BuDDy's double count) have no end-to-end test yet, and such a
  // board (8x8 without limits) would not finish anyway. Every count of a run is at most its
  // domain's, which the counting polynomial gives at once: a board beyond it is refused here,
  // before any BDD is built.
  if (const Count domain = count_placements(common.rules).domain; domain > kExactDoubleLimit)
    throw InputError("the bdd engine counts exactly up to 2^53 configurations; " +
                     common.rules.describe() + " has " + rushhour::to_string(domain) +
                     " (set vehicle limits)");
  if (encoding == EncodingKind::Slot) slot.check();
  else cell.check();
  if (common.rules.domain() != Domain::All && (encoding != EncodingKind::Slot || partitioned()))
    throw InputError("--domain puzzle goes with the slot encoding, without --partition");
  bdd.check();
  if (dominance_by_classes) {
    if (!common.dominance) throw InputError("--dominance-by classes goes with the dominance figures");
    if (common.rules.size() > kMaxClassEngineSize)
      throw InputError("--dominance-by classes supports sizes up to " + std::to_string(kMaxClassEngineSize));
  }
  parse_partition(partition, common.rules);
  if (partitioned() && !common.rules.walls().none())
    throw InputError("--partition cuts the domain by the lines' vehicles and carries sets between parts as "
                     "diagrams of lines alone: not with --walls (the bdd engine runs a walled board whole)");
  if (partitioned()) {
    if (encoding != EncodingKind::Slot) throw InputError("--partition goes with the slot encoding");
    if (part_stride > 1 && !common.out.empty())
      throw InputError("--part-sample is a benchmark of a partition (no --out)");
    if (dominance_indices != -1 || dominance_components != -1 || dominance_stop != -1)
      throw InputError("the symbolic dominance pass of a partitioned run counts the components of "
                       "every index, or from --dominance-components-from I on (no --dominance-indices, "
                       "--dominance-components or --dominance-stop)");
  } else if (part_stride > 1) {
    throw InputError("--part-sample goes with --partition");
  }
  if (!part_layers && (!partitioned() || common.out.empty()))
    throw InputError("--part-files goes with --partition and --out DIR");
}

RetrogradeOptions SymbolicSettings::retrograde(const CommonSettings& common) const {
  RetrogradeOptions options;
  options.samples_per_index = common.samples_per_index;
  options.sample_indices = common.sample_indices;
  options.dominance = common.dominance && !dominance_by_classes;
  options.dominance_indices = dominance_indices;
  options.dominance_components = dominance_components;
  options.components_from = components_from;
  options.max_layers = max_layers;
  options.dominance_stop = dominance_stop;
  options.frontiers = frontiers;
  return options;
}

namespace {

// Refuses a path a file cannot be written at (before the sweep, which would lose its work).
// `out`: the run directory, which the run makes before it writes anything there.
void check_writable(const std::filesystem::path& path, const std::string& option, const std::filesystem::path& out) {
  const std::filesystem::path parent = path.has_parent_path() ? path.parent_path() : ".";
  std::error_code error;
  if (path.filename().empty() || std::filesystem::is_directory(path, error))
    throw InputError(option + ": " + path.string() + " is a directory, not a file");
  if (!out.empty() && parent.lexically_normal() == out.lexically_normal() && !std::filesystem::exists(parent, error))
    return;
  if (!std::filesystem::is_directory(parent, error))
    throw InputError(option + ": " + parent.string() + " is not a directory");
  if (::access(parent.c_str(), W_OK) != 0)
    throw InputError(option + ": cannot write in " + parent.string());
}

}  // namespace

void ClassSweepSettings::check(const Environment& environment, const std::filesystem::path& out) const {
  if (clusters.empty()) {
    if (!clusters_text.empty() || cluster_min_index != 0 || cluster_minimal || cluster_both_metrics ||
        !minimal_counts.empty())
      throw InputError("--clusters-text, --clusters-min-index, --minimal, --minimal-counts and --clusters-metrics go "
                       "with --clusters FILE.h5");
  }
  if (!cluster_minimal && minimal_rule != MinimalRule::Any) throw InputError("--minimal-rule goes with --minimal");
  if (clusters.empty()) return;
  check_writable(clusters, "--clusters", out);
  if (!clusters_text.empty()) check_writable(clusters_text, "--clusters-text", out);
  if (!part.whole() || environment.mpi_launcher)
    throw InputError("--clusters is written by a whole sweep on one process (not with --items or under MPI)");
}

// --estimate solves an item of more configurations than this (tens of CPU seconds) by a draw
// of its classes: 7x7 items hold up to 6·10^11.
constexpr std::uint64_t kDrawClassesAbove = std::uint64_t{1} << 28;

ClassEngineOptions ClassSweepSettings::engine_options(const CommonSettings& common) const {
  ClassEngineOptions options;
  options.threads = threads;
  options.samples_per_index = common.samples_per_index;
  options.sample_indices = common.sample_indices;
  options.item_stride = item_stride;
  options.checkpoint_seconds = checkpoint_seconds;
  options.lost_rank_seconds = common.lost_rank_seconds;
  options.mirror = mirror;
  options.max_memory = max_memory;
  // Not for --estimate: timing every class costs more than solving the small ones.
  options.measure_class_sizes = item_stride > 1;
  options.record_item_costs = estimate;
  if (estimate) {
    // A class's cluster records are tested at its item's end, outside the drawn classes'
    // timing: with --clusters, every item drawn is solved whole.
    options.draw_classes_above = clusters.empty() ? kDrawClassesAbove : 0;
    options.class_draw_seed = estimate_seed;
  }
  options.solver_above = symbolic_above.value_or(automatic_symbolic_above(common.rules.size()));
  const BitSearchRule bits = bit_search.value_or(automatic_bit_search(common.rules.metric()));
  options.bit_search_above = bits.states;
  options.bit_search_per_combination = bits.per_combination;
  options.cluster_min_index = cluster_min_index;
  options.minimal_clusters = cluster_minimal;
  options.minimal_rule = minimal_rule;
  options.minimal_counts = minimal_counts;
  options.cluster_both_metrics = cluster_both_metrics;
  return options;
}

bool RunSettings::sweeps() const {
  return engine == EngineKind::Classes ||
         (engine == EngineKind::Symbolic && symbolic.dominance_by_classes);
}

ExplicitOptions RunSettings::explicit_options() const {
  return {.samples_per_index = common.samples_per_index, .sample_indices = common.sample_indices};
}

po::options_description classify_options() {
  std::vector<std::pair<std::string, std::unique_ptr<po::options_description>>> groups;  // in the table's order
  for (const OptionRow& row : option_table()) {
    auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == row.group; });
    if (group == groups.end())
      group = groups.insert(groups.end(), {row.group, std::make_unique<po::options_description>(row.group)});
    std::string help;
    if (row.engines != kEvery) help.append("[").append(engine_list(row.engines)).append("] ");
    help.append(row.help);
    group->second->add(boost::make_shared<po::option_description>(row.name, row.value(), help.c_str()));
  }
  po::options_description all;
  for (const auto& [name, group] : groups) all.add(*group);
  return all;
}

RunSettings settings_from(const po::variables_map& vm, const Environment& environment) {
  if (!vm.count("size")) throw InputError("classify needs --size N");
  const VehicleLimits limits{vm["max-cars"].as<int>(), vm["max-trucks"].as<int>(),
                             vm["max-vehicles"].as<int>()};
  RunSettings s{.common = {.rules = Rules(vm["size"].as<int>(), vm["exit-row"].as<int>(),
                                          parse_metric(vm["metric"].as<std::string>()), limits,
                                          parse_domain(vm["domain"].as<std::string>()),
                                          parse_wall_range(vm["walls"].as<std::string>()))},
                .environment = environment};
  s.engine = parse_engine(vm["engine"].as<std::string>());
  CommonSettings& common = s.common;
  const int size = common.rules.size();

  for (const OptionRow& option : option_table())
    if ((option.engines & (1u << static_cast<unsigned>(s.engine))) == 0 && is_set(vm, option.name))
      throw InputError(std::string("--") + option.name + " applies to " +
                       (option.scope != nullptr ? std::string(option.scope)
                                                : "the " + engine_list(option.engines) + " engine" +
                                                      (engine_list(option.engines).find(" and ") != std::string::npos ? "s" : "") +
                                                      " only"));
  for (const OptionRow& option : option_table())
    if (option.check && vm.count(option.name)) option.check(vm[option.name].value());

  common.samples_per_index = vm["samples"].as<int>();
  common.sample_indices = vm["sample-indices"].as<int>();
  common.dominance = !vm["no-dominance"].as<bool>();
  if (vm.count("out")) common.out = vm["out"].as<std::string>();
  common.resume = vm["resume"].as<bool>();
  common.quiet = vm["quiet"].as<bool>();
  if (vm.count("log")) common.log_file = vm["log"].as<std::string>();
  common.check(s.engine);

  SymbolicSettings& symbolic = s.symbolic;
  if (s.engine == EngineKind::Symbolic) {
    symbolic.encoding = parse_encoding(vm["encoding"].as<std::string>());
    const std::string order = vm["order"].as<std::string>();
    if (symbolic.encoding == EncodingKind::Slot) {
      symbolic.slot = {order.empty() ? SlotEncodingOptions{}.order : order, vm["line-code"].as<std::string>()};
    } else {
      if (is_set(vm, "line-code")) throw InputError("--line-code applies to the slot encoding only");
      symbolic.cell.order = order.empty() ? CellEncodingOptions{}.order : order;
    }
    symbolic.bdd.initial_nodes = vm["bdd-nodes"].as<int>();
    symbolic.bdd.cache_size = vm["bdd-cache"].as<int>();
    symbolic.bdd.cache_ratio = vm["bdd-cache-ratio"].as<int>();
    symbolic.bdd.max_increase = vm["bdd-max-increase"].as<int>();
    symbolic.bdd.min_free_percent = vm["bdd-min-free"].as<int>();
    symbolic.bdd.max_nodes = vm["bdd-max-nodes"].as<std::int64_t>();
    symbolic.bdd.max_bytes = parse_bytes(vm["max-memory"].as<std::string>());
    const std::string dominance_by = vm["dominance-by"].as<std::string>();
    if (dominance_by != "auto" && dominance_by != "symbolic" && dominance_by != "classes")
      throw InputError("unknown --dominance-by '" + dominance_by + "' (expected auto, classes or symbolic)");
    // auto: the class sweep wherever the class engine runs, since on 6x6 the symbolic pass
    // does not finish in hours; it is what the figures of a plain run come from.
    symbolic.dominance_by_classes =
        dominance_by == "classes" ||
        (dominance_by == "auto" && common.dominance && size <= kMaxClassEngineSize);
    const bool symbolic_pass = common.dominance && !symbolic.dominance_by_classes;
    for (const char* name : {"dominance-indices", "dominance-components", "dominance-stop", "dominance-components-from"})
      if (!symbolic_pass && is_set(vm, name))
        throw InputError(std::string("--") + name + " applies to the symbolic dominance pass only" +
                         (common.dominance ? " (--dominance-by symbolic)" : " (not with --no-dominance)"));
    symbolic.partition = vm["partition"].as<std::string>();
    symbolic.part_stride = vm["part-sample"].as<int>();
    symbolic.whole_layers = vm["whole-layers"].as<int>();
    if (is_set(vm, "whole-layers") && !symbolic.partitioned())
      throw InputError("--whole-layers goes with --partition");
    if (const std::string part_files = vm["part-files"].as<std::string>(); part_files == "figures")
      symbolic.part_layers = false;
    else if (part_files != "layers")
      throw InputError("unknown --part-files '" + part_files + "' (expected layers or figures)");
    if (is_set(vm, "part-files") && (!symbolic.partitioned() || common.out.empty()))
      throw InputError("--part-files goes with --partition and --out DIR");
    if (symbolic.partitioned() && !is_set(vm, "bdd-cache-ratio")) symbolic.bdd.cache_ratio = kPartCacheRatio;
    const int part_workers = vm["part-workers"].as<int>();
    if (is_set(vm, "part-workers") && !symbolic.partitioned())
      throw InputError("--part-workers goes with --partition");
    symbolic.part_workers =
        environment.threads_for(part_workers);
    // A part's highest indices are not the run's: a partitioned pass counts every index.
    const std::string indices = vm["dominance-indices"].as<std::string>();
    symbolic.dominance_indices =
        symbolic.partitioned() && indices == "auto" ? -1 : dominance_indices_of(indices, size);
    symbolic.dominance_components = vm["dominance-components"].as<std::int64_t>();
    symbolic.dominance_stop = vm["dominance-stop"].as<int>();
    symbolic.components_from = vm["dominance-components-from"].as<int>();
    symbolic.frontiers = frontiers_of(vm["frontiers"].as<std::string>());
    symbolic.max_layers = vm["max-layers"].as<int>();
    symbolic.check(common);
  }

  ClassSweepSettings& sweep = s.sweep;
  const int threads = vm["threads"].as<int>();
  const bool checkpoints_parts = s.engine == EngineKind::Symbolic && !s.symbolic.part_layers;
  if (!s.sweeps()) {  // the bdd engine without a class sweep
    for (const char* name : {"threads", "no-mirror", "symbolic-above", "bit-search-above"})
      if (is_set(vm, name)) throw InputError(std::string("--") + name + " applies to " + kClassSweeps);
    if (!checkpoints_parts && is_set(vm, "checkpoint-seconds"))
      throw InputError("--checkpoint-seconds applies to class sweeps (engine classes, --dominance-by classes) and "
                       "to partitioned runs with --part-files figures only");
  }
  sweep.threads =
      environment.threads_for(threads);
  sweep.item_stride = vm["work-sample"].as<int>();
  if (sweep.item_stride > 1 && !common.out.empty())
    throw InputError("--work-sample is a benchmark of the classes engine (no --out)");
  sweep.estimate = vm["estimate"].as<bool>();
  if (sweep.estimate) {
    if (is_set(vm, "work-sample") || !vm["items"].as<std::string>().empty() || environment.mpi_launcher)
      throw InputError("--estimate samples the whole job on one process: not with --work-sample, --items or under an "
                       "MPI launcher");
    sweep.estimate_configurations = count_placements(common.rules).domain;
  } else if (is_set(vm, "estimate-items") || is_set(vm, "estimate-seed")) {
    throw InputError("--estimate-items and --estimate-seed go with --estimate");
  }
  sweep.estimate_items = vm["estimate-items"].as<int>();
  sweep.estimate_seed = vm["estimate-seed"].as<std::uint64_t>();
  sweep.checkpoint_seconds = vm["checkpoint-seconds"].as<double>();
  s.symbolic.checkpoint_seconds = sweep.checkpoint_seconds;
  sweep.mirror = !vm["no-mirror"].as<bool>();
  sweep.max_memory = parse_bytes(vm["max-memory"].as<std::string>());
  sweep.clusters = vm["clusters"].as<std::string>();
  sweep.clusters_text = vm["clusters-text"].as<std::string>();
  sweep.cluster_min_index = vm["clusters-min-index"].as<int>();
  sweep.cluster_minimal = vm["minimal"].as<bool>();
  sweep.minimal_rule = parse_minimal_rule(vm["minimal-rule"].as<std::string>());
  sweep.minimal_counts = parse_minimal_rules(vm["minimal-counts"].as<std::string>());
  if (const std::string metrics = vm["clusters-metrics"].as<std::string>(); metrics == "both")
    sweep.cluster_both_metrics = true;
  else if (metrics != "run")
    throw InputError("--clusters-metrics must be run or both (got '" + metrics + "')");
  sweep.symbolic_above = parse_symbolic_above(vm["symbolic-above"].as<std::string>());
  sweep.bit_search = parse_bit_search_above(vm["bit-search-above"].as<std::string>());
  if (const std::string items = vm["items"].as<std::string>(); !items.empty()) {
    sweep.part = parse_item_part(items);
    if (common.out.empty() || sweep.item_stride > 1)
      throw InputError("--items goes with --out DIR (not with --work-sample)");
  }
  sweep.check(environment, common.out);
  if (!sweep.clusters.empty() && is_set(vm, "symbolic-above"))
    throw InputError("--clusters records the classes the sweep solves itself: not with --symbolic-above");
  if (!sweep.clusters.empty() && is_set(vm, "bit-search-above"))
    throw InputError("--clusters records each cluster of a class, which the bit sets do not tell apart: not with "
                     "--bit-search-above");
  if (!common.rules.walls().none() && is_set(vm, "symbolic-above"))
    throw InputError("--symbolic-above hands large classes to the bdd engine, which has no walls: not with --walls");
  common.lost_rank_seconds = vm["rank-timeout"].as<double>();
  if (!environment.mpi_launcher && is_set(vm, "rank-timeout"))
    throw InputError("--rank-timeout applies under an MPI launcher only (a job of ranks)");
  if (environment.mpi_launcher) {
    if (!mpi_built_in())
      throw InputError("started by an MPI launcher, but this rushhour is built without MPI: every rank would run the whole job");
    if (s.engine != EngineKind::Classes && !(s.engine == EngineKind::Symbolic && s.symbolic.partitioned()))
      throw InputError("under an MPI launcher only --engine classes and --engine bdd with --partition run");
    // Each rank is one process classifying one part at a time: ranks, not forked workers.
    if (s.engine == EngineKind::Symbolic) {
      if (is_set(vm, "part-workers") && s.symbolic.part_workers != 1)
        throw InputError("under an MPI launcher each rank classifies one part at a time: start a rank per core "
                         "(not --part-workers)");
      s.symbolic.part_workers = 1;
    }
    // One process samples every K-th item within the limits, the ranks every K-th item.
    if (sweep.item_stride > 1 && !(common.rules.limits() == VehicleLimits{}))
      throw InputError("under an MPI launcher --work-sample runs without vehicle limits");
    if (!environment.reports()) {  // rank 0 reports for the job
      common.quiet = true;
      common.log_file.clear();
    }
  }

  common.configuration = effective_configuration(vm);
  return s;
}

}  // namespace rushhour::run
