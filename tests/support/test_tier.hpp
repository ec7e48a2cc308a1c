#pragma once
// Test tiers. Every test file declares the tier of its tests next to them:
//
//   RUSHHOUR_TEST_TIER(quick);                      every test of this file
//   RUSHHOUR_TEST_TIER_OF("FiveByFive/*", long);    those whose full name matches (fnmatch)
//
// A later declaration of the file wins where patterns overlap. The tiers:
//   quick  seconds in all: `ctest -L quick`, the check to run while editing;
//   full   the default suite (`bash scripts/test.sh`, what CI runs), with the quick tier;
//   long   larger cross-checks that repeat a full-tier check on a bigger board or with more
//          variants (`bash scripts/test.sh --long` runs every tier).
// The test binary lists each test with its tier (--rushhour_list_tiers) and refuses a test whose
// file declares none, so that no test joins a tier without its file saying so.
#include <string>

namespace test_tier {

enum class Tier { Quick, Full, Long };
inline constexpr Tier tier_quick = Tier::Quick;
inline constexpr Tier tier_full = Tier::Full;
inline constexpr Tier tier_long = Tier::Long;

std::string to_string(Tier tier);

// Records that the tests of `file` whose full name matches `pattern` are of `tier`.
bool declare_tier(const char* file, const char* pattern, Tier tier);

// The tier of a test of `file`; false if the file declares none that matches.
bool tier_of(const std::string& file, const std::string& test_name, Tier& tier);

}  // namespace test_tier

#define RUSHHOUR_TEST_TIER_JOIN2(a, b) a##b
#define RUSHHOUR_TEST_TIER_JOIN(a, b) RUSHHOUR_TEST_TIER_JOIN2(a, b)
#define RUSHHOUR_TEST_TIER_OF(pattern, tier)                                               \
  [[maybe_unused]] static const bool RUSHHOUR_TEST_TIER_JOIN(rushhour_test_tier_, __COUNTER__) = \
      ::test_tier::declare_tier(__FILE__, pattern, ::test_tier::tier_##tier)
#define RUSHHOUR_TEST_TIER(tier) RUSHHOUR_TEST_TIER_OF("*", tier)
