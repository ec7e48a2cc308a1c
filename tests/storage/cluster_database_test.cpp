// The puzzle database: every cluster record of a class sweep against the explicit engine's
// components (size, highest index, histogram, hardest and winning counts, the canonical
// hardest configuration: the least explicit-engine key), on 4x4 and 5x5, both metrics, with
// vehicle limits and a least highest index; the database and text files written from the
// spool; a sweep stopped and resumed writes the same records as one that was not; bad input.
#include "storage/cluster_database.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <sstream>
#include <thread>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "explicit/class_engine.hpp"
#include "board/game.hpp"
#include "cli_test_support.hpp"
#include "explicit/explicit_engine.hpp"
#include "storage_test_support.hpp"
#include "test_tier.hpp"
#include "run/class_sweep.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("ClusterRecords.FiveByFiveEqualTheExplicitComponents", long);
RUSHHOUR_TEST_TIER_OF("ClusterRecords.MinimalRulesDifferOnTheFiveByFivePuzzleDomain", long);
RUSHHOUR_TEST_TIER_OF("ClusterRecords.ThePublicRuleListsThePublicEnumeratorsWalledFiveByFivePuzzles", long);

namespace rushhour {

using run::classify_by_classes;
namespace {

using test_support::read_bytes;
using test_support::run_rushhour;
using test_support::TempDir;

// A record as both sides compute it, keyed by its canonical board.
struct Expected {
  std::uint32_t highest = 0;
  std::uint64_t size = 0, hardest = 0, winning = 0;
  int cars = 0, trucks = 0;
  std::vector<std::uint64_t> histogram;
  friend bool operator==(const Expected&, const Expected&) = default;
};

std::ostream& operator<<(std::ostream& out, const Expected& e) {
  out << "{highest " << e.highest << ", size " << e.size << ", hardest " << e.hardest << ", winning " << e.winning
      << ", cars " << e.cars << ", trucks " << e.trucks << ", histogram";
  for (const auto c : e.histogram) out << " " << c;
  return out << "}";
}

// The explicit engine's components (union-find over its states and steps), each solvable one
// with highest index >= min_index, keyed by the board of its least state of the highest index
// (states are numbered in key order); with `hardest_of`, also every configuration of each one's
// highest index, in key order.
std::map<std::string, Expected> explicit_clusters(const Rules& rules, int min_index,
                                                  std::map<std::string, std::vector<Board>>* hardest_of = nullptr) {
  const ExplicitSolution solution = ExplicitSolution::solve(rules);
  const std::size_t states = solution.domain_size();
  std::vector<std::uint32_t> parent(states);
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](std::uint32_t s) {
    while (parent[s] != s) s = parent[s] = parent[parent[s]];
    return s;
  };
  for (std::size_t s = 0; s < states; ++s)
    for (const std::size_t t : solution.neighbours(s, Metric::Step)) {
      const std::uint32_t a = find(static_cast<std::uint32_t>(s)), b = find(static_cast<std::uint32_t>(t));
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  std::vector<int> top(states, -1);
  for (std::size_t s = 0; s < states; ++s)
    if (const auto index = solution.index(s)) top[find(static_cast<std::uint32_t>(s))] = std::max(top[find(static_cast<std::uint32_t>(s))], *index);
  std::map<std::uint32_t, Expected> by_root;
  std::map<std::uint32_t, std::vector<std::size_t>> hardest_states;
  for (std::size_t s = 0; s < states; ++s) {
    const auto index = solution.index(s);
    if (!index) continue;
    const std::uint32_t r = find(static_cast<std::uint32_t>(s));
    if (top[r] < min_index) continue;
    Expected& e = by_root[r];
    e.highest = static_cast<std::uint32_t>(top[r]);
    e.histogram.resize(e.highest + 1u, 0);
    ++e.size;
    ++e.histogram[static_cast<std::size_t>(*index)];
    if (*index == 0) ++e.winning;
    if (*index == top[r]) {
      ++e.hardest;
      hardest_states[r].push_back(s);  // ascending s: the least key first
    }
  }
  std::map<std::string, Expected> clusters;
  for (auto& [root, e] : by_root) {
    const Board board = solution.board(hardest_states.at(root).front());
    e.cars = board.cars();
    e.trucks = board.trucks();
    clusters[to_board_string(rules, board)] = e;
    if (hardest_of != nullptr)
      for (const std::size_t s : hardest_states.at(root))
        (*hardest_of)[to_board_string(rules, board)].push_back(solution.board(s));
  }
  return clusters;
}

// The records of a class sweep (two threads), keyed by canonical board; a board twice fails.
std::map<std::string, Expected> class_clusters(const Rules& rules, int min_index, bool mirror,
                                               std::vector<std::int64_t>* per_index = nullptr,
                                               ClassCensus* census_out = nullptr, bool minimal = false,
                                               MinimalRule rule = MinimalRule::Any) {
  const SampleKeys keys(rules);
  std::map<std::string, Expected> clusters;
  ClassEngineOptions options;
  options.threads = 2;
  options.mirror = mirror;
  options.cluster_min_index = min_index;
  options.minimal_clusters = minimal;
  options.minimal_rule = rule;
  options.on_clusters = [&](std::uint64_t, ClusterRecords&& records) {
    std::size_t at = 0;
    for (const ClusterRecord& r : records.records) {
      Expected e{.highest = r.highest_index, .size = r.size, .hardest = r.hardest_count, .winning = r.winning,
                 .cars = static_cast<int>(r.cars), .trucks = static_cast<int>(r.trucks), .histogram = {}};
      e.histogram.assign(records.histogram.begin() + static_cast<std::ptrdiff_t>(at),
                         records.histogram.begin() + static_cast<std::ptrdiff_t>(at + r.highest_index + 1));
      at += r.highest_index + 1u;
      const std::string board = keys.board(r.hardest);
      EXPECT_EQ(keys.key(parse_board(board, rules)), r.hardest);
      EXPECT_TRUE(clusters.emplace(board, e).second) << "two records of " << board;
    }
    EXPECT_EQ(at, records.histogram.size());
  };
  const ClassCensus census = classify_by_classes(rules, options);
  EXPECT_TRUE(census.complete);
  if (per_index != nullptr) *per_index = census.classification().components;
  if (census_out != nullptr) *census_out = census;
  return clusters;
}

void expect_records_of_explicit_components(const Rules& rules, int min_index = 0, bool mirror = true) {
  SCOPED_TRACE(rules.describe() + ", min index " + std::to_string(min_index) + (mirror ? "" : ", no mirror"));
  std::vector<std::int64_t> components;
  const auto found = class_clusters(rules, min_index, mirror, &components);
  const auto expected = explicit_clusters(rules, min_index);
  ASSERT_EQ(found.size(), expected.size());
  for (const auto& [board, e] : expected) {
    const auto it = found.find(board);
    ASSERT_NE(it, found.end()) << "no record with hardest configuration " << board;
    EXPECT_EQ(it->second, e) << board;
  }
  // Clusters per highest index: the dominance figures' component counts.
  std::vector<std::int64_t> per_index(components.size(), 0);
  for (const auto& [board, e] : found) ++per_index.at(e.highest);
  for (std::size_t i = 0; i < components.size(); ++i)
    EXPECT_EQ(per_index[i], static_cast<int>(i) < min_index ? 0 : components[i]) << "index " << i;
}

TEST(ClusterRecords, FourByFourEqualTheExplicitComponents) {
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    expect_records_of_explicit_components(Rules(4, -1, metric));
    expect_records_of_explicit_components(Rules(4, 0, metric));
    expect_records_of_explicit_components(Rules(4, -1, metric, VehicleLimits{3, 1, -1}));
    expect_records_of_explicit_components(Rules(4, -1, metric), 5);
    expect_records_of_explicit_components(Rules(4, -1, metric, {}, Domain::Puzzle));
  }
}

TEST(ClusterRecords, SideFiveWithLimitsEqualsTheExplicitComponents) {
  // 5x5 has the mirror: a class counted twice gives its records and its image's.
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    expect_records_of_explicit_components(Rules(5, -1, metric, VehicleLimits{4, 2, -1}));
    expect_records_of_explicit_components(Rules(5, -1, metric, VehicleLimits{4, 2, -1}), 0, false);
    expect_records_of_explicit_components(Rules(5, -1, metric, VehicleLimits{-1, -1, 5}), 8);
  }
}

TEST(ClusterRecords, FiveByFiveEqualTheExplicitComponents) {
  for (const Metric metric : {Metric::Step, Metric::Move}) expect_records_of_explicit_components(Rules(5, -1, metric));
}

// --minimal under each rule: a hardest configuration is minimal when it loses index with any
// one piece but the target removed (a vehicle or a wall), the removals' indices looked up in the
// explicit engine. Any: the first minimal one in key order; canonical: the first one, if
// minimal; public: the least by (horizontal mask with walls, vertical mask), if minimal.
// Returns, per rule, how many minimal clusters are listed with another board than their
// canonical one.
std::vector<std::size_t> expect_minimal_records(
    const Rules& rules,
    const std::vector<MinimalRule>& rule_list = {MinimalRule::Any, MinimalRule::Canonical, MinimalRule::Public}) {
  std::map<std::string, std::vector<Board>> hardest_of;
  const auto all = explicit_clusters(rules, 0, &hardest_of);
  const ExplicitSolution solution = ExplicitSolution::solve(rules);
  const auto is_needed_everywhere = [&](const Board& board, std::uint32_t highest) {
    const std::size_t target = *find_target(rules, board);
    const auto lowers = [&](const Board& fewer) {
      const auto state = solution.find(fewer);
      EXPECT_TRUE(state.has_value()) << to_board_string(rules, fewer);
      const auto index = state ? solution.index(*state) : std::nullopt;
      return index && static_cast<std::uint32_t>(*index) < highest;
    };
    for (std::size_t v = 0; v < board.vehicles().size(); ++v) {
      if (v == target) continue;
      std::vector<Vehicle> fewer = board.vehicles();
      fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(v));
      if (!lowers(Board(rules.size(), fewer, board.walls()))) return false;
    }
    for (int cell = 0; cell < rules.cells(); ++cell)
      if ((board.walls() >> cell & 1) &&
          !lowers(Board(rules.size(), board.vehicles(), board.walls() & ~(std::uint64_t{1} << cell))))
        return false;
    return true;
  };
  const auto public_masks = [&](const Board& board) {
    std::uint64_t horizontal = board.walls(), vertical = 0;
    for (const Vehicle& v : board.vehicles()) (v.horizontal() ? horizontal : vertical) |= v.mask(rules.size());
    return std::pair{horizontal, vertical};
  };
  std::vector<std::size_t> elsewhere;
  for (const MinimalRule rule : rule_list) {
    SCOPED_TRACE(rules.describe() + ", rule " + to_string(rule));
    const auto minimal = class_clusters(rules, 0, true, nullptr, nullptr, true, rule);
    std::map<std::string, Expected> expected;
    std::size_t chosen_elsewhere = 0;  // listed with another board than the canonical one
    for (const auto& [text, record] : all) {
      const std::vector<Board>& hardest = hardest_of.at(text);
      std::optional<Board> listed;
      if (rule == MinimalRule::Any) {
        for (const Board& board : hardest)
          if (is_needed_everywhere(board, record.highest)) {
            listed = board;
            break;
          }
      } else {
        Board representative = hardest.front();
        if (rule == MinimalRule::Public)
          for (const Board& board : hardest)
            if (public_masks(board) < public_masks(representative)) representative = board;
        if (is_needed_everywhere(representative, record.highest)) listed = representative;
      }
      if (!listed) continue;
      chosen_elsewhere += *listed != hardest.front();
      expected.emplace(to_board_string(rules, *listed), record);
    }
    EXPECT_GT(expected.size(), 0u);
    EXPECT_LT(expected.size(), all.size());
    EXPECT_EQ(minimal, expected);
    elsewhere.push_back(chosen_elsewhere);
  }
  return elsewhere;
}

TEST(ClusterRecords, MinimalOnesNeedEveryVehicle) {
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    expect_minimal_records(Rules(4, -1, metric));
    expect_minimal_records(Rules(5, -1, metric, VehicleLimits{3, 1, -1}));
    // Exit rows on the edges: a blocker leaves the exit row on one side only.
    expect_minimal_records(Rules(4, 0, metric));
    expect_minimal_records(Rules(5, 4, metric, VehicleLimits{3, 1, -1}));
  }
}

// The 5x5 puzzle domain under the move metric, where the rules differ: some clusters' least
// hardest configuration is not minimal but another is (any), and the public representative is
// not always the canonical one.
TEST(ClusterRecords, MinimalRulesDifferOnTheFiveByFivePuzzleDomain) {
  const Rules rules(5, -1, Metric::Move, {}, Domain::Puzzle);
  const std::vector<std::size_t> elsewhere = expect_minimal_records(rules);
  ASSERT_EQ(elsewhere.size(), 3u);
  EXPECT_GT(elsewhere[0], 0u);
  EXPECT_EQ(elsewhere[1], 0u);
  EXPECT_GT(elsewhere[2], 0u);
}

// The public enumerator's 5x5 selection (fogleman/rush, move metric, no walls): 1 730 minimal
// puzzles, per highest index as it lists them; the public rule reproduces it.
TEST(ClusterRecords, ThePublicRuleReproducesThePublicEnumeratorsFiveByFiveList) {
  const auto minimal =
      class_clusters(Rules(5, -1, Metric::Move, {}, Domain::Puzzle), 0, true, nullptr, nullptr, true, MinimalRule::Public);
  std::map<std::uint32_t, std::size_t> per_index;
  for (const auto& [board, record] : minimal) ++per_index[record.highest];
  EXPECT_EQ(minimal.size(), 1730u);
  const std::map<std::uint32_t, std::size_t> listed{{4, 165}, {5, 339}, {6, 340}, {7, 296}, {8, 196}, {9, 139}, {10, 83}};
  for (const auto& [index, count] : listed) EXPECT_EQ(per_index[index], count) << "index " << index;
}

// The public enumerator's own list on the 5x5 puzzle domain with 0-2 walls (fogleman/rush's
// cpp/ enumerator, its output committed by results/5x5-walls/public_enumerator.sh: `moves board
// size distances` per minimal cluster): the public rule lists the same boards, each with the
// same highest index and cluster size.
TEST(ClusterRecords, ThePublicRuleListsThePublicEnumeratorsWalledFiveByFivePuzzles) {
  const Rules rules(5, -1, Metric::Move, {}, Domain::Puzzle, {0, 2});
  const auto minimal = class_clusters(rules, 0, true, nullptr, nullptr, true, MinimalRule::Public);
  std::ifstream listed(std::string(RUSHHOUR_SOURCE_DIR) + "/results/5x5-walls/public-enumerator.txt");
  ASSERT_TRUE(listed);
  const SampleKeys keys(rules);
  std::size_t lines = 0;
  std::map<int, std::size_t> per_walls;
  for (std::string line; std::getline(listed, line); ++lines) {
    std::istringstream fields(line);
    std::uint32_t moves = 0;
    std::string board;
    std::uint64_t size = 0;
    ASSERT_TRUE(fields >> moves >> board >> size) << line;
    const auto found = minimal.find(keys.board(keys.key(parse_board(board, rules))));
    ASSERT_NE(found, minimal.end()) << "not listed under the public rule: " << line;
    EXPECT_EQ(found->second.highest, moves) << line;
    EXPECT_EQ(found->second.size, size) << line;
    ++per_walls[static_cast<int>(std::count(board.begin(), board.end(), 'x'))];
  }
  EXPECT_EQ(lines, minimal.size());
  EXPECT_EQ(per_walls, (std::map<int, std::size_t>{{0, 1730}, {1, 4311}, {2, 1279}}));
}

TEST(ClusterRecords, WithWallsEqualTheExplicitComponents) {
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    expect_records_of_explicit_components(Rules(4, -1, metric, {}, Domain::All, {0, 2}));
    expect_records_of_explicit_components(Rules(4, -1, metric, {}, Domain::Puzzle, {0, 2}), 3);
    expect_records_of_explicit_components(Rules(5, -1, metric, VehicleLimits{-1, -1, 3}, Domain::Puzzle, {0, 1}));
  }
}

TEST(ClusterRecords, MinimalOnesWithWallsNeedEveryWallToo) {
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    expect_minimal_records(Rules(4, -1, metric, {}, Domain::All, {0, 2}));
    expect_minimal_records(Rules(4, -1, metric, {}, Domain::Puzzle, {0, 2}));
    expect_minimal_records(Rules(5, -1, metric, VehicleLimits{-1, -1, 3}, Domain::Puzzle, {0, 1}));
  }
}

TEST(ClusterRecords, SampleKeysRoundTrip) {
  const Rules rules(6);
  const SampleKeys keys(rules);
  const Board board = parse_board("BBoCoD"
                                  "ooECoD"
                                  "ooEoAA"
                                  "FFooGo"
                                  "HooIGo"
                                  "HJJIoo",
                                  rules);
  EXPECT_EQ(parse_board(keys.board(keys.key(board)), rules), board);
  EXPECT_THROW(keys.board(~SampleKey{0}), InputError);
}

// A sweep's records through the spool, as the run layer writes them (items in finishing order).
std::filesystem::path sweep_to_spool(const Rules& rules, const std::filesystem::path& path, const std::string& parameters) {
  ClusterSpool spool(path, parameters);
  ClassEngineOptions options;
  options.threads = 2;
  options.on_clusters = [&](std::uint64_t item, ClusterRecords&& records) { spool.append(item, records); };
  classify_by_classes(rules, options);
  spool.close();
  return path;
}

std::map<std::uint64_t, ClusterRecords> spooled(const std::filesystem::path& path, const std::string& parameters) {
  std::map<std::uint64_t, ClusterRecords> items;
  std::uint64_t last = 0;
  read_cluster_spool(path, parameters, false, [&](std::uint64_t item, ClusterRecords&& records) {
    EXPECT_TRUE(items.empty() || item > last) << "items in ascending order";
    last = item;
    items[item] = std::move(records);
  });
  return items;
}

TEST(ClusterDatabase, FileHoldsTheSpooledRecordsAndTheTextIsSortedHardestFirst) {
  TempDir dir("cluster_database");
  const Rules rules(4, -1, Metric::Move);
  const std::string parameters = "test 4x4 move";
  const auto spool = sweep_to_spool(rules, dir / "db.h5.spool", parameters);
  const auto items = spooled(spool, parameters);
  const std::uint64_t rows = write_cluster_database(
      spool, dir / "db.h5", {.rules = rules, .parameters = parameters, .min_index = 0, .minimal = false, .item_stride = 1, .complete = true},
      RunMetadata::current("test"));
  const SampleKeys keys(rules);
  // Row by row: the spool's records in item order.
  const ClusterDatabase database(dir / "db.h5");
  EXPECT_EQ(database.size(), rows);
  EXPECT_EQ(database.rules().describe(), rules.describe());
  EXPECT_TRUE(database.complete());
  std::vector<std::string> lines;
  auto item = items.begin();
  std::size_t k = 0, at = 0;
  database.for_each(
      [&](const ClusterEntry& entry) {
        while (item != items.end() && k == item->second.records.size()) ++item, k = 0, at = 0;
        EXPECT_NE(item, items.end());
        if (item == items.end()) return false;
        const ClusterRecord& r = item->second.records[k];
        EXPECT_EQ(entry.item, item->first);
        EXPECT_EQ(entry.board, keys.board(r.hardest));
        ClusterRecord stored = r;
        stored.hardest = 0;
        EXPECT_EQ(entry.record, stored);
        EXPECT_EQ(entry.histogram, std::vector<std::uint64_t>(item->second.histogram.begin() + static_cast<std::ptrdiff_t>(at),
                                                              item->second.histogram.begin() + static_cast<std::ptrdiff_t>(at + r.highest_index + 1)));
        at += r.highest_index + 1u;
        ++k;
        lines.push_back(std::to_string(r.highest_index) + " " + entry.board + " " + std::to_string(r.size));
        return true;
      },
      true, 100);  // batches smaller than the file
  EXPECT_EQ(lines.size(), rows);
  // The text: highest index first, then larger clusters, then boards in byte order; runs of 50
  // records merged give the same file as one run.
  std::sort(lines.begin(), lines.end(), [](const std::string& a, const std::string& b) {
    std::istringstream x(a), y(b);
    int ia = 0, ib = 0;
    std::string ba, bb;
    std::uint64_t sa = 0, sb = 0;
    x >> ia >> ba >> sa;
    y >> ib >> bb >> sb;
    return std::tie(ib, sb, ba) < std::tie(ia, sa, bb);
  });
  std::string expected;
  for (const std::string& line : lines) expected += line + "\n";
  write_cluster_text(dir / "db.h5", dir / "merged.txt", 50);
  write_cluster_text(dir / "db.h5", dir / "whole.txt");
  EXPECT_EQ(read_bytes(dir / "merged.txt"), expected);
  EXPECT_EQ(read_bytes(dir / "whole.txt"), expected);
  EXPECT_FALSE(std::filesystem::exists(dir / "merged.txt.run0.tmp"));
}

TEST(ClusterDatabase, AResumedSweepSpoolsEveryRecordOnce) {
  TempDir dir("cluster_resume");
  const Rules rules(5, -1, Metric::Step, VehicleLimits{4, 2, -1});
  const std::string parameters = "test 5x5";
  const auto whole = spooled(sweep_to_spool(rules, dir / "whole.spool", parameters), parameters);

  // A sweep stopped after a few reported items, its checkpoint taken with the spool synced.
  const auto path = dir / "db.spool";
  std::optional<ClassSweepState> last;
  {
    ClusterSpool spool(path, parameters);
    ClassEngineOptions options;
    options.threads = 2;
    options.checkpoint_seconds = 0;
    int reported = 0;
    std::mutex mutex;
    options.on_clusters = [&](std::uint64_t item, ClusterRecords&& records) {
      spool.append(item, records);
      const std::lock_guard lock(mutex);
      // Slowly after a while, so that the sweep's stop polls (every 50 ms) end it early.
      if (++reported >= 40) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    };
    options.should_stop = [&] {
      const std::lock_guard lock(mutex);
      return reported >= 40;
    };
    options.on_checkpoint = [&](const ClassSweepState& state) {
      spool.sync();
      last = state;
    };
    EXPECT_FALSE(classify_by_classes(rules, options).complete);
    // Work after the last checkpoint: an item it does not hold, then a block cut short.
    ASSERT_TRUE(last.has_value());
    ASSERT_FALSE(whole.empty());
    const auto after = std::find_if(whole.begin(), whole.end(), [&](const auto& e) { return !last->holds(e.first); });
    ASSERT_NE(after, whole.end());
    spool.append(after->first, after->second);
    spool.close();
    std::ofstream(path, std::ios::app | std::ios::binary) << "cut";
  }
  ASSERT_GT(last->next_item, 0u);
  {
    ClusterSpool spool = ClusterSpool::resume(path, parameters, false, [&](std::uint64_t item) { return last->holds(item); });
    ClassEngineOptions options;
    options.threads = 2;
    options.resume = &*last;
    options.on_clusters = [&](std::uint64_t item, ClusterRecords&& records) { spool.append(item, records); };
    EXPECT_TRUE(classify_by_classes(rules, options).complete);
    spool.close();
  }
  EXPECT_EQ(spooled(path, parameters), whole);
  EXPECT_THROW(ClusterSpool::resume(path, "other", false, [](std::uint64_t) { return true; }), InputError);
  EXPECT_THROW(ClusterSpool::resume(dir / "missing.spool", parameters, false, [](std::uint64_t) { return true; }), InputError);
}

TEST(ClusterDatabaseCommand, WritesTheDatabaseAndRefusesBadInput) {
  TempDir dir("cluster_command");
  const std::string base = "classify --size 4 --engine classes -q ";
  const auto run = run_rushhour(base + "--metric move --clusters " + (dir / "db.h5") + " --clusters-text " +
                                (dir / "db.txt") + " --clusters-min-index 3");
  ASSERT_EQ(run.status, 0) << run.err;
  const auto expected = explicit_clusters(Rules(4, -1, Metric::Move), 3);
  const ClusterDatabase database(dir / "db.h5");
  EXPECT_EQ(database.size(), expected.size());
  EXPECT_EQ(database.min_index(), 3);
  std::istringstream text(read_bytes(dir / "db.txt"));
  std::string line;
  std::size_t lines = 0;
  int previous = 1 << 30;
  while (std::getline(text, line)) {
    std::istringstream fields(line);
    int index = 0;
    std::string board;
    std::uint64_t size = 0;
    ASSERT_TRUE(fields >> index >> board >> size) << line;
    ASSERT_TRUE(expected.contains(board)) << line;
    EXPECT_EQ(expected.at(board).highest, static_cast<std::uint32_t>(index));
    EXPECT_EQ(expected.at(board).size, size);
    EXPECT_LE(index, previous);
    previous = index;
    ++lines;
  }
  EXPECT_EQ(lines, expected.size());
  EXPECT_FALSE(std::filesystem::exists(dir / "db.h5.spool"));
  // An index below the records kept is refused, not answered by an empty list; from 3 on it is listed.
  const auto below = run_rushhour("query --clusters " + (dir / "db.h5") + " --index 2");
  EXPECT_EQ(below.status, 2) << below.out;
  EXPECT_NE(below.err.find("keeps the clusters of highest index 3 and more"), std::string::npos) << below.err;
  EXPECT_EQ(std::count(below.err.begin(), below.err.end(), '\n'), 1) << below.err;
  const auto kept = run_rushhour("query --clusters " + (dir / "db.h5") + " --index 3");
  EXPECT_EQ(kept.status, 0) << kept.err;

  for (const std::string& bad :
       {base + "--clusters " + (dir / "x.h5") + " --clusters-min-index 255",
        base + "--clusters " + (dir / "x.h5") + " --clusters-min-index -1",
        base + "--clusters-min-index 3", base + "--minimal",
        base + "--clusters " + (dir / "x.h5") + " --symbolic-above 1000", base + "--clusters " + (dir / "no/such/dir/x.h5"),
        base + "--clusters " + dir.path().string(), std::string("classify --size 4 --engine bdd -q --clusters ") + (dir / "x.h5")}) {
    const auto refused = run_rushhour(bad);
    EXPECT_EQ(refused.status, 2) << bad;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  }
}

// Every row of a database, histograms included, as text.
std::vector<std::string> rows_of(const std::filesystem::path& path) {
  std::vector<std::string> rows;
  ClusterDatabase(path).for_each([&](const ClusterEntry& e) {
    std::ostringstream row;
    row << e.board << " " << e.item << " " << e.record.highest_index << " " << e.record.size << " "
        << e.record.hardest_count << " " << e.record.winning << " " << e.record.cars << " " << e.record.trucks << ":";
    for (const auto c : e.histogram) row << " " << c;
    rows.push_back(row.str());
    return true;
  });
  return rows;
}

// The database may be named inside the run directory before the run makes it; any other
// missing directory is refused.
TEST(ClusterDatabaseCommand, GoesInTheRunDirectoryBeforeItIsMade) {
  TempDir dir("cluster_command_in_out");
  const std::string out = dir / "run";
  const auto run = run_rushhour("classify --engine classes --size 4 -q --out " + out + " --clusters " + out +
                                "/db.h5 --clusters-text " + out + "/db.txt");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_GT(ClusterDatabase(out + "/db.h5").size(), 0u);
  EXPECT_TRUE(std::filesystem::exists(out + "/db.txt"));
  const auto elsewhere = run_rushhour("classify --engine classes --size 4 -q --out " + (dir / "other") +
                                      " --clusters " + (dir / "missing") + "/db.h5");
  EXPECT_EQ(elsewhere.status, 2);
  EXPECT_NE(elsewhere.err.find("is not a directory"), std::string::npos) << elsewhere.err;
}

TEST(ClusterDatabaseCommand, AStoppedRunResumesToTheSameDatabase) {
  TempDir dir("cluster_command_resume");
  const std::string log = dir / "progress.log";
  const std::string args = "classify --engine classes --threads 2 --size 5 --metric move -q --checkpoint-seconds 0 "
                           "--clusters " + (dir / "db.h5") + " --clusters-text " + (dir / "db.txt") +
                           " --out " + (dir / "run");
  const auto first = test_support::run_shell(std::string(RUSHHOUR_BINARY) + " " + args + " --log " + log +
                                        " & pid=$!; for i in $(seq 1200); do grep -q . " + log +
                                        " 2>/dev/null && break; sleep 0.05; done; kill -INT $pid; wait $pid");
  ASSERT_EQ(first.status, 130) << first.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "db.h5"));
  EXPECT_TRUE(std::filesystem::exists(dir / "db.h5.spool"));
  // A resume without the spool's records would lose them: refused.
  const auto other = run_rushhour(args + " --clusters-min-index 2 --resume");
  EXPECT_EQ(other.status, 2) << other.err;
  const auto second = run_rushhour(args + " --resume");
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "db.h5.spool"));

  const auto whole = run_rushhour("classify --engine classes --threads 1 --size 5 --metric move -q --clusters " +
                                  (dir / "whole.h5") + " --clusters-text " + (dir / "whole.txt"));
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(rows_of(dir / "db.h5"), rows_of(dir / "whole.h5"));
  EXPECT_EQ(read_bytes(dir / "db.txt"), read_bytes(dir / "whole.txt"));
}

TEST(ClusterDatabaseCommand, AnUnwritableDatabaseKeepsTheClassification) {
  TempDir dir("cluster_command_unwritable");
  const std::string log = dir / "progress.log";
  const std::string args = "classify --engine classes --threads 1 --size 5 -q --clusters " + (dir / "db.h5") +
                           " --out " + (dir / "run");
  // Once the sweep runs, a directory takes the database's path: the database cannot replace it.
  const auto first = test_support::run_shell(std::string(RUSHHOUR_BINARY) + " " + args + " --log " + log +
                                        " & pid=$!; for i in $(seq 1200); do grep -q . " + log +
                                        " 2>/dev/null && break; sleep 0.05; done; mkdir " + (dir / "db.h5") +
                                        "; wait $pid");
  ASSERT_EQ(first.status, 1) << first.err;
  EXPECT_NE(first.err.find("the cluster database was not written"), std::string::npos) << first.err;
  EXPECT_EQ(std::count(first.err.begin(), first.err.end(), '\n'), 1) << first.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "run/classification.h5"));
  EXPECT_TRUE(std::filesystem::exists(dir / "db.h5.spool"));
  std::filesystem::remove(dir / "db.h5");
  const auto second = run_rushhour(args + " --resume");
  ASSERT_EQ(second.status, 0) << second.err;
  const auto whole = run_rushhour("classify --engine classes --size 5 -q --clusters " + (dir / "whole.h5"));
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(rows_of(dir / "db.h5"), rows_of(dir / "whole.h5"));
}

TEST(ClusterDatabaseCommand, ADamagedDatabaseIsReported) {
  TempDir dir("cluster_damaged");
  ASSERT_EQ(run_rushhour("classify --size 4 --engine classes -q --clusters " + (dir / "db.h5")).status, 0);
  const auto size = std::filesystem::file_size(dir / "db.h5");
  {
    std::fstream file(dir / "db.h5", std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(size / 2));
    file.put('\x5a').put('\x5a');
  }
  EXPECT_THROW(ClusterDatabase(dir / "db.h5").for_each([](const ClusterEntry&) { return true; }), InputError);
  std::filesystem::resize_file(dir / "db.h5", size / 3);
  EXPECT_THROW(ClusterDatabase{dir / "db.h5"}, InputError);
}

}  // namespace
}  // namespace rushhour
