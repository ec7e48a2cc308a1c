// The class engine with walls against the explicit engine (itself checked against a cell-by-cell
// oracle in explicit_walls_test.cpp), figure by figure with the samples: both metrics, the
// puzzle domain, other exit rows, vehicle limits, the 32-bit numbering, items refused by a tiny
// class bound and retried by a resume; and the census per number of walls.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "board/board_string.hpp"
#include "explicit/class_engine.hpp"
#include "reference_figures.hpp"
#include "run/class_sweep.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("Boards/ClassEngineWalls.EqualsTheExplicitEngineWithTheWideNumbering/5x5_*", long);

namespace rushhour {
namespace {

using test_support::expect_same_figures;
using test_support::explicit_figures;

struct WalledCase {
  const char* name;
  Rules rules;
};

class ClassEngineWalls : public ::testing::TestWithParam<WalledCase> {};

ClassEngineOptions two_threads() {
  ClassEngineOptions options;
  options.threads = 2;
  return options;
}

TEST_P(ClassEngineWalls, EqualsTheExplicitEngine) {
  const Rules& rules = GetParam().rules;
  const ClassCensus census = run::classify_by_classes(rules, two_threads());
  ASSERT_TRUE(census.complete);
  expect_same_figures(census.classification(), explicit_figures(rules), {.samples = true});
}

TEST_P(ClassEngineWalls, EqualsTheExplicitEngineWithTheWideNumbering) {
  const Rules& rules = GetParam().rules;
  ClassEngineOptions options = two_threads();
  options.wide_numbering = true;
  expect_same_figures(run::classify_by_classes(rules, options).classification(), explicit_figures(rules),
                      {.samples = true});
}

Rules walled(int n, WallRange walls, Metric metric = Metric::Step, Domain domain = Domain::All, int exit_row = -1,
             VehicleLimits limits = {}) {
  return Rules(n, exit_row, metric, limits, domain, walls);
}

INSTANTIATE_TEST_SUITE_P(
    Boards, ClassEngineWalls,
    ::testing::Values(WalledCase{"4x4_walls2_step", walled(4, {0, 2})},
                      WalledCase{"4x4_walls2_move", walled(4, {0, 2}, Metric::Move)},
                      WalledCase{"4x4_walls1to2_exit0", walled(4, {1, 2}, Metric::Step, Domain::All, 0)},
                      WalledCase{"4x4_walls3_exit3_move", walled(4, {0, 3}, Metric::Move, Domain::All, 3)},
                      WalledCase{"4x4_puzzle_walls2_step", walled(4, {0, 2}, Metric::Step, Domain::Puzzle)},
                      WalledCase{"4x4_puzzle_walls2_move", walled(4, {0, 2}, Metric::Move, Domain::Puzzle)},
                      WalledCase{"4x4_walls2_cars3", walled(4, {0, 2}, Metric::Step, Domain::All, -1, {3, -1, -1})},
                      WalledCase{"5x5_walls1_vehicles4", walled(5, {0, 1}, Metric::Step, Domain::All, -1, {-1, -1, 4})},
                      WalledCase{"5x5_walls1_cars3_exit1_move",
                                 walled(5, {1, 1}, Metric::Move, Domain::All, 1, {3, -1, -1})},
                      WalledCase{"5x5_puzzle_walls2_vehicles3",
                                 walled(5, {0, 2}, Metric::Move, Domain::Puzzle, -1, {-1, -1, 3})}),
    [](const ::testing::TestParamInfo<WalledCase>& param_info) { return std::string(param_info.param.name); });

TEST(ClassEngineWallsCensus, GivesTheFiguresOfEveryNumberOfWallsFromOneSweep) {
  const Rules rules = walled(4, {0, 2}, Metric::Move);
  const ClassCensus census = run::classify_by_classes(rules, two_threads());
  for (const WallRange walls : {WallRange{0, 0}, WallRange{1, 1}, WallRange{2, 2}, WallRange{1, 2}}) {
    SCOPED_TRACE(to_string(walls));
    // Samples are taken over the sweep's whole range: compared only where that is the range.
    expect_same_figures(census.classification(rules.limits(), walls),
                        explicit_figures(Rules(4, -1, Metric::Move, {}, Domain::All, walls)));
  }
  EXPECT_THROW(census.classification(rules.limits(), {0, 3}), InputError);
}

TEST(ClassEngineWallsCensus, SamplesHoldWalls) {
  const Rules rules = walled(4, {0, 2});
  const Classification figures = run::classify_by_classes(rules, two_threads()).classification();
  ASSERT_FALSE(figures.samples.empty());
  bool walled_sample = false;
  for (const auto& sample : figures.samples) {
    const Board board = parse_board(sample.board, rules);
    walled_sample = walled_sample || board.wall_count() > 0;
  }
  EXPECT_TRUE(walled_sample);
}

TEST(ClassEngineWallsCensus, RefusedItemsAreRetriedByAResume) {
  const Rules rules = walled(4, {0, 2});
  ClassEngineOptions options = two_threads();
  options.max_class_states = 20;
  std::optional<ClassSweepState> last;
  options.on_checkpoint = [&](const ClassSweepState& state) { last = state; };
  const ClassCensus bounded = run::classify_by_classes(rules, options);
  EXPECT_FALSE(bounded.complete);
  ASSERT_FALSE(bounded.refused.empty());
  ASSERT_TRUE(last.has_value());
  ClassEngineOptions retry = two_threads();
  retry.resume = &*last;
  expect_same_figures(run::classify_by_classes(rules, retry).classification(), explicit_figures(rules),
                      {.samples = true});
}

}  // namespace
}  // namespace rushhour
