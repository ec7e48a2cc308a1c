// query on a class run, a bdd run and a cluster database with walls: counts per number of walls
// (--walls W) equal the explicit engine's runs of W walls, the database's clusters per highest
// index those runs' components, boards with walls answered; a --walls filter outside the run's
// range is refused.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "board/board_string.hpp"
#include "cli_test_support.hpp"
#include "explicit/explicit_engine.hpp"
#include "query/saved_answers.hpp"
#include "reference_figures.hpp"
#include "storage/cluster_database.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);

namespace rushhour {
namespace {

using test_support::explicit_figures;
using test_support::run_rushhour;
using test_support::TempDir;

// The "<highest index> <clusters>" lines of `query --clusters DB --count`, as a vector.
std::vector<std::int64_t> clusters_per_index(const std::string& out) {
  std::vector<std::int64_t> per_index;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::size_t index = 0;
    std::int64_t clusters = 0;
    std::string rest;
    if (!(words >> index >> clusters) || (words >> rest)) continue;
    if (per_index.size() <= index) per_index.resize(index + 1, 0);
    per_index[index] = clusters;
  }
  return per_index;
}

// A class run (with its cluster database) or a bdd run (its layers).
struct WalledRun {
  const char* name;
  const char* engine;  // classify's engine options
  bool database;
};

class WalledRunQuery : public ::testing::TestWithParam<WalledRun> {};

TEST_P(WalledRunQuery, CountsPerNumberOfWallsEqualTheExplicitRunsOfThatNumber) {
  TempDir dir("walled_run_query");
  const std::string run = dir / "run", db = dir / "db.h5";
  const bool database = GetParam().database;
  ASSERT_EQ(run_rushhour(std::string("classify ") + GetParam().engine + " -q --size 4 --metric move --walls 2 --out " +
                         run + (database ? " --clusters " + db : std::string()))
                .status,
            0);
  for (int walls = 0; walls <= 2; ++walls) {
    SCOPED_TRACE(walls);
    const Classification expected = explicit_figures(Rules(4, -1, Metric::Move, {}, Domain::All, {walls, walls}));
    const std::unique_ptr<SavedAnswers> saved = open_saved_answers(run);
    PieceFilter filter;
    filter.walls = walls;
    for (std::size_t index = 0; index < expected.layers.size(); ++index)
      EXPECT_EQ(saved->index(static_cast<int>(index), filter, 0).count, expected.layers[index].count) << index;
    // The command's line for one index, and the database's clusters per highest index.
    const auto answer = run_rushhour("query --run " + run + " --index 3 --count --walls " + std::to_string(walls));
    ASSERT_EQ(answer.status, 0) << answer.err;
    EXPECT_NE(answer.out.find(to_string(expected.layers[3].count)), std::string::npos) << answer.out;
    if (!database) continue;
    std::vector<std::int64_t> clusters;
    ClusterDatabase(db).for_each([&](const ClusterEntry& e) {
      EXPECT_EQ(static_cast<int>(parse_board(e.board, Rules(4, -1, Metric::Move, {}, Domain::All, {0, 2})).wall_count()),
                static_cast<int>(e.record.walls));
      if (static_cast<int>(e.record.walls) != walls) return true;
      if (clusters.size() <= e.record.highest_index) clusters.resize(e.record.highest_index + 1u, 0);
      ++clusters[e.record.highest_index];
      return true;
    });
    clusters.resize(expected.components.size(), 0);
    EXPECT_EQ(clusters, expected.components);
    const auto listed = run_rushhour("query --clusters " + db + " --count --walls " + std::to_string(walls));
    ASSERT_EQ(listed.status, 0) << listed.err;
    std::vector<std::int64_t> listed_per_index = clusters_per_index(listed.out);
    listed_per_index.resize(clusters.size(), 0);
    EXPECT_EQ(listed_per_index, clusters) << listed.out;
  }
}

// Walled boards of a run: every 41st configuration of the explicit engine gets its index, an
// optimal solution that keeps its walls, and a cluster whose hardest board has them.
TEST_P(WalledRunQuery, AnswersWalledBoardsAsTheExplicitEngine) {
  TempDir dir("walled_run_boards");
  const std::string run = dir / "run";
  const Rules rules(4, -1, Metric::Move, {}, Domain::All, {0, 2});
  ASSERT_EQ(run_rushhour(std::string("classify ") + GetParam().engine + " -q --size 4 --metric move --walls 2 --out " +
                         run)
                .status,
            0);
  const ExplicitSolution engine = ExplicitSolution::solve(rules);
  const std::unique_ptr<SavedAnswers> saved = open_saved_answers(run);
  std::size_t walled = 0;
  for (std::size_t s = 0; s < engine.domain_size(); s += 41) {
    const Board board = engine.board(s);
    const std::string text = to_board_string(rules, board);
    const BoardAnswer answer = saved->board(text, true);
    ASSERT_EQ(answer.index, engine.index(s)) << text;
    if (!answer.index) continue;
    walled += board.walls() != 0;
    ASSERT_EQ(answer.path.size(), static_cast<std::size_t>(*answer.index) + 1) << text;
    for (const Board& on_the_way : answer.path) ASSERT_EQ(on_the_way.walls(), board.walls()) << text;
    ASSERT_TRUE(answer.cluster.has_value()) << text;
    EXPECT_EQ(parse_board(answer.cluster->hardest, rules).walls(), board.walls()) << text;
  }
  EXPECT_GT(walled, 0u);
}

INSTANTIATE_TEST_SUITE_P(Engines, WalledRunQuery,
                         ::testing::Values(WalledRun{"classes", "--engine classes --threads 2", true},
                                           WalledRun{"bdd", "--engine bdd", false}),
                         [](const ::testing::TestParamInfo<WalledRun>& run) { return std::string(run.param.name); });

TEST(WalledClassRunQuery, RefusesAWallFilterOutsideTheRunsRange) {
  TempDir dir("walled_class_query_refused");
  const std::string walled = dir / "walled", plain = dir / "plain";
  ASSERT_EQ(run_rushhour("classify --engine classes --threads 1 -q --size 4 --walls 1 --out " + walled).status, 0);
  ASSERT_EQ(run_rushhour("classify --engine classes --threads 1 -q --size 4 --out " + plain).status, 0);
  for (const auto& [command, reason] :
       {std::pair{"query --run " + walled + " --index 2 --walls 2", "--walls 2: the run's configurations hold 0 to 1 walls"},
        std::pair{"query --run " + plain + " --index 2 --walls 1", "--walls 1: the run's configurations hold no walls"}}) {
    const auto result = run_rushhour(command);
    EXPECT_EQ(result.status, 2) << command;
    EXPECT_NE(result.err.find(reason), std::string::npos) << result.err;
  }
}

}  // namespace
}  // namespace rushhour
