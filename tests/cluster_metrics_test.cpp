// The puzzle database with both metrics (`--clusters-metrics both`): every record of such a
// sweep is, field by field, the record of the same cluster in a step sweep and in a move
// sweep (the two canonical boards of a record lie in one component of the explicit engine),
// on 4x4 and 5x5 with vehicle limits, both domains, either run metric; the run's own figures
// and text list do not change; the spool and database round trip; bad input.
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "cli_test_support.hpp"
#include "explicit/explicit_engine.hpp"
#include "storage/cluster_database.hpp"
#include "storage_test_support.hpp"

namespace rushhour {
namespace {

using testing::read_bytes;
using testing::run_rushhour;
using testing::summary_of;
using testing::TempDir;

// A record under one metric, with the fields both metrics share.
struct Row {
  std::uint32_t highest = 0;
  std::uint64_t size = 0, hardest = 0, winning = 0, item = 0;
  std::uint32_t cars = 0, trucks = 0;
  std::vector<std::uint64_t> histogram;
  friend bool operator==(const Row&, const Row&) = default;
};

std::ostream& operator<<(std::ostream& out, const Row& r) {
  out << "{highest " << r.highest << ", size " << r.size << ", hardest " << r.hardest << ", winning " << r.winning
      << ", item " << r.item << ", cars " << r.cars << ", trucks " << r.trucks << ", histogram";
  for (const auto c : r.histogram) out << " " << c;
  return out << "}";
}

// The rows of a database under its run metric, or (`other`) under the other metric, keyed
// by that metric's canonical hardest configuration; a board twice fails.
std::map<std::string, Row> rows_by_board(const std::filesystem::path& path, bool other) {
  const ClusterDatabase database(path);
  EXPECT_EQ(database.both_metrics() || !other, true);
  std::map<std::string, Row> rows;
  database.for_each([&](const ClusterEntry& e) {
    const ClusterRecord& r = e.record;
    Row row{.highest = other ? r.other_highest_index : r.highest_index,
            .size = r.size,
            .hardest = other ? r.other_hardest_count : r.hardest_count,
            .winning = r.winning,
            .item = e.item,
            .cars = r.cars,
            .trucks = r.trucks,
            .histogram = other ? e.other_histogram : e.histogram};
    EXPECT_TRUE(rows.emplace(other ? e.other_board : e.board, row).second) << "two records of a board";
    return true;
  });
  EXPECT_EQ(rows.size(), database.size());
  return rows;
}

struct Case {
  int size = 4;
  VehicleLimits limits;
  Domain domain = Domain::All;

  std::string args() const {
    return "classify --engine classes --threads 2 -q --size " + std::to_string(size) + " --max-cars " +
           std::to_string(limits.max_cars) + " --max-trucks " + std::to_string(limits.max_trucks) +
           " --max-vehicles " + std::to_string(limits.max_vehicles) + " --domain " + to_string(domain);
  }
  Rules rules(Metric metric) const { return Rules(size, -1, metric, limits, domain); }
};

// The component (union-find over steps, the same components as over moves) of every state of
// the explicit engine's domain.
class Components {
 public:
  explicit Components(const Rules& rules) : solution_(ExplicitSolution::solve(rules)), root_(solution_.domain_size()) {
    std::iota(root_.begin(), root_.end(), std::size_t{0});
    for (std::size_t s = 0; s < root_.size(); ++s)
      for (const std::size_t t : solution_.neighbours(s, Metric::Step)) root_[find(s)] = find(t);
  }
  std::size_t of(const Rules& rules, const std::string& board) {
    const auto state = solution_.find(parse_board(board, rules));
    EXPECT_TRUE(state.has_value()) << board;
    return state ? find(*state) : ~std::size_t{0};
  }

 private:
  std::size_t find(std::size_t s) {
    while (root_[s] != s) s = root_[s] = root_[root_[s]];
    return s;
  }
  ExplicitSolution solution_;
  std::vector<std::size_t> root_;
};

// One sweep per metric and one with both metrics per run metric: the both-metrics records
// under each metric are that metric's sweep's records, a record's two boards are in one
// component, the run's figures and text list are unchanged.
void expect_both_metrics_equal_single_sweeps(const Case& c) {
  SCOPED_TRACE(c.args());
  TempDir dir("cluster_metrics");
  std::map<Metric, std::filesystem::path> single;
  std::map<Metric, std::string> printed;
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const std::string name = to_string(metric);
    const auto run = run_rushhour(c.args() + " --metric " + name + " --clusters " + (dir / (name + ".h5")) +
                                  " --clusters-text " + (dir / (name + ".txt")));
    ASSERT_EQ(run.status, 0) << run.err;
    single[metric] = dir / (name + ".h5");
    printed[metric] = summary_of(run.out);
  }
  Components components(c.rules(Metric::Step));
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    SCOPED_TRACE("run metric " + to_string(metric));
    const std::string name = "both-" + to_string(metric);
    const auto run = run_rushhour(c.args() + " --metric " + to_string(metric) + " --clusters " + (dir / (name + ".h5")) +
                                  " --clusters-text " + (dir / (name + ".txt")) + " --clusters-metrics both");
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(summary_of(run.out), printed[metric]);
    EXPECT_EQ(read_bytes(dir / (name + ".txt")), read_bytes(dir / (to_string(metric) + ".txt")));
    const ClusterDatabase both(dir / (name + ".h5"));
    ASSERT_TRUE(both.both_metrics());
    EXPECT_EQ(both.other_metric(), other_metric(metric));
    EXPECT_FALSE(ClusterDatabase(single[metric]).both_metrics());
    EXPECT_EQ(rows_by_board(dir / (name + ".h5"), false), rows_by_board(single[metric], false));
    EXPECT_EQ(rows_by_board(dir / (name + ".h5"), true), rows_by_board(single[other_metric(metric)], false));
    const Rules rules = c.rules(metric);
    std::size_t paired = 0;
    both.for_each([&](const ClusterEntry& e) {
      EXPECT_EQ(components.of(rules, e.board), components.of(rules, e.other_board)) << e.board << " " << e.other_board;
      ++paired;
      return true;
    }, false);
    EXPECT_GT(paired, 0u);
  }
}

TEST(ClusterMetrics, FourByFourRecordsEqualTheOneMetricSweeps) {
  expect_both_metrics_equal_single_sweeps({.size = 4, .limits = {-1, -1, -1}, .domain = Domain::All});
  expect_both_metrics_equal_single_sweeps({.size = 4, .limits = {-1, -1, 5}, .domain = Domain::All});
  expect_both_metrics_equal_single_sweeps({.size = 4, .limits = {-1, -1, 5}, .domain = Domain::Puzzle});
}

TEST(ClusterMetrics, SideFiveWithLimitsRecordsEqualTheOneMetricSweeps) {
  // 5x5 has the mirror: a class counted twice gives its records and its image's.
  expect_both_metrics_equal_single_sweeps({.size = 5, .limits = {4, 2, -1}, .domain = Domain::All});
  expect_both_metrics_equal_single_sweeps({.size = 5, .limits = {4, 2, -1}, .domain = Domain::Puzzle});
}

// --clusters-min-index and --minimal select by the run's metric: the records are those of
// the run metric's sweep with the same options, their other metric's figures those of the
// other metric's full sweep.
TEST(ClusterMetrics, SelectionsFollowTheRunMetric) {
  TempDir dir("cluster_metrics_selected");
  const std::string base = "classify --engine classes --threads 2 -q --size 4 --metric move --clusters-min-index 4 --minimal";
  ASSERT_EQ(run_rushhour(base + " --clusters " + (dir / "move.h5")).status, 0);
  ASSERT_EQ(run_rushhour(base + " --clusters " + (dir / "both.h5") + " --clusters-metrics both").status, 0);
  ASSERT_EQ(run_rushhour("classify --engine classes -q --size 4 --metric step --clusters " + (dir / "step.h5")).status, 0);
  EXPECT_EQ(rows_by_board(dir / "both.h5", false), rows_by_board(dir / "move.h5", false));
  const auto step = rows_by_board(dir / "step.h5", false);
  const auto other = rows_by_board(dir / "both.h5", true);
  EXPECT_GT(other.size(), 0u);
  EXPECT_LT(other.size(), step.size());
  for (const auto& [board, row] : other) {
    ASSERT_TRUE(step.contains(board)) << board;
    EXPECT_EQ(row, step.at(board)) << board;
  }
}

// The records as the engine reports them go through the spool and the database unchanged,
// the other metric's boards and histograms included; a spool of the other kind is refused.
TEST(ClusterMetrics, SpoolAndDatabaseKeepBothMetrics) {
  TempDir dir("cluster_metrics_spool");
  const Rules rules(5, -1, Metric::Step, VehicleLimits{3, 2, -1});
  const std::string parameters = "test both";
  const auto path = dir / "db.h5.spool";
  std::map<std::uint64_t, ClusterRecords> reported;
  {
    ClusterSpool spool(path, parameters, true);
    ClassEngineOptions options;
    options.threads = 2;
    options.cluster_both_metrics = true;
    options.on_clusters = [&](std::uint64_t item, ClusterRecords&& records) {
      spool.append(item, records);
      reported[item] = std::move(records);
    };
    classify_by_classes(rules, options);
    spool.close();
  }
  ASSERT_FALSE(reported.empty());
  std::map<std::uint64_t, ClusterRecords> read;
  read_cluster_spool(path, parameters, true, [&](std::uint64_t item, ClusterRecords&& records) { read[item] = records; });
  EXPECT_EQ(read, reported);
  EXPECT_THROW(read_cluster_spool(path, parameters, false, [](std::uint64_t, ClusterRecords&&) {}), InputError);
  EXPECT_THROW(ClusterSpool::resume(path, parameters, false, [](std::uint64_t) { return true; }), InputError);
  // Continued after its leading half (blocks lie in finishing order), the rest appended
  // again: the same records.
  {
    std::vector<std::uint64_t> order;  // the items in the spool's order
    ClusterSpool::resume(path, parameters, true, [&](std::uint64_t item) {
      order.push_back(item);
      return true;
    }).close();
    ASSERT_EQ(order.size(), reported.size());
    const std::size_t half = order.size() / 2;
    const std::set<std::uint64_t> leading(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(half));
    ClusterSpool spool = ClusterSpool::resume(path, parameters, true, [&](std::uint64_t item) { return leading.contains(item); });
    for (std::size_t k = half; k < order.size(); ++k) spool.append(order[k], reported.at(order[k]));
    spool.close();
    std::map<std::uint64_t, ClusterRecords> again;
    read_cluster_spool(path, parameters, true, [&](std::uint64_t item, ClusterRecords&& records) { again[item] = records; });
    EXPECT_EQ(again, reported);
  }
  write_cluster_database(path, dir / "db.h5",
                         {.rules = rules, .parameters = parameters, .min_index = 0, .minimal = false, .item_stride = 1,
                          .complete = true, .both_metrics = true},
                         RunMetadata::current("test"));
  const SampleKeys keys(rules);
  auto item = reported.begin();
  std::size_t k = 0, at = 0, other_at = 0;
  std::uint64_t rows = 0;
  ClusterDatabase(dir / "db.h5").for_each(
      [&](const ClusterEntry& entry) {
        while (item != reported.end() && k == item->second.records.size()) ++item, k = 0, at = 0, other_at = 0;
        EXPECT_NE(item, reported.end());
        if (item == reported.end()) return false;
        const ClusterRecords& records = item->second;
        const ClusterRecord& r = records.records[k];
        EXPECT_EQ(entry.item, item->first);
        EXPECT_EQ(entry.board, keys.board(r.hardest));
        EXPECT_EQ(entry.other_board, keys.board(r.other_hardest));
        ClusterRecord stored = r;
        stored.hardest = stored.other_hardest = 0;
        EXPECT_EQ(entry.record, stored);
        auto slice = [](const std::vector<std::uint64_t>& all, std::size_t from, std::uint32_t highest) {
          return std::vector<std::uint64_t>(all.begin() + static_cast<std::ptrdiff_t>(from),
                                            all.begin() + static_cast<std::ptrdiff_t>(from + highest + 1));
        };
        EXPECT_EQ(entry.histogram, slice(records.histogram, at, r.highest_index));
        EXPECT_EQ(entry.other_histogram, slice(records.other_histogram, other_at, r.other_highest_index));
        at += r.highest_index + 1u;
        other_at += r.other_highest_index + 1u;
        ++k;
        ++rows;
        return true;
      },
      true, 100);
  EXPECT_EQ(rows, ClusterDatabase(dir / "db.h5").size());
}

TEST(ClusterMetrics, QueryListsBothMetrics) {
  TempDir dir("cluster_metrics_query");
  ASSERT_EQ(run_rushhour("classify --engine classes -q --size 4 --metric move --clusters-metrics both --clusters " +
                         (dir / "db.h5")).status, 0);
  const auto text = run_rushhour("query --clusters " + (dir / "db.h5") + " --hardest");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("step-index step-board step-hardest"), std::string::npos) << text.out;
  const auto json = run_rushhour("query --clusters " + (dir / "db.h5") + " --hardest --json");
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_NE(json.out.find("\"metric\": \"move\""), std::string::npos) << json.out;
  // Every listed record's step figures, as the step sweep's record of its step board.
  std::size_t listed = 0;
  const auto step = [&] {
    EXPECT_EQ(run_rushhour("classify --engine classes -q --size 4 --metric step --clusters " + (dir / "step.h5")).status, 0);
    return rows_by_board(dir / "step.h5", false);
  }();
  ClusterDatabase(dir / "db.h5").for_each([&](const ClusterEntry& e) {
    if (e.record.highest_index != 7) return true;
    const Row& s = step.at(e.other_board);
    std::string expected = "\"step\": {\"board\": \"" + e.other_board + "\", \"highest_index\": " +
                           std::to_string(s.highest) + ", \"hardest_count\": " + std::to_string(s.hardest) +
                           ", \"histogram\": [";
    for (std::size_t i = 0; i < s.histogram.size(); ++i) expected += (i ? ", " : "") + std::to_string(s.histogram[i]);
    EXPECT_NE(json.out.find(expected + "]}"), std::string::npos) << expected << "\n" << json.out;
    EXPECT_NE(text.out.find(" " + std::to_string(s.highest) + " " + e.other_board + " " + std::to_string(s.hardest) + "\n"),
              std::string::npos)
        << text.out;
    ++listed;
    return true;
  });
  EXPECT_GT(listed, 0u);
}

TEST(ClusterMetrics, RefusesBadInput) {
  TempDir dir("cluster_metrics_bad");
  const std::string base = "classify --size 4 -q ";
  for (const std::string& bad :
       {base + "--engine classes --clusters-metrics both",
        base + "--engine classes --clusters " + (dir / "x.h5") + " --clusters-metrics all",
        base + "--engine classes --clusters " + (dir / "x.h5") + " --clusters-metrics",
        base + "--engine bdd --clusters-metrics both", base + "--engine explicit --clusters-metrics both"}) {
    const auto refused = run_rushhour(bad);
    EXPECT_EQ(refused.status, 2) << bad;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << bad << ": " << refused.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "x.h5"));
}

}  // namespace
}  // namespace rushhour
