#include "encoding/slot_encoding.hpp"

#include <gtest/gtest.h>

#include "bdd_test_support.hpp"

#include "board/board_string.hpp"
#include "retrograde/retrograde.hpp"

namespace rushhour {
namespace {

using testing::tiny_table;

struct SanityCase {
  int size;
  std::uint64_t domain;
  std::uint64_t winning;
};

class SlotEncodingSanity
    : public ::testing::TestWithParam<std::tuple<SanityCase, std::string, std::string>> {};

TEST_P(SlotEncodingSanity, DomainAndWinningCountsMatchTheSpec) {
  const auto& [expected, order, line_code] = GetParam();
  BddSession session(0, tiny_table());
  SlotEncoding encoding(session, Rules(expected.size),
                        {.order = order, .line_code = line_code, .clustering = "line"});
  EXPECT_EQ(exact_count(encoding.domain(), encoding.current_variables()), expected.domain);
  EXPECT_EQ(exact_count(encoding.winning(), encoding.current_variables()), expected.winning);
}

INSTANTIATE_TEST_SUITE_P(
    AllOrders, SlotEncodingSanity,
    ::testing::Combine(::testing::Values(SanityCase{4, 13146, 4592},
                                         SanityCase{5, 10492784, 3008028}),
                       ::testing::ValuesIn(SlotEncodingOptions::orders()),
                       ::testing::ValuesIn(SlotEncodingOptions::line_codes())));

// On 6x6 only the interleaved order builds the legal set in seconds (rows-columns needs
// ~21 M nodes and about a minute; see results/ for the order table).
INSTANTIATE_TEST_SUITE_P(
    Interleaved6x6, SlotEncodingSanity,
    ::testing::Combine(::testing::Values(SanityCase{6, 40148868698, 10275383941}),
                       ::testing::Values("interleaved"),
                       ::testing::ValuesIn(SlotEncodingOptions::line_codes())));

TEST(SlotEncoding, CommercialSetCountsMatchTheSpec) {
  BddSession session(0, BddSettings{});
  SlotEncoding encoding(session, Rules(6, -1, Metric::Step, {.max_cars = 12, .max_trucks = 4}),
                        SlotEncodingOptions{});
  EXPECT_EQ(exact_count(encoding.domain(), encoding.current_variables()), 36330223056u);
  EXPECT_EQ(exact_count(encoding.winning(), encoding.current_variables()), 9328767996u);
}

TEST(SlotEncoding, EncodeDecodeRoundTripsABoard) {
  BddSession session(0, tiny_table());
  const Rules rules(6);
  SlotEncoding encoding(session, rules, SlotEncodingOptions{});
  const Board board = parse_board(
      "BBoooC"
      "DoEooC"
      "DoEAAC"
      "FFFoGo"
      "ooHoGo"
      "ooHIIo",
      rules);
  const bdd minterm = encoding.encode(board);
  EXPECT_EQ(exact_count(minterm, encoding.current_variables()), 1u);
  EXPECT_TRUE((minterm & !encoding.domain()) == bddfalse);
  EXPECT_EQ(encoding.decode_one(minterm), board);
}

}  // namespace
}  // namespace rushhour
