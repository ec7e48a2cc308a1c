// One set of expectations over every engine of the registry (run/engine.hpp), run through the
// one Engine interface: the explicit engine's figures are the reference, checked count by
// count (domain, winning, solvable, unsolvable, per-index counts, non-dominated, components)
// and sample by sample where the engines choose the same samples (the explicit and the class
// engine take the least keys; the bdd engine's samples are checked by a search from each
// board). The bdd engine runs with each encoding and with each dominance path, the class
// engine also with most classes on its symbolic path and with every class on bit sets (the
// mirror on where it applies). Boards: 4x4
// and 5x5 with both metrics, vehicle limits and other exit rows, 6x6 with few vehicles.
#include "run/engine.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <ostream>
#include <vector>

#include "bdd_test_support.hpp"
#include "board/board_string.hpp"
#include "board/search.hpp"
#include "reference_figures.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("FiveByFive/EveryEngine.*/bdd_cell_5x5_step", long);
RUSHHOUR_TEST_TIER_OF("FiveByFive/EveryEngine.*/bdd_cell_5x5_move", long);
RUSHHOUR_TEST_TIER_OF("FiveByFive/EveryEngine.*/bdd_slot_5x5_step", long);
RUSHHOUR_TEST_TIER_OF("FiveByFive/EveryEngine.*/bdd_slot_5x5_move", long);
RUSHHOUR_TEST_TIER_OF("FiveByFive/EveryEngine.*/classes_symbolic_5x5_*", long);

namespace rushhour {
namespace {

// An engine as the run layer configures it.
struct EngineVariant {
  std::string name;
  run::EngineKind kind;
  EncodingKind encoding = EncodingKind::Slot;
  bool dominance_by_classes = false;
  // The class engine with most of the configurations on its symbolic path
  // (run/symbolic_class.hpp): the classes of more than symbolic_threshold(rules) states.
  bool symbolic_classes = false;
  // The class engine with every class it solves itself searched on bit sets
  // (explicit/class_bit_search.hpp): --bit-search-above 0.
  bool bit_search = false;
};

// 12 states on 4x4 (70% of the configurations, 250 classes), 256 on 5x5 (30%, 2 700 classes:
// most classes would take minutes), 64 on 6x6 with 4 vehicles (80%).
std::uint64_t symbolic_threshold(const Rules& rules) {
  return rules.size() == 4 ? 12 : rules.size() == 5 ? 256 : 64;
}

const std::vector<EngineVariant>& every_engine() {
  static const std::vector<EngineVariant> variants = {
      {"explicit", run::EngineKind::Explicit},
      {"classes", run::EngineKind::Classes},
      {"bdd_slot", run::EngineKind::Symbolic, EncodingKind::Slot},
      {"bdd_cell", run::EngineKind::Symbolic, EncodingKind::Cell},
      {"bdd_slot_dominance_by_classes", run::EngineKind::Symbolic, EncodingKind::Slot, true},
      {"classes_symbolic", run::EngineKind::Classes, EncodingKind::Slot, false, true},
      {"classes_bits", run::EngineKind::Classes, EncodingKind::Slot, false, false, true},
  };
  return variants;
}

struct EngineCase {
  EngineVariant variant;
  Rules rules;
};

void PrintTo(const EngineCase& c, std::ostream* out) { *out << c.variant.name << " on " << c.rules.describe(); }

// Every engine on every board, but for the explicit engine on whole 5x5 boards: there it would
// only compute its own reference again (tens of seconds); it runs through the run layer on the
// other boards. Walled boards leave out what refuses walls: the class engine's symbolic path
// (settings refuse --symbolic-above with walls), and the cell encoding in the puzzle domain
// (which it has with no walls either).
std::vector<EngineCase> every_engine_on(const std::vector<Rules>& boards) {
  std::vector<EngineCase> cases;
  for (const EngineVariant& variant : every_engine())
    for (const Rules& rules : boards) {
      if (variant.kind == run::EngineKind::Explicit && rules.size() >= 5 && rules.limits().unlimited()) continue;
      if (!rules.walls().none() && variant.symbolic_classes) continue;
      if (rules.domain() == Domain::Puzzle && variant.encoding == EncodingKind::Cell) continue;
      cases.push_back({variant, rules});
    }
  return cases;
}

Classification run_engine(const EngineVariant& variant, const Rules& rules) {
  run::RunSettings settings{.engine = variant.kind, .common = {.rules = rules, .quiet = true}};
  settings.symbolic.encoding = variant.encoding;
  settings.symbolic.dominance_by_classes = variant.dominance_by_classes;
  if (variant.symbolic_classes) settings.sweep.symbolic_above = symbolic_threshold(rules);
  if (variant.bit_search) settings.sweep.bit_search = run::BitSearchRule{0, 0};
  // 4x4 runs in a tiny node table so that garbage collection and table growth happen all the
  // time; larger boards would take minutes that way.
  if (rules.size() == 4) settings.symbolic.bdd = test_support::tiny_table();
  settings.sweep.threads = 2;
  run::ProgressLog log(true, "");
  return run::engine_for(variant.kind).run(settings, nullptr, log).figures;
}

std::map<std::uint32_t, std::size_t> samples_per_index(const std::vector<Sample>& samples) {
  std::map<std::uint32_t, std::size_t> per_index;
  for (const Sample& sample : samples) ++per_index[sample.index];
  return per_index;
}

// The bdd engine samples other boards of the same indices: as many per index as the
// reference, distinct, each in the domain with the index it is listed under.
void expect_samples_of_their_index(const Classification& got, const Classification& expected) {
  const Rules& rules = got.rules;
  EXPECT_EQ(samples_per_index(got.samples), samples_per_index(expected.samples));
  std::set<std::string> distinct;
  for (const Sample& sample : got.samples) {
    EXPECT_TRUE(distinct.insert(sample.board).second) << sample.board << " sampled twice";
    const auto solution = shortest_solution(rules, parse_board(sample.board, rules));
    ASSERT_TRUE(solution.has_value()) << sample.board << " is unsolvable";
    EXPECT_EQ(solution->size() - 1, sample.index) << sample.board;
  }
}

class EveryEngine : public ::testing::TestWithParam<EngineCase> {};

TEST_P(EveryEngine, GivesTheExplicitEnginesFigures) {
  const auto& [variant, rules] = GetParam();
  const Classification got = run_engine(variant, rules);
  const Classification& expected = test_support::explicit_figures(rules);
  EXPECT_EQ(got.engine, run::to_string(variant.kind));
  EXPECT_EQ(got.rules.describe(), rules.describe());
  ASSERT_EQ(got.nondominated.size(), expected.layers.size());
  // The explicit and the class engine take the same samples; the bdd engine its own.
  const bool same_samples = variant.kind != run::EngineKind::Symbolic;
  test_support::expect_same_figures(got, expected, {.samples = same_samples});
  if (!same_samples) expect_samples_of_their_index(got, expected);
}

std::string engine_case_name(const ::testing::TestParamInfo<EngineCase>& info) {
  const auto& [variant, rules] = info.param;
  std::string name = variant.name + "_" + std::to_string(rules.size()) + "x" + std::to_string(rules.size()) + "_" + to_string(rules.metric());
  if (rules.exit_row() != (rules.size() - 1) / 2) name += "_exit" + std::to_string(rules.exit_row());
  if (rules.limits().max_vehicles >= 0) name += "_v" + std::to_string(rules.limits().max_vehicles);
  if (rules.limits().max_cars >= 0) name += "_c" + std::to_string(rules.limits().max_cars);
  if (rules.limits().max_trucks >= 0) name += "_t" + std::to_string(rules.limits().max_trucks);
  if (rules.domain() == Domain::Puzzle) name += "_puzzle";
  if (!rules.walls().none()) name += "_walls" + to_string(rules.walls());
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(FourByFour, EveryEngine,
                         ::testing::ValuesIn(every_engine_on({
                             Rules(4, -1, Metric::Step),
                             Rules(4, -1, Metric::Move),
                             Rules(4, -1, Metric::Step, {.max_vehicles = 4}),
                             Rules(4, -1, Metric::Move, {.max_vehicles = 4}),
                             Rules(4, -1, Metric::Step, {.max_cars = 3, .max_trucks = 1}),
                             Rules(4, -1, Metric::Move, {.max_cars = 3, .max_trucks = 1}),
                             Rules(4, 0, Metric::Step),
                             Rules(4, 3, Metric::Move),
                         })),
                         engine_case_name);

INSTANTIATE_TEST_SUITE_P(FiveByFive, EveryEngine,
                         ::testing::ValuesIn(every_engine_on({
                             Rules(5, -1, Metric::Step),
                             Rules(5, -1, Metric::Move),
                             Rules(5, -1, Metric::Step, {.max_cars = 4, .max_trucks = 2}),
                             Rules(5, -1, Metric::Move, {.max_cars = 4, .max_trucks = 2}),
                             Rules(5, 4, Metric::Move, {.max_vehicles = 5}),
                         })),
                         engine_case_name);

Rules walled(int n, int exit_row, Metric metric, VehicleLimits limits, Domain domain, WallRange walls) {
  return Rules(n, exit_row, metric, limits, domain, walls);
}

INSTANTIATE_TEST_SUITE_P(WalledBoards, EveryEngine,
                         ::testing::ValuesIn(every_engine_on({
                             walled(4, -1, Metric::Step, {}, Domain::All, {0, 2}),
                             walled(4, -1, Metric::Move, {}, Domain::All, {1, 3}),
                             walled(4, -1, Metric::Step, {}, Domain::Puzzle, {0, 2}),
                             walled(4, 0, Metric::Move, {}, Domain::Puzzle, {1, 2}),
                             walled(4, 3, Metric::Step, {.max_cars = 2, .max_trucks = 1}, Domain::All, {0, 2}),
                             walled(5, -1, Metric::Step, {.max_vehicles = 4}, Domain::All, {0, 1}),
                             walled(5, -1, Metric::Move, {.max_vehicles = 4}, Domain::Puzzle, {0, 1}),
                         })),
                         engine_case_name);

INSTANTIATE_TEST_SUITE_P(SixBySixFewVehicles, EveryEngine,
                         ::testing::ValuesIn(every_engine_on({
                             Rules(6, -1, Metric::Step, {.max_vehicles = 4}),
                             Rules(6, -1, Metric::Move, {.max_vehicles = 4}),
                         })),
                         engine_case_name);

}  // namespace
}  // namespace rushhour
