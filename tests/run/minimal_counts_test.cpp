// classify --minimal-counts RULES: every cluster is tested under each rule and the minimal ones
// are counted in the sweep's figures (its checkpoint, per walls, cars and trucks; the database,
// per highest index), while --clusters-min-index only limits the records kept. The counts
// equal the records of --minimal sweeps that keep them all, under each rule, with or without
// --minimal; a stopped sweep resumes to the same counts; a sweep of other settings does not
// continue it.
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

// The minimal counts of a run directory's checkpoint under `rule`, per walls.
PerWalls checkpoint_counts(const std::filesystem::path& run, const Rules& rules, MinimalRule rule) {
  const std::optional<SavedClassSweep> saved = ClassCheckpoint::read(run);
  EXPECT_TRUE(saved.has_value());
  PerWalls counts;
  if (!saved) return counts;
  const TallyShape shape = tally_shape(rules);
  for (int walls = shape.min_walls; walls <= shape.max_walls(); ++walls)
    for (int cars = 0; cars <= shape.max_cars; ++cars)
      for (int trucks = 0; trucks <= shape.max_trucks; ++trucks) {
        const VehicleTally& t = saved->state.tallies[shape.slot(walls, cars, trucks)];
        const std::vector<std::uint64_t>& minimal = t.minimal[static_cast<std::size_t>(rule)];
        for (std::size_t i = 0; i < minimal.size(); ++i) add(counts, static_cast<std::uint32_t>(walls), i, minimal[i]);
      }
  trim(counts);
  return counts;
}

std::string per_index_json(const std::string& database, const std::string& question = "") {
  const auto answer = run_rushhour("query --clusters " + database + " --count --json" + question);
  EXPECT_EQ(answer.status, 0) << answer.err;
  std::smatch match;
  EXPECT_TRUE(std::regex_search(answer.out, match, std::regex("\"per_index\": \\[[0-9, ]*\\]"))) << answer.out;
  return match.empty() ? std::string() : match[0].str();
}

// Sweeps keeping every minimal record under each rule, and one sweep counting them under all
// the rules with records from `min_index` on: with --minimal under the first rule (only its
// minimal records kept), and without (every record kept, each rule's list a query away).
void expect_counts_equal_the_records(const std::string& board_options, const Rules& rules, int min_index) {
  SCOPED_TRACE(board_options);
  TempDir dir("minimal_counts");
  const std::string sweep = "classify --engine classes --threads 2 -q " + board_options;
  const std::vector<std::string> names = {"any", "canonical", "public"};
  std::map<std::string, PerWalls> expected;
  for (const std::string& rule : names) {
    const std::string all = dir / ("all-" + rule + ".h5");
    ASSERT_EQ(run_rushhour(sweep + " --minimal --minimal-rule " + rule + " --clusters " + all).status, 0);
    expected[rule] = records_of(all);
    ASSERT_GT(expected[rule].size(), 0u) << rule;
  }
  const std::string counts = " --minimal-counts public,any,canonical --clusters-min-index " + std::to_string(min_index);
  const std::string minimal = dir / "minimal.h5", every = dir / "every.h5";
  auto run = run_rushhour(sweep + counts + " --minimal --minimal-rule public --clusters " + minimal + " --out " +
                          (dir / "minimal"));
  ASSERT_EQ(run.status, 0) << run.err;
  run = run_rushhour(sweep + counts + " --clusters " + every + " --out " + (dir / "every"));
  ASSERT_EQ(run.status, 0) << run.err;

  for (const std::string& rule : names) {
    SCOPED_TRACE(rule);
    const MinimalRule r = parse_minimal_rule(rule);
    EXPECT_EQ(checkpoint_counts(dir / "minimal", rules, r), expected[rule]);
    EXPECT_EQ(checkpoint_counts(dir / "every", rules, r), expected[rule]);
    // Every rule's list from min_index on, and its counts per index, from the database of every
    // record: the records tested as they are read, the lower indices from the counts.
    const std::string question = " --minimal --minimal-rule " + rule;
    EXPECT_EQ(per_index_json(every, question), per_index_json(dir / ("all-" + rule + ".h5")));
  }
  // --minimal keeps the records of its rule's minimal clusters from min_index on, with the board
  // that rule lists and both metrics' figures where asked; they count every index.
  const std::string all_public = dir / "all-public.h5";
  EXPECT_EQ(records_of(minimal), records_of(all_public, min_index));
  EXPECT_EQ(rows_of(minimal), rows_of(all_public, min_index));
  EXPECT_LT(ClusterDatabase(minimal).size(), ClusterDatabase(all_public).size());
  EXPECT_EQ(per_index_json(minimal), per_index_json(all_public));
  // Without --minimal every cluster from min_index on is kept, as a sweep without a test keeps.
  const std::string plain = dir / "plain.h5";
  ASSERT_EQ(run_rushhour(sweep + " --clusters-min-index " + std::to_string(min_index) + " --clusters " + plain).status, 0);
  EXPECT_EQ(rows_of(every), rows_of(plain));
}

TEST(MinimalCounts, EqualTheRecordsOfWholeMinimalDatabasesUnderEachRule) {
  const Rules walled(4, -1, Metric::Move, {}, Domain::Puzzle, {0, 1});
  expect_counts_equal_the_records("--size 4 --metric move --domain puzzle --walls 1", walled, 3);
  const Rules limited(5, -1, Metric::Step, {4, 1, -1});
  expect_counts_equal_the_records("--size 5 --max-cars 4 --max-trucks 1", limited, 6);
}

// With both metrics, a class whose clusters are all below the least index kept skips its
// search under the other metric: the records kept carry the same figures of both.
TEST(MinimalCounts, KeepBothMetricsFiguresOfTheRecordsKept) {
  const Rules walled(5, -1, Metric::Move, {-1, -1, 5}, Domain::Puzzle, {0, 1});
  expect_counts_equal_the_records("--size 5 --max-vehicles 5 --metric move --domain puzzle --walls 1 "
                                  "--clusters-metrics both", walled, 6);
}

TEST(MinimalCounts, AStoppedSweepResumesToTheSameCounts) {
  TempDir dir("minimal_counts_resume");
  const std::string log = dir / "progress.log";
  const std::string board = "--engine classes --threads 2 --size 5 --metric move --domain puzzle --walls 1 "
                            "--max-vehicles 6 -q --clusters-min-index 7";
  const std::string args = "classify " + board + " --minimal-counts any,public --checkpoint-seconds 0 --clusters " +
                           (dir / "db.h5") + " --out " + (dir / "run");
  const auto first = test_support::run_shell(std::string(RUSHHOUR_BINARY) + " " + args + " --log " + log +
                                             " & pid=$!; for i in $(seq 1200); do grep -q . " + log +
                                             " 2>/dev/null && break; sleep 0.05; done; kill -INT $pid; wait $pid");
  ASSERT_EQ(first.status, 130) << first.err;
  ASSERT_TRUE(ClassCheckpoint::read(dir / "run").has_value());
  // The checkpoint counts minimal clusters under two rules: a sweep that does not, or under
  // other rules, cannot continue it.
  const std::string rest = " --checkpoint-seconds 0 --clusters " + (dir / "db.h5") + " --out " + (dir / "run") +
                           " --resume";
  EXPECT_EQ(run_rushhour("classify " + board + rest).status, 2);
  EXPECT_EQ(run_rushhour("classify " + board + " --minimal-counts any" + rest).status, 2);
  const auto second = run_rushhour(args + " --resume");
  ASSERT_EQ(second.status, 0) << second.err;

  const auto whole = run_rushhour("classify " + board + " --minimal-counts public,any --clusters " +
                                  (dir / "whole.h5") + " --out " + (dir / "whole"));
  ASSERT_EQ(whole.status, 0) << whole.err;
  const Rules rules(5, -1, Metric::Move, {-1, -1, 6}, Domain::Puzzle, {0, 1});
  for (const MinimalRule rule : {MinimalRule::Any, MinimalRule::Public}) {
    EXPECT_FALSE(checkpoint_counts(dir / "whole", rules, rule).empty());
    EXPECT_EQ(checkpoint_counts(dir / "run", rules, rule), checkpoint_counts(dir / "whole", rules, rule));
    EXPECT_EQ(ClusterDatabase(dir / "db.h5").minimal_counts(rule), ClusterDatabase(dir / "whole.h5").minimal_counts(rule));
  }
  EXPECT_FALSE(ClusterDatabase(dir / "db.h5").minimal_counts(MinimalRule::Canonical).has_value());
  EXPECT_EQ(rows_of(dir / "db.h5"), rows_of(dir / "whole.h5"));
}

// --estimate of a database job notes and tests the records as the job would, writing nothing:
// where every item is drawn (4x4, items asked beyond the job's) it meets every minimal cluster.
TEST(MinimalCounts, AnEstimateTestsTheRecordsAndWritesNothing) {
  TempDir dir("minimal_counts_estimate");
  const std::string board = "classify --engine classes --threads 2 -q --size 4 --metric move --domain puzzle --walls 1";
  const Rules rules(4, -1, Metric::Move, {}, Domain::Puzzle, {0, 1});
  std::map<std::string, std::uint64_t> expected;
  for (const std::string rule : {"any", "public"}) {
    const std::string all = dir / ("all-" + rule + ".h5");
    ASSERT_EQ(run_rushhour(board + " --minimal --minimal-rule " + rule + " --clusters " + all).status, 0);
    expected[rule] = ClusterDatabase(all).size();
    ASSERT_GT(expected[rule], 0u) << rule;
  }
  const std::filesystem::path out = dir / "job", database = out / "db.h5";
  const auto run = run_rushhour(board + " --estimate --estimate-items 100000 --minimal-counts any,public "
                                        "--clusters-metrics both --clusters " + database.string() + " --out " +
                                out.string());
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find(", with the cluster records of --clusters, --minimal-counts any,public, both metrics\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("minimal clusters in the items solved: any " + std::to_string(expected["any"]) +
                         ", public " + std::to_string(expected["public"]) + "\n"),
            std::string::npos)
      << run.out;
  EXPECT_FALSE(std::filesystem::exists(out)) << "an estimate writes nothing";
  // Without --minimal-counts there is nothing to count.
  const auto plain = run_rushhour(board + " --estimate --clusters " + database.string() + " --out " + out.string());
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.out.find("minimal clusters"), std::string::npos) << plain.out;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(MinimalCounts, RefuseWhatTheyCannotCount) {
  TempDir dir("minimal_counts_bad");
  const std::string sweep = "classify --engine classes --size 4 -q ";
  const auto no_database = run_rushhour(sweep + "--minimal-counts any");
  EXPECT_EQ(no_database.status, 2);
  EXPECT_NE(no_database.err.find("go with --clusters"), std::string::npos) << no_database.err;
  for (const std::string rules : {"every", "any,any", "any,"}) {
    const auto bad = run_rushhour(sweep + "--clusters " + (dir / "db.h5") + " --minimal-counts " + rules);
    EXPECT_EQ(bad.status, 2) << rules;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  }
}

}  // namespace
}  // namespace rushhour
