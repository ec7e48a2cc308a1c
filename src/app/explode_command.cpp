// `rushhour explode`: the BDD size table of the naive coordinate encoding (SPEC §3, §6).
//
// Every (size, cars) cell runs in its own BddSession, so node counts, the peak and a node
// limit failure of one cell never touch the next. Per cell: Invar is built with the chosen
// conjunction schedule, then measured (CUDD-style and BuDDy node counts, decoded labeled
// placements); then, in a second fresh session with next-state variables, the naive model's
// winning set and step transition relation are built and measured.
#include <bdd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "app/commands.hpp"
#include "app/options.hpp"
#include "bdd/session.hpp"
#include "board/errors.hpp"
#include "encoding/naive_encoding.hpp"
#include "encoding/slot_encoding.hpp"
#include "storage/explosion_file.hpp"
#include "util/clock.hpp"
#include "util/process.hpp"

namespace rushhour::app {
namespace {

constexpr const char* kExplodeUsage =
    "usage: rushhour explode [--sizes 4,5,6] [--cars 2-9] [--node-limit N] [--time-limit S]\n"
    "                        [--schedule NAME] [--code nusmv|binary] [--order NAME]\n"
    "                        [--vertical up|down] [--no-relations] [--out FILE.h5]\n"
    "\n"
    "Builds Invar of the naive coordinate encoding (m labeled cars, per car x, y in 1..n and\n"
    "h) for every board size and car count, and prints its BDD size as CUDD counts it beside\n"
    "the published figure, BuDDy's count and the lower bound C(n^2, m-1). A cell that hits the\n"
    "node or time limit prints n/a and the run goes on.";

// The published table (SPEC §3): Invar nodes as NuSMV/CUDD reported them; absent = n/a.
const std::map<std::pair<int, int>, std::int64_t> kPublished = {
    {{4, 2}, 123},     {{4, 3}, 1237},     {{4, 4}, 7334},       {{4, 5}, 24227},
    {{4, 6}, 44209},   {{4, 7}, 50081},    {{4, 8}, 30762},      {{4, 9}, 1},
    {{5, 2}, 233},     {{5, 3}, 3918},     {{5, 4}, 44209},      {{5, 5}, 321114},
    {{5, 6}, 1520760}, {{6, 2}, 368},      {{6, 3}, 9490},       {{6, 4}, 172583},
    {{6, 5}, 2153132}};

constexpr int kMaxCars = 64;
// Measured: the 6x6, 6-car cell peaks at 4.4 GB resident with a 67M-node table; 5x5 with 8
// cars reached 10.7 GB before its time limit. The next doubling (134M) plus caches and the
// copy during a resize is about that much again, so 140M keeps a cell under ~12 GB.
constexpr std::int64_t kDefaultNodeLimit = 140'000'000;

class CellTimeLimit : public std::runtime_error {
 public:
  CellTimeLimit() : std::runtime_error("time limit") {}
};

// Linux resets the resident-set high-water mark (VmHWM) when "5" is written to clear_refs, so
// that peak_rss_bytes() afterwards belongs to the next cell alone. Best effort.
void reset_peak_rss() {
  std::ofstream clear("/proc/self/clear_refs");
  if (clear) clear << "5";
}

struct ExplodeConfig {
  std::vector<int> sizes;
  std::vector<int> cars;
  std::int64_t node_limit = kDefaultNodeLimit;
  double time_limit = 0;  // seconds per cell, 0 = none
  InvarSchedule schedule = InvarSchedule::CarByCar;
  ScalarCode code = ScalarCode::NuSmv;
  VariableOrder order = VariableOrder::CarBlocks;
  VerticalDirection vertical = VerticalDirection::Up;
  bool relations = true;
  std::optional<std::filesystem::path> out;

  // The published figures only apply to the published encoding.
  bool published_encoding() const {
    return code == ScalarCode::NuSmv && order == VariableOrder::CarBlocks &&
           vertical == VerticalDirection::Up;
  }
};

struct CellResult {
  ExplosionRow row;
  std::string status = "ok";  // ok | node limit | time limit
  double build_seconds = 0;
  std::int64_t peak_table_nodes = -1;  // allocated node table at the end of the build
  std::uint64_t peak_rss_bytes = 0;
  std::int64_t winning_nodes = -1;     // CUDD-style, -1 = not built
  std::int64_t transition_nodes = -1;  // CUDD-style, -1 = not built
  std::string relation_status;
};

BddSettings cell_settings(const ExplodeConfig& config) {
  BddSettings settings;
  settings.max_nodes = config.node_limit;
  // A small limit starts from a table below it, so that the limit is reached by growth.
  if (settings.max_nodes > 0 && settings.max_nodes / 2 < settings.initial_nodes)
    settings.initial_nodes = static_cast<int>(std::max<std::int64_t>(1000, settings.max_nodes / 2));
  return settings;
}

NaiveOptions naive_options(const ExplodeConfig& config, int size, int cars, bool next_state) {
  NaiveOptions options;
  options.size = size;
  options.cars = cars;
  options.code = config.code;
  options.order = config.order;
  options.vertical = config.vertical;
  options.next_state = next_state;
  return options;
}

void measure_invariant(const ExplodeConfig& config, CellResult& cell) {
  const NaiveOptions options = naive_options(config, cell.row.size, cell.row.cars, false);
  const auto start = Clock::now();
  BddSession session(NaiveEncoding::variable_count(options), cell_settings(config));
  std::int64_t peak = 0;  // kept for unfinished cells too: how far the build got
  try {
    const NaiveEncoding encoding(options);
    const bdd invar = encoding.invariant(config.schedule, [&] {
      session.check();
      peak = std::max(peak, session.live_nodes());
      if (config.time_limit > 0 && seconds_since(start) > config.time_limit) throw CellTimeLimit();
    });
    session.check();
    cell.build_seconds = seconds_since(start);
    cell.row.peak_nodes = std::max(peak, session.live_nodes());
    cell.peak_table_nodes = session.table_nodes();
    cell.row.nodes = complement_edge_node_count(invar);
    cell.row.buddy_nodes = bdd_nodecount(invar);
    cell.row.labeled_placements = labeled_placements(encoding, invar);
    session.check();
  } catch (const BddFailure& failure) {
    // Node table exhaustion is the expected way for a cell to fail; anything else is
    // reported as it is.
    cell.status = bdd_errstring(BDD_NODENUM) != nullptr &&
                          std::string(failure.what()).find(bdd_errstring(BDD_NODENUM)) !=
                              std::string::npos
                      ? "node limit"
                      : "BDD failure";
    if (cell.status != "node limit") std::cerr << "explode: " << failure.what() << std::endl;
  } catch (const CellTimeLimit&) {
    cell.status = "time limit";
  }
  if (cell.status != "ok") {
    cell.row.nodes = cell.row.buddy_nodes = cell.row.labeled_placements = -1;
    cell.row.peak_nodes = peak;
    cell.peak_table_nodes = session.table_nodes();
    cell.build_seconds = seconds_since(start);
  }
  cell.row.seconds = seconds_since(start);
}

void measure_relations(const ExplodeConfig& config, CellResult& cell) {
  const NaiveOptions options = naive_options(config, cell.row.size, cell.row.cars, true);
  BddSession session(NaiveEncoding::variable_count(options), cell_settings(config));
  try {
    const NaiveEncoding encoding(options);
    const bdd winning = encoding.winning();
    const bdd transition = encoding.transition_step();
    session.check();
    cell.winning_nodes = complement_edge_node_count(winning);
    cell.transition_nodes = complement_edge_node_count(transition);
    cell.relation_status = "ok";
  } catch (const BddFailure&) {
    cell.relation_status = "node limit";
  }
}

// The cure beside the explosion: the dual row/column encoding (the paper's slot code,
// interleaved order) of the same board holding exactly `cars` unlabeled cars and no truck.
void measure_dual(const ExplodeConfig& config, CellResult& cell) {
  BddSession session(0, cell_settings(config));
  try {
    const SlotEncoding encoding(session, Rules(cell.row.size), SlotEncodingOptions{"interleaved", "slot"});
    const bdd legal = encoding.legal().states() & encoding.vehicle_count_is(cell.row.cars, 0);
    session.check();
    cell.row.dual_legal_nodes = complement_edge_node_count(legal);
  } catch (const BddFailure&) {
    cell.row.dual_legal_nodes = -1;
  }
}

std::string number(std::int64_t value) {
  // Thin spaces would confuse greps; plain digits with a thousands separator ' ' as published.
  std::string digits = std::to_string(value);
  std::string out;
  const int lead = static_cast<int>(digits.size()) % 3;
  for (std::size_t k = 0; k < digits.size(); ++k) {
    if (k > 0 && (static_cast<int>(k) - lead) % 3 == 0 && digits[0] != '-') out += ' ';
    out += digits[k];
  }
  return out;
}

std::string fixed(double value, int precision) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(precision) << value;
  return text.str();
}

void print_table(const ExplodeConfig& config, const std::vector<CellResult>& cells) {
  std::cout << "# Naive coordinate encoding: Invar BDD size\n\n"
            << "code " << to_string(config.code) << ", order " << to_string(config.order)
            << ", vertical " << to_string(config.vertical) << ", schedule "
            << to_string(config.schedule) << ", node limit "
            << (config.node_limit > 0 ? number(config.node_limit) : "none") << ", time limit "
            << (config.time_limit > 0 ? fixed(config.time_limit, 0) + " s" : "none") << "\n\n"
            << "| n | m | nodes (CUDD-style) | published | match | BuDDy nodes | lower bound "
               "C(n²,m−1) | labeled placements | build s | cell s | peak nodes | peak RSS MiB "
               "| dual legal nodes |\n"
            << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const CellResult& cell : cells) {
    const ExplosionRow& r = cell.row;
    const bool done = cell.status == "ok";
    const std::string published = r.published >= 0 ? number(r.published) : "n/a";
    std::string match = "—";
    if (done && r.published >= 0 && config.published_encoding())
      match = r.nodes == r.published ? "yes" : "NO";
    std::cout << "| " << r.size << " | " << r.cars << " | "
              << (done ? number(r.nodes) : "n/a (" + cell.status + ")") << " | " << published
              << " | " << match << " | " << (done ? number(r.buddy_nodes) : "n/a") << " | "
              << number(r.lower_bound) << " | "
              << (done ? number(r.labeled_placements) : "n/a") << " | "
              << fixed(cell.build_seconds, 2) << " | " << fixed(r.seconds, 2) << " | "
              << (done ? "" : "≥ ") << number(r.peak_nodes) << " | "
              << fixed(static_cast<double>(cell.peak_rss_bytes) / (1024.0 * 1024.0), 0)
              << " | " << (r.dual_legal_nodes >= 0 ? number(r.dual_legal_nodes) : "—") << " |\n";
  }
  if (!config.relations) return;
  std::cout << "\n## Naive model: winning set and step transition relation (CUDD-style nodes)\n\n"
            << "Win = car 1 horizontal in the exit row with its right cell in column n; "
               "Trans = exactly one car moves one cell along its axis, all else unchanged "
               "(current and next variables interleaved). Neither is conjoined with Invar: "
               "Invar(s) ∧ Trans(s,s') ∧ Invar(s') is the step relation.\n\n"
            << "| n | m | Win nodes | Trans nodes |\n|---|---|---|---|\n";
  for (const CellResult& cell : cells) {
    const bool done = cell.relation_status == "ok";
    std::cout << "| " << cell.row.size << " | " << cell.row.cars << " | "
              << (done ? number(cell.winning_nodes) : "n/a (" + cell.relation_status + ")")
              << " | " << (done ? number(cell.transition_nodes) : "n/a") << " |\n";
  }
}

// The effective options, one "key = value" per line, recorded in the output file.
std::string configuration_text(const ExplodeConfig& config) {
  auto list = [](const std::vector<int>& values) {
    std::string text;
    for (int v : values) {
      if (!text.empty()) text += ',';
      text += std::to_string(v);
    }
    return text;
  };
  std::ostringstream text;
  text << "command = explode\n"
       << "sizes = " << list(config.sizes) << "\n"
       << "cars = " << list(config.cars) << "\n"
       << "node-limit = " << config.node_limit << "\n"
       << "time-limit = " << config.time_limit << "\n"
       << "schedule = " << to_string(config.schedule) << "\n"
       << "code = " << to_string(config.code) << "\n"
       << "order = " << to_string(config.order) << "\n"
       << "vertical = " << to_string(config.vertical) << "\n";
  return text.str();
}

ExplodeConfig parse_config(const po::variables_map& vm) {
  ExplodeConfig config;
  config.sizes = parse_int_list(vm["sizes"].as<std::string>(), "sizes", 2, 8, [](int size) {
    return "board size " + std::to_string(size);
  });
  config.cars = parse_int_list(vm["cars"].as<std::string>(), "cars", 1, kMaxCars, [](int cars) {
    return std::to_string(cars) + " cars";
  });
  config.node_limit = vm["node-limit"].as<std::int64_t>();
  if (config.node_limit != 0 &&
      (config.node_limit < 10000 || config.node_limit > std::numeric_limits<int>::max()))
    throw InputError("--node-limit must be 0 (none) or in 10000.." +
                     std::to_string(std::numeric_limits<int>::max()));
  config.time_limit = vm["time-limit"].as<double>();
  if (config.time_limit < 0) throw InputError("--time-limit must be >= 0 seconds");
  config.schedule = parse_invar_schedule(vm["schedule"].as<std::string>());
  config.code = parse_scalar_code(vm["code"].as<std::string>());
  config.order = parse_variable_order(vm["order"].as<std::string>());
  config.vertical = parse_vertical_direction(vm["vertical"].as<std::string>());
  config.relations = !vm["no-relations"].as<bool>();
  if (vm.count("out")) config.out = vm["out"].as<std::string>();
  return config;
}

}  // namespace

int run_explode(const std::vector<std::string>& args) {
  po::options_description options("explode options");
  std::string schedules;
  for (const auto& name : invar_schedule_names()) schedules += (schedules.empty() ? "" : "|") + name;
  options.add_options()
      ("sizes", po::value<std::string>()->default_value("4,5,6"), "board sizes n, e.g. 4,5,6 or 4-6")
      ("cars", po::value<std::string>()->default_value("2-9"), "car counts m, e.g. 2-9")
      ("node-limit", po::value<std::int64_t>()->default_value(kDefaultNodeLimit),
       "BuDDy node table ceiling per cell (0 = none); a cell that hits it prints n/a")
      ("time-limit", po::value<double>()->default_value(0),
       "seconds per cell (0 = none), checked after every BDD operation of the build")
      ("schedule", po::value<std::string>()->default_value("car-by-car"),
       ("conjunction schedule of Invar: " + schedules).c_str())
      ("code", po::value<std::string>()->default_value("nusmv"),
       "scalar code of x and y: nusmv (published) | binary")
      ("order", po::value<std::string>()->default_value("car-blocks"),
       "variable order: car-blocks (published) | car-blocks-h-first | bit-interleaved")
      ("vertical", po::value<std::string>()->default_value("up"),
       "a vertical car covers (x,y),(x,y+1) (up, published) or (x,y),(x,y-1) (down)")
      ("no-relations", po::bool_switch()->default_value(false),
       "skip the winning set and transition relation table")
      ("out", po::value<std::string>(), "write the table as HDF5 (datasets per SPEC §6)");
  const auto vm = parse_options(kExplodeUsage, options, args);
  if (!vm) return 0;
  const ExplodeConfig config = parse_config(*vm);

  std::vector<CellResult> cells;
  std::vector<ExplosionRow> rows;
  for (int size : config.sizes) {
    for (int cars : config.cars) {
      CellResult cell;
      cell.row.size = size;
      cell.row.cars = cars;
      cell.row.lower_bound = naive_lower_bound(size, cars);
      if (const auto it = kPublished.find({size, cars}); it != kPublished.end())
        cell.row.published = it->second;
      std::cerr << "explode n=" << size << " m=" << cars << ": building Invar ("
                << to_string(config.schedule) << ")" << std::endl;
      reset_peak_rss();
      measure_invariant(config, cell);
      cell.peak_rss_bytes = peak_rss_bytes();
      if (config.relations) measure_relations(config, cell);
      measure_dual(config, cell);
      std::cerr << "explode n=" << size << " m=" << cars << ": "
                << (cell.status == "ok" ? number(cell.row.nodes) + " nodes (BuDDy " +
                                              number(cell.row.buddy_nodes) + ", published " +
                                              (cell.row.published >= 0 ? number(cell.row.published)
                                                                       : "n/a") +
                                              "), " + number(cell.row.labeled_placements) +
                                              " placements"
                                        : "n/a (" + cell.status + ")")
                << ", build " << fixed(cell.build_seconds, 2) << " s, cell "
                << fixed(cell.row.seconds, 2) << " s, peak "
                << number(cell.row.peak_nodes) << " nodes, table " << number(cell.peak_table_nodes) << ", peak RSS "
                << fixed(static_cast<double>(cell.peak_rss_bytes) / (1024.0 * 1024.0), 0)
                << " MiB" << std::endl;
      cells.push_back(cell);
      rows.push_back(cell.row);
      // Written after every cell, atomically, so a long run that is stopped keeps its cells.
      if (config.out)
        write_explosion_table(*config.out, rows, RunMetadata::current(configuration_text(config)));
    }
  }
  print_table(config, cells);
  return 0;
}

}  // namespace rushhour::app
