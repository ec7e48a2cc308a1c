// Queries on saved layers against the explicit engine: every board of the 4x4 domain and
// 2 000 random 5x5 boards, both metrics; every solution is legal, optimal and ends winning.
#include "query/saved_run.hpp"

#include <gtest/gtest.h>

#include <random>

#include "cli_test_support.hpp"
#include "board/game.hpp"
#include "explicit/explicit_engine.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("BothMetrics/SavedRunQueries.RandomFiveByFiveBoardsAndFilteredCounts/*", long);

namespace rushhour {
namespace {

using test_support::run_rushhour;
using test_support::TempDir;

void expect_answers_match(const ExplicitSolution& solution, SavedRun& run, std::size_t state) {
  const Board board = solution.board(state);
  const auto expected = solution.index(state);
  const auto index = run.index_of(board);
  ASSERT_EQ(index, expected);
  if (!index) return;
  const std::vector<Board> path = run.solution(board, *index);
  ASSERT_EQ(path.size(), static_cast<std::size_t>(*index) + 1);
  EXPECT_TRUE(is_winning(run.rules(), path.back()));
  for (std::size_t k = 1; k < path.size(); ++k) {
    const auto next = neighbours(run.rules().metric(), path[k - 1]);
    EXPECT_NE(std::find(next.begin(), next.end(), path[k]), next.end()) << "step " << k;
  }
}

class SavedRunQueries : public ::testing::TestWithParam<Metric> {};

TEST_P(SavedRunQueries, EveryFourByFourBoard) {
  const Rules rules(4, -1, GetParam());
  TempDir dir("saved_run_4x4");
  ASSERT_EQ(run_rushhour("classify --size 4 -q --no-dominance --metric " + to_string(rules.metric()) +
                         " --out " + dir.path().string()).status, 0);
  const ExplicitSolution solution = ExplicitSolution::solve(rules);
  BddSession session(0, BddSettings{});
  SavedRun run(session, dir.path());
  EXPECT_TRUE(run.complete());
  for (std::size_t state = 0; state < solution.domain_size(); ++state)
    expect_answers_match(solution, run, state);
}

TEST_P(SavedRunQueries, RandomFiveByFiveBoardsAndFilteredCounts) {
  const Rules rules(5, -1, GetParam());
  TempDir dir("saved_run_5x5");
  ASSERT_EQ(run_rushhour("classify --size 5 -q --no-dominance --metric " + to_string(rules.metric()) +
                         " --out " + dir.path().string()).status, 0);
  const ExplicitSolution solution = ExplicitSolution::solve(rules);
  BddSession session(0, BddSettings{});
  SavedRun run(session, dir.path());
  std::mt19937_64 random(20261121);
  std::uniform_int_distribution<std::size_t> pick(0, solution.domain_size() - 1);
  for (int k = 0; k < 2000; ++k) expect_answers_match(solution, run, pick(random));

  // "index 5, no trucks, exactly 3 cars" and friends, counted both ways.
  for (const auto& [index, cars, trucks] : {std::tuple{5, 3, 0}, {10, 4, 1}, {0, 2, 2}}) {
    std::uint64_t expected = 0;
    for (std::size_t state = 0; state < solution.domain_size(); ++state) {
      if (solution.index(state) != index) continue;
      const Board board = solution.board(state);
      expected += board.cars() == cars && board.trucks() == trucks;
    }
    const bdd filtered = run.layer(index) & run.encoding().vehicle_counts_where(
        [&](int c, int t) { return c == cars && t == trucks; });
    EXPECT_EQ(run.encoding().state_set(filtered).count(), expected)
        << "index " << index << ", " << cars << " cars, " << trucks << " trucks";
  }
}

INSTANTIATE_TEST_SUITE_P(BothMetrics, SavedRunQueries, ::testing::Values(Metric::Step, Metric::Move),
                         [](const auto& param) { return to_string(param.param); });

}  // namespace
}  // namespace rushhour
