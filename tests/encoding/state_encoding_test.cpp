// What both state encodings must give alike: the SPEC counts of the commercial set, the
// exact round trip of a board through encode and decode_one, and walls as state.
#include "encoding/state_encoding.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "bdd_test_support.hpp"
#include "board/board_string.hpp"
#include "encoding/cell_encoding.hpp"
#include "encoding/slot_encoding.hpp"
#include "explicit/counting.hpp"
#include "symbolic_check_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);

namespace rushhour {
namespace {

using test_support::tiny_table;

template <class Encoding>
struct Layouts;

template <>
struct Layouts<SlotEncoding> {
  using Options = SlotEncodingOptions;
  // Only the interleaved order builds a 6x6 legal set in seconds (rows-columns needs ~21 M
  // nodes and about a minute).
  static std::vector<Options> on_6x6() { return {Options{}}; }
};

template <>
struct Layouts<CellEncoding> {
  using Options = CellEncodingOptions;
  static std::vector<Options> on_6x6() {
    std::vector<Options> layouts;
    for (const std::string& order : Options::orders()) layouts.push_back({.order = order});
    return layouts;
  }
};

template <class Encoding>
class StateEncodingTest : public ::testing::Test {};

using Encodings = ::testing::Types<SlotEncoding, CellEncoding>;
TYPED_TEST_SUITE(StateEncodingTest, Encodings);

TYPED_TEST(StateEncodingTest, CommercialSetCountsMatchTheSpec) {
  BddSession session(0, BddSettings{});
  const TypeParam encoding(session, Rules(6, -1, Metric::Step, {.max_cars = 12, .max_trucks = 4}),
                           typename Layouts<TypeParam>::Options{});
  EXPECT_EQ(encoding.domain().count(), 36330223056u);
  EXPECT_EQ(encoding.winning().count(), 9328767996u);
  EXPECT_EQ(encoding.unlimited_winning().count(),
            10275383941u);
}

TYPED_TEST(StateEncodingTest, EncodeDecodeRoundTripsABoard) {
  BddSession session(0, tiny_table());
  const Rules rules(6);
  const Board board = parse_board(
      "BBoooC"
      "DoEooC"
      "DoEAAC"
      "FFFoGo"
      "ooHoGo"
      "ooHIIo",
      rules);
  for (const auto& layout : Layouts<TypeParam>::on_6x6()) {
    const TypeParam encoding(session, rules, layout);
    const bdd minterm = encoding.encode(board);
    EXPECT_EQ(encoding.state_set(minterm).count(), 1u);
    EXPECT_TRUE((minterm & !encoding.domain().states()) == bddfalse);
    EXPECT_EQ(encoding.decode_one(minterm), board);
  }
}

TYPED_TEST(StateEncodingTest, EncodeDecodeRoundTripsAWalledBoard) {
  BddSession session(0, tiny_table());
  const Rules rules(5, -1, Metric::Step, {}, Domain::All, {0, 2});
  const Board board = parse_board(
      "BBxoC"
      "DoooC"
      "DAAoC"
      "EEEoF"
      "xoooF",
      rules);
  ASSERT_EQ(board.wall_count(), 2);
  for (const auto& layout : Layouts<TypeParam>::on_6x6()) {
    const TypeParam encoding(session, rules, layout);
    const bdd minterm = encoding.encode(board);
    EXPECT_EQ(encoding.state_set(minterm).count(), 1u);
    EXPECT_TRUE((minterm & !encoding.domain().states()) == bddfalse);
    EXPECT_TRUE((minterm & !encoding.wall_count_is(2)) == bddfalse);
    EXPECT_EQ(encoding.decode_one(minterm), board);
  }
}

// Walls are state that moves keep: every minterm of every 4x4 layer is a board of the explicit
// engine's domain with that index and its walls (both metrics, up to two walls).
TYPED_TEST(StateEncodingTest, WalledLayersAreTheExplicitLayers) {
  for (Metric metric : {Metric::Step, Metric::Move}) {
    BddSession session(0, tiny_table());
    const TypeParam encoding(session, Rules(4, -1, metric, {}, Domain::All, {0, 2}),
                             typename Layouts<TypeParam>::Options{});
    test_support::expect_layers_are_the_explicit_layers(encoding, session);
  }
}

// The number of walls is part of the state: the domain splits by it, each share as the
// exact counter has it.
TYPED_TEST(StateEncodingTest, WallCountsSplitTheDomainAsTheCounterDoes) {
  BddSession session(0, tiny_table());
  const Rules rules(5, -1, Metric::Step, {}, Domain::All, {0, 2});
  const TypeParam encoding(session, rules, typename Layouts<TypeParam>::Options{});
  std::vector<PlacementCounts> by_walls;
  EXPECT_EQ(encoding.domain().count(), count_placements(rules, &by_walls).domain);
  ASSERT_EQ(by_walls.size(), 3u);
  for (int walls = 0; walls <= 2; ++walls)
    EXPECT_EQ(encoding.state_set(encoding.domain().states() & encoding.wall_count_is(walls)).count(),
              by_walls[static_cast<std::size_t>(walls)].domain)
        << walls << " walls";
  EXPECT_TRUE((encoding.domain().states() & encoding.wall_count_is(3)) == bddfalse);
}

}  // namespace
}  // namespace rushhour
