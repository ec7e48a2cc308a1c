// An item's figures as words (encode_item / decode_item), the form in which a forked process
// or an MPI rank hands a solved item to the coordinator: the class draws of --estimate come
// back whole, path included, and words naming no path are refused.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "run/class_sweep.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour::run {
namespace {

ItemFigures figures_with_draws() {
  ItemFigures f;
  f.cpu_seconds = 2.5;
  f.drawn_from = 1u << 30;
  f.class_draws = {{1000, 2, 0.25, ClassPath::Bits}, {40, 1, 0.125, ClassPath::Symbolic}, {7, 1, 0.5, ClassPath::Parts}};
  f.draw_search_seconds = 0.75;
  return f;
}

TEST(ItemWords, ClassDrawsComeBackWithTheirPaths) {
  const ItemFigures f = figures_with_draws();
  const ItemFigures back = decode_item(encode_item(f));
  EXPECT_EQ(back.cpu_seconds, f.cpu_seconds);
  EXPECT_EQ(back.drawn_from, f.drawn_from);
  EXPECT_EQ(back.draw_search_seconds, f.draw_search_seconds);
  EXPECT_TRUE(back.class_draws == f.class_draws);
}

TEST(ItemWords, AWordNamingNoPathIsRefused) {
  std::vector<std::uint64_t> words = encode_item(figures_with_draws());
  // The last draw's path is the word before the draw search's seconds.
  ASSERT_EQ(words[words.size() - 2], static_cast<std::uint64_t>(ClassPath::Parts));
  words[words.size() - 2] = kClassPaths;
  EXPECT_THROW(decode_item(words), std::runtime_error);
}

}  // namespace
}  // namespace rushhour::run
