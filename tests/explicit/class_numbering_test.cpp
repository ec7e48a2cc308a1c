// ClassNumbering::split on hand-made 4x4 classes: a class whose vehicles never meet splits into
// parts whose slices multiply to the class, each slice listed in ascending states with the
// other parts as in state 0; a class whose lines all meet does not split. combination_state
// against a plain dot product, up to the largest strides of either numbering.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <vector>

#include "explicit/class_lines.hpp"
#include "explicit/class_numbering.hpp"
#include "explicit/class_rows.hpp"
#include "numbered_class.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour::class_engine {
namespace {

// The class of a 4x4 board whose rows and columns hold the kind sequences given (vehicle
// lengths along each line), numbered.
class HandMadeClass {
 public:
  HandMadeClass(const std::vector<std::vector<int>>& row_lengths, const std::vector<std::vector<int>>& column_lengths) {
    std::uint64_t item = 0;
    for (const auto& lengths : row_lengths)
      item = item * static_cast<std::uint64_t>(classes_.tables().groups) + static_cast<std::uint64_t>(group(lengths));
    EXPECT_TRUE(classes_.take_item(item));
    std::array<int, kMaxN> column_group{};
    for (std::size_t j = 0; j < column_lengths.size(); ++j) column_group[j] = group(column_lengths[j]);
    states_ = classes_.number(column_group);
  }

  ClassNumbering<NarrowNumbering>& numbering() { return classes_.numbering(); }
  std::uint64_t states() const { return states_; }

 private:
  int group(const std::vector<int>& lengths) const {
    const int g = classes_.group_of_lengths(lengths);
    EXPECT_GE(g, 0) << "no kind sequence of that length";
    return std::max(g, 0);
  }

  test_support::NumberedClasses classes_{Rules(4)};  // exit row 1
  std::uint64_t states_ = 0;
};

std::vector<std::uint32_t> slice(ClassNumbering<NarrowNumbering>& numbering, LineSet lines) {
  std::vector<std::uint32_t> states;
  numbering.for_each_slice_state(lines, false, [&](const Item& item) { states.push_back(item.state); });
  return states;
}

TEST(ClassNumberingSplit, VehiclesThatNeverMeetMakeAProductOfParts) {
  // The target car in row 1, a car in row 3, a truck in row 0 and a vertical car in column 3,
  // which can reach every row: one part. Without the column's car and the truck, row 3's car
  // never meets the target: two parts of three positions each.
  HandMadeClass meeting({{3}, {2}, {}, {2}}, {{}, {}, {}, {2}});
  EXPECT_FALSE(meeting.numbering().split());
  EXPECT_TRUE(meeting.numbering().parts().empty());

  HandMadeClass apart({{}, {2}, {}, {2}}, {{}, {}, {}, {}});
  ClassNumbering<NarrowNumbering>& numbering = apart.numbering();
  ASSERT_EQ(apart.states(), 9u);
  ASSERT_TRUE(numbering.split());
  const LineSet row1 = 1u << 1, row3 = 1u << 3;
  ASSERT_EQ(numbering.parts(), (std::vector<LineSet>{row1, row3}));
  EXPECT_EQ(numbering.slice_states(row1), 3u);
  EXPECT_EQ(numbering.slice_states(row3), 3u);
  const std::vector<std::uint32_t> main_slice = slice(numbering, row1), rest_slice = slice(numbering, row3);
  EXPECT_EQ(main_slice.size(), 3u);
  EXPECT_EQ(rest_slice.size(), 3u);
  EXPECT_TRUE(std::is_sorted(main_slice.begin(), main_slice.end()));
  EXPECT_TRUE(std::is_sorted(rest_slice.begin(), rest_slice.end()));
  // State 0 lies in both slices; they share nothing else.
  EXPECT_EQ(main_slice.front(), 0u);
  EXPECT_EQ(rest_slice.front(), 0u);
  std::vector<std::uint32_t> shared;
  std::set_intersection(main_slice.begin(), main_slice.end(), rest_slice.begin(), rest_slice.end(), std::back_inserter(shared));
  EXPECT_EQ(shared, std::vector<std::uint32_t>{0});
  // In use after the split: the main part only, so the winning states listed are the main
  // slice's (the target car at the exit, row 3's car as in state 0).
  std::vector<std::uint32_t> winning;
  numbering.for_each_winning_state([&](const Item& item) { winning.push_back(item.state); });
  EXPECT_EQ(winning.size(), 1u);
  // Row 3's car slides along its row, never out of its slice; a neighbour's place in the
  // slice is where its entry's slice states start, plus its slice_position.
  numbering.use_lines(row3);
  std::vector<Item> rest_items;
  numbering.for_each_slice_state(row3, false, [&](const Item& item) { rest_items.push_back(item); });
  int neighbours = 0;
  for (const Item& item : rest_items)
    numbering.for_each_neighbour(item, Metric::Step, Slides::All, [&](const Item& to) {
      ++neighbours;
      const auto at = std::lower_bound(rest_slice.begin(), rest_slice.end(), to.state);
      ASSERT_TRUE(at != rest_slice.end() && *at == to.state) << to.state;
      const auto first_of_entry = std::find_if(rest_items.begin(), rest_items.end(),
                                               [&](const Item& other) { return other.entry == to.entry; });
      EXPECT_EQ(static_cast<std::ptrdiff_t>(numbering.slice_position(to)),
                (at - rest_slice.begin()) - (first_of_entry - rest_items.begin()));
    });
  EXPECT_EQ(neighbours, 4);  // the middle position has two, the ends one each
  numbering.use_lines(kEveryLine);
  std::vector<std::uint32_t> every_winning;
  numbering.for_each_winning_state([&](const Item& item) { every_winning.push_back(item.state); });
  EXPECT_EQ(every_winning.size(), 3u);
}

TEST(ClassNumberingSplit, LinesThatNeverMoveBelongToNoPart) {
  // Two cars fill row 3: it never moves, so it meets nothing and is in no part.
  HandMadeClass filled({{}, {2}, {}, {2, 2}}, {{}, {}, {}, {}});
  ASSERT_EQ(filled.states(), 3u);
  EXPECT_FALSE(filled.numbering().split());
  EXPECT_TRUE(filled.numbering().parts().empty());
}

// A row combination's state number from its digits, as the search takes it (vector lanes),
// equals the plain dot product: in the narrow numbering up to 6^6 states (n = 6), in the wide
// one up to 15^8 (n = 8, strides up to 15^7).
template <class Numbering>
void expect_plain_dot_product(int n, int radix) {
  std::mt19937_64 random(n * 100 + radix);
  for (int trial = 0; trial < 2000; ++trial) {
    typename Numbering::Lanes stride{};
    std::uint64_t size = 1, digits = 0, expected = 0;
    for (int j = n - 1; j >= 0; --j) {
      const int column_radix = 1 + static_cast<int>(random() % static_cast<std::uint64_t>(radix));
      const std::uint64_t digit = random() % static_cast<std::uint64_t>(column_radix);
      stride[j] = static_cast<typename Numbering::Lane>(size);
      digits |= digit << (kDigitBits * j);
      expected += digit * size;
      size *= static_cast<std::uint64_t>(column_radix);
    }
    ASSERT_LE(size - 1, Numbering::kMaxCombinationStates);
    ASSERT_EQ(combination_state(digits, stride), expected) << "trial " << trial;
  }
}

TEST(CombinationState, EqualsThePlainDotProduct) {
  expect_plain_dot_product<NarrowNumbering>(6, 6);
  expect_plain_dot_product<WideNumbering>(6, 6);
  expect_plain_dot_product<WideNumbering>(7, 10);
  expect_plain_dot_product<WideNumbering>(8, 15);
}

}  // namespace
}  // namespace rushhour::class_engine
