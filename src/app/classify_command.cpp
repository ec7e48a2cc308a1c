// `rushhour classify`: options -> Rules + engine settings -> engine -> storage -> summary.
#include <csignal>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "app/commands.hpp"
#include "app/options.hpp"
#include "bdd/session.hpp"
#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "encoding/cell_encoding.hpp"
#include "encoding/slot_encoding.hpp"
#include "explicit/class_engine.hpp"
#include "explicit/explicit_engine.hpp"
#include "retrograde/retrograde.hpp"
#include "storage/class_checkpoint.hpp"
#include "storage/classification_file.hpp"
#include "storage/dominance_checkpoint.hpp"
#include "storage/layer_store.hpp"
#include "util/process.hpp"

namespace rushhour::app {
namespace {

constexpr const char* kUsage =
    "usage: rushhour classify --size N [options]\n"
    "Classifies every configuration of the N x N board by its index (least number of steps or\n"
    "moves to a winning configuration). Progress goes to stderr, the summary to stdout.";

// SIGINT/SIGTERM: the first one asks the run to stop at its next safe point (between
// layers), after which the result file is written with complete = 0; a second one ends the
// process at once, which is safe because every file is replaced atomically.
volatile std::sig_atomic_t stop_signal = 0;

extern "C" void on_stop_signal(int signal_number) {
  if (stop_signal != 0) {
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
    return;
  }
  stop_signal = signal_number;
}

class StopSignals {
 public:
  StopSignals() {
    stop_signal = 0;
    previous_int_ = std::signal(SIGINT, on_stop_signal);
    previous_term_ = std::signal(SIGTERM, on_stop_signal);
  }
  ~StopSignals() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  int received() const { return stop_signal; }

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};

std::string mib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

// "8G", "512M", "1000000" -> bytes.
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

struct ClassifySettings {
  Rules rules;
  std::string engine{};
  SlotEncodingOptions slot{};
  CellEncodingOptions cell{};
  std::string encoding{};
  BddSettings bdd{};
  RetrogradeOptions retrograde{};
  ExplicitOptions explicit_options{};
  ClassEngineOptions class_options{};
  std::filesystem::path out{};
  bool resume = false;
  bool dominance_by_classes = false;  // --dominance-by classes
  bool quiet = false;
  std::string log_file{};
  std::string configuration{};  // the effective options, "key = value" per line
};

po::options_description classify_options() {
  po::options_description board("Board");
  board.add_options()
      ("size", po::value<int>(), "board size N (2..8)")
      ("exit-row", po::value<int>()->default_value(-1), "exit row (default (N-1)/2)")
      ("metric", po::value<std::string>()->default_value("step"), "step | move")
      ("max-cars", po::value<int>()->default_value(-1), "at most K cars (-1 = no limit)")
      ("max-trucks", po::value<int>()->default_value(-1), "at most K trucks (-1 = no limit)")
      ("max-vehicles", po::value<int>()->default_value(-1), "at most K vehicles (-1 = no limit)");
  po::options_description engine("Engine");
  engine.add_options()
      ("engine", po::value<std::string>()->default_value("bdd"),
       "bdd | explicit | classes (explicit, one class of line kind sequences at a time)")
      ("threads", po::value<int>()->default_value(0),
       "classes engine: worker threads (0 = one per hardware thread)")
      ("work-sample", po::value<int>()->default_value(1),
       "classes engine benchmark: sweep only every K-th work item and print the rate (no --out)")
      ("checkpoint-seconds", po::value<double>()->default_value(ClassEngineOptions{}.checkpoint_seconds),
       "classes engine with --out: save DIR/classes-checkpoint.txt this often (and at the end)")
      ("encoding", po::value<std::string>()->default_value("slot"), "state encoding: slot | cell")
      ("order", po::value<std::string>()->default_value(""),
       "variable order; slot: interleaved (default) | rows-columns | columns-rows; "
       "cell: row-major (default) | anti-diagonal | column-major")
      ("line-code", po::value<std::string>()->default_value("index"),
       "code of one line's filling: slot | index")
      ("samples", po::value<int>()->default_value(5), "sample boards per index")
      ("sample-indices", po::value<int>()->default_value(10), "sample the K highest indices")
      ("no-dominance", po::bool_switch(), "skip the dominance figures")
      ("dominance-indices", po::value<std::string>()->default_value("auto"),
       "count components for the K highest indices: K, all, or auto (all for N <= 5, else 30)")
      ("dominance-components", po::value<std::int64_t>()->default_value(-1),
       "at most K component closures in all (-1 = no limit)")
      ("frontiers", po::value<std::string>()->default_value("auto"),
       "with vehicle limits: limited | unlimited (frontiers on the board without limits, "
       "each layer restricted) | auto (unlimited if the limits keep half the winning set)")
      ("dominance-by", po::value<std::string>()->default_value("auto"),
       "bdd engine: classes (a class sweep after the layers, its counts checked against "
       "them; checkpointed in DIR/classes-checkpoint.txt) | symbolic (closures on the "
       "layers) | auto (classes up to the class engine's largest size, else symbolic)")
      ("dominance-stop", po::value<int>()->default_value(-1),
       "end the dominance pass after index I, resumably (-1 = down to index 0)")
      ("max-layers", po::value<int>()->default_value(-1),
       "stop after K layers, leaving an incomplete run (-1 = all)");
  po::options_description bdd("BuDDy");
  bdd.add_options()
      ("bdd-nodes", po::value<int>()->default_value(BddSettings{}.initial_nodes), "initial node table size")
      ("bdd-cache", po::value<int>()->default_value(BddSettings{}.cache_size), "initial cache entries")
      ("bdd-cache-ratio", po::value<int>()->default_value(BddSettings{}.cache_ratio),
       "nodes per cache entry as the table grows (0 = fixed cache)")
      ("bdd-max-increase", po::value<int>()->default_value(0), "max nodes added per growth (0 = doubling)")
      ("bdd-min-free", po::value<int>()->default_value(BddSettings{}.min_free_percent),
       "grow the table when a GC frees less than this percentage")
      ("bdd-max-nodes", po::value<std::int64_t>()->default_value(0), "node table ceiling (0 = none)")
      ("max-memory", po::value<std::string>()->default_value("0"),
       "ceiling for node table + caches, e.g. 8G (0 = none)");
  po::options_description output("Output");
  output.add_options()
      ("out", po::value<std::string>(), "run directory: classification.h5 and layers/")
      ("resume", po::bool_switch(), "continue from the finished layers in --out")
      ("log", po::value<std::string>(), "also append progress lines to FILE")
      ("quiet,q", po::bool_switch(), "no progress lines on stderr");
  po::options_description all;
  all.add(board).add(engine).add(bdd).add(output);
  return all;
}

ClassifySettings settings_from(const po::variables_map& vm) {
  if (!vm.count("size")) throw InputError("classify needs --size N");
  VehicleLimits limits{vm["max-cars"].as<int>(), vm["max-trucks"].as<int>(),
                       vm["max-vehicles"].as<int>()};
  ClassifySettings s{.rules = Rules(vm["size"].as<int>(), vm["exit-row"].as<int>(),
                                    parse_metric(vm["metric"].as<std::string>()), limits)};
  s.engine = vm["engine"].as<std::string>();
  if (s.engine != "bdd" && s.engine != "explicit" && s.engine != "classes")
    throw InputError("unknown engine '" + s.engine + "' (expected bdd, explicit or classes)");
  const int threads = vm["threads"].as<int>();
  if (threads < 0 || threads > 256) throw InputError("--threads must be 0 (all) to 256");
  const std::string dominance_by = vm["dominance-by"].as<std::string>();
  if (dominance_by != "auto" && dominance_by != "symbolic" && dominance_by != "classes")
    throw InputError("unknown --dominance-by '" + dominance_by + "' (expected auto, classes or symbolic)");
  if (dominance_by != "auto" && s.engine != "bdd") throw InputError("--dominance-by applies to the bdd engine");
  // auto: the class sweep wherever the class engine runs; on 6x6 the symbolic pass does not
  // finish in hours.
  s.dominance_by_classes =
      s.engine == "bdd" && (dominance_by == "classes" ||
                            (dominance_by == "auto" && !vm["no-dominance"].as<bool>() &&
                             s.rules.size() <= kMaxClassEngineSize));
  if (s.dominance_by_classes) {
    if (vm["no-dominance"].as<bool>()) throw InputError("--dominance-by classes goes with the dominance figures");
    if (s.rules.size() > kMaxClassEngineSize)
      throw InputError("--dominance-by classes supports sizes up to " + std::to_string(kMaxClassEngineSize));
  }
  const bool sweeps = s.engine == "classes" || s.dominance_by_classes;
  if (threads != 0 && !sweeps) throw InputError("--threads applies to class sweeps only (engine classes, --dominance-by classes)");
  s.class_options.item_stride = vm["work-sample"].as<int>();
  if (s.class_options.item_stride < 1) throw InputError("--work-sample must be >= 1");
  if (s.class_options.item_stride > 1 && (s.engine != "classes" || vm.count("out")))
    throw InputError("--work-sample is a benchmark of the classes engine (no --out)");
  s.class_options.checkpoint_seconds = vm["checkpoint-seconds"].as<double>();
  if (!(s.class_options.checkpoint_seconds >= 0))
    throw InputError("--checkpoint-seconds must be >= 0");
  // By value, not by defaulted(): an effective configuration lists every default.
  if (s.class_options.checkpoint_seconds != ClassEngineOptions{}.checkpoint_seconds && !sweeps)
    throw InputError("--checkpoint-seconds applies to class sweeps only (engine classes, --dominance-by classes)");
  s.class_options.threads =
      threads != 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  s.encoding = vm["encoding"].as<std::string>();
  const std::string order = vm["order"].as<std::string>();
  if (s.encoding == "slot") {
    s.slot = {order.empty() ? SlotEncodingOptions{}.order : order, vm["line-code"].as<std::string>()};
    s.slot.check();
  } else if (s.encoding == "cell") {
    if (!vm["line-code"].defaulted()) throw InputError("--line-code applies to the slot encoding only");
    s.cell.order = order.empty() ? CellEncodingOptions{}.order : order;
    s.cell.check();
  } else {
    throw InputError("unknown encoding '" + s.encoding + "' (expected slot or cell)");
  }
  if (s.engine != "bdd")
    for (const char* name : {"order", "line-code", "encoding"})
      if (!vm[name].defaulted())
        throw InputError(std::string("--") + name + " applies to the bdd engine only");

  s.bdd.initial_nodes = vm["bdd-nodes"].as<int>();
  s.bdd.cache_size = vm["bdd-cache"].as<int>();
  s.bdd.cache_ratio = vm["bdd-cache-ratio"].as<int>();
  s.bdd.max_increase = vm["bdd-max-increase"].as<int>();
  s.bdd.min_free_percent = vm["bdd-min-free"].as<int>();
  s.bdd.max_nodes = vm["bdd-max-nodes"].as<std::int64_t>();
  s.bdd.max_bytes = parse_bytes(vm["max-memory"].as<std::string>());
  s.bdd.check();

  const int samples = vm["samples"].as<int>();
  const int sample_indices = vm["sample-indices"].as<int>();
  if (samples < 0 || sample_indices < 0) throw InputError("--samples and --sample-indices must be >= 0");
  s.retrograde.samples_per_index = s.explicit_options.samples_per_index = samples;
  s.retrograde.sample_indices = s.explicit_options.sample_indices = sample_indices;
  s.class_options.samples_per_index = samples;
  s.class_options.sample_indices = sample_indices;
  s.retrograde.dominance = !vm["no-dominance"].as<bool>() && !s.dominance_by_classes;
  const std::string indices = vm["dominance-indices"].as<std::string>();
  if (indices == "auto") {
    s.retrograde.dominance_indices = s.rules.size() <= 5 ? -1 : 30;
  } else if (indices == "all") {
    s.retrograde.dominance_indices = -1;
  } else {
    std::size_t used = 0;
    try {
      s.retrograde.dominance_indices = std::stoi(indices, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != indices.size() || s.retrograde.dominance_indices < 0)
      throw InputError("--dominance-indices: '" + indices + "' is not auto, all or a count >= 0");
  }
  s.retrograde.dominance_components = vm["dominance-components"].as<std::int64_t>();
  s.retrograde.max_layers = vm["max-layers"].as<int>();
  s.retrograde.dominance_stop = vm["dominance-stop"].as<int>();
  if (s.retrograde.dominance_stop < -1) throw InputError("--dominance-stop must be >= -1");
  if (s.retrograde.dominance_stop > 0 && !s.retrograde.dominance)
    throw InputError("--dominance-stop goes with the dominance pass (not with --no-dominance)");
  const std::string frontiers = vm["frontiers"].as<std::string>();
  if (frontiers != "auto" && frontiers != "limited" && frontiers != "unlimited")
    throw InputError("unknown frontiers '" + frontiers + "' (expected auto, limited or unlimited)");
  s.retrograde.frontiers = frontiers == "limited"     ? Frontiers::Limited
                           : frontiers == "unlimited" ? Frontiers::Unlimited
                                                      : Frontiers::Auto;
  if (s.retrograde.dominance_components < -1 || s.retrograde.max_layers < -1)
    throw InputError("--dominance-components and --max-layers must be >= -1");
  if (s.retrograde.max_layers == 0) throw InputError("--max-layers must be at least 1");

  if (vm.count("out")) s.out = vm["out"].as<std::string>();
  s.resume = vm["resume"].as<bool>();
  if (s.resume && s.out.empty()) throw InputError("--resume needs --out DIR");
  if (s.resume && s.engine == "explicit") throw InputError("--resume applies to the bdd and classes engines only");
  if (s.engine == "classes" && s.rules.size() > kMaxClassEngineSize)
    throw InputError("the classes engine supports sizes up to " + std::to_string(kMaxClassEngineSize));
  s.quiet = vm["quiet"].as<bool>();
  if (vm.count("log")) s.log_file = vm["log"].as<std::string>();

  std::ostringstream config;
  for (const auto& [name, value] : vm) {
    if (name == "config" || name == "help") continue;
    config << name << " = ";
    const auto& any = value.value();
    if (const auto* i = boost::any_cast<int>(&any)) config << *i;
    else if (const auto* l = boost::any_cast<std::int64_t>(&any)) config << *l;
    else if (const auto* b = boost::any_cast<bool>(&any)) config << (*b ? "true" : "false");
    else if (const auto* d = boost::any_cast<double>(&any)) config << *d;
    else if (const auto* t = boost::any_cast<std::string>(&any)) config << *t;
    config << "\n";
  }
  s.configuration = config.str();
  return s;
}

// Progress lines go to stderr (unless quiet) and to the --log file.
class ProgressLog {
 public:
  ProgressLog(bool quiet, const std::string& file) : quiet_(quiet) {
    if (!file.empty()) {
      file_.open(file, std::ios::app);
      if (!file_) throw InputError("cannot open log file '" + file + "'");
    }
  }
  void line(const std::string& text) {
    if (!quiet_) std::cerr << text << std::endl;
    if (file_.is_open()) file_ << text << std::endl;
  }

 private:
  bool quiet_;
  std::ofstream file_;
};

std::string layer_line(int index, std::uint64_t count, std::uint64_t nodes, double seconds,
                       double elapsed) {
  char text[200];
  std::snprintf(text, sizeof text, "layer %3d: %14llu configurations, %10llu nodes, %8.2f s, elapsed %9.1f s, RSS %s",
                index, static_cast<unsigned long long>(count), static_cast<unsigned long long>(nodes),
                seconds, elapsed, mib(current_rss_bytes()).c_str());
  return text;
}

void print_summary(const Classification& c, const std::filesystem::path& out) {
  std::cout << "rushhour classify: " << c.rules.describe() << "\n"
            << "engine " << c.engine << ", encoding " << c.encoding << ", order "
            << c.variable_order << (c.complete ? "" : "  (INCOMPLETE: stopped early)") << "\n"
            << "domain " << c.domain_count << ", winning " << c.winning_count << ", solvable "
            << c.solvable_count << ", " << (c.complete ? "unsolvable " : "not yet classified ")
            << c.unsolvable_count << ", max index " << c.max_index() << "\n\n";
  std::cout << "index  configurations  non-dominated  components\n";
  for (int i = 0; i <= c.max_index(); ++i) {
    std::cout << std::setw(5) << i << std::setw(16) << c.layers[i].count;
    if (i < static_cast<int>(c.nondominated.size()))
      std::cout << std::setw(15) << c.nondominated[i] << std::setw(12)
                << (c.components[i] < 0 ? std::string("-") : std::to_string(c.components[i]));
    std::cout << "\n";
  }
  for (const Sample& sample : c.samples) {
    if (static_cast<int>(sample.index) != c.max_index()) continue;
    std::cout << "\nhardest configuration (index " << sample.index << "): " << sample.board << "\n"
              << to_grid(c.rules, parse_board(sample.board, c.rules));
    break;
  }
  std::cout << "\n" << c.seconds << " s, peak RSS " << mib(c.peak_rss_bytes);
  if (!out.empty()) std::cout << ", wrote " << (out / "classification.h5").string();
  std::cout << "\n";
}

Classification run_bdd(const ClassifySettings& s, ProgressLog& log) {
  BddSession session(0, s.bdd, [&log](const std::string& note) { log.line(note); });
  const auto build_start = std::chrono::steady_clock::now();
  std::unique_ptr<StateEncoding> built;
  if (s.encoding == "cell")
    built = std::make_unique<CellEncoding>(session, s.rules, s.cell);
  else
    built = std::make_unique<SlotEncoding>(session, s.rules, s.slot);
  const StateEncoding& encoding = *built;
  const std::string layout = s.encoding == "cell"
                                 ? "coding sequential, order " + s.cell.order + ", clustering line"
                                 : "line code " + s.slot.line_code + ", order " + s.slot.order + ", clustering line";
  int relation_nodes = 0;
  for (const TransitionPart& part : encoding.transitions(s.rules.metric()))
    relation_nodes += bdd_nodecount(part.relation);
  log.line("encoding " + encoding.name() + " (" + layout + "): " +
           std::to_string(encoding.variable_count()) + " variables, domain " +
           std::to_string(bdd_nodecount(encoding.domain())) + " nodes, winning " +
           std::to_string(bdd_nodecount(encoding.winning())) + " nodes, " +
           std::to_string(encoding.transitions(s.rules.metric()).size()) + " transition parts " +
           std::to_string(relation_nodes) + " nodes, built in " +
           std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - build_start).count()) + " s");
  const std::string parameters =
      encoding.layout_description() + " metric=" + to_string(s.rules.metric());
  std::unique_ptr<LayerStore> store;
  std::unique_ptr<DominanceCheckpoint> checkpoint;
  LayerStore::Loaded finished;
  RetrogradeOptions options = s.retrograde;
  if (!s.out.empty()) {
    store = std::make_unique<LayerStore>(s.out, parameters);
    // The components figures depend on the budget options.
    const std::string dominance_parameters =
        parameters + " dominance_indices=" + std::to_string(s.retrograde.dominance_indices) +
        " dominance_components=" + std::to_string(s.retrograde.dominance_components);
    checkpoint = std::make_unique<DominanceCheckpoint>(s.out, dominance_parameters);
    if (s.resume) {
      const int count = store->finished_layers();
      finished = store->load(count);
      session.check();
      log.line("resuming after " + std::to_string(count) + " finished layers in " +
               store->directory().string());
      if (s.retrograde.dominance) {
        std::string why;
        options.resume_dominance = checkpoint->load(count, &why);
        session.check();
        if (!options.resume_dominance) log.line("dominance starts at the top: " + why);
      }
    } else {
      if (const int removed = store->clear(); removed > 0)
        log.line("fresh run: removed " + std::to_string(removed) + " old layer files");
      checkpoint->clear();
    }
    if (s.retrograde.dominance)
      options.on_dominance = [&checkpoint](const DominanceProgress& progress) {
        checkpoint->save(progress);
      };
  }
  // Every layer is saved by then, so the dominance pass may read them back one at a time.
  if (store) options.reload_layer = [&store](int index) { return store->load_one(index); };
  const int already = static_cast<int>(finished.layers.size());
  if (store)
    options.on_layer = [&store, already](int index, const bdd& layer, double seconds) {
      if (index >= already) store->save(index, layer, seconds);
    };
  options.on_progress = [&log](const LayerProgress& p) {
    log.line(layer_line(p.index, p.count, p.frontier_nodes, p.seconds, p.elapsed) +
             ", visited " + std::to_string(p.visited_nodes) + " nodes, table " +
             std::to_string(p.table_nodes));
  };
  options.on_note = [&log](const std::string& note) { log.line(note); };
  options.should_stop = [] { return stop_signal != 0; };
  std::vector<double> finished_seconds;
  for (const std::optional<double>& seconds : finished.seconds)
    finished_seconds.push_back(seconds.value_or(std::numeric_limits<double>::quiet_NaN()));
  SymbolicRun run =
      classify_symbolic(encoding, session, options, std::move(finished.layers), finished_seconds);
  return std::move(run.figures);
}

// The class sweep, checkpointed in DIR and resumed from it with --resume.
ClassCensus sweep_classes(const ClassifySettings& s, ProgressLog& log) {
  ClassEngineOptions options = s.class_options;
  options.on_progress = [&log](const ClassProgress& p) {
    char text[240];
    std::snprintf(text, sizeof text,
                  "classes: work items %llu/%llu, %llu classes, %llu configurations, elapsed %.1f s, RSS %s",
                  static_cast<unsigned long long>(p.items_done), static_cast<unsigned long long>(p.items_total),
                  static_cast<unsigned long long>(p.classes), static_cast<unsigned long long>(p.states),
                  p.elapsed, mib(current_rss_bytes()).c_str());
    log.line(text);
  };
  options.should_stop = [] { return stop_signal != 0; };
  std::optional<ClassCheckpoint> checkpoint;
  std::optional<ClassSweepState> resumed;
  if (!s.out.empty()) {
    checkpoint.emplace(s.out, class_sweep_parameters(s.rules, options.samples_per_index, options.sample_indices));
    if (s.resume) {
      std::string why;
      resumed = checkpoint->load(&why);
      if (!resumed && std::filesystem::exists(checkpoint->path())) throw InputError("cannot resume: " + why);
      log.line(resumed ? "classes: resuming at work item " + std::to_string(resumed->next_item) + " of " +
                             std::to_string(resumed->items)
                       : "classes: " + why + ", starting at the first work item");
    } else {
      checkpoint->clear();
    }
    if (resumed) options.resume = &*resumed;
    options.on_checkpoint = [&checkpoint](const ClassSweepState& state) { checkpoint->save(state); };
  }
  ClassCensus census = classify_by_classes(s.rules, options);
  if (census.complete || (options.item_stride > 1 && stop_signal == 0))
    log.line("classes: " + std::to_string(census.classes) + " classes in " + std::to_string(census.seconds) +
             " s on " + std::to_string(options.threads) + " threads" +
             (census.complete ? "" : ", a work sample (every " + std::to_string(options.item_stride) + "th item)"));
  else
    log.line(checkpoint ? "classes: stopped early; --resume continues from " + checkpoint->path().string()
                        : "classes: stopped early; without --out there is no checkpoint");
  return census;
}

Classification run_classes(const ClassifySettings& s, ProgressLog& log) {
  const ClassCensus census = sweep_classes(s, log);
  const int stride = s.class_options.item_stride;
  if (stride > 1 && stop_signal == 0) {
    std::uint64_t states = 0;
    for (const VehicleTally& tally : census.tallies) states += tally.domain;
    char text[200];
    std::snprintf(text, sizeof text,
                  "work sample 1/%d: %llu classes, %llu configurations in %.2f s, %.2f M configurations/s",
                  stride, static_cast<unsigned long long>(census.classes),
                  static_cast<unsigned long long>(states), census.seconds, static_cast<double>(states) / census.seconds / 1e6);
    std::cout << text << std::endl;
  }
  if (!census.complete) return Classification(s.rules);  // partial sums are no classification
  Classification result = census.classification(s.rules.limits());
  result.peak_rss_bytes = peak_rss_bytes();
  return result;
}

// --dominance-by classes: the dominance figures of the finished layers from a class sweep,
// whose per-index counts must equal the layers'.
void add_class_dominance(const ClassifySettings& s, ProgressLog& log, Classification& result) {
  const ClassCensus census = sweep_classes(s, log);
  if (!census.complete) return;  // stopped: the layers are written without dominance figures
  const Classification figures = census.classification(s.rules.limits());
  if (figures.layers.size() != result.layers.size())
    throw std::runtime_error("the class sweep found " + std::to_string(figures.layers.size()) +
                             " indices, the layers " + std::to_string(result.layers.size()));
  for (std::size_t i = 0; i < figures.layers.size(); ++i)
    if (figures.layers[i].count != result.layers[i].count)
      throw std::runtime_error("the class sweep counts " + std::to_string(figures.layers[i].count) +
                               " configurations of index " + std::to_string(i) + ", the layer " +
                               std::to_string(result.layers[i].count));
  log.line("classes: every index's count equals its layer's; dominance figures from the class sweep");
  result.nondominated = figures.nondominated;
  result.components = figures.components;
}

}  // namespace

int run_classify(const std::vector<std::string>& args) {
  const auto vm = parse_options(kUsage, classify_options(), args);
  if (!vm) return 0;
  const ClassifySettings s = settings_from(*vm);
  ProgressLog log(s.quiet, s.log_file);
  log.line("classify " + s.rules.describe() + ", engine " + s.engine);
  if (!s.out.empty()) std::filesystem::create_directories(s.out);

  Classification result(s.rules);
  const StopSignals signals;
  if (s.engine == "explicit") {
    const auto start = std::chrono::steady_clock::now();
    result = classify_explicit(s.rules, s.explicit_options, [&](int index, const LayerFigures& f) {
      log.line(layer_line(index, f.count, 0, f.seconds,
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
    });
  } else if (s.engine == "classes") {
    result = run_classes(s, log);
  } else {
    result = run_bdd(s, log);
    if (s.dominance_by_classes && result.complete && signals.received() == 0) add_class_dominance(s, log, result);
  }
  if (s.engine != "bdd" && !s.retrograde.dominance) {
    result.nondominated.clear();
    result.components.clear();
  }
  if (s.engine == "classes" && !result.complete) {
    if (signals.received() == 0) return 0;  // a work sample: its figures are the rate only
    std::cerr << "rushhour: stopped by signal " << signals.received()
              << " at a safe point; the class sweep's checkpoint is kept, --resume continues" << std::endl;
    return 128 + signals.received();
  }
  if (!s.out.empty())
    write_classification(s.out / "classification.h5", result, RunMetadata::current(s.configuration));
  print_summary(result, s.out);
  if (signals.received() != 0) {
    // Said even with --quiet: the exit status alone does not tell what was kept.
    std::cerr << "rushhour: stopped by signal " << signals.received()
              << " at a safe point; finished layers are kept, --resume continues" << std::endl;
    return 128 + signals.received();
  }
  return 0;
}

std::string classify_configuration(const std::string& ini_text) {
  po::options_description options = classify_options();
  options.add_options()("config", po::value<std::string>(), "")("help,h", "");
  po::variables_map vm;
  std::istringstream text(ini_text);
  store_config(text, options, "config text", vm);
  try {
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(e.what());
  }
  return settings_from(vm).configuration;
}

}  // namespace rushhour::app
