// `rushhour count`: the exact figures on stdout, bad input refused with one line and status 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "board/count.hpp"
#include "cli_test_support.hpp"
#include "explicit/counting.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

using test_support::run_rushhour;

TEST(CountCommand, PrintsTheExactEightByEightFigures) {
  const auto run = run_rushhour("count --size 8");
  ASSERT_EQ(run.status, 0) << run.err;
  const PlacementCounts counts = count_placements(Rules(8));
  EXPECT_EQ(run.out, "8x8, exit row 3, no vehicle limits\n"
                     "placements " + to_string(counts.placements) + "\n"
                     "domain     " + to_string(counts.domain) + "\n"
                     "winning    " + to_string(counts.winning) + "\n");
  EXPECT_NE(run.out.find("domain     52282990070597671149\n"), std::string::npos) << run.out;
}

TEST(CountCommand, PrintsTheLimitsItCounted) {
  const auto run = run_rushhour("count --size 6 --max-cars 12 --max-trucks 4");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out.substr(0, run.out.find('\n')), "6x6, exit row 2, <= 12 cars, <= 4 trucks");
  EXPECT_NE(run.out.find("domain     36330223056\nwinning    9328767996\n"), std::string::npos)
      << run.out;
}

// With walls: the range's figures, then one row per number of walls, which add up to them; no
// walls is the count without the option.
TEST(CountCommand, PrintsWalledFiguresPerNumberOfWalls) {
  const auto run = run_rushhour("count --size 5 --walls 2");
  ASSERT_EQ(run.status, 0) << run.err;
  const PlacementCounts all = count_placements(Rules(5, -1, Metric::Step, {}, Domain::All, {0, 2}));
  EXPECT_EQ(run.out, "5x5, exit row 2, up to 2 walls, no vehicle limits\n"
                     "placements " + to_string(all.placements) + "\n"
                     "domain     " + to_string(all.domain) + "\n"
                     "winning    " + to_string(all.winning) + "\n"
                     "0 walls: placements 26186015, domain 10492784, winning 3008028\n"
                     "1 wall:  placements 213791527, domain 83309482, winning 23808404\n"
                     "2 walls: placements 866336570, domain 327685647, winning 93399027\n");
  EXPECT_EQ(all.domain, Count{10492784} + 83309482 + 327685647);
  EXPECT_EQ(all.winning, Count{3008028} + 23808404 + 93399027);
  EXPECT_EQ(count_placements(Rules(5, -1, Metric::Step, {}, Domain::All, {0, 0})), count_placements(Rules(5)));
}

TEST(CountCommand, RefusesBadInputWithOneLine) {
  for (const char* args : {"count", "count --size 9", "count --size 5 --exit-row 5",
                           "count --size 5 --max-cars x", "count --size 5 --metric move",
                           "count --size 4 --walls 3-1", "count --size 4 --walls 15"}) {
    const auto run = run_rushhour(args);
    EXPECT_EQ(run.status, 2) << args;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << args << ": " << run.err;
    EXPECT_EQ(run.out, "") << args;
  }
}

}  // namespace
}  // namespace rushhour
