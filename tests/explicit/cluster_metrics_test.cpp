// The puzzle database with both metrics (`--clusters-metrics both`): every record of such a
// sweep is, field by field, the record of the same cluster in a step sweep and in a move
// sweep (the two canonical boards of a record lie in one component of the explicit engine),
// on 4x4 and 5x5 with vehicle limits, both domains, either run metric; the run's own figures
// and text list do not change; the spool and database round trip; query --metric lists either
// metric as that metric's one-metric database does; bad input.
#include <gtest/gtest.h>

#include <map>
#include <iterator>
#include <numeric>
#include <regex>
#include <set>
#include <sstream>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "explicit/class_engine.hpp"
#include "cli_test_support.hpp"
#include "explicit/explicit_engine.hpp"
#include "storage/cluster_database.hpp"
#include "storage_test_support.hpp"
#include "test_tier.hpp"
#include "run/class_sweep.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("ClusterMetrics.QueryByEitherMetricOnSideFiveWithLimits", long);
RUSHHOUR_TEST_TIER_OF("ClusterMetrics.QueryByEitherMetricOnSideFourWithLimits", long);

namespace rushhour {

using run::classify_by_classes;
namespace {

using test_support::read_bytes;
using test_support::run_rushhour;
using test_support::summary_of;
using test_support::TempDir;

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
  // Listed under the step metric, the database says how its records were chosen.
  const std::string note = "(the database holds only the clusters of highest index at least 4, minimal under the move metric)\n";
  const auto by_step = run_rushhour("query --clusters " + (dir / "both.h5") + " --metric step --index 5");
  ASSERT_EQ(by_step.status, 0) << by_step.err;
  EXPECT_NE(by_step.out.find(note), std::string::npos) << by_step.out;
  const auto by_move = run_rushhour("query --clusters " + (dir / "both.h5") + " --index 5");
  ASSERT_EQ(by_move.status, 0) << by_move.err;
  EXPECT_EQ(by_move.out.find("the database holds only"), std::string::npos) << by_move.out;
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

// A listing (query --clusters ... --index I --sample K) split into what two databases must
// share and what only a both-metrics database adds.
struct Listing {
  std::string head;                // text: the count line and the first header columns; JSON: all but the list
  std::vector<std::string> rows;   // sorted, the listed metric's figures only
  std::vector<std::string> other;  // the other metric's figures, one per row (both metrics)
};

// `other`: the other metric's name when the listing is of a both-metrics database.
Listing text_listing(const std::string& out, const std::string& other) {
  Listing listing;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("  ", 0) != 0) {
      // The header names the other metric's columns after the shared ones.
      const auto extra = other.empty() ? std::string::npos : line.find(" " + other + "-index ");
      listing.head += line.substr(0, extra) + "\n";
      continue;
    }
    std::istringstream fields(line);
    std::vector<std::string> words{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
    EXPECT_EQ(words.size(), other.empty() ? 7u : 10u) << line;
    if (words.size() < 7) continue;
    std::string row;
    for (std::size_t k = 0; k < 7; ++k) row += words[k] + " ";
    listing.rows.push_back(row);
    if (words.size() == 10) listing.other.push_back(words[8] + " " + words[7] + " " + words[9]);
  }
  std::sort(listing.rows.begin(), listing.rows.end());
  return listing;
}

Listing json_listing(const std::string& out, const std::string& other) {
  Listing listing;
  const auto list = out.find("\"list\": [");
  EXPECT_NE(list, std::string::npos) << out;
  if (list == std::string::npos) return listing;
  listing.head = out.substr(0, list);
  std::string entries = out.substr(list + 9, out.rfind("]}") - list - 9);
  if (!other.empty()) {
    const std::regex object(", \"" + other + "\": (\\{[^}]*\\})");
    for (auto it = std::sregex_iterator(entries.begin(), entries.end(), object); it != std::sregex_iterator(); ++it)
      listing.other.push_back((*it)[1]);
    entries = std::regex_replace(entries, object, "");
  }
  for (std::size_t at = 0; at < entries.size();) {
    const auto end = entries.find('}', at);
    listing.rows.push_back(entries.substr(at, end + 1 - at));
    at = entries.find('{', end);
    if (at == std::string::npos) break;
  }
  std::sort(listing.rows.begin(), listing.rows.end());
  return listing;
}

// The figures a listing row of a both-metrics database gives under the other metric, as the
// one-metric database of the other metric records them ("board index hardest" in text).
std::string expected_other_text(const std::map<std::string, Row>& other_rows, const std::string& board) {
  const Row& r = other_rows.at(board);
  return board + " " + std::to_string(r.highest) + " " + std::to_string(r.hardest);
}

std::string expected_other_json(const std::map<std::string, Row>& other_rows, const std::string& board) {
  const Row& r = other_rows.at(board);
  std::string text = "{\"board\": \"" + board + "\", \"highest_index\": " + std::to_string(r.highest) +
                     ", \"hardest_count\": " + std::to_string(r.hardest) + ", \"histogram\": [";
  for (std::size_t i = 0; i < r.histogram.size(); ++i) text += (i ? ", " : "") + std::to_string(r.histogram[i]);
  return text + "]}";
}

// Queried with --metric M, a both-metrics database (of either run metric) lists, index by
// index and with filters, exactly the clusters the one-metric database of M lists, text and
// JSON; each row's other metric figures are the other one-metric database's record of that
// row's other board. A board's answer gives its cluster under both metrics.
void expect_queries_by_metric_equal_one_metric_databases(const Case& c) {
  SCOPED_TRACE(c.args());
  TempDir dir("cluster_metrics_by_metric");
  std::map<Metric, std::string> single, both;
  std::map<Metric, std::map<std::string, Row>> rows;
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const std::string name = to_string(metric);
    single[metric] = dir / (name + ".h5");
    both[metric] = dir / ("both-" + name + ".h5");
    ASSERT_EQ(run_rushhour(c.args() + " --metric " + name + " --clusters " + single[metric]).status, 0);
    ASSERT_EQ(run_rushhour(c.args() + " --metric " + name + " --clusters " + both[metric] + " --clusters-metrics both").status, 0);
    rows[metric] = rows_by_board(single[metric], false);
  }
  const std::vector<std::string> filters = {"", " --cars 2", " --vehicles 3 --min-size 10", " --trucks 1 --max-size 40"};
  // The one-metric database's answers, each asked once.
  std::map<std::string, std::string> answers;
  auto answer = [&](const std::string& question) -> const std::string& {
    auto [at, added] = answers.try_emplace(question);
    if (added) at->second = run_rushhour(question).out;
    return at->second;
  };
  std::size_t compared = 0;
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const Metric other = other_metric(metric);
    int highest = 0;
    for (const auto& [board, row] : rows[metric]) highest = std::max(highest, static_cast<int>(row.highest));
    for (const Metric run_metric : {Metric::Step, Metric::Move}) {
      SCOPED_TRACE("listed by " + to_string(metric) + ", database of run metric " + to_string(run_metric));
      const std::string asked = "query --clusters " + both[run_metric] + " --metric " + to_string(metric);
      // Listed by the database's other metric: every index, some with filters; by its run
      // metric (the listing without --metric), every other index.
      const bool exchanged = run_metric != metric;
      for (int index = exchanged ? 0 : 1; index <= highest + 1; index += exchanged ? 1 : 2) {
        const bool filtered = index % 4 == 1 && exchanged;
        for (const std::string& filter : filtered ? filters : std::vector<std::string>{""}) {
          const std::string question = " --index " + std::to_string(index) + filter + " --sample 100000";
          SCOPED_TRACE(question);
          const std::string& expected_text = answer("query --clusters " + single[metric] + question);
          const auto text = run_rushhour(asked + question);
          ASSERT_EQ(text.status, 0) << text.err;
          const Listing want = text_listing(expected_text, ""), got = text_listing(text.out, to_string(other));
          EXPECT_EQ(got.head, want.head);
          EXPECT_EQ(got.rows, want.rows);
          ASSERT_EQ(got.other.size(), got.rows.size());
          for (const std::string& o : got.other)
            EXPECT_EQ(o, expected_other_text(rows[other], o.substr(0, o.find(' '))));
          const std::string& expected_json = answer("query --clusters " + single[metric] + question + " --json");
          const auto json = run_rushhour(asked + question + " --json");
          ASSERT_EQ(json.status, 0) << json.err;
          const Listing want_json = json_listing(expected_json, ""), got_json = json_listing(json.out, to_string(other));
          EXPECT_EQ(got_json.head, want_json.head);
          EXPECT_NE(got_json.head.find("\"metric\": \"" + to_string(metric) + "\""), std::string::npos) << got_json.head;
          EXPECT_EQ(got_json.rows, want_json.rows);
          ASSERT_EQ(got_json.other.size(), got_json.rows.size());
          for (const std::string& o : got_json.other)
            EXPECT_EQ(o, expected_other_json(rows[other], o.substr(11, o.find('"', 11) - 11)));
          compared += want.rows.size();
        }
      }
      const auto hardest = run_rushhour(asked + " --hardest --json");
      EXPECT_EQ(hardest.out.rfind("{\"clusters\": ", 0), 0u) << hardest.out;
      EXPECT_NE(hardest.out.find("\"highest_index\": " + std::to_string(highest) + ","), std::string::npos) << hardest.out;
      EXPECT_EQ(json_listing(hardest.out, to_string(other)).rows,
                json_listing(run_rushhour("query --clusters " + single[metric] + " --hardest --json").out, "").rows);
    }
  }
  EXPECT_GT(compared, 0u);

  // A board: its cluster under the metric asked, and under the other in "other_metric", each
  // as the one-metric database of that metric answers it.
  const ClusterDatabase database(both[Metric::Move]);
  std::vector<std::string> boards;
  database.for_each([&](const ClusterEntry& e) {
    if (boards.empty() || e.record.highest_index > 2) boards.push_back(e.other_board);
    return boards.size() < 3;
  }, false);
  for (const std::string& board : boards) {
    for (const Metric metric : {Metric::Step, Metric::Move}) {
      const Metric other = other_metric(metric);
      const auto mine = run_rushhour("query --clusters " + both[Metric::Move] + " --metric " + to_string(metric) +
                                     " --board " + board + " --json");
      const auto want = run_rushhour("query --clusters " + single[metric] + " --board " + board + " --json");
      const auto want_other = run_rushhour("query --clusters " + single[other] + " --board " + board + " --json");
      ASSERT_EQ(mine.status, 0) << mine.err;
      // {"board": B, "index": I, "status": S, "cluster": {C}} + ", "other_metric": {the other's
      // C without size and winning count, with the board's index}.
      const std::string cluster = want.out.substr(0, want.out.size() - 3);
      EXPECT_EQ(mine.out.rfind(cluster + ", \"other_metric\": {\"metric\": \"" + to_string(other) + "\", ", 0), 0u)
          << mine.out << "\n" << want.out;
      const std::smatch found = [&] {
        std::smatch m;
        std::regex_search(want_other.out, m,
                          std::regex("\"index\": (\\d+).*\"highest_index\": (\\d+), (\"hardest\": .*), \"winning_count\": "
                                     "\\d+, (\"histogram\": .*\"harder\": \\d+)\\}\\}"));
        return m;
      }();
      ASSERT_FALSE(found.empty()) << want_other.out;
      EXPECT_NE(mine.out.find("\"other_metric\": {\"metric\": \"" + to_string(other) + "\", \"index\": " + found[1].str() +
                              ", \"highest_index\": " + found[2].str() + ", " + found[3].str() + ", " + found[4].str() +
                              "}}}\n"),
                std::string::npos)
          << mine.out << "\n" << want_other.out;
      const auto text = run_rushhour("query --clusters " + both[Metric::Move] + " --metric " + to_string(metric) +
                                     " --board " + board);
      ASSERT_EQ(text.status, 0) << text.err;
      EXPECT_NE(text.out.find("\nunder the " + to_string(other) + " metric: highest index " + found[2].str() + " ("),
                std::string::npos)
          << text.out;
      EXPECT_NE(text.out.find("\n  this board: index " + found[1].str() + ", "), std::string::npos) << text.out;
    }
  }
}

TEST(ClusterMetrics, QueryByEitherMetricOnSideFourWithLimits) {
  expect_queries_by_metric_equal_one_metric_databases({.size = 4, .limits = {-1, -1, 5}, .domain = Domain::All});
}

TEST(ClusterMetrics, QueryByEitherMetricOnSideFiveWithLimits) {
  expect_queries_by_metric_equal_one_metric_databases({.size = 5, .limits = {4, 2, 5}, .domain = Domain::Puzzle});
}

// --metric names a metric the database holds: refused (one line, exit 2) for the other metric
// of a one-metric database, an unknown metric, and with --run.
TEST(ClusterMetrics, QueryRefusesAMetricTheFileDoesNotHold) {
  TempDir dir("cluster_metrics_query_bad");
  ASSERT_EQ(run_rushhour("classify --engine classes -q --size 4 --metric step --out " + (dir / "run") + " --clusters " +
                         (dir / "step.h5")).status, 0);
  ASSERT_EQ(run_rushhour("classify --engine classes -q --size 4 --metric move --clusters-metrics both --clusters " +
                         (dir / "both.h5")).status, 0);
  EXPECT_EQ(run_rushhour("query --clusters " + (dir / "step.h5") + " --metric step --hardest").status, 0);
  for (const std::string& bad :
       {"query --clusters " + (dir / "step.h5") + " --metric move --hardest",
        "query --clusters " + (dir / "step.h5") + " --metric move --board ooBCAABCooDDooEE",
        "query --clusters " + (dir / "both.h5") + " --metric steps --hardest",
        "query --clusters " + (dir / "both.h5") + " --metric --hardest",
        "query --run " + (dir / "run") + " --metric step --hardest",
        "query --run " + (dir / "run") + " --metric move --board ooBCAABCooDDooEE"}) {
    const auto refused = run_rushhour(bad);
    EXPECT_EQ(refused.status, 2) << bad;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << bad << ": " << refused.err;
    EXPECT_TRUE(refused.out.empty()) << bad << ": " << refused.out;
  }
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
