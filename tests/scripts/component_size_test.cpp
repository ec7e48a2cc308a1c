// scripts/component_size.py, which results/README.md uses to compare the hardest 6x6
// configuration's component with the published figure. Needs /usr/bin/python3.
#include <gtest/gtest.h>

#include <string>

#include "cli_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace {

using rushhour::test_support::run_shell;

const std::string kScript =
    "/usr/bin/python3 " + std::string(RUSHHOUR_SOURCE_DIR) + "/scripts/component_size.py ";

TEST(ComponentSizeScript, CountsSmallComponentsByHand) {
  if (run_shell("/usr/bin/python3 -c ''").status != 0) GTEST_SKIP() << "no /usr/bin/python3";
  // The target alone: columns 0, 1, 2.
  EXPECT_EQ(run_shell(kScript + "ooooAAoooooooooo").out, "3\n");
  // The target and a vertical car in column 3: 3 x 3 placements, minus the two where both
  // cover cell (1,3); all connected.
  EXPECT_EQ(run_shell(kScript + "ooooAAoBoooBoooo").out, "7\n");
}

TEST(ComponentSizeScript, RejectsABoardOfWrongLength) {
  if (run_shell("/usr/bin/python3 -c ''").status != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const auto run = run_shell(kScript + "ooooAAooo1");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("not n*n"), std::string::npos) << run.err;
}

}  // namespace
