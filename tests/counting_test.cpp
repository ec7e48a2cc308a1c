#include "explicit/counting.hpp"

#include <gtest/gtest.h>

namespace rushhour {
namespace {

// The sanity figures of SPEC §2.
TEST(CountPlacements, FourByFour) {
  EXPECT_EQ(count_placements(Rules(4)), (PlacementCounts{37'594, 13'146, 4'592}));
}

TEST(CountPlacements, FiveByFive) {
  EXPECT_EQ(count_placements(Rules(5)), (PlacementCounts{26'186'015, 10'492'784, 3'008'028}));
}

TEST(CountPlacements, SixBySix) {
  EXPECT_EQ(count_placements(Rules(6)),
            (PlacementCounts{85'850'614'839, 40'148'868'698, 10'275'383'941}));
}

TEST(CountPlacements, SixBySixWithTheCommercialVehicleSet) {
  const PlacementCounts counts =
      count_placements(Rules(6, -1, Metric::Step, VehicleLimits{12, 4, -1}));
  EXPECT_EQ(counts.domain, 36'330'223'056u);
  EXPECT_EQ(counts.winning, 9'328'767'996u);
}

}  // namespace
}  // namespace rushhour
