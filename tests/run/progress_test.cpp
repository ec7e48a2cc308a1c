// Progress texts: durations, the ETA at the rate so far, and the class sweep's progress line.
#include "run/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <regex>

#include "board/count.hpp"
#include "explicit/counting.hpp"
#include "board/rules.hpp"
#include "cli_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);
RUSHHOUR_TEST_TIER_OF("Progress.AStoppedSweepOfThePuzzleDomainGivesItsShareOfTheConfigurations", full);

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

// The puzzle domain's configurations are counted ahead too: a sweep stopped half-way gives
// the share of them it solved (its items differ in size by orders of magnitude).
TEST(Progress, AStoppedSweepOfThePuzzleDomainGivesItsShareOfTheConfigurations) {
  test_support::TempDir dir("progress_puzzle");
  const std::string log = dir / "progress.log";
  const test_support::CommandRun run = test_support::run_shell(
      std::string(RUSHHOUR_BINARY) + " classify --engine classes --threads 2 -q --size 5 --metric move --domain puzzle "
      "--walls 2 --out " + (dir / "run") + " --log " + log + " & pid=$!; sleep 2; kill -INT $pid; wait $pid; cat " + log);
  ASSERT_EQ(run.status, 0) << run.err;
  std::smatch line;
  ASSERT_TRUE(std::regex_search(run.out, line, std::regex("work items ([0-9]+)/([0-9]+), [0-9]+ classes, ([0-9]+) "
                                                          "configurations \\(([0-9.]+)%\\)")))
      << run.out;
  ASSERT_NE(line[1].str(), line[2].str()) << "the sweep finished before it was stopped";
  const Count domain = count_placements(Rules(5, -1, Metric::Move, {}, Domain::Puzzle, {0, 2})).domain;
  char share[32];
  std::snprintf(share, sizeof share, "%.1f", 100.0 * std::stod(line[3].str()) / static_cast<double>(domain));
  EXPECT_EQ(line[4].str(), share) << run.out;
}

}  // namespace
}  // namespace rushhour::run
