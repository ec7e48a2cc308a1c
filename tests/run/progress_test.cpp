// Progress texts: durations, the ETA at the rate so far, and the class sweep's progress line.
#include "run/progress.hpp"

#include <gtest/gtest.h>

#include "cli_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour::run {
namespace {

TEST(Progress, DurationsInSecondsMinutesOrHours) {
  EXPECT_EQ(duration_text(45), "45 s");
  EXPECT_EQ(duration_text(750), "12.5 min");
  EXPECT_EQ(duration_text(7200), "2.0 h");
}

TEST(Progress, TheEtaIsTheRestAtTheRateSoFar) {
  EXPECT_EQ(eta_text(10, 1, 4), "30 s");      // 1 of 4 in 10 s: 3 more at 10 s each
  EXPECT_EQ(eta_text(60, 25, 100), "3.0 min");
  EXPECT_EQ(eta_text(10, 0, 4), "unknown");  // no rate yet
  EXPECT_EQ(eta_text(10, 4, 4), "0 s");
}

// A class sweep's last progress line: every configuration of the exact domain count solved,
// nothing left.
TEST(Progress, AClassSweepEndsAtTheWholeDomainWithNoTimeLeft) {
  const test_support::CommandRun run = test_support::run_rushhour("classify --size 4 --engine classes --threads 1");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.err.find("13146 configurations (100.0%), elapsed "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(", ETA 0 s, RSS "), std::string::npos) << run.err;
}

}  // namespace
}  // namespace rushhour::run
