// query --clusters --minimal tests the clusters of a database written without --minimal as
// they are read: under either metric of a both-metrics database it lists, index by index, the
// clusters the minimal sweep of that metric keeps, and counts them per highest index
// (--count); on any number of threads the same. --domain puzzle lists a database of all
// configurations as the puzzle domain's database. Bad combinations are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <regex>
#include <sstream>

#include "board/rules.hpp"
#include "cli_test_support.hpp"
#include "storage/cluster_database.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("MinimalQuery.FiveByFiveWithLimitsEqualsTheMinimalSweeps", long);
RUSHHOUR_TEST_TIER_OF("MinimalQuery.FourByFourCanonicalRuleAndAnotherExitRowEqualTheMinimalSweeps", long);
RUSHHOUR_TEST_TIER_OF("MinimalQuery.PuzzleDomainOfAFiveByFiveDatabase", long);

namespace rushhour {
namespace {

using test_support::run_rushhour;
using test_support::TempDir;

// The clusters per highest index of a database under its run metric or (other) its other
// metric, counted from its rows.
std::vector<std::uint64_t> per_index_of(const std::filesystem::path& path, bool other = false) {
  std::vector<std::uint64_t> counts;
  ClusterDatabase(path).for_each([&](const ClusterEntry& e) {
    const std::uint32_t highest = other ? e.record.other_highest_index : e.record.highest_index;
    if (counts.size() <= highest) counts.resize(highest + 1u, 0);
    ++counts[highest];
    return true;
  }, false);
  return counts;
}

// "per_index": [...] of query --count --json.
std::vector<std::uint64_t> per_index_in(const std::string& json) {
  std::smatch match;
  EXPECT_TRUE(std::regex_search(json, match, std::regex("\"per_index\": \\[([0-9, ]*)\\]"))) << json;
  std::vector<std::uint64_t> counts;
  std::string list = match[1];
  std::replace(list.begin(), list.end(), ',', ' ');
  std::istringstream numbers(list);
  for (std::uint64_t c; numbers >> c;) counts.push_back(c);
  return counts;
}

// The rows of a text listing, the figures every database has (index, board, size, hardest,
// winning, cars, trucks), sorted.
std::vector<std::string> listed_rows(const std::string& out) {
  std::vector<std::string> rows;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) != 0) continue;
    std::istringstream fields(line);
    const std::vector<std::string> words{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
    std::string row;
    for (std::size_t k = 0; k < std::min<std::size_t>(7, words.size()); ++k) row += words[k] + " ";
    rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

void expect_minimal_queries_equal_minimal_sweeps(const std::string& board_options, const std::string& rule = "any") {
  SCOPED_TRACE(board_options + ", rule " + rule);
  TempDir dir("minimal_query");
  const std::string sweep = "classify --engine classes --threads 2 -q " + board_options;
  const std::string both = (dir / "both.h5");
  ASSERT_EQ(run_rushhour(sweep + " --metric move --clusters-metrics both --clusters " + both).status, 0);
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const std::string name = to_string(metric);
    SCOPED_TRACE(name);
    const std::string minimal = (dir / ("minimal-" + name + ".h5"));
    ASSERT_EQ(run_rushhour(sweep + " --metric " + name + " --minimal --minimal-rule " + rule + " --clusters " + minimal)
                  .status,
              0);
    const std::vector<std::uint64_t> expected = per_index_of(minimal);
    ASSERT_FALSE(expected.empty());
    const std::string asked = "query --clusters " + both + " --metric " + name + " --minimal --minimal-rule " + rule;
    const auto counted = run_rushhour(asked + " --count --json --threads 2");
    ASSERT_EQ(counted.status, 0) << counted.err;
    EXPECT_EQ(per_index_in(counted.out), expected);
    // Without --minimal, --count counts every cluster, as the database's rows do.
    const auto all = run_rushhour("query --clusters " + both + " --metric " + name + " --count --json");
    ASSERT_EQ(all.status, 0) << all.err;
    EXPECT_EQ(per_index_in(all.out), per_index_of(both, metric == Metric::Step));
    std::uint64_t listed = 0;
    std::string fullest_question, fullest_out;  // the index that lists the most rows
    std::size_t fullest_rows = 0;
    for (std::size_t index = 0; index < expected.size(); ++index) {
      const std::string question = " --index " + std::to_string(index) + " --sample 100000";
      const auto mine = run_rushhour(asked + question + " --threads 3");
      const auto want = run_rushhour("query --clusters " + minimal + question);
      ASSERT_EQ(mine.status, 0) << mine.err;
      ASSERT_EQ(want.status, 0) << want.err;
      const std::vector<std::string> rows = listed_rows(mine.out);
      EXPECT_EQ(rows, listed_rows(want.out)) << "index " << index;
      EXPECT_EQ(rows.size(), expected[index]);
      listed += rows.size();
      if (rows.size() > fullest_rows) {
        fullest_rows = rows.size();
        fullest_question = question;
        fullest_out = mine.out;
      }
    }
    EXPECT_GT(listed, 0u);
    // One thread lists the same rows in the same order.
    EXPECT_EQ(run_rushhour(asked + fullest_question + " --threads 1").out, fullest_out);
  }
}

TEST(MinimalQuery, FourByFourEqualsTheMinimalSweeps) {
  expect_minimal_queries_equal_minimal_sweeps("--size 4");
  for (const std::string rule : {"any", "public"})
    expect_minimal_queries_equal_minimal_sweeps("--size 4 --domain puzzle --walls 1", rule);
}

TEST(MinimalQuery, FourByFourCanonicalRuleAndAnotherExitRowEqualTheMinimalSweeps) {
  expect_minimal_queries_equal_minimal_sweeps("--size 4 --domain puzzle --walls 1", "canonical");
  expect_minimal_queries_equal_minimal_sweeps("--size 4 --exit-row 0 --max-vehicles 5");
}

TEST(MinimalQuery, FiveByFiveWithLimitsEqualsTheMinimalSweeps) {
  expect_minimal_queries_equal_minimal_sweeps("--size 5 --max-cars 4 --max-trucks 1");
  expect_minimal_queries_equal_minimal_sweeps("--size 5 --max-cars 4 --max-trucks 1 --domain puzzle --exit-row 4");
}

// --domain puzzle on a database of all configurations lists the puzzle domain's database:
// its counts per index, minimal or not, each index's rows and its hardest, under both metrics.
void expect_puzzle_filter_equals_the_puzzle_database(const std::string& board_options) {
  SCOPED_TRACE(board_options);
  TempDir dir("domain_query");
  const std::string sweep = "classify --engine classes --threads 2 -q --metric move --clusters-metrics both " + board_options;
  const std::string all = dir / "all.h5", puzzle = dir / "puzzle.h5";
  ASSERT_EQ(run_rushhour(sweep + " --clusters " + all).status, 0);
  ASSERT_EQ(run_rushhour(sweep + " --domain puzzle --clusters " + puzzle).status, 0);
  for (const std::string metric : {"step", "move"}) {
    SCOPED_TRACE(metric);
    const std::string filtered = "query --clusters " + all + " --metric " + metric + " --domain puzzle";
    const std::string direct = "query --clusters " + puzzle + " --metric " + metric;
    for (const std::string question : {" --count --json", " --count --minimal --json --threads 2"}) {
      const auto mine = run_rushhour(filtered + question);
      const auto want = run_rushhour(direct + question);
      ASSERT_EQ(mine.status, 0) << mine.err;
      EXPECT_EQ(per_index_in(mine.out), per_index_in(want.out)) << question;
    }
    const std::vector<std::uint64_t> counts = per_index_in(run_rushhour(direct + " --count --json").out);
    ASSERT_GT(counts.size(), 3u);
    // Fewer clusters than the whole board's: the filter leaves some out.
    EXPECT_LT(ClusterDatabase(puzzle).size(), ClusterDatabase(all).size());
    for (std::size_t index = 0; index < counts.size(); ++index) {
      const std::string question = " --index " + std::to_string(index) + " --sample 100000";
      EXPECT_EQ(listed_rows(run_rushhour(filtered + question).out), listed_rows(run_rushhour(direct + question).out))
          << "index " << index;
    }
    const auto hardest = run_rushhour(filtered + " --hardest --sample 3");
    EXPECT_EQ(listed_rows(hardest.out), listed_rows(run_rushhour(direct + " --hardest --sample 3").out));
    EXPECT_NE(hardest.out.find("puzzle domain"), std::string::npos) << hardest.out;
  }
  const auto refused = run_rushhour("query --clusters " + puzzle + " --count --domain all");
  EXPECT_EQ(refused.status, 2);
}

TEST(MinimalQuery, PuzzleDomainOfAFourByFourDatabase) {
  expect_puzzle_filter_equals_the_puzzle_database("--size 4");
  expect_puzzle_filter_equals_the_puzzle_database("--size 4 --exit-row 0 --max-vehicles 5");
}

TEST(MinimalQuery, PuzzleDomainOfAFiveByFiveDatabase) {
  expect_puzzle_filter_equals_the_puzzle_database("--size 5 --max-cars 4 --max-trucks 1");
}

TEST(MinimalQuery, RefusesWhatItCannotAnswer) {
  TempDir dir("minimal_query_refusals");
  const std::string db = (dir / "db.h5");
  const std::string run = (dir / "run");
  const std::string minimal_db = (dir / "minimal.h5");
  ASSERT_EQ(run_rushhour("classify --engine classes -q --size 4 --metric move --out " + run + " --clusters " + db).status, 0);
  ASSERT_EQ(run_rushhour("classify --engine classes -q --size 4 --metric move --minimal --clusters " + minimal_db).status, 0);
  for (const std::string& bad :
       {"query --run " + run + " --index 3 --minimal", "query --run " + run + " --index 3 --threads 2",
        "query --clusters " + db + " --index 3 --threads 2", "query --clusters " + db + " --count --board BBoCAAoCoooooooo",
        "query --clusters " + db + " --minimal --board BBoCAAoCoooooooo", "query --clusters " + db + " --hardest --count",
        "query --run " + run + " --count", "query --clusters " + db + " --minimal --count --threads -1",
        "query --clusters " + db + " --minimal --count --threads 257", "query --clusters " + db + " --count --metric step",
        "query --run " + run + " --index 3 --domain puzzle", "query --clusters " + db + " --count --domain walls",
        "query --clusters " + db + " --board BBoCAAoCoooooooo --domain puzzle",
        "query --clusters " + db + " --count --minimal-rule public", "query --clusters " + db + " --count --minimal --minimal-rule some",
        "query --clusters " + minimal_db + " --count --minimal --minimal-rule public",
        "classify --engine classes -q --size 4 --clusters " + (dir / "x.h5") + " --minimal-rule public"}) {
    const auto refused = run_rushhour(bad);
    EXPECT_EQ(refused.status, 2) << bad;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << bad << ": " << refused.err;
  }
}

}  // namespace
}  // namespace rushhour
