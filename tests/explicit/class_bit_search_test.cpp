// ClassBitSearch against ClassSearch on every class of 4x4 boards (both metrics, and with a
// wall) and of a sample of 5x5 items: the same states in each layer (their keys), the same
// components of the solvable states (how many; per highest index, how many and their states
// of that index), several components a class included (5x5).
#include "explicit/class_bit_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <utility>
#include <string>
#include <vector>

#include "explicit/class_search.hpp"
#include "numbered_class.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour::class_engine {
namespace {

using Layers = std::vector<std::vector<SampleKey>>;  // per index, its states' keys, ascending

struct Searched {
  Layers layers;
  std::size_t components = 0;
  // Per highest index of a component: the components, and their states of that index.
  std::map<int, std::pair<std::uint64_t, std::uint64_t>> tops;
};

Searched state_by_state(ClassNumbering<NarrowNumbering>& numbering, std::uint64_t states, Metric metric) {
  ClassSearch<NarrowNumbering> search;
  Searched got;
  const std::size_t solvable = search.run(numbering, states, metric, [&](int, std::size_t first, std::size_t end) {
    std::vector<SampleKey>& keys = got.layers.emplace_back();
    for (std::size_t q = first; q < end; ++q) keys.push_back(numbering.key_of(search.queued(q)));
    std::sort(keys.begin(), keys.end());
  });
  for (std::size_t q = 0; q < solvable; ++q) {
    const std::uint32_t s = search.queued(q).state, r = search.root(s);
    if (r == s) {
      ++got.components;
      ++got.tops[search.top(r)].first;
    }
    if (search.index(s) == search.top(r)) ++got.tops[search.top(r)].second;
  }
  return got;
}

Searched on_bits(ClassNumbering<NarrowNumbering>& numbering, Metric metric) {
  ClassBitSearch<NarrowNumbering> search;
  Searched got;
  search.prepare(numbering, metric);
  got.components = search.solvable_components(numbering);
  search.run([&](int index, std::uint64_t count, const std::vector<std::uint64_t>& layer) {
    EXPECT_EQ(static_cast<std::size_t>(index), got.layers.size());
    search.note_components(index, layer);
    std::vector<SampleKey>& keys = got.layers.emplace_back();
    search.for_each_state(layer, [&](const Item& item) { keys.push_back(numbering.key_of(item)); });
    EXPECT_EQ(keys.size(), count);
    std::sort(keys.begin(), keys.end());
  });
  search.for_each_component([&](int top, std::uint64_t states) {
    ++got.tops[top].first;
    got.tops[top].second += states;
  });
  return got;
}

struct Boards {
  Rules rules;
  std::uint64_t item_stride;  // every item_stride-th work item, all of its classes
  std::size_t least_several = 0;  // classes of several components at least
};

class EveryClass : public ::testing::TestWithParam<Boards> {};

TEST_P(EveryClass, HasTheLayersAndComponentsOfTheSearchStateByState) {
  const auto& [rules, stride, least_several] = GetParam();
  test_support::NumberedClasses classes(rules);
  const LineTables& t = classes.tables();
  std::vector<int> column_groups;
  for (int g = 0; g < t.groups; ++g)
    if (t.line_ok[static_cast<std::size_t>(g)]) column_groups.push_back(g);
  std::size_t searched = 0, several_components = 0;
  const std::uint64_t items = work_items(t);
  for (std::uint64_t item = 0; item < items; item += stride) {
    if (!classes.take_item(item)) continue;
    std::array<std::size_t, kMaxN> pick{};
    while (true) {
      std::array<int, kMaxN> column_group{};
      for (int j = 0; j < t.n; ++j) column_group[static_cast<std::size_t>(j)] = column_groups[pick[static_cast<std::size_t>(j)]];
      if (const std::uint64_t states = classes.number(column_group); states > 0) {
        const Searched expected = state_by_state(classes.numbering(), states, rules.metric());
        const Searched got = on_bits(classes.numbering(), rules.metric());
        ASSERT_EQ(got.layers, expected.layers) << "item " << item;
        ASSERT_EQ(got.components, expected.components) << "item " << item;
        ASSERT_EQ(got.tops, expected.tops) << "item " << item;
        ++searched;
        if (expected.components > 1) ++several_components;
      }
      int j = t.n - 1;
      for (; j >= 0; --j) {
        if (++pick[static_cast<std::size_t>(j)] < column_groups.size()) break;
        pick[static_cast<std::size_t>(j)] = 0;
      }
      if (j < 0) break;
    }
  }
  EXPECT_GT(searched, 300u);
  EXPECT_GE(several_components, least_several);
}

INSTANTIATE_TEST_SUITE_P(SmallBoards, EveryClass,
                         ::testing::Values(Boards{Rules(4), 1}, Boards{Rules(4, -1, Metric::Move), 1},
                                           Boards{Rules(4, -1, Metric::Step, {}, Domain::All, WallRange{1, 1}), 3},
                                           Boards{Rules(5), 97, 10}, Boards{Rules(5, -1, Metric::Move), 101, 10}),
                         [](const ::testing::TestParamInfo<Boards>& board) {
                           const Rules& rules = board.param.rules;
                           std::string name = std::to_string(rules.size()) + "x" + std::to_string(rules.size()) + "_" + to_string(rules.metric());
                           if (!rules.walls().none()) name += "_wall";
                           return name;
                         });

}  // namespace
}  // namespace rushhour::class_engine
