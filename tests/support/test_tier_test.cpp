// The tiers' declarations: a file's tests take its tier, a pattern declared later wins over
// an earlier one, and a test of a file without a declaration has no tier (the build refuses it).
#include "test_tier.hpp"

#include <gtest/gtest.h>

RUSHHOUR_TEST_TIER(quick);

namespace {

TEST(TestTier, ALaterDeclarationOfTheFileWins) {
  using test_tier::Tier;
  test_tier::declare_tier("example_test.cpp", "*", Tier::Full);
  test_tier::declare_tier("example_test.cpp", "FiveByFive/*", Tier::Long);
  test_tier::declare_tier("example_test.cpp", "FiveByFive/Engine.*/cheap", Tier::Full);
  Tier tier = Tier::Quick;
  ASSERT_TRUE(test_tier::tier_of("example_test.cpp", "Engine.Counts", tier));
  EXPECT_EQ(tier, Tier::Full);
  ASSERT_TRUE(test_tier::tier_of("example_test.cpp", "FiveByFive/Engine.Figures/expensive", tier));
  EXPECT_EQ(tier, Tier::Long);
  ASSERT_TRUE(test_tier::tier_of("example_test.cpp", "FiveByFive/Engine.Figures/cheap", tier));
  EXPECT_EQ(tier, Tier::Full);
  EXPECT_FALSE(test_tier::tier_of("undeclared_test.cpp", "Engine.Counts", tier));
}

TEST(TestTier, ThisFilesTestsAreQuick) {
  test_tier::Tier tier = test_tier::Tier::Long;
  ASSERT_TRUE(test_tier::tier_of(__FILE__, "TestTier.ThisFilesTestsAreQuick", tier));
  EXPECT_EQ(tier, test_tier::Tier::Quick);
}

}  // namespace
