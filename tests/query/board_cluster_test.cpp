// A board's cluster searched from the board (query --board) against the cluster database: for
// every record of a class sweep's database on 4x4 and 5x5 (both metrics, with limits), the
// search from its hardest configuration and from another configuration of the cluster gives
// the record's size, highest index, histogram and canonical hardest configuration; and the
// query command's answers (a board's "cluster" object, the listing of a database, a damaged
// database refused).
#include "query/board_cluster.hpp"

#include <gtest/gtest.h>

#include "board/board_string.hpp"
#include "board/key_graph.hpp"
#include "board/search.hpp"
#include "cli_test_support.hpp"
#include "storage/cluster_database.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

using test_support::run_rushhour;
using test_support::TempDir;

void expect_database_records_equal_board_searches(const std::string& classify, const Rules& rules) {
  SCOPED_TRACE(classify);
  TempDir dir("board_cluster");
  const auto run = run_rushhour(classify + " --engine classes -q --clusters " + (dir / "db.h5"));
  ASSERT_EQ(run.status, 0) << run.err;
  const ClusterDatabase database(dir / "db.h5");
  ASSERT_EQ(database.rules().describe(), rules.describe());
  ASSERT_GT(database.size(), 0u);
  std::uint64_t checked = 0;
  database.for_each([&](const ClusterEntry& entry) {
    const Board hardest = parse_board(entry.board, rules);
    const std::optional<BoardCluster> cluster = cluster_of_board(rules, hardest);
    EXPECT_TRUE(cluster.has_value()) << entry.board;
    if (!cluster) return false;
    EXPECT_EQ(cluster->hardest, entry.board);
    EXPECT_EQ(cluster->size, entry.record.size) << entry.board;
    EXPECT_EQ(cluster->highest_index, static_cast<int>(entry.record.highest_index)) << entry.board;
    EXPECT_EQ(cluster->hardest_count, entry.record.hardest_count) << entry.board;
    EXPECT_EQ(cluster->winning_count, entry.record.winning) << entry.board;
    EXPECT_EQ(cluster->histogram, entry.histogram) << entry.board;
    EXPECT_EQ(cluster->board_index, cluster->highest_index);
    EXPECT_EQ(hardest.cars(), static_cast<int>(entry.record.cars));
    EXPECT_EQ(hardest.trucks(), static_cast<int>(entry.record.trucks));
    // From the last configuration the component search meets: the same cluster.
    const ComponentIndices component = component_indices(rules, hardest);
    const Board other = board_of_key(component.keys.back(), rules.size());
    const std::optional<BoardCluster> again = cluster_of_board(rules, other);
    EXPECT_TRUE(again && again->hardest == entry.board && again->size == entry.record.size) << entry.board;
    if (again) {
      EXPECT_EQ(again->board_index, component.index.back());
    }
    ++checked;
    return !::testing::Test::HasFailure();
  });
  EXPECT_EQ(checked, database.size());
}

TEST(BoardCluster, EqualsEveryDatabaseRecordOnSmallBoards) {
  expect_database_records_equal_board_searches("classify --size 4", Rules(4));
  expect_database_records_equal_board_searches("classify --size 4 --metric move --exit-row 2",
                                               Rules(4, 2, Metric::Move));
  expect_database_records_equal_board_searches("classify --size 5 --max-cars 4 --max-trucks 1",
                                               Rules(5, -1, Metric::Step, VehicleLimits{4, 1, -1}));
  expect_database_records_equal_board_searches("classify --size 5 --max-vehicles 4 --metric move",
                                               Rules(5, -1, Metric::Move, VehicleLimits{-1, -1, 4}));
}

TEST(BoardCluster, UnsolvableBoardHasNone) {
  const Rules rules(4);
  // The target boxed in by a vertical truck in the exit row's last column: no winning configuration.
  EXPECT_FALSE(cluster_of_board(rules, parse_board("oooB"
                                                   "AAoB"
                                                   "oooB"
                                                   "oooo",
                                                   rules)));
}

TEST(ClusterQuery, BoardAnswersAndListings) {
  TempDir dir("cluster_query");
  ASSERT_EQ(run_rushhour("classify --size 4 --engine classes -q --out " + (dir / "run") + " --clusters " + (dir / "db.h5")).status, 0);
  const auto board = run_rushhour("query --run " + (dir / "run") + " --board ooBCAABCooDDooEE --json");
  ASSERT_EQ(board.status, 0) << board.err;
  EXPECT_EQ(board.out,
            "{\"board\": \"ooBCAABCooDDooEE\", \"index\": 10, \"status\": \"solved\", \"cluster\": {\"size\": 34, "
            "\"highest_index\": 10, \"hardest\": \"ooBCAABCooDDooEE\", \"hardest_count\": 1, \"winning_count\": 1, "
            "\"histogram\": [1, 1, 2, 3, 4, 5, 6, 5, 4, 2, 1], \"harder\": 0}}\n");
  const auto unsolvable = run_rushhour("query --run " + (dir / "run") + " --board oooBAAoBoooBoooo --json");
  EXPECT_NE(unsolvable.out.find("\"cluster\": null"), std::string::npos) << unsolvable.out << unsolvable.err;

  // The listing counts what the database holds.
  const ClusterDatabase database(dir / "db.h5");
  std::uint64_t expected = 0;
  database.for_each([&](const ClusterEntry& e) {
    expected += e.record.highest_index == 4 && e.record.cars == 3 && e.record.size >= 10 ? 1 : 0;
    return true;
  });
  ASSERT_GT(expected, 0u);
  const auto listing = run_rushhour("query --clusters " + (dir / "db.h5") + " --index 4 --cars 3 --min-size 10 --sample 1000 --json");
  ASSERT_EQ(listing.status, 0) << listing.err;
  EXPECT_EQ(listing.out.rfind("{\"clusters\": " + std::to_string(expected) + ",", 0), 0u) << listing.out;
  std::size_t entries = 0;
  for (std::size_t at = listing.out.find("\"board\""); at != std::string::npos; at = listing.out.find("\"board\"", at + 1)) ++entries;
  EXPECT_EQ(entries, expected);
  const auto hardest = run_rushhour("query --clusters " + (dir / "db.h5") + " --hardest");
  EXPECT_EQ(hardest.out.rfind("hardest: clusters of highest index 10: 2\n", 0), 0u) << hardest.out;

  // Bad input: one line, exit 2.
  std::filesystem::copy_file(dir / "db.h5", dir / "cut.h5");
  std::filesystem::resize_file(dir / "cut.h5", std::filesystem::file_size(dir / "db.h5") / 2);
  for (const std::string& bad : {"query --clusters " + (dir / "cut.h5") + " --hardest",
                                 "query --clusters " + (dir / "missing.h5") + " --hardest",
                                 "query --run " + (dir / "run") + " --index 3 --min-size 4",
                                 "query --clusters " + (dir / "db.h5") + " --run " + (dir / "run") + " --hardest"}) {
    const auto refused = run_rushhour(bad);
    EXPECT_EQ(refused.status, 2) << bad;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  }
}

}  // namespace
}  // namespace rushhour
