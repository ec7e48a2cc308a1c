#include "board/search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "board/board_string.hpp"
#include "board/game.hpp"
#include "board/key_graph.hpp"
#include "explicit/explicit_engine.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("IndexLowerBound.NeverExceedsTheIndexOnFiveByFive", long);
RUSHHOUR_TEST_TIER_OF("ShortestSolution.EqualsTheExplicitEngineOnFiveByFiveSamples", long);

namespace rushhour {
namespace {

// The search's answer for every `stride`-th state of the domain equals the explicit engine's
// index, and its path is a solution: it starts at the board, ends winning, and each board is
// one step or move (the metric's) from the previous.
void expect_engine_indices(const Rules& rules, std::size_t stride) {
  const ExplicitSolution engine = ExplicitSolution::solve(rules);
  std::size_t solved = 0;
  for (std::size_t s = 0; s < engine.domain_size(); s += stride) {
    const Board board = engine.board(s);
    const auto path = shortest_solution(rules, board);
    const auto index = engine.index(s);
    ASSERT_EQ(path.has_value(), index.has_value()) << to_board_string(rules, board);
    if (!path) continue;
    ++solved;
    ASSERT_EQ(static_cast<int>(path->size()) - 1, *index) << to_board_string(rules, board);
    ASSERT_EQ(path->front(), board);
    ASSERT_TRUE(is_winning(rules, path->back()));
    for (std::size_t k = 1; k < path->size(); ++k) {
      const std::vector<Board> next = neighbours(rules.metric(), (*path)[k - 1]);
      ASSERT_NE(std::find(next.begin(), next.end(), (*path)[k]), next.end()) << to_board_string(rules, board);
    }
  }
  EXPECT_GT(solved, 0u);
}

// index_lower_bound never exceeds the explicit engine's index, is 0 exactly on the winning
// states, is the int maximum only on unsolvable ones, and is the index itself on some states
// of index > 0 (the bound is not trivially 1).
void expect_lower_bounds(const Rules& rules, std::size_t stride) {
  const ExplicitSolution engine = ExplicitSolution::solve(rules);
  std::size_t tight = 0;
  for (std::size_t s = 0; s < engine.domain_size(); s += stride) {
    const Board board = engine.board(s);
    const int bound = index_lower_bound(rules, board.key());
    const auto index = engine.index(s);
    ASSERT_EQ(bound == 0, is_winning(rules, board)) << to_board_string(rules, board);
    if (!index) continue;
    ASSERT_LE(bound, *index) << to_board_string(rules, board);
    if (bound == *index && bound > 1) ++tight;
  }
  EXPECT_GT(tight, 0u);
}

TEST(IndexLowerBound, NeverExceedsTheIndexOnFourByFour) {
  for (const Metric metric : {Metric::Step, Metric::Move})
    for (int exit_row = 0; exit_row < 4; ++exit_row) expect_lower_bounds(Rules(4, exit_row, metric), 1);
}

TEST(IndexLowerBound, NeverExceedsTheIndexOnFiveByFive) {
  expect_lower_bounds(Rules(5, -1, Metric::Step), 3);
  expect_lower_bounds(Rules(5, 0, Metric::Move), 5);
}

// Walls shut a blocker's way out of the exit row up or down: every 4x4 configuration with up
// to two walls, each exit row, both metrics.
TEST(IndexLowerBound, NeverExceedsTheIndexWithWalls) {
  for (const Metric metric : {Metric::Step, Metric::Move})
    for (int exit_row = 0; exit_row < 4; ++exit_row)
      expect_lower_bounds(Rules(4, exit_row, metric, {}, Domain::All, {0, 2}), 1);
  expect_lower_bounds(Rules(5, -1, Metric::Move, {-1, -1, 5}, Domain::Puzzle, {1, 1}), 7);
}

TEST(ShortestSolution, EqualsTheExplicitEngineOnEveryFourByFourBoardStep) {
  expect_engine_indices(Rules(4, -1, Metric::Step), 1);
}

TEST(ShortestSolution, EqualsTheExplicitEngineOnEveryFourByFourBoardMove) {
  expect_engine_indices(Rules(4, -1, Metric::Move), 1);
}

TEST(ShortestSolution, EqualsTheExplicitEngineOnFiveByFiveSamples) {
  expect_engine_indices(Rules(5, -1, Metric::Step), 4099);
  expect_engine_indices(Rules(5, 4, Metric::Move), 1999);
}

TEST(ShortestSolution, FindsTheHardestFiveByFiveSolutionAndStaysInsideTheComponent) {
  const Rules rules(5);
  const ExplicitSolution engine = ExplicitSolution::solve(rules);
  int highest = 0;
  std::size_t hardest = 0;
  for (std::size_t s = 0; s < engine.domain_size(); ++s)
    if (const auto index = engine.index(s); index && *index > highest) {
      highest = *index;
      hardest = s;
    }
  const auto path = shortest_solution(rules, engine.board(hardest));
  ASSERT_TRUE(path.has_value());
  EXPECT_EQ(static_cast<int>(path->size()) - 1, highest);
}

TEST(ShortestSolution, AnUnsolvableBoardHasNone) {
  const Rules rules(4);
  // Columns 2 and 3 are full of vertical cars: nothing moves but the target, never right.
  const Board board = parse_board(
      "ooBC\n"
      "AABC\n"
      "ooDE\n"
      "ooDE\n",
      rules);
  EXPECT_FALSE(shortest_solution(rules, board).has_value());
}

TEST(ShortestSolution, AWinningBoardIsItsOwnSolution) {
  const Rules rules(4);
  const Board board = parse_board(
      "oooo\n"
      "ooAA\n"
      "oooo\n"
      "oooo\n",
      rules);
  const auto path = shortest_solution(rules, board);
  ASSERT_TRUE(path.has_value());
  EXPECT_EQ(path->size(), 1u);
}

TEST(ShortestSolution, RefusesABoardOutsideTheDomain) {
  const Rules rules(4, -1, Metric::Step, VehicleLimits{.max_cars = 1});
  const Board two_cars(4, {Vehicle{1, 0, Orientation::Horizontal, kCar}, Vehicle{3, 0, Orientation::Horizontal, kCar}});
  EXPECT_THROW(shortest_solution(rules, two_cars), std::invalid_argument);
}

// Under the any rule a cluster is listed with the first of its hardest configurations that is
// minimal: whatever order they come in (the piece found not needed in one is tried first in
// the next), the answer is the first k for which is_minimal holds.
TEST(MinimalChoice, AnyRuleListsTheFirstMinimalConfigurationInEveryOrder) {
  // The 5x5 puzzle domain under the move metric, where some clusters' first hardest
  // configuration is not minimal but a later one is.
  const Rules rules(5, -1, Metric::Move, {}, Domain::Puzzle);
  const ExplicitSolution engine = ExplicitSolution::solve(rules);
  std::size_t tied = 0, listed_later = 0, refused = 0;
  // One test carried from cluster to cluster (its hint from the cluster before) answers alike.
  MinimalTest carried(rules);
  for (std::size_t s = 0; s < engine.domain_size() && tied < 400; s += 101) {
    const ComponentIndices component = component_indices(rules, engine.board(s));
    const int highest = *std::max_element(component.index.begin(), component.index.end());
    std::vector<Board> hardest;
    for (std::size_t k = 0; k < component.keys.size(); ++k)
      if (component.index[k] == highest) hardest.push_back(board_of_key(component.keys[k], rules.size()));
    if (highest <= 0 || hardest.size() < 2) continue;
    ++tied;
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) std::reverse(hardest.begin(), hardest.end());
      std::optional<std::size_t> first;
      for (std::size_t k = 0; k < hardest.size() && !first; ++k)
        if (is_minimal(rules, hardest[k], highest)) first = k;
      ASSERT_EQ(minimal_choice(rules, hardest, highest, MinimalRule::Any), first) << to_board_string(rules, hardest[0]);
      std::vector<BoardKey> keys;
      for (const Board& board : hardest) keys.push_back(board.key());
      ASSERT_EQ(carried.choose(keys, highest, MinimalRule::Any), first) << to_board_string(rules, hardest[0]);
      ASSERT_EQ(carried.choose(keys, highest, MinimalRule::Public), minimal_choice(rules, hardest, highest, MinimalRule::Public))
          << to_board_string(rules, hardest[0]);
      listed_later += first.value_or(0) > 0;
      refused += !first;
    }
  }
  EXPECT_EQ(tied, 400u);
  EXPECT_GT(listed_later, 0u);
  EXPECT_GT(refused, 0u);
}

TEST(MinimalChoice, ACarriedTestAnswersAlikeAcrossClustersOfOtherLines) {
  // The 5x5 domain with up to four vehicles: the exit row may hold a car left of the target
  // (never needed, so often the refusing piece), and a piece named in one cluster (its line and
  // rank) can then be another cluster's target, or name nothing there.
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const Rules rules(5, -1, metric, VehicleLimits{.max_vehicles = 4});
    const ExplicitSolution engine = ExplicitSolution::solve(rules);
    MinimalTest carried(rules);
    std::size_t tested = 0, minimal = 0;
    for (std::size_t s = 0; s < engine.domain_size(); s += 97) {
      const ComponentIndices component = component_indices(rules, engine.board(s));
      const int highest = *std::max_element(component.index.begin(), component.index.end());
      if (highest < 2) continue;
      std::vector<BoardKey> keys;
      std::vector<Board> hardest;
      for (std::size_t k = 0; k < component.keys.size(); ++k)
        if (component.index[k] == highest) {
          keys.push_back(component.keys[k]);
          hardest.push_back(board_of_key(component.keys[k], rules.size()));
        }
      for (const MinimalRule rule : {MinimalRule::Any, MinimalRule::Public}) {
        const std::optional<std::size_t> expected = minimal_choice(rules, hardest, highest, rule);
        ASSERT_EQ(carried.choose(keys, highest, rule), expected) << to_board_string(rules, hardest[0]);
        minimal += expected.has_value();
      }
      ++tested;
    }
    EXPECT_GT(tested, 100u);
    EXPECT_GT(minimal, 0u);
  }
}

TEST(MinimalChoice, RefusesAClusterOutsideTheDomain) {
  const Rules rules(4, -1, Metric::Step, VehicleLimits{.max_cars = 1});
  const Board two_cars(4, {Vehicle{1, 0, Orientation::Horizontal, kCar}, Vehicle{3, 0, Orientation::Horizontal, kCar}});
  EXPECT_THROW(minimal_choice(rules, {two_cars}, 1, MinimalRule::Any), std::invalid_argument);
  EXPECT_THROW(is_minimal(rules, two_cars, 1), std::invalid_argument);
}

}  // namespace
}  // namespace rushhour
