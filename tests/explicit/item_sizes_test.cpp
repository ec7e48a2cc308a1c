// ClassItems::item_sizes, the size of a work item found without solving it (what --estimate
// stratifies its sample by): item by item, the configurations the solved item adds to the
// census, and in all the domain's exact count; with the mirror, with walls, in the puzzle
// domain, within vehicle limits.
#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <vector>

#include "explicit/class_engine.hpp"
#include "explicit/counting.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

void expect_sizes_of_solved_items(const Rules& rules, bool mirror) {
  ClassEngineOptions options;
  options.mirror = mirror;
  const ClassItems items(rules, options);
  std::vector<std::uint64_t> all(items.count());
  std::iota(all.begin(), all.end(), std::uint64_t{0});
  const std::vector<std::uint64_t> sizes = items.item_sizes(all);
  ASSERT_EQ(sizes.size(), all.size());
  const std::unique_ptr<ItemSolver> solver = items.solver();
  Count total = 0;
  std::uint64_t nonzero = 0;
  for (const std::uint64_t item : all) {
    const ItemFigures figures = solver->solve(item);
    std::uint64_t solved = 0;
    for (const VehicleTally& tally : figures.delta.tallies) solved += static_cast<std::uint64_t>(tally.domain);
    ASSERT_EQ(sizes[item], solved) << rules.describe() << ", item " << item;
    total += sizes[item];
    nonzero += sizes[item] != 0;
  }
  EXPECT_EQ(total, count_placements(rules).domain) << rules.describe();
  EXPECT_GT(nonzero, 1u);
}

TEST(ItemSizes, AreTheConfigurationsEachSolvedItemAdds) {
  expect_sizes_of_solved_items(Rules(4), false);
  expect_sizes_of_solved_items(Rules(5), true);
  expect_sizes_of_solved_items(Rules(5, 1), false);  // another exit row, no mirror
}

TEST(ItemSizes, WithWallsAndInThePuzzleDomain) {
  expect_sizes_of_solved_items(Rules(4, -1, Metric::Step, {}, Domain::All, {0, 2}), true);
  expect_sizes_of_solved_items(Rules(5, -1, Metric::Move, {}, Domain::Puzzle, {}), true);
  expect_sizes_of_solved_items(Rules(4, -1, Metric::Step, {}, Domain::Puzzle, {1, 2}), true);
}

TEST(ItemSizes, WithinVehicleLimits) {
  expect_sizes_of_solved_items(Rules(5, -1, Metric::Step, VehicleLimits{-1, -1, 4}), true);
  expect_sizes_of_solved_items(Rules(5, -1, Metric::Step, VehicleLimits{3, 1, -1}), true);
  expect_sizes_of_solved_items(Rules(5, 1, Metric::Move, VehicleLimits{2, -1, 3}, Domain::Puzzle, {}), false);
  expect_sizes_of_solved_items(Rules(4, -1, Metric::Step, VehicleLimits{-1, -1, 3}, Domain::All, {0, 1}), true);
}

// An item above ClassEngineOptions::draw_classes_above solves only the classes it draws: as
// many draws as asked, the item's size as what they are drawn from, and the figures those of
// the drawn classes alone; the same seed draws the same classes.
TEST(ItemSizes, ClassesDrawnFromHeavyItems) {
  const Rules rules(5);
  ClassEngineOptions options;
  options.draw_classes_above = 5000;
  options.classes_drawn = 3;
  const ClassItems items(rules, options);
  std::vector<std::uint64_t> all(items.count());
  std::iota(all.begin(), all.end(), std::uint64_t{0});
  const std::vector<std::uint64_t> sizes = items.item_sizes(all);
  const std::unique_ptr<ItemSolver> solver = items.solver(), again = items.solver();
  int drawn_items = 0;
  for (const std::uint64_t item : all) {
    const ItemFigures figures = solver->solve(item);
    std::uint64_t solved = 0;
    for (const VehicleTally& tally : figures.delta.tallies) solved += static_cast<std::uint64_t>(tally.domain);
    if (sizes[item] <= options.draw_classes_above) {
      EXPECT_TRUE(figures.class_draws.empty()) << item;
      EXPECT_EQ(solved, sizes[item]) << item;
      continue;
    }
    ++drawn_items;
    EXPECT_EQ(figures.drawn_from, sizes[item]) << item;
    std::uint64_t times = 0, drawn = 0;
    for (const ClassDraw& d : figures.class_draws) {
      times += d.times;
      drawn += d.configurations;
      EXPECT_GT(d.configurations, 0u);
    }
    EXPECT_EQ(times, 3u) << item;
    EXPECT_EQ(solved, drawn) << item;
    EXPECT_LT(solved, sizes[item]) << item;
    const ItemFigures repeated = again->solve(item);
    ASSERT_EQ(repeated.class_draws.size(), figures.class_draws.size()) << item;
    for (std::size_t k = 0; k < figures.class_draws.size(); ++k)
      EXPECT_EQ(repeated.class_draws[k].configurations, figures.class_draws[k].configurations) << item;
  }
  EXPECT_GT(drawn_items, 10);
}

// Each drawn class names the path it was solved on: state by state or in parts by default; on
// bit sets where every class unsplit goes there.
TEST(ItemSizes, ClassesDrawnNameTheirPath) {
  const Rules rules(5);
  for (const bool on_bits : {false, true}) {
    ClassEngineOptions options;
    options.draw_classes_above = 5000;
    options.classes_drawn = 3;
    if (on_bits) {
      options.bit_search_above = 0;
      options.split_classes = false;
    }
    const ClassItems items(rules, options);
    std::vector<std::uint64_t> all(items.count());
    std::iota(all.begin(), all.end(), std::uint64_t{0});
    const std::unique_ptr<ItemSolver> solver = items.solver();
    std::array<int, kClassPaths> seen{};
    for (const std::uint64_t item : all)
      for (const ClassDraw& d : solver->solve(item).class_draws) ++seen[static_cast<std::size_t>(d.path)];
    EXPECT_EQ(seen[static_cast<std::size_t>(ClassPath::Symbolic)], 0);
    if (on_bits) {
      EXPECT_GT(seen[static_cast<std::size_t>(ClassPath::Bits)], 10);
      EXPECT_EQ(seen[static_cast<std::size_t>(ClassPath::Explicit)] + seen[static_cast<std::size_t>(ClassPath::Parts)], 0);
    } else {
      EXPECT_GT(seen[static_cast<std::size_t>(ClassPath::Explicit)], 0);
      EXPECT_GT(seen[static_cast<std::size_t>(ClassPath::Parts)], 0);
      EXPECT_EQ(seen[static_cast<std::size_t>(ClassPath::Bits)], 0);
    }
  }
}

}  // namespace
}  // namespace rushhour
