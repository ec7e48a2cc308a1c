// StateSet and exact_count: the node walk against BuDDy's double count where that is exact,
// against counts known in closed form above 2^64, and against the explicit counter.
#include "bdd/state_set.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "bdd/bdd_util.hpp"
#include "bdd/session.hpp"
#include "bdd_test_support.hpp"
#include "encoding/slot_encoding.hpp"
#include "explicit/counting.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

using test_support::tiny_table;

std::vector<int> range_of(int first, int end, int stride = 1) {
  std::vector<int> vars;
  for (int v = first; v < end; v += stride) vars.push_back(v);
  return vars;
}

// Random functions of the even variables, counted over the even variables (the odd ones, as
// next-state copies, lie between them and are not counted): every count is below 2^53, where
// bdd_satcountset is exact.
TEST(ExactCount, EqualsBuddysCountWhereThatIsExact) {
  constexpr int kVars = 16;
  BddSession session(kVars, tiny_table());
  const std::vector<int> even = range_of(0, kVars, 2);
  const bdd counted = variable_set(even);
  std::mt19937 random(11);
  for (int trial = 0; trial < 200; ++trial) {
    bdd f = bddfalse;
    for (int term = 0; term < 6; ++term) {
      bdd cube = bddtrue;
      for (int v : even)
        if (random() % 3 == 0) cube &= random() % 2 ? bdd_ithvar(v) : bdd_nithvar(v);
      f |= cube;
    }
    const double expected = bdd_satcountset(f, counted);
    EXPECT_EQ(count_by_node_walk(f, counted), static_cast<Count>(expected));
    EXPECT_EQ(exact_count(f, counted), static_cast<Count>(expected));
    EXPECT_EQ(StateSet(f, counted).count(), static_cast<Count>(expected));
  }
  EXPECT_EQ(count_by_node_walk(bddfalse, counted), 0u);
  EXPECT_EQ(count_by_node_walk(bddtrue, counted), Count{1} << even.size());
  EXPECT_EQ(exact_count(bddfalse, counted), 0u);
  EXPECT_EQ(exact_count(bddtrue, counted), Count{1} << even.size());
  EXPECT_EQ(exact_count(bddtrue, bddtrue), 1u);  // no variable: one (empty) assignment
  session.check();
}

// Counts above 2^64, in closed form: at least one of x0..x9 over 75 variables is
// (2^10 - 1) · 2^65; the same with x0 skipped by f: 2 · (2^9 - 1) · 2^65.
TEST(ExactCount, IsExactAbove64Bits) {
  BddSession session(80, tiny_table());
  const bdd counted = variable_set(range_of(0, 75));
  bdd some = bddfalse;
  for (int v = 0; v < 10; ++v) some |= bdd_ithvar(v);
  const Count expected = ((Count{1} << 10) - 1) << 65;
  EXPECT_FALSE(fits_uint64(expected));
  EXPECT_EQ(StateSet(some, counted).count(), expected);
  bdd some_but_first = bddfalse;
  for (int v = 1; v < 10; ++v) some_but_first |= bdd_ithvar(v);
  EXPECT_EQ(exact_count(some_but_first, counted), 2 * (((Count{1} << 9) - 1) << 65));
  EXPECT_EQ(count_by_node_walk(some, counted), expected);
  // A function at the bottom of the order: the variables above it multiply its count.
  const bdd last = bdd_ithvar(74) & !bdd_ithvar(73);
  EXPECT_EQ(exact_count(last, counted), Count{1} << 73);
  EXPECT_EQ(exact_count(bddtrue, variable_set(range_of(0, 80))), Count{1} << 80);
  // BuDDy's double agrees to its precision.
  EXPECT_DOUBLE_EQ(bdd_satcountset(some, counted), static_cast<double>(expected));
}

TEST(ExactCount, RefusesASetThatMentionsAnUncountedVariable) {
  BddSession session(4, tiny_table());
  const bdd f = bdd_ithvar(0) & bdd_ithvar(3);
  EXPECT_THROW(exact_count(f, variable_set(range_of(0, 3))), std::logic_error);
  EXPECT_THROW(count_by_node_walk(f, variable_set(range_of(0, 3))), std::logic_error);
}

// Against the explicit counter: the slot encoding's domain and winning sets on 4x4 and 5x5.
TEST(StateSet, CountsTheSlotEncodingsSetsAsTheExplicitCounterDoes) {
  for (int size : {4, 5}) {
    BddSession session(0, tiny_table());
    const Rules rules(size);
    const SlotEncoding encoding(session, rules, SlotEncodingOptions{});
    const PlacementCounts expected = count_placements(rules);
    EXPECT_EQ(encoding.domain().count(), expected.domain);
    EXPECT_EQ(encoding.winning().count(), expected.winning);
    EXPECT_EQ(encoding.legal().count(), expected.placements);
    EXPECT_EQ(count_by_node_walk(encoding.domain().states(), encoding.current_variables()),
              expected.domain);
  }
}

}  // namespace
}  // namespace rushhour
