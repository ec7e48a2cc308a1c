// The test binary's main: gtest's, plus --rushhour_list_tiers, which prints one line
// "<full test name> <tier>" per test for the build to register each test with ctest under its
// tier's label (tests/support/register_tests.cmake), and fails on a test without a tier.
#include <fnmatch.h>

#include <gtest/gtest.h>

#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "test_tier.hpp"

namespace test_tier {
namespace {

std::map<std::string, std::vector<std::pair<std::string, Tier>>>& declarations() {
  static std::map<std::string, std::vector<std::pair<std::string, Tier>>> by_file;
  return by_file;
}

}  // namespace

std::string to_string(Tier tier) {
  switch (tier) {
    case Tier::Quick: return "quick";
    case Tier::Full: return "full";
    case Tier::Long: return "long";
  }
  return "?";
}

bool declare_tier(const char* file, const char* pattern, Tier tier) {
  declarations()[file].emplace_back(pattern, tier);
  return true;
}

bool tier_of(const std::string& file, const std::string& test_name, Tier& tier) {
  const auto it = declarations().find(file);
  if (it == declarations().end()) return false;
  bool found = false;
  for (const auto& [pattern, declared] : it->second)
    if (fnmatch(pattern.c_str(), test_name.c_str(), 0) == 0) {
      tier = declared;
      found = true;
    }
  return found;
}

}  // namespace test_tier

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rushhour_list_tiers") != 0) continue;
    const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
    int undeclared = 0;
    for (int s = 0; s < unit.total_test_suite_count(); ++s) {
      const ::testing::TestSuite& suite = *unit.GetTestSuite(s);
      for (int t = 0; t < suite.total_test_count(); ++t) {
        const ::testing::TestInfo& test = *suite.GetTestInfo(t);
        const std::string name = std::string(suite.name()) + "." + test.name();
        test_tier::Tier tier;
        if (!test_tier::tier_of(test.file(), name, tier)) {
          std::cerr << test.file() << ": test " << name << " has no tier (RUSHHOUR_TEST_TIER)\n";
          ++undeclared;
          continue;
        }
        std::cout << name << ' ' << test_tier::to_string(tier) << '\n';
      }
    }
    return undeclared == 0 ? 0 : 1;
  }
  return RUN_ALL_TESTS();
}
