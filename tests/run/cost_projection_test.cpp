// run/cost_projection.hpp: the strata of --estimate's sample and the projection with its
// interval, on samples whose answer is known or computed by hand.
#include "run/cost_projection.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour::run {
namespace {

// Items 0..99 of sizes 0 (multiples of 10) or the item's number: ten items of size 0, and
// sizes 1..99 otherwise.
struct Population {
  std::vector<std::uint64_t> items, sizes;
  Population() {
    for (std::uint64_t k = 0; k < 100; ++k) {
      items.push_back(k);
      sizes.push_back(k % 10 == 0 ? 0 : k);
    }
  }
};

TEST(Stratify, StrataOfEqualSizeByAscendingSizeAndTheEmptyOnes) {
  const Population p;
  const StratifiedSample s = stratify(p.items, p.sizes, 100, 4, 12, 7);
  ASSERT_EQ(s.strata.size(), 5u);
  EXPECT_EQ(s.strata[0].items, 10u);
  EXPECT_EQ(s.strata[0].size_sum, 0);
  EXPECT_EQ(s.strata[0].drawn.size(), 4u);
  std::uint64_t items = 0;
  double total = 0;
  for (std::size_t h = 1; h < s.strata.size(); ++h) {
    items += s.strata[h].items;
    total += s.strata[h].size_sum;
  }
  EXPECT_EQ(items, 90u);
  EXPECT_EQ(total, 4500.0);
  // Each stratum of sizes closes at the first item that brings it to its share or past it;
  // the larger sizes make the later strata hold fewer items, and get fewer draws
  // (n_h ∝ √(X_h m_h)), but at least 2.
  std::size_t drawn = 0;
  for (std::size_t h = 1; h + 1 < s.strata.size(); ++h) {
    EXPECT_GE(s.strata[h].size_sum, 1000.0) << h;
    EXPECT_GT(s.strata[h].items, s.strata[h + 1].items) << h;
    EXPECT_GE(s.strata[h].drawn.size(), s.strata[h + 1].drawn.size()) << h;
  }
  for (const Stratum& stratum : s.strata) {
    EXPECT_GE(stratum.drawn.size(), 2u);
    drawn += stratum.drawn.size();
    EXPECT_TRUE(std::is_sorted(stratum.drawn.begin(), stratum.drawn.end()));
    for (std::size_t k = 0; k < stratum.drawn.size(); ++k) EXPECT_EQ(stratum.drawn_sizes[k], p.sizes[stratum.drawn[k]]);
  }
  EXPECT_NEAR(static_cast<double>(drawn), 12 + 4, 2);
  EXPECT_EQ(s.drawn().size(), drawn);
  // The same seed draws the same items; another seed others.
  EXPECT_EQ(stratify(p.items, p.sizes, 100, 4, 12, 7).drawn(), s.drawn());
  EXPECT_NE(stratify(p.items, p.sizes, 100, 4, 12, 8).drawn(), s.drawn());
}

// Costs exactly proportional to size (and a fixed cost for the empty items): the projection
// is exact and the interval 0 when every item was sized, whatever was drawn.
TEST(ProjectCpu, CostsProportionalToSizeAreProjectedExactly) {
  const Population p;
  const StratifiedSample s = stratify(p.items, p.sizes, 100, 4, 12, 1);
  std::vector<ItemCost> costs;
  for (const std::uint64_t item : s.drawn())
    costs.push_back({item, p.sizes[item], p.sizes[item] == 0 ? 0.5 : 2.0 * static_cast<double>(p.sizes[item])});
  const CpuProjection projection = project_cpu(s, costs);
  EXPECT_NEAR(projection.cpu, 2.0 * 4500 + 0.5 * 10, 1e-9);
  EXPECT_NEAR(projection.interval, 0, 1e-9);
}

// The parts of a projection: each drawn class's share goes to its path, an item solved whole
// to its own part, and the parts add up to the projection, stratum by stratum.
TEST(ProjectCpu, PartsFollowTheDrawnClassesPaths) {
  // 1000 configurations, 10 s: 6 s of its own; classes of 100 (1 s, bits, drawn twice) and
  // 400 (3 s, symbolic, once): 1000 · (2 · 0.01 + 0.0075) / 3 = 9.1666… s, 6.6666… of it bits.
  const ItemCost c = cost_of_drawn_classes(7, 10.0, 1000, {{100, 2, 1.0, ClassPath::Bits}, {400, 1, 3.0, ClassPath::Symbolic}});
  EXPECT_NEAR(c.parts[static_cast<std::size_t>(CostPart::ItemSearch)], 6.0, 1e-12);
  EXPECT_NEAR(c.parts[static_cast<std::size_t>(CostPart::BitsClasses)], 20.0 / 3, 1e-12);
  EXPECT_NEAR(c.parts[static_cast<std::size_t>(CostPart::SymbolicClasses)], 2.5, 1e-12);
  EXPECT_EQ(c.parts[static_cast<std::size_t>(CostPart::ExplicitClasses)], 0);
  const ItemCost whole = cost_of_whole_item(3, 0.75, 50);
  EXPECT_EQ(whole.parts[static_cast<std::size_t>(CostPart::WholeItems)], 0.75);
  StratifiedSample s;
  s.population = 8;
  s.measured = 8;
  s.strata.resize(3);
  s.strata[1] = {.items = 4, .size_sum = 200, .size_squares = 1e4, .drawn = {3}, .drawn_sizes = {50}};
  s.strata[2] = {.items = 4, .size_sum = 4000, .size_squares = 4e6, .drawn = {7}, .drawn_sizes = {1000}};
  const CpuProjection p = project_cpu(s, {whole, c});
  EXPECT_NEAR(p.parts[static_cast<std::size_t>(CostPart::WholeItems)], 0.75 * 4, 1e-9);
  EXPECT_NEAR(p.parts[static_cast<std::size_t>(CostPart::BitsClasses)], 4 * 20.0 / 3, 1e-9);
  double sum = 0;
  for (const double part : p.parts) sum += part;
  EXPECT_NEAR(sum, p.cpu, 1e-9);
  for (const StratumProjection& stratum : p.strata) {
    double stratum_sum = 0;
    for (const double part : stratum.parts) stratum_sum += part;
    EXPECT_NEAR(stratum_sum, stratum.cpu, 1e-9);
  }
}

// Every item of every stratum solved: the projection is the sum of the costs, with no interval.
TEST(ProjectCpu, AWholeSampleHasNoSpread) {
  std::vector<std::uint64_t> items(100), sizes(100);
  std::iota(items.begin(), items.end(), std::uint64_t{0});
  std::iota(sizes.begin(), sizes.end(), std::uint64_t{1});
  const StratifiedSample s = stratify(items, sizes, 100, 4, 1000, 1);
  ASSERT_EQ(s.drawn().size(), 100u);
  std::vector<ItemCost> costs;
  double sum = 0;
  for (const std::uint64_t item : s.drawn()) {
    const double t = std::sqrt(static_cast<double>(item)) + 1;
    costs.push_back({item, sizes[item], t});
    sum += t;
  }
  const CpuProjection projection = project_cpu(s, costs);
  EXPECT_NEAR(projection.cpu, sum, 1e-9);
  EXPECT_NEAR(projection.interval, 0, 1e-9);
}

// One stratum, computed by hand: sizes 1, 2, 3, 4 (m = N = 4), items 1 and 3 drawn with costs
// 1 and 5: R = 6/4, T = 10 · 1.5 = 15; residuals 1 − 1.5 = −0.5 and 5 − 4.5 = 0.5, s² = 0.5;
// V = 4² (1 − 2/4) 0.5 / 2 = 2.
TEST(ProjectCpu, OneStratumByHand) {
  StratifiedSample s;
  s.population = 4;
  s.measured = 4;
  s.strata.resize(2);
  s.strata[1] = {.items = 4, .size_sum = 10, .size_squares = 30, .drawn = {1, 3}, .drawn_sizes = {1, 3}};
  const CpuProjection projection = project_cpu(s, {{1, 1, 1.0}, {3, 3, 5.0}});
  EXPECT_DOUBLE_EQ(projection.cpu, 15);
  EXPECT_DOUBLE_EQ(projection.interval, 1.96 * std::sqrt(2.0));
  // The same sizes as a first phase of 4 of 40 items: T and the second phase's variance grow
  // by E = 10 (T = 150, V₂ = 200), and the first phase adds N² (1 − m/N) S² / m with S² the
  // predictions' spread 1.5² · (30 − 2.5 · 10 · 2 + 4 · 2.5²) / 3 plus the residual 3 · 0.5, over 3.
  s.population = 40;
  const CpuProjection wider = project_cpu(s, {{1, 1, 1.0}, {3, 3, 5.0}});
  EXPECT_DOUBLE_EQ(wider.cpu, 150);
  const double spread = (1.5 * 1.5 * (30 - 2 * 2.5 * 10 + 4 * 2.5 * 2.5) + 3 * 0.5) / 3;
  EXPECT_NEAR(wider.interval, 1.96 * std::sqrt(100 * 2.0 + 1600 * (1 - 0.1) * spread / 4), 1e-12);
  EXPECT_NEAR(wider.variance.items, 200, 1e-9);
  EXPECT_NEAR(wider.variance.first_phase, 1600 * (1 - 0.1) * spread / 4, 1e-9);
  ASSERT_EQ(wider.strata.size(), 1u);
  EXPECT_NEAR(wider.strata[0].configurations, 100, 1e-9);
}

TEST(ProjectCpu, ADrawnItemWithoutItsCostIsALogicError) {
  const Population p;
  const StratifiedSample s = stratify(p.items, p.sizes, 100, 4, 12, 1);
  EXPECT_THROW(project_cpu(s, {}), std::logic_error);
}

TEST(ProjectCpu, IntervalsNeverReachBelowZero) {
  CpuProjection p;
  p.cpu = 1;
  p.interval = 3;
  EXPECT_EQ(p.low(), 0);
  EXPECT_EQ(p.high(), 4);
}

// An item of 1000 configurations whose run took 10 s: classes of 100 (drawn twice, 2 s) and
// 400 (once, 2 s) configurations. Per configuration 0.02, 0.02, 0.005: mean 0.015, s² =
// (2·0.005² + 0.01²)/2 = 7.5e-5. The item: 10 − 4 + 1000·0.015 = 21 s, variance 1000²·7.5e-5/3.
TEST(CostOfDrawnClasses, ByHand) {
  const ItemCost c = cost_of_drawn_classes(7, 10.0, 1000, {{100, 2, 2.0}, {400, 1, 2.0}});
  EXPECT_EQ(c.item, 7u);
  EXPECT_EQ(c.configurations, 1000u);
  EXPECT_EQ(c.classes_drawn, 3u);
  EXPECT_NEAR(c.cpu_seconds, 21.0, 1e-12);
  EXPECT_NEAR(c.within_variance, 1e6 * 7.5e-5 / 3, 1e-9);
  // In a projection its variance is carried to the stratum's total: X_h / Σ x of the drawn.
  StratifiedSample s;
  s.population = 4;
  s.measured = 4;
  s.strata.resize(2);
  s.strata[1] = {.items = 4, .size_sum = 4000, .size_squares = 4e6, .drawn = {7}, .drawn_sizes = {1000}};
  const CpuProjection p = project_cpu(s, {c});
  EXPECT_NEAR(p.cpu, 84.0, 1e-9);
  // Its parts: the item's own 6 s and its classes' 15 s, each scaled by 4 alike.
  EXPECT_NEAR(p.parts[static_cast<std::size_t>(CostPart::ItemSearch)], 24.0, 1e-9);
  EXPECT_NEAR(p.parts[static_cast<std::size_t>(CostPart::ExplicitClasses)], 60.0, 1e-9);
  EXPECT_EQ(p.parts[static_cast<std::size_t>(CostPart::WholeItems)], 0);
  EXPECT_NEAR(p.interval, 1.96 * std::sqrt(16 * c.within_variance), 1e-9);
  EXPECT_NEAR(p.variance.classes, 16 * c.within_variance, 1e-9);
  EXPECT_EQ(p.variance.items, 0);
  EXPECT_EQ(p.variance.first_phase, 0);
  ASSERT_EQ(p.strata.size(), 1u);
  EXPECT_EQ(p.strata[0].items, 4u);
  EXPECT_EQ(p.strata[0].drawn, 1u);
  EXPECT_NEAR(p.strata[0].cpu, 84.0, 1e-9);
}

TEST(PrimeAtLeast, FindsTheNextPrime) {
  EXPECT_EQ(prime_at_least(2), 2u);
  EXPECT_EQ(prime_at_least(4), 5u);
  EXPECT_EQ(prime_at_least(24), 29u);
  EXPECT_EQ(prime_at_least(97), 97u);
}

}  // namespace
}  // namespace rushhour::run
