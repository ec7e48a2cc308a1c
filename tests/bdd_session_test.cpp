// BddSession: what it promises beyond BuDDy itself.
#include "bdd/session.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "bdd/bdd_util.hpp"
#include "bdd/state_set.hpp"
#include "bdd_test_support.hpp"

namespace rushhour {
namespace {

// BuDDy caches satcount results scaled by the number of declared variables; declaring more
// must not leave a stale count behind (found when a dominance experiment declared label
// variables after the layers had been counted, results/perf-log.md §14).
TEST(BddSession, CountsStayExactWhenVariablesAreAdded) {
  BddSession session(3, testing::tiny_table());
  const std::vector<int> first = {0, 1, 2};
  const bdd set = variable_set(first);
  const bdd f = bdd_ithvar(0) & (bdd_ithvar(1) | bdd_ithvar(2));
  ASSERT_EQ(bdd_satcountset(f, set), 3.0);
  ASSERT_EQ(exact_count(f, set), 3u);
  session.ensure_variables(12);
  EXPECT_EQ(session.variable_count(), 12);
  EXPECT_EQ(bdd_satcountset(f, set), 3.0);
  EXPECT_EQ(exact_count(f, set), 3u);
  const std::vector<int> all = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  EXPECT_EQ(bdd_satcountset(f, variable_set(all)), 3.0 * (1 << 9));
  EXPECT_EQ(exact_count(f, variable_set(all)), 3u << 9);
  session.ensure_variables(5);  // never fewer
  EXPECT_EQ(session.variable_count(), 12);
}

// A session may end without having declared a variable, after one that did (BuDDy would
// free the earlier session's variable tables twice).
TEST(BddSession, EndsCleanlyWithoutVariables) {
  { BddSession first(4, testing::tiny_table()); }
  { BddSession empty(0, testing::tiny_table()); }
  BddSession next(3, testing::tiny_table());
  EXPECT_EQ(exact_count(bdd_ithvar(2), variable_set(std::vector<int>{0, 1, 2})), 4u);
}

}  // namespace
}  // namespace rushhour
