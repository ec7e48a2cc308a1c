// classify --minimal --minimal-counts: every cluster is tested and the minimal ones are counted
// in the sweep's figures (its checkpoint, per walls, cars and trucks; the database, per highest
// index), while --clusters-min-index only limits the records kept. The counts equal the
// records of a sweep that keeps them all, under each rule; a stopped sweep resumes to the same
// counts; a sweep of other settings does not continue it.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include "board/rules.hpp"
#include "cli_test_support.hpp"
#include "explicit/class_census.hpp"
#include "storage/class_checkpoint.hpp"
#include "storage/cluster_database.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);

namespace rushhour {
namespace {

using test_support::run_rushhour;
using test_support::TempDir;

using PerWalls =
    std::map<std::uint32_t, std::vector<std::uint64_t>>;  // walls -> clusters per highest index

void add(PerWalls& counts, std::uint32_t walls, std::size_t index, std::uint64_t clusters) {
  std::vector<std::uint64_t>& v = counts[walls];
  if (v.size() <= index) v.resize(index + 1, 0);
  v[index] += clusters;
}

void trim(PerWalls& counts) {
  for (auto& [walls, v] : counts)
    while (!v.empty() && v.back() == 0) v.pop_back();
}

// A database's records per walls and highest index (from `min_index` on).
PerWalls records_of(const std::filesystem::path& database, int min_index = 0) {
  PerWalls counts;
  ClusterDatabase(database).for_each(
      [&](const ClusterEntry& e) {
        if (static_cast<int>(e.record.highest_index) >= min_index)
          add(counts, e.record.walls, e.record.highest_index, 1);
        return true;
      },
      false);
  trim(counts);
  return counts;
}

// A database's rows from `min_index` on, every figure of both metrics, one string each.
std::vector<std::string> rows_of(const std::filesystem::path& database, int min_index = 0) {
  std::vector<std::string> rows;
  ClusterDatabase(database).for_each([&](const ClusterEntry& e) {
    if (static_cast<int>(e.record.highest_index) < min_index) return true;
    std::ostringstream row;
    row << e.board << ' ' << e.record.highest_index << ' ' << e.record.size << ' ' << e.record.hardest_count << ' '
        << e.record.winning << ' ' << e.other_board << ' ' << e.record.other_highest_index << ' '
        << e.record.other_hardest_count << " |";
    for (const std::uint64_t c : e.histogram) row << ' ' << c;
    row << " |";
    for (const std::uint64_t c : e.other_histogram) row << ' ' << c;
    rows.push_back(row.str());
    return true;
  });
  return rows;
}

// The minimal counts of a run directory's checkpoint, per walls.
PerWalls checkpoint_counts(const std::filesystem::path& run, const Rules& rules) {
  const std::optional<SavedClassSweep> saved = ClassCheckpoint::read(run);
  EXPECT_TRUE(saved.has_value());
  PerWalls counts;
  if (!saved) return counts;
  const TallyShape shape = tally_shape(rules);
  for (int walls = shape.min_walls; walls <= shape.max_walls(); ++walls)
    for (int cars = 0; cars <= shape.max_cars; ++cars)
      for (int trucks = 0; trucks <= shape.max_trucks; ++trucks) {
        const VehicleTally& t = saved->state.tallies[shape.slot(walls, cars, trucks)];
        for (std::size_t i = 0; i < t.minimal.size(); ++i)
          add(counts, static_cast<std::uint32_t>(walls), i, t.minimal[i]);
      }
  trim(counts);
  return counts;
}

std::string per_index_json(const std::string& database) {
  const auto answer = run_rushhour("query --clusters " + database + " --count --json");
  EXPECT_EQ(answer.status, 0) << answer.err;
  std::smatch match;
  EXPECT_TRUE(std::regex_search(answer.out, match, std::regex("\"per_index\": \\[[0-9, ]*\\]")))
      << answer.out;
  return match.empty() ? std::string() : match[0].str();
}

// A sweep keeping every minimal record and one counting them with records from `min_index`.
void expect_counts_equal_the_records(const std::string& board_options, const Rules& rules,
                                     const std::string& rule, int min_index) {
  SCOPED_TRACE(board_options + " --minimal-rule " + rule);
  TempDir dir("minimal_counts");
  const std::string sweep = "classify --engine classes --threads 2 -q --minimal --minimal-rule " +
                            rule + " " + board_options;
  const std::string all = dir / "all.h5", counted = dir / "counted.h5";
  ASSERT_EQ(run_rushhour(sweep + " --clusters " + all + " --out " + (dir / "all")).status, 0);
  const auto run =
      run_rushhour(sweep + " --minimal-counts --clusters-min-index " + std::to_string(min_index) +
                   " --clusters " + counted + " --out " + (dir / "counted"));
  ASSERT_EQ(run.status, 0) << run.err;

  const PerWalls expected = records_of(all);
  ASSERT_GT(expected.size(), 0u);
  EXPECT_EQ(checkpoint_counts(dir / "counted", rules), expected);
  // A sweep without --minimal-counts counts nothing.
  EXPECT_TRUE(checkpoint_counts(dir / "all", rules).empty());
  // The records kept are the others' from min_index on, and fewer than all of them.
  EXPECT_EQ(records_of(counted), records_of(all, min_index));
  EXPECT_EQ(rows_of(counted), rows_of(all, min_index));
  EXPECT_LT(ClusterDatabase(counted).size(), ClusterDatabase(all).size());
  // query --count answers every index from the counts.
  EXPECT_EQ(per_index_json(counted), per_index_json(all));
}

TEST(MinimalCounts, EqualTheRecordsOfAWholeMinimalDatabaseUnderEachRule) {
  const Rules walled(4, -1, Metric::Move, {}, Domain::Puzzle, {0, 1});
  for (const std::string rule : {"any", "public", "canonical"})
    expect_counts_equal_the_records("--size 4 --metric move --domain puzzle --walls 1", walled,
                                    rule, 3);
  const Rules limited(5, -1, Metric::Step, {4, 1, -1});
  expect_counts_equal_the_records("--size 5 --max-cars 4 --max-trucks 1", limited, "any", 6);
}

// With both metrics, a class whose clusters are all below the least index kept skips its
// search under the other metric: the records kept carry the same figures of both.
TEST(MinimalCounts, KeepBothMetricsFiguresOfTheRecordsKept) {
  const Rules walled(5, -1, Metric::Move, {-1, -1, 5}, Domain::Puzzle, {0, 1});
  expect_counts_equal_the_records("--size 5 --max-vehicles 5 --metric move --domain puzzle --walls 1 "
                                  "--clusters-metrics both", walled, "public", 6);
}

TEST(MinimalCounts, AStoppedSweepResumesToTheSameCounts) {
  TempDir dir("minimal_counts_resume");
  const std::string log = dir / "progress.log";
  const std::string board =
      "--engine classes --threads 2 --size 5 --metric move --domain puzzle --walls 1 "
      "--max-vehicles 6 -q --minimal";
  const std::string args = "classify " + board +
                           " --minimal-counts --clusters-min-index 7 --checkpoint-seconds 0 "
                           "--clusters " +
                           (dir / "db.h5") + " --out " + (dir / "run");
  const auto first =
      test_support::run_shell(std::string(RUSHHOUR_BINARY) + " " + args + " --log " + log +
                              " & pid=$!; for i in $(seq 1200); do grep -q . " + log +
                              " 2>/dev/null && break; sleep 0.05; done; kill -INT $pid; wait $pid");
  ASSERT_EQ(first.status, 130) << first.err;
  ASSERT_TRUE(ClassCheckpoint::read(dir / "run").has_value());
  // The checkpoint counts minimal clusters: a sweep that does not, or under another rule,
  // cannot continue it.
  const std::string without = "classify " + board +
                              " --clusters-min-index 7 --checkpoint-seconds 0 --clusters " +
                              (dir / "db.h5") + " --out " + (dir / "run") + " --resume";
  EXPECT_EQ(run_rushhour(without).status, 2);
  EXPECT_EQ(run_rushhour(args + " --minimal-rule public --resume").status, 2);
  const auto second = run_rushhour(args + " --resume");
  ASSERT_EQ(second.status, 0) << second.err;

  const auto whole =
      run_rushhour("classify " + board + " --minimal-counts --clusters-min-index 7 --clusters " +
                   (dir / "whole.h5") + " --out " + (dir / "whole"));
  ASSERT_EQ(whole.status, 0) << whole.err;
  const Rules rules(5, -1, Metric::Move, {-1, -1, 6}, Domain::Puzzle, {0, 1});
  EXPECT_EQ(checkpoint_counts(dir / "run", rules), checkpoint_counts(dir / "whole", rules));
  EXPECT_EQ(ClusterDatabase(dir / "db.h5").minimal_counts(),
            ClusterDatabase(dir / "whole.h5").minimal_counts());
  EXPECT_EQ(records_of(dir / "db.h5"), records_of(dir / "whole.h5"));
}

TEST(MinimalCounts, GoWithMinimal) {
  TempDir dir("minimal_counts_bad");
  const auto alone = run_rushhour("classify --engine classes --size 4 -q --clusters " +
                                  (dir / "db.h5") + " --minimal-counts");
  EXPECT_EQ(alone.status, 2);
  EXPECT_NE(alone.err.find("--minimal-counts goes with --minimal"), std::string::npos) << alone.err;
  const auto no_database =
      run_rushhour("classify --engine classes --size 4 -q --minimal --minimal-counts");
  EXPECT_EQ(no_database.status, 2);
}

}  // namespace
}  // namespace rushhour
