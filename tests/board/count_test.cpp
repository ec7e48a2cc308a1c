#include "board/count.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

TEST(Count, ToStringSmallAndBoundaryValues) {
  EXPECT_EQ(to_string(Count{0}), "0");
  EXPECT_EQ(to_string(Count{7}), "7");
  EXPECT_EQ(to_string(Count{10}), "10");
  EXPECT_EQ(to_string(Count{std::numeric_limits<std::uint64_t>::max()}),
            "18446744073709551615");
  EXPECT_EQ(to_string(kUint64Limit), "18446744073709551616");
  EXPECT_EQ(to_string(kCountMax), "340282366920938463463374607431768211455");
}

TEST(Count, ParseRoundTripsAboveTwoToThe64) {
  for (const std::string text :
       {"0", "1", "9007199254740993", "18446744073709551615", "18446744073709551616",
        "123456789012345678901234567890", "340282366920938463463374607431768211455"}) {
    EXPECT_EQ(to_string(parse_count(text)), text);
  }
  EXPECT_TRUE(parse_count("18446744073709551616") == kUint64Limit);
  EXPECT_TRUE(parse_count("007") == Count{7});
}

TEST(Count, ParseRejectsMalformedAndOverflowingText) {
  for (const char* text : {"", "-1", "+1", " 1", "1 ", "1.0", "1e3", "0x10", "abc", "12a"}) {
    EXPECT_THROW(parse_count(text), InputError) << "'" << text << "'";
  }
  EXPECT_THROW(parse_count("340282366920938463463374607431768211456"), InputError);
  EXPECT_THROW(parse_count("999999999999999999999999999999999999999999"), InputError);
}

TEST(Count, CheckedArithmeticIsExactOrThrows) {
  const Count two_to_64 = kUint64Limit;
  EXPECT_TRUE(checked_mul(Count{1} << 32, Count{1} << 32) == two_to_64);
  EXPECT_TRUE(checked_add(two_to_64 - 1, 1) == two_to_64);
  EXPECT_EQ(to_string(checked_mul(two_to_64, 3)), "55340232221128654848");
  EXPECT_TRUE(checked_add(kCountMax - 5, 5) == kCountMax);
  EXPECT_THROW(checked_add(kCountMax, 1), std::overflow_error);
  EXPECT_THROW(checked_mul(two_to_64, two_to_64), std::overflow_error);
  EXPECT_THROW(checked_mul(kCountMax / 2 + 1, 2), std::overflow_error);
}

TEST(Count, NarrowsToUint64OnlyWhenItFits) {
  EXPECT_TRUE(fits_uint64(kUint64Limit - 1));
  EXPECT_FALSE(fits_uint64(kUint64Limit));
  EXPECT_EQ(to_uint64(Count{42}), 42u);
  EXPECT_THROW(to_uint64(kUint64Limit), std::overflow_error);
}

TEST(Count, ReadsWordsOfATextStream) {
  std::istringstream in("18446744073709551616 7\nx12 5");
  Count value = 0;
  ASSERT_TRUE(read_count(in, value));
  EXPECT_TRUE(value == kUint64Limit);
  ASSERT_TRUE(read_count(in, value));
  EXPECT_TRUE(value == Count{7});
  EXPECT_FALSE(read_count(in, value));
  EXPECT_TRUE(in.fail());
  std::istringstream empty("  ");
  EXPECT_FALSE(read_count(empty, value));
}

}  // namespace
}  // namespace rushhour
