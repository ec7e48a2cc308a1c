// project_cpu (run/class_sweep.hpp): the two estimators of --estimate and their intervals, on
// samples whose answer is known.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "run/class_sweep.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour::run {
namespace {

// Items that cost exactly 2 ns per configuration: by configurations the job's cost, with no
// spread; by items the sample mean times the items, spread by the items' unequal sizes.
TEST(CostProjection, CostProportionalToConfigurationsIsExactByConfigurations) {
  const std::vector<ItemCost> costs = {{100, 200e-9}, {300, 600e-9}, {50, 100e-9}, {1000, 2000e-9}};
  const CpuProjections p = project_cpu(costs, 400, 1e6);
  EXPECT_NEAR(p.by_configurations.cpu, 2e-3, 1e-15);
  EXPECT_NEAR(p.by_configurations.interval, 0, 1e-15);
  EXPECT_NEAR(p.by_items.cpu, 400 * 725e-9, 1e-15);
  // s²(t) of 200, 600, 100, 2000 ns around their mean 725 ns, with n = 4 of N = 400.
  const double s2 = (std::pow(525e-9, 2) + std::pow(125e-9, 2) + std::pow(625e-9, 2) + std::pow(1275e-9, 2)) / 3;
  EXPECT_NEAR(p.by_items.interval, 1.96 * 400 * std::sqrt((1 - 4.0 / 400) * s2 / 4), 1e-15);
}

// A sample that is the whole job: both estimators give its CPU, with no interval.
TEST(CostProjection, TheWholeJobHasNoSpread) {
  const std::vector<ItemCost> costs = {{10, 1.0}, {20, 5.0}, {30, 2.0}};
  const CpuProjections p = project_cpu(costs, 3, 60);
  EXPECT_DOUBLE_EQ(p.by_items.cpu, 8.0);
  EXPECT_DOUBLE_EQ(p.by_configurations.cpu, 8.0);
  EXPECT_DOUBLE_EQ(p.by_items.interval, 0);
  EXPECT_DOUBLE_EQ(p.by_configurations.interval, 0);
}

TEST(CostProjection, IntervalsNeverReachBelowZero) {
  const std::vector<ItemCost> costs = {{1, 0.0}, {1, 0.0}, {1, 10.0}};
  const CpuProjections p = project_cpu(costs, 300, 300);
  EXPECT_GT(p.by_items.interval, p.by_items.cpu);
  EXPECT_EQ(p.by_items.low(), 0);
  EXPECT_DOUBLE_EQ(p.by_items.high(), p.by_items.cpu + p.by_items.interval);
}

}  // namespace
}  // namespace rushhour::run
