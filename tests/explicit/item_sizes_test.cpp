// ClassItems::item_sizes, the size of a work item found without solving it (what --estimate
// stratifies its sample by): item by item, the configurations the solved item adds to the
// census, and in all the domain's exact count; with the mirror, with walls, in the puzzle
// domain.
#include <gtest/gtest.h>

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
  expect_sizes_of_solved_items(Rules(5), false);
  expect_sizes_of_solved_items(Rules(5, 1, Metric::Move), false);
}

TEST(ItemSizes, WithWallsAndInThePuzzleDomain) {
  expect_sizes_of_solved_items(Rules(4, -1, Metric::Step, {}, Domain::All, {0, 2}), true);
  expect_sizes_of_solved_items(Rules(5, -1, Metric::Move, {}, Domain::Puzzle, {}), true);
  expect_sizes_of_solved_items(Rules(4, -1, Metric::Step, {}, Domain::Puzzle, {1, 2}), true);
}

}  // namespace
}  // namespace rushhour
