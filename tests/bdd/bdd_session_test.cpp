// BddSession: what it promises beyond BuDDy itself.
#include "bdd/session.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "bdd/bdd_util.hpp"
#include "bdd/state_set.hpp"
#include "bdd_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

// BuDDy caches satcount results scaled by the number of declared variables; declaring more
// must not leave a stale count behind (found when a dominance experiment declared label
// variables after the layers had been counted, results/perf-log.md §14).
TEST(BddSession, CountsStayExactWhenVariablesAreAdded) {
  BddSession session(3, test_support::tiny_table());
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
  { BddSession first(4, test_support::tiny_table()); }
  { BddSession empty(0, test_support::tiny_table()); }
  BddSession next(3, test_support::tiny_table());
  EXPECT_EQ(exact_count(bdd_ithvar(2), variable_set(std::vector<int>{0, 1, 2})), 4u);
}

// BuDDy's bdd_setvarnum counts a reference-stack slot for each new variable's node before the
// node is made; a garbage collection inside it then marks the slot's uninitialised contents
// as a node (a segmentation fault in bdd_mark, seen in 6x6 runs). It collects there only when
// the free list is empty: here every node is taken by a live set, and the stack's new block is
// one the allocator has just written its own pointers into.
TEST(BddSession, DeclaresVariablesWhenNoNodeIsFree) {
  BddSession session(8, test_support::tiny_table());
  const auto free_nodes = [] { return bdd_getallocnum() - bdd_getnodenum(); };
  // Distinct functions of the variables 1..7 (the minterms), then one new node at a time:
  // x0 ? f : g for pairs of them, until the free list is empty (no collection on the way).
  std::vector<bdd> kept;
  std::vector<bdd> minterms;
  for (int m = 0; m < 40; ++m) {
    bdd cube = bddtrue;
    for (int v = 1; v < 8; ++v) cube &= (m >> (v - 1)) & 1 ? bdd_ithvar(v) : bdd_nithvar(v);
    minterms.push_back(cube);
  }
  bdd_gbc();  // every node left is live, so that the session must grow the table
  const std::int64_t collections = session.gc_count();
  const int table = bdd_getallocnum();
  for (std::size_t f = 0; f < minterms.size() && free_nodes() > 0; ++f)
    for (std::size_t g = 0; g < minterms.size() && free_nodes() > 0; ++g)
      if (f != g) kept.push_back(bdd_ite(bdd_ithvar(0), minterms[f], minterms[g]));
  ASSERT_EQ(free_nodes(), 0);
  ASSERT_EQ(session.gc_count(), collections);
  const int more = 8;
  void* volatile block = std::malloc(sizeof(int) * (2 * (8 + more) + 4));
  std::free(block);

  session.ensure_variables(8 + more);
  session.check();
  EXPECT_EQ(session.variable_count(), 8 + more);
  EXPECT_GT(bdd_getallocnum(), table);
  const bdd last = bdd_ithvar(8 + more - 1);
  EXPECT_EQ(bdd_var(last), 8 + more - 1);
  // x0 ? m0 : m1 holds for two assignments of the variables 0..7, each with the new one set.
  const std::vector<int> counted = {0, 1, 2, 3, 4, 5, 6, 7, 8 + more - 1};
  EXPECT_EQ(exact_count(kept.front() & last, variable_set(counted)), 2u);
}

}  // namespace
}  // namespace rushhour
