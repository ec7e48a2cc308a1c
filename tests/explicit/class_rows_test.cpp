// ItemRows, a class-engine work item's rows: the two counts of an item's states (its row
// combinations listed, or the columns' free arrangements multiplied out) agree on every item,
// and every admitted row combination keeps its vehicles off the walls, with each column's
// mask the rows its horizontal vehicles and walls cover there.
#include <gtest/gtest.h>

#include <optional>

#include "explicit/class_lines.hpp"
#include "explicit/class_rows.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour::class_engine {
namespace {

void expect_rows_consistent(const Rules& rules, bool mirror) {
  const LineTables tables = tables_of(rules, false);
  ItemRows rows(tables, rules, mirror, fixed_groups(tables, {}));
  const int n = tables.n;
  std::uint64_t taken = 0;
  for (std::uint64_t item = 0; item < work_items(tables); ++item) {
    const std::optional<std::uint64_t> combos = rows.take(item);
    if (!combos) continue;
    ++taken;
    const std::uint64_t walls = tables.placements[item / tables.row_items];
    const std::uint64_t without_listing = rows.states_without_listing();
    ASSERT_EQ(rows.build_combos(*combos), without_listing) << rules.describe() << ", item " << item;
    ASSERT_EQ(rows.combos().size(), *combos);
    for (const std::uint32_t id : rows.admitted()) {
      const Combo& c = rows.combos()[id];
      ASSERT_EQ(c.id, id);
      std::uint64_t covered = walls;
      for (int i = 0; i < n; ++i) {
        const std::uint64_t cells = tables.row_mask(i, c.row[static_cast<std::size_t>(i)]);
        ASSERT_EQ(cells & walls, 0u) << rules.describe() << ", item " << item << ", row " << i;
        covered |= cells;
      }
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
          ASSERT_EQ(c.column_mask[static_cast<std::size_t>(j)] >> i & 1, covered >> (i * n + j) & 1);
    }
  }
  EXPECT_GT(taken, 1u) << rules.describe();
}

TEST(ItemRows, CountTheStatesOfAnItemAlikeBothWaysAndKeepVehiclesOffTheWalls) {
  expect_rows_consistent(Rules(4), true);
  expect_rows_consistent(Rules(5), false);
  expect_rows_consistent(Rules(4, -1, Metric::Step, {}, Domain::All, {0, 2}), false);
  expect_rows_consistent(Rules(5, -1, Metric::Move, {}, Domain::Puzzle, {0, 1}), true);
}

}  // namespace
}  // namespace rushhour::class_engine
