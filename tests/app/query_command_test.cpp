// Golden runs of `rushhour query` and its refusals of bad questions and damaged run
// directories.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <utility>

#include "cli_test_support.hpp"
#include "storage/class_checkpoint.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("ClassRunQuery.FilteredCountsOfEveryIndexEqualTheBddRuns", long);

namespace rushhour {
namespace {

using test_support::run_rushhour;
using test_support::TempDir;

class QueryCommand : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir("query_run");
    ASSERT_EQ(run_rushhour("classify --size 4 -q --out " + dir_->path().string()).status, 0);
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string run_dir() { return dir_->path().string(); }
  static TempDir* dir_;
};
TempDir* QueryCommand::dir_ = nullptr;

TEST_F(QueryCommand, BoardIndexAndSolutionAsJson) {
  const auto run = run_rushhour("query --run " + run_dir() + " --board ooBCAABCooDDooEE --solve --json");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out.rfind("{\"board\": \"ooBCAABCooDDooEE\", \"index\": 10, \"status\": \"solved\", \"solution\": [\"ooBCAABCooDDooEE\", ", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("\"ooooooAABBCDEECD\"], \"moves\": [\"D left 1\""), std::string::npos) << run.out;
}

TEST_F(QueryCommand, MultiLineBoardAndUnsolvable) {
  // The target is walled in by a truck standing in its way for good.
  const auto run = run_rushhour("query --run " + run_dir() + " --board 'oooB\nAAoB\noooB\noooo'");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("unsolvable"), std::string::npos) << run.out;
}

TEST_F(QueryCommand, FilteredCountAndHardest) {
  const auto count = run_rushhour("query --run " + run_dir() + " --index 3 --cars 3 --trucks 0 --count --sample 0 --json");
  ASSERT_EQ(count.status, 0) << count.err;
  EXPECT_EQ(count.out, "{\"index\": 3, \"count\": 30, \"samples\": [], \"status\": \"ok\"}\n");
  const auto hardest = run_rushhour("query --run " + run_dir() + " --hardest --json");
  EXPECT_EQ(hardest.out, "{\"index\": 10, \"count\": 2, \"samples\": [\"ooBCAABCooDDooEE\", \"BBCDAACDooEEooFF\"], \"status\": \"ok\"}\n");
}

TEST_F(QueryCommand, PartialRunSaysAboveTheLastLayerIsUnknown) {
  TempDir partial("query_partial");
  ASSERT_EQ(run_rushhour("classify --size 4 -q --max-layers 3 --out " + partial.path().string()).status, 0);
  const auto run = run_rushhour("query --run " + partial.path().string() + " --board ooBCAABCooDDooEE");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("unknown: in none of the 3 finished layers"), std::string::npos) << run.out;
  const auto index = run_rushhour("query --run " + partial.path().string() + " --index 7 --json");
  EXPECT_EQ(index.out, "{\"index\": 7, \"count\": null, \"status\": \"unknown\"}\n");
}

struct BadQuery {
  std::string args;
  std::string reason;
};

class QueryRejects : public QueryCommand, public ::testing::WithParamInterface<BadQuery> {};

TEST_P(QueryRejects, WithStatusTwoAndOneLine) {
  std::string args = GetParam().args;
  const auto at = args.find("RUN");
  if (at != std::string::npos) args.replace(at, 3, run_dir());
  const auto run = run_rushhour(args);
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find(GetParam().reason), std::string::npos) << run.err;
}

INSTANTIATE_TEST_SUITE_P(
    BadQuestions, QueryRejects,
    ::testing::Values(BadQuery{"query --board ooo", "needs --run"},
                      BadQuery{"query --run RUN", "exactly one of"},
                      BadQuery{"query --run RUN --hardest --index 3", "exactly one of"},
                      BadQuery{"query --run RUN --board ooBCAABCooDDooEEo", "not in this run's domain"},
                      BadQuery{"query --run RUN --board ooBCAAoCooDDooEE", "not in this run's domain"},
                      BadQuery{"query --run RUN --index 3 --solve", "--solve goes with --board"},
                      BadQuery{"query --run /nonexistent/run --hardest", "no finished layer"}));

TEST(QueryDamagedRun, TruncatedLayerAndForeignFilesAreRefused) {
  TempDir dir("query_damaged");
  ASSERT_EQ(run_rushhour("classify --size 4 -q --out " + dir.path().string()).status, 0);
  const auto layer = dir.path() / "layers" / "layer-0002.bdd";
  std::filesystem::resize_file(layer, std::filesystem::file_size(layer) / 2);
  auto run = run_rushhour("query --run " + dir.path().string() + " --board ooBCAABCooDDooEE");
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_NE(run.err.find("layer-0002.bdd"), std::string::npos) << run.err;

  // Layers of another run (other metric) mixed into the directory.
  TempDir other("query_other");
  ASSERT_EQ(run_rushhour("classify --size 4 -q --metric move --out " + other.path().string()).status, 0);
  std::filesystem::copy_file(other.path() / "layers" / "layer-0001.bdd", dir.path() / "layers" / "layer-0001.bdd",
                             std::filesystem::copy_options::overwrite_existing);
  run = run_rushhour("query --run " + dir.path().string() + " --hardest");
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_NE(run.err.find("other parameters"), std::string::npos) << run.err;

  std::ofstream(dir.path() / "layers" / "layer-0000.bdd") << "not a layer";
  run = run_rushhour("query --run " + dir.path().string() + " --hardest");
  EXPECT_EQ(run.status, 2) << run.err;
}

// A run of the classes engine saves no layers: query answers from its census and searches a
// board's component. Every answer must equal the bdd run's of the same board.
class ClassRunQuery : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    bdd_ = new TempDir("query_bdd_4x4");
    classes_ = new TempDir("query_classes_4x4");
    ASSERT_EQ(run_rushhour("classify --size 4 -q --out " + bdd_->path().string()).status, 0);
    ASSERT_EQ(run_rushhour("classify --size 4 -q --engine classes --out " + classes_->path().string()).status, 0);
  }
  static void TearDownTestSuite() {
    delete bdd_;
    delete classes_;
  }
  // The answers of both runs to the same question.
  static std::pair<std::string, std::string> both(const std::string& question) {
    const auto bdd = run_rushhour("query --run " + bdd_->path().string() + " " + question);
    const auto classes = run_rushhour("query --run " + classes_->path().string() + " " + question);
    EXPECT_EQ(bdd.status, 0) << question << ": " << bdd.err;
    EXPECT_EQ(classes.status, 0) << question << ": " << classes.err;
    return {bdd.out, classes.out};
  }
  static TempDir* bdd_;
  static TempDir* classes_;
};
TempDir* ClassRunQuery::bdd_ = nullptr;
TempDir* ClassRunQuery::classes_ = nullptr;

TEST_F(ClassRunQuery, BoardsGetTheBddRunsIndexAndAnOptimalSolution) {
  for (const char* board : {"ooBCAABCooDDooEE", "BBCDAACDooEEooFF", "oooBAAoBoooBoooo", "ooooooAAoooooooo",
                            "ooBoAABooCCDoooD", "BBooAAoCDDoCooEE"}) {
    const auto [bdd, classes] = both(std::string("--json --board ") + board);
    EXPECT_EQ(classes, bdd) << board;
    const auto solved = run_rushhour("query --run " + classes_->path().string() + " --solve --board " + board);
    ASSERT_EQ(solved.status, 0) << solved.err;
    const auto index_at = bdd.find("\"index\": ");
    if (bdd.find("\"index\": null") != std::string::npos) continue;
    const int index = std::stoi(bdd.substr(index_at + 9));
    EXPECT_NE(solved.out.find("solution (" + std::to_string(index) + " steps)"), std::string::npos) << solved.out;
  }
}

TEST_F(ClassRunQuery, FilteredCountsOfEveryIndexEqualTheBddRuns) {
  for (int index = 0; index <= 11; ++index)
    for (const char* filter : {"", " --cars 2", " --cars 3 --trucks 0", " --trucks 1", " --vehicles 4"}) {
      const auto [bdd, classes] = both("--json --sample 0 --count --index " + std::to_string(index) + filter);
      EXPECT_EQ(classes, bdd) << index << filter;
    }
  const auto [bdd, classes] = both("--json --sample 0 --hardest");
  EXPECT_EQ(classes, bdd);
}

TEST_F(ClassRunQuery, SamplesOfTheHighestIndicesLieInTheirIndex) {
  const auto run = run_rushhour("query --run " + classes_->path().string() + " --index 9 --sample 3");
  ASSERT_EQ(run.status, 0) << run.err;
  std::istringstream lines(run.out);
  std::string line;
  std::getline(lines, line);
  int boards = 0;
  while (std::getline(lines, line)) {
    const auto answer = run_rushhour("query --run " + bdd_->path().string() + " --json --board " + line.substr(2));
    EXPECT_NE(answer.out.find("\"index\": 9,"), std::string::npos) << line << answer.out;
    ++boards;
  }
  EXPECT_EQ(boards, 3);
  // Index 0 is below the sampled ones: the count, and a note instead of boards.
  const auto low = run_rushhour("query --run " + classes_->path().string() + " --index 0 --sample 3");
  EXPECT_NE(low.out.find("no sample boards of index 0"), std::string::npos) << low.out;
}

TEST(ClassRunQueryState, AnUnfinishedSweepAnswersBoardsButNotCounts) {
  TempDir dir("query_classes_unfinished");
  ASSERT_EQ(run_rushhour("classify --size 4 -q --engine classes --out " + dir.path().string()).status, 0);
  // Rewind the finished sweep's checkpoint to its first work item.
  SavedClassSweep saved = *ClassCheckpoint::read(dir.path());
  saved.state.next_item = 1;
  ClassCheckpoint(dir.path(), saved.parameters).save(saved.state);
  const auto board = run_rushhour("query --run " + dir.path().string() + " --json --board ooBCAABCooDDooEE");
  ASSERT_EQ(board.status, 0) << board.err;
  EXPECT_EQ(board.out, "{\"board\": \"ooBCAABCooDDooEE\", \"index\": 10, \"status\": \"solved\", \"cluster\": {\"size\": "
                       "34, \"highest_index\": 10, \"hardest\": \"ooBCAABCooDDooEE\", \"hardest_count\": 1, "
                       "\"winning_count\": 1, \"histogram\": [1, 1, 2, 3, 4, 5, 6, 5, 4, 2, 1], \"harder\": 0}}\n");
  const auto count = run_rushhour("query --run " + dir.path().string() + " --index 3");
  EXPECT_EQ(count.status, 2) << count.err;
  EXPECT_NE(count.err.find("not finished"), std::string::npos) << count.err;

  std::ofstream(dir.path() / "classes-checkpoint.txt", std::ios::app) << "tampered";
  const auto damaged = run_rushhour("query --run " + dir.path().string() + " --hardest");
  EXPECT_EQ(damaged.status, 2) << damaged.err;
  EXPECT_NE(damaged.err.find("checksum"), std::string::npos) << damaged.err;
}

}  // namespace
}  // namespace rushhour
