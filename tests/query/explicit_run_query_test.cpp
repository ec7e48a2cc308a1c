// query --run on a run of the explicit engine, the one engine that models walls: boards are
// answered by the board-level search, counts and samples by classification.h5.
#include <gtest/gtest.h>

#include <algorithm>

#include "board/board_string.hpp"
#include "board/game.hpp"
#include "cli_test_support.hpp"
#include "explicit/explicit_engine.hpp"
#include "query/saved_answers.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);

namespace rushhour {
namespace {

using test_support::run_rushhour;
using test_support::TempDir;

// Every 53rd state of the engine: the run's answer has the engine's index, a solution of that
// length whose boards keep the walls and follow one another by a move, and a cluster whose
// hardest board has the walls and, by the engine, the cluster's highest index.
void expect_walled_boards_answered(const Rules& rules) {
  SCOPED_TRACE(rules.describe());
  TempDir dir("explicit_run_query");
  const std::string run = dir / "run";
  ASSERT_EQ(run_rushhour("classify --engine explicit -q --out " + run + " --size " + std::to_string(rules.size()) +
                         " --metric " + to_string(rules.metric()) + " --walls " + to_string(rules.walls()))
                .status,
            0);
  const ExplicitSolution engine = ExplicitSolution::solve(rules);
  const std::unique_ptr<SavedAnswers> saved = open_saved_answers(run);
  ASSERT_EQ(saved->rules(), rules);
  std::size_t walled_solved = 0;
  for (std::size_t s = 0; s < engine.domain_size(); s += 53) {
    const Board board = engine.board(s);
    const std::string text = to_board_string(rules, board);
    const BoardAnswer answer = saved->board(text, true);
    ASSERT_EQ(answer.index, engine.index(s)) << text;
    ASSERT_EQ(answer.cluster.has_value(), answer.index.has_value()) << text;
    if (!answer.index) continue;
    walled_solved += board.walls() != 0;
    ASSERT_EQ(answer.path.size(), static_cast<std::size_t>(*answer.index) + 1) << text;
    for (std::size_t k = 1; k < answer.path.size(); ++k) {
      const std::vector<Board> next = neighbours(rules.metric(), answer.path[k - 1]);
      ASSERT_NE(std::find(next.begin(), next.end(), answer.path[k]), next.end()) << text;
    }
    ASSERT_TRUE(is_winning(rules, answer.path.back()));
    const Board hardest = parse_board(answer.cluster->hardest, rules);
    ASSERT_EQ(hardest.walls(), board.walls()) << text << " " << answer.cluster->hardest;
    ASSERT_EQ(engine.index(engine.find(hardest).value()), answer.cluster->highest_index) << text;
  }
  EXPECT_GT(walled_solved, 0u);
  // Counts and samples from the file.
  const Classification figures = engine.summarize({});
  for (std::size_t index = 0; index < figures.layers.size(); ++index) {
    const IndexAnswer answer = saved->index(static_cast<int>(index), {}, 3);
    EXPECT_EQ(answer.count, figures.layers[index].count) << index;
  }
  const IndexAnswer hardest = saved->index(std::nullopt, {}, 100);
  EXPECT_EQ(hardest.index, static_cast<int>(figures.layers.size()) - 1);
  ASSERT_FALSE(hardest.boards.empty());
  for (const std::string& text : hardest.boards)
    EXPECT_EQ(engine.index(engine.find(parse_board(text, rules)).value()), hardest.index) << text;
}

TEST(ExplicitRunQuery, WalledBoardsGetTheEnginesIndexSolutionAndCluster) {
  expect_walled_boards_answered(Rules(4, -1, Metric::Step, {}, Domain::All, {0, 1}));
  expect_walled_boards_answered(Rules(4, -1, Metric::Move, {}, Domain::All, {1, 2}));
}

// The command line: a walled board's answer as text and JSON; what the run cannot answer is
// refused with one line and exit 2.
TEST(ExplicitRunQuery, CommandLineAnswersAndRefusals) {
  TempDir dir("explicit_run_query_cli");
  const std::string walled = dir / "walled", plain = dir / "plain";
  ASSERT_EQ(run_rushhour("classify --engine explicit -q --size 4 --walls 1 --out " + walled).status, 0);
  ASSERT_EQ(run_rushhour("classify -q --size 4 --out " + plain).status, 0);
  const auto text = run_rushhour("query --run " + walled + " --board xoBCAABCooDDooEE --solve");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("xoBC\nAABC <exit\nooDD\nooEE\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("index 10 (step metric)"), std::string::npos) << text.out;
  const auto json = run_rushhour("query --run " + walled + " --board xoBCAABCooDDooEE --solve --json");
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(json.out.rfind("{\"board\": \"xoBCAABCooDDooEE\", \"index\": 10, ", 0), 0u) << json.out;
  EXPECT_NE(json.out.find("\"solution\": [\"xoBCAABCooDDooEE\", "), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"xoooooAABBCDEECD\"]"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"hardest\": \"xoBCAABCooDDooEE\""), std::string::npos) << json.out;
  for (const std::string& bad : {"query --run " + walled + " --board xoBCAABCooDDoxEE",
                                 "query --run " + walled + " --index 3 --count --cars 2",
                                 "query --run " + plain + " --board xoBCAABCooDDooEE"}) {
    const auto refused = run_rushhour(bad);
    EXPECT_EQ(refused.status, 2) << bad;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << bad << ": " << refused.err;
  }
  EXPECT_NE(run_rushhour("query --run " + plain + " --board xoBCAABCooDDooEE").err.find("no walls"), std::string::npos);
}

}  // namespace
}  // namespace rushhour
