// DomainCode, DomainVariable and VariableLayout: codes, ranges, frames and decoding.
#include "bdd/domain_variable.hpp"

#include <gtest/gtest.h>

#include "bdd/bdd_util.hpp"
#include "bdd/session.hpp"
#include "bdd/state_set.hpp"
#include "bdd_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

using test_support::tiny_table;
constexpr signed char kFree = DomainCode::kFree;

TEST(VariableLayout, InterleavesCurrentAndNextVariables) {
  BddSession session(0, tiny_table());
  VariableLayout layout;
  const DomainVariable a = layout.add(DomainCode::binary(5));
  const DomainVariable b = layout.add(DomainCode::binary(2), /*with_next=*/false);
  const DomainVariable c = layout.add(DomainCode::binary(4));
  EXPECT_EQ(a.current(), (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(a.next(), (std::vector<int>{1, 3, 5}));
  EXPECT_EQ(b.current(), (std::vector<int>{6}));
  EXPECT_FALSE(b.has_next());
  EXPECT_EQ(c.current(), (std::vector<int>{7, 9}));
  EXPECT_EQ(c.next(), (std::vector<int>{8, 10}));
  EXPECT_EQ(layout.variable_count(), 11);
  const DomainVariable* both[] = {&a, &c};
  EXPECT_EQ(variables_of(both, Copy::Next), (std::vector<int>{1, 3, 5, 8, 10}));
}

TEST(DomainVariable, BinaryCodeEncodesEachValueOnceAndExcludesTheRest) {
  BddSession session(0, tiny_table());
  VariableLayout layout;
  const DomainVariable x = layout.add(DomainCode::binary(5));
  session.ensure_variables(layout.variable_count());
  const bdd vars = x.cube();
  EXPECT_EQ(x.bits(), 3);
  EXPECT_EQ(exact_count(x.range(), vars), 5u);
  EXPECT_EQ(exact_count(x.range(Copy::Next), x.cube(Copy::Next)), 5u);
  std::vector<bool> values(3);
  for (int v = 0; v < 5; ++v) {
    EXPECT_EQ(exact_count(x.encode(v), vars), 1u);
    EXPECT_TRUE(x.encode(v) == x.canonical(v));
    // Most significant bit first: value 4 is 100.
    for (int k = 0; k < 3; ++k) values[k] = (v >> (2 - k)) & 1;
    EXPECT_EQ(x.decode(values), v);
    EXPECT_TRUE(x.encode(v) == assignment(x.current(), values));
  }
  EXPECT_TRUE(x.encode(-1) == bddfalse);
  EXPECT_TRUE(x.encode(5) == bddfalse);
  values = {true, true, false};  // 6: no value
  EXPECT_EQ(x.decode(values), -1);
  session.check();
}

TEST(DomainVariable, FramesKeepTheCodeOrTheValue) {
  BddSession session(0, tiny_table());
  VariableLayout layout;
  // Value 0 owns the codes 00 and 01, value 1 owns 10, value 2 owns 11.
  const DomainVariable x =
      layout.add(DomainCode::from_cubes({{{0, kFree}}, {{1, 0}}, {{1, 1}}}));
  session.ensure_variables(layout.variable_count());
  const bdd both = x.cube() & x.cube(Copy::Next);
  EXPECT_EQ(exact_count(x.unchanged(), both), 4u);         // one pair per code
  EXPECT_EQ(exact_count(x.same_value(), both), 4u + 1 + 1);  // value 0: 2 x 2 code pairs
  EXPECT_EQ(exact_count(x.range(), x.cube()), 4u);          // no invalid code
  EXPECT_EQ(exact_count(x.encode(0), x.cube()), 2u);
  EXPECT_TRUE(x.canonical(0) == assignment(x.current(), {false, false}));
  EXPECT_EQ(x.decode({false, true}), 0);
  EXPECT_EQ(x.decode({true, false}), 1);
  session.check();
}

TEST(DomainCode, RefusesOverlappingOrMissingCodes) {
  EXPECT_THROW(DomainCode::from_cubes({{{0, kFree}}, {{0, 1}}}), std::logic_error);
  EXPECT_THROW(DomainCode::from_cubes({{{0, 0}}, {}}), std::logic_error);
  EXPECT_THROW(DomainCode::from_cubes({{{0, 0}}, {{1}}}), std::logic_error);
  EXPECT_THROW(DomainCode::binary(0), std::logic_error);
  EXPECT_EQ(DomainCode::binary(1)->bits(), 0);
}

}  // namespace
}  // namespace rushhour
