#pragma once
// The explicit engine's classification of a rules value: the reference every other engine's
// figures are checked against, and the check itself (expect_same_figures). ctest runs each test in a process of its own, so the figures
// are cached twice: in the process, and in a file under the build directory
// (RUSHHOUR_TEST_CACHE_DIR) shared by every test process of one build. The cache directory is
// named by the test binary's modification time, so a rebuilt engine never meets figures of
// an older build; older directories are removed.
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "explicit/explicit_engine.hpp"
#include "storage/classification_file.hpp"
#include "storage/run_metadata.hpp"

namespace rushhour::test_support {

inline std::filesystem::path reference_cache_directory() {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path binary = fs::read_symlink("/proc/self/exe", error);
  const auto stamp = error ? 0 : fs::last_write_time(binary, error).time_since_epoch().count();
  const fs::path root(RUSHHOUR_TEST_CACHE_DIR);
  const fs::path directory = root / ("explicit-" + std::to_string(stamp));
  if (!fs::exists(directory, error)) {
    fs::create_directories(directory, error);
    for (fs::directory_iterator it(root, error), end; !error && it != end; it.increment(error))
      if (it->path() != directory) fs::remove_all(it->path(), error);
  }
  return directory;
}

inline const Classification& explicit_figures(const Rules& rules) {
  static std::map<std::string, Classification> cache;
  std::string key = rules.describe();
  for (char& c : key)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const std::filesystem::path file = reference_cache_directory() / (key + ".h5");
  if (std::filesystem::exists(file)) {
    try {
      return cache.emplace(key, read_classification(file)).first->second;
    } catch (const std::exception&) {
      // A damaged cache file is computed again and replaced.
    }
  }
  const Classification& figures = cache.emplace(key, classify_explicit(rules)).first->second;
  try {
    write_classification(file, figures, RunMetadata::current(""));
  } catch (const std::exception&) {
    // Without the file every process computes its own: slower, never wrong.
  }
  return figures;
}

// What expect_same_figures compares besides the counts.
struct SameFigures {
  bool dominance = true;  // non-dominated configurations and components per index
  bool samples = false;   // the sample boards (engines that take the explicit engine's)
};

// `got` is complete and has `expected`'s figures, count by count: domain, winning, solvable,
// unsolvable, every index's count, and what `compare` names.
inline void expect_same_figures(const Classification& got, const Classification& expected,
                                SameFigures compare = {}) {
  EXPECT_TRUE(got.complete);
  EXPECT_EQ(got.domain_count, expected.domain_count);
  EXPECT_EQ(got.winning_count, expected.winning_count);
  EXPECT_EQ(got.solvable_count, expected.solvable_count);
  EXPECT_EQ(got.unsolvable_count, expected.unsolvable_count);
  ASSERT_EQ(got.layers.size(), expected.layers.size());
  for (std::size_t i = 0; i < got.layers.size(); ++i)
    EXPECT_EQ(got.layers[i].count, expected.layers[i].count) << "index " << i;
  if (compare.dominance) {
    EXPECT_EQ(got.nondominated, expected.nondominated);
    EXPECT_EQ(got.components, expected.components);
  }
  if (compare.samples) {
    EXPECT_EQ(got.samples, expected.samples);
  }
}

}  // namespace rushhour::test_support
