#include "explicit/counting.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "board/board.hpp"
#include "board/lines.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

// A second, direct count: every combination of row arrangements, times the number of
// column arrangements that fit each column. Only feasible for small boards (13^5 row
// combinations on 5x5) and for no limits.
PlacementCounts count_by_rows(int n) {
  const Rules rules(n);
  const LineTable lines(n);
  PlacementCounts counts;
  std::vector<int> row(static_cast<std::size_t>(n));
  std::function<void(int)> choose = [&](int r) {
    if (r < n) {
      for (row[static_cast<std::size_t>(r)] = 0; row[static_cast<std::size_t>(r)] < lines.size();
           ++row[static_cast<std::size_t>(r)])
        choose(r + 1);
      return;
    }
    std::uint64_t product = 1;
    for (int col = 0; col < n; ++col) {
      std::uint32_t covered = 0;
      for (int i = 0; i < n; ++i)
        covered |= (lines[row[static_cast<std::size_t>(i)]].occupied >> col & 1u) << i;
      std::uint64_t fitting = 0;
      for (const LineArrangement& a : lines.arrangements()) fitting += (a.occupied & covered) == 0;
      product *= fitting;
    }
    counts.placements += product;
    const auto& exit = lines[row[static_cast<std::size_t>(rules.exit_row())]].segments;
    if (exit.empty() || exit.back().length != kCar) return;
    counts.domain += product;
    if (exit.back().start == n - kCar) counts.winning += product;
  };
  choose(0);
  return counts;
}

// The sanity figures of SPEC §2.
TEST(CountPlacements, FourByFour) {
  const PlacementCounts spec{37'594, 13'146, 4'592};
  EXPECT_EQ(count_placements(Rules(4)), spec);
  EXPECT_EQ(count_by_rows(4), spec);
}

TEST(CountPlacements, FiveByFive) {
  const PlacementCounts spec{26'186'015, 10'492'784, 3'008'028};
  EXPECT_EQ(count_placements(Rules(5)), spec);
  EXPECT_EQ(count_by_rows(5), spec);
}

TEST(CountPlacements, SixBySix) {
  EXPECT_EQ(count_placements(Rules(6)),
            (PlacementCounts{85'850'614'839, 40'148'868'698, 10'275'383'941}));
}

// The puzzle domain of 6x6 as the class engine's complete run of it counted it
// (results/6x6-puzzle/clusters/); with walls, per number of walls, as the 5x5 class runs did
// (results/5x5-walls/puzzle-*).
TEST(CountPlacements, PuzzleDomainsAsTheCompleteClassRunsCountedThem) {
  EXPECT_EQ(count_placements(Rules(6, -1, Metric::Step, {}, Domain::Puzzle)),
            (PlacementCounts{85'850'614'839, 27'103'652'326, 4'965'155'137}));
  std::vector<PlacementCounts> by_walls;
  const PlacementCounts counts = count_placements(Rules(5, -1, Metric::Step, {}, Domain::Puzzle, {0, 2}), &by_walls);
  EXPECT_EQ(counts.domain, 250'245'590u);
  ASSERT_EQ(by_walls.size(), 3u);
  EXPECT_EQ(by_walls[0].domain, 6'795'364u);
  EXPECT_EQ(by_walls[1].domain, 51'444'145u);
  EXPECT_EQ(by_walls[2].domain, 192'006'081u);
  EXPECT_EQ(by_walls[1].winning, 12'932'014u);
}

TEST(CountPlacements, SixBySixWithTheCommercialVehicleSet) {
  const PlacementCounts counts =
      count_placements(Rules(6, -1, Metric::Step, VehicleLimits{12, 4, -1}));
  EXPECT_EQ(counts.domain, Count{36'330'223'056});
  EXPECT_EQ(counts.winning, Count{9'328'767'996});
}

TEST(CountPlacements, SevenBySeven) {
  const PlacementCounts counts = count_placements(Rules(7));
  EXPECT_EQ(counts.domain, parse_count("683673325268506"));
  EXPECT_EQ(counts.winning, parse_count("163134783689731"));
}

TEST(CountPlacements, SevenBySevenWithFewVehicles) {
  EXPECT_EQ(count_placements(Rules(7, -1, Metric::Step, VehicleLimits{-1, -1, 8})).domain,
            Count{89'455'160'928});
  EXPECT_EQ(count_placements(Rules(7, -1, Metric::Step, VehicleLimits{-1, -1, 6})).domain,
            Count{759'884'516});
}

// 8x8 has no published figure: the counts must exceed 64 bits without wrapping, and the
// mirror image of the board (exit row e <-> 7 - e) must count the same, a check of the
// profile programme whose row order differs between the two.
TEST(CountPlacements, EightByEightExceedsSixtyFourBitsAndIsMirrorSymmetric) {
  const PlacementCounts upper = count_placements(Rules(8, 3));
  const PlacementCounts lower = count_placements(Rules(8, 4));
  EXPECT_EQ(upper, lower);
  EXPECT_GT(upper.placements, kUint64Limit);
  EXPECT_LT(upper.winning, upper.domain);
  EXPECT_LT(upper.domain, upper.placements);
  // Placements do not depend on the exit row at all.
  EXPECT_EQ(count_placements(Rules(8, 0)).placements, upper.placements);
}

TEST(CountPlacements, LimitsThatAllowEverythingChangeNothing) {
  EXPECT_EQ(count_placements(Rules(5, -1, Metric::Step, VehicleLimits{12, 8, 20})),
            count_placements(Rules(5)));
}

TEST(CountPlacements, OneVehicleAtMost) {
  // One vehicle: the target car, anywhere in the exit row; it wins in the last position.
  for (int n : {4, 5, 6}) {
    const PlacementCounts counts =
        count_placements(Rules(n, -1, Metric::Step, VehicleLimits{-1, -1, 1}));
    EXPECT_EQ(counts.domain, Count(n - 1));
    EXPECT_EQ(counts.winning, Count{1});
    // The empty board, then every single vehicle: 2n lines with n-1 car and n-2 truck
    // positions each.
    EXPECT_EQ(counts.placements, Count(1 + 2 * n * (2 * n - 3)));
  }
}

TEST(CountPlacements, AVehicleLimitGrowsTheDomainUpToEveryConfiguration) {
  Count previous = 0;
  for (int v = 1; v <= 12; ++v) {  // 25 cells hold at most 12 vehicles
    const Count domain =
        count_placements(Rules(5, -1, Metric::Step, VehicleLimits{-1, -1, v})).domain;
    EXPECT_GT(domain, previous);
    previous = domain;
  }
  EXPECT_EQ(previous, count_placements(Rules(5)).domain);
}

}  // namespace
}  // namespace rushhour
