// Queries on a partitioned run (query/saved_parts.hpp) against the same queries on an
// unpartitioned run of the same board: the index of every board of the domain (on 5x5, every
// 97th, or every 5th with a vehicle limit), optimal solutions, the count and sample boards of
// every index, under vehicle filters (on 5x5 for every 4th index), and
// the command's output itself (text and JSON) for --board --solve, --index and --hardest.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "bdd/session.hpp"
#include "board/board_string.hpp"
#include "cli_test_support.hpp"
#include "encoding/line_partition.hpp"
#include "query/saved_parts.hpp"
#include "query/saved_run.hpp"
#include "run/run_directory.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("FiveByFive/*", long);
RUSHHOUR_TEST_TIER_OF("FourByFourManyParts/*", long);

namespace rushhour {
namespace {

using test_support::run_rushhour;
using test_support::TempDir;

struct QueryCase {
  std::string options;  // classify options of both runs
  std::string partition;
  int board_stride;  // every k-th board of the domain
  int index_stride = 1;  // filtered counts and samples of every k-th index (all: unfiltered counts)
};

class PartitionedQuery : public ::testing::TestWithParam<QueryCase> {};

// The filters asked: none, then cars, trucks and vehicle totals.
std::vector<std::tuple<int, int, int>> filters() {
  return {{-1, -1, -1}, {1, -1, -1}, {2, -1, -1}, {-1, 0, -1}, {-1, 1, -1}, {-1, -1, 3}, {2, 1, -1}};
}

std::function<bool(int, int)> filter_of(const std::tuple<int, int, int>& f) {
  const auto [cars, trucks, vehicles] = f;
  return [=](int c, int t) {
    return (cars < 0 || c == cars) && (trucks < 0 || t == trucks) && (vehicles < 0 || c + t == vehicles);
  };
}

TEST_P(PartitionedQuery, AnswersAsAnUnpartitionedRun) {
  const QueryCase& param = GetParam();
  TempDir dir("partitioned_query");
  const std::string whole_dir = dir / "whole", parts_dir = dir / "parts";
  ASSERT_EQ(run_rushhour("classify -q --no-dominance " + param.options + " --out " + whole_dir).status, 0);
  const auto parts_run = run_rushhour("classify -q --no-dominance " + param.options + " --partition " +
                                      param.partition + " --part-workers 2 --out " + parts_dir);
  ASSERT_EQ(parts_run.status, 0) << parts_run.err;

  // The unpartitioned run's answers, in its BuDDy session.
  struct Expected {
    std::vector<Board> boards;
    std::vector<std::optional<int>> index;
    std::vector<std::vector<Board>> solutions;  // every 50th board's
    std::map<std::pair<int, int>, Count> counts;  // (index, filter) -> count
    std::map<std::pair<int, int>, std::vector<std::string>> samples;
    int layers = 0;
  } expected;
  std::optional<Rules> rules;
  {
    BddSession session(0, BddSettings{});
    SavedRun whole(session, whole_dir);
    rules = whole.rules();
    ASSERT_TRUE(whole.complete());
    expected.layers = whole.finished_layers();
    std::size_t seen = 0;
    whole.encoding().for_each_board(whole.encoding().domain().states(), [&](const Board& board) {
      if (seen++ % static_cast<std::size_t>(param.board_stride) == 0) expected.boards.push_back(board);
      return true;
    });
    for (std::size_t k = 0; k < expected.boards.size(); ++k) {
      expected.index.push_back(whole.index_of(expected.boards[k]));
      if (k % 50 == 0 && expected.index.back())
        expected.solutions.push_back(whole.solution(expected.boards[k], *expected.index.back()));
    }
    const auto all = filters();
    for (int i = 0; i < expected.layers; ++i)
      for (std::size_t f = 0; f < all.size(); ++f) {
        if (i % param.index_stride != 0 && f > 0) continue;
        bdd states = whole.layer(i);
        if (f > 0) states &= whole.encoding().vehicle_counts_where(filter_of(all[f]));
        expected.counts[{i, static_cast<int>(f)}] = whole.encoding().state_set(states).count();
        auto& samples = expected.samples[{i, static_cast<int>(f)}];
        whole.encoding().for_each_board(states, [&](const Board& board) {
          samples.push_back(to_board_string(*rules, board));
          return samples.size() < 5;
        });
      }
  }
  ASSERT_GT(expected.boards.size(), 100u);

  std::unique_ptr<SavedParts> parts = SavedParts::open(parts_dir);
  ASSERT_NE(parts, nullptr);
  ASSERT_TRUE(parts->complete());
  EXPECT_EQ(parts->rules(), *rules);
  EXPECT_EQ(parts->highest_index(), expected.layers - 1);
  // Board by board, grouped by part (each part opened once).
  const Partition partition = parse_partition(param.partition, *rules);
  const PartNumbering numbering(partition, *rules);
  std::vector<std::size_t> order(expected.boards.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return numbering.number(part_of(partition, expected.boards[a])) <
           numbering.number(part_of(partition, expected.boards[b]));
  });
  std::size_t solved = 0, unsolvable = 0, wrong = 0;
  for (std::size_t k : order) {
    const SavedParts::BoardIndex got = parts->index_of(expected.boards[k]);
    EXPECT_TRUE(got.part_complete);
    if (got.index != expected.index[k] && ++wrong < 5)
      ADD_FAILURE() << to_board_string(*rules, expected.boards[k]) << ": index "
                    << got.index.value_or(-1) << ", expected " << expected.index[k].value_or(-1);
    (expected.index[k] ? solved : unsolvable) += 1;
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(solved, 0u);
  EXPECT_GT(unsolvable, 0u);
  std::size_t s = 0;
  for (std::size_t k = 0; k < expected.boards.size(); k += 50)
    if (expected.index[k]) {
      EXPECT_EQ(parts->solution(expected.boards[k], *expected.index[k]), expected.solutions[s++]);
    }
  const auto all = filters();
  for (int i = 0; i < expected.layers; ++i)
    for (std::size_t f = 0; f < all.size(); ++f) {
      if (i % param.index_stride != 0 && f > 0) continue;
      const auto filter = f == 0 ? SavedParts::VehicleFilter() : SavedParts::VehicleFilter(filter_of(all[f]));
      EXPECT_EQ(parts->count(i, filter), (expected.counts[{i, static_cast<int>(f)}])) << "index " << i << ", filter " << f;
      std::vector<std::string> samples;
      for (const Board& board : parts->first_boards(i, filter, 5)) samples.push_back(to_board_string(*rules, board));
      EXPECT_EQ(samples, (expected.samples[{i, static_cast<int>(f)}])) << "index " << i << ", filter " << f;
    }
  // Those filtered counts came from the run's vehicle totals; without them (a run resumed from
  // part files written before parts kept vehicle counts) every part holding the index is
  // opened, with the same counts.
  const std::filesystem::path totals = std::filesystem::path(parts_dir) / "parts-vehicle-totals.txt";
  ASSERT_TRUE(std::filesystem::exists(totals));
  const std::filesystem::path aside = dir.path() / "vehicle-totals-aside.txt";
  std::filesystem::rename(totals, aside);
  parts.reset();  // its BuDDy session: one at a time
  const std::unique_ptr<SavedParts> without_totals = SavedParts::open(parts_dir);
  for (int i = 0; i < expected.layers; i += param.index_stride)
    for (std::size_t f = 1; f < all.size(); ++f)
      EXPECT_EQ(without_totals->count(i, SavedParts::VehicleFilter(filter_of(all[f]))),
                (expected.counts[{i, static_cast<int>(f)}]))
          << "index " << i << ", filter " << f << ", without the vehicle totals";
  std::filesystem::rename(aside, totals);

  // The command's output, word for word.
  std::vector<std::string> questions = {"--hardest", "--hardest --json --sample 3", "--index 0 --count",
                                        "--index 3 --cars 2 --sample 4", "--index 2 --trucks 1 --json",
                                        "--index 999"};
  for (std::size_t k = 0; k < expected.boards.size(); k += expected.boards.size() / 6)
    questions.push_back("--board " + to_board_string(*rules, expected.boards[k]) + " --solve" + (k % 2 ? " --json" : ""));
  for (const std::string& question : questions) {
    const auto whole_answer = run_rushhour("query --run " + whole_dir + " " + question);
    const auto parts_answer = run_rushhour("query --run " + parts_dir + " " + question);
    EXPECT_EQ(whole_answer.status, 0) << question << ": " << whole_answer.err;
    EXPECT_EQ(parts_answer.status, 0) << question << ": " << parts_answer.err;
    EXPECT_EQ(parts_answer.out, whole_answer.out) << question;
  }
}

// Every board of 4x4; each count and sample query opens every part holding the index, so the
// cases of many parts take seconds each (label full) and the quick one has few parts.
INSTANTIATE_TEST_SUITE_P(
    FourByFour, PartitionedQuery,
    ::testing::Values(QueryCase{"--size 4 --metric move --max-cars 3 --max-trucks 1", "exit-row", 1}),
    [](const auto& param) { return "case" + std::to_string(param.index); });

INSTANTIATE_TEST_SUITE_P(
    FourByFourManyParts, PartitionedQuery,
    ::testing::Values(QueryCase{"--size 4", "rows", 1}, QueryCase{"--size 4 --metric move", "rows+2", 1},
                      QueryCase{"--size 4 --exit-row 0 --line-code slot --order rows-columns", "rows", 1}),
    [](const auto& param) { return "case" + std::to_string(param.index); });

INSTANTIATE_TEST_SUITE_P(
    FiveByFive, PartitionedQuery,
    ::testing::Values(QueryCase{"--size 5 --max-vehicles 6", "rows", 97, 4}, QueryCase{"--size 5 --metric move", "exit-row", 97, 4},
                      QueryCase{"--size 5 --exit-row 4 --metric move --max-vehicles 5", "rows", 5, 1}),
    [](const auto& param) { return "case" + std::to_string(param.index); });

// A partitioned run that was stopped answers for the boards of its finished parts (unknown for
// the others) and refuses counts, which would be partial.
TEST(PartitionedQuery, OfAnUnfinishedRunAnswersBoardsOnly) {
  TempDir dir("partitioned_query_partial");
  const std::string whole_dir = dir / "whole", out = dir / "run";
  ASSERT_EQ(run_rushhour("classify -q --no-dominance --size 4 --out " + whole_dir).status, 0);
  ASSERT_EQ(run_rushhour("classify -q --no-dominance --size 4 --partition rows --out " + out).status, 0);
  std::vector<std::pair<Board, std::optional<int>>> expected;
  {
    BddSession session(0, BddSettings{});
    SavedRun whole(session, whole_dir);
    whole.encoding().for_each_board(whole.encoding().domain().states(), [&](const Board& board) {
      expected.emplace_back(board, whole.index_of(board));
      return true;
    });
  }
  // Half the parts lost, and the result file (as after a kill before the run's end).
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(out) / "parts"))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (std::size_t k = 0; k < files.size(); k += 2) std::filesystem::remove(files[k]);
  std::filesystem::remove(std::filesystem::path(out) / "classification.h5");
  const auto index = run_rushhour("query --run " + out + " --index 1");
  EXPECT_EQ(index.status, 2);
  EXPECT_NE(index.err.find("not finished"), std::string::npos) << index.err;

  const std::unique_ptr<SavedParts> parts = SavedParts::open(out);
  ASSERT_NE(parts, nullptr);
  EXPECT_FALSE(parts->complete());
  const Partition partition = parse_partition("rows", parts->rules());
  const PartNumbering numbering(partition, parts->rules());
  const run::RunDirectory directory(out);
  std::size_t known = 0, unknown = 0;
  std::string unknown_board;
  for (const auto& [board, index_expected] : expected) {
    const bool finished = std::filesystem::exists(
        directory.parts("").part_path(numbering.number(part_of(partition, board))));
    const SavedParts::BoardIndex got = parts->index_of(board);
    EXPECT_EQ(got.part_finished, finished);
    EXPECT_EQ(got.part_complete, finished);
    EXPECT_EQ(got.index, finished ? index_expected : std::nullopt);
    (finished ? known : unknown) += 1;
    if (!finished) unknown_board = to_board_string(parts->rules(), board);
  }
  EXPECT_GT(known, 0u);
  ASSERT_GT(unknown, 0u);
  const auto answer = run_rushhour("query --run " + out + " --board " + unknown_board);
  EXPECT_EQ(answer.status, 0) << answer.err;
  EXPECT_NE(answer.out.find("unknown: its part R0="), std::string::npos) << answer.out;
}

}  // namespace
}  // namespace rushhour
