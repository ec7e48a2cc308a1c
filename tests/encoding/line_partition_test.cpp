// Parts of the domain by line kind sequences: the parts of each partition, and the slot
// encoding of one part against the explicit engine (every board of a part's layers is a board
// of that part with that index; the parts' domains add up to the domain).
#include "encoding/line_partition.hpp"

#include <gtest/gtest.h>

#include "bdd_test_support.hpp"
#include "board/board_string.hpp"
#include "encoding/slot_encoding.hpp"
#include "explicit/counting.hpp"
#include "symbolic_check_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);
RUSHHOUR_TEST_TIER_OF("LinePartition.PartsOfEachGranularity", full);

namespace rushhour {
namespace {

TEST(LinePartition, KindSequencesOfALine) {
  EXPECT_EQ(kind_sequences(LineTable(4)).size(), 4u);  // -, c, t, cc
  EXPECT_EQ(kind_sequences(LineTable(5)).size(), 6u);  // -, c, t, cc, ct, tc
  EXPECT_EQ(kind_sequences(LineTable(6)).size(), 8u);  // and tt, ccc
  EXPECT_TRUE(kind_sequences(LineTable(6)).front().empty());
}

TEST(LinePartition, PartsOfEachGranularity) {
  const Rules rules(6);
  EXPECT_EQ(parts_of(parse_partition("none", rules), rules).size(), 1u);
  // The exit row ends in a car: c, cc, tc, ccc.
  EXPECT_EQ(parts_of(parse_partition("exit-row", rules), rules).size(), 4u);
  EXPECT_EQ(parts_of(parse_partition("rows", rules), rules).size(), 4u * 8 * 8 * 8 * 8 * 8);
  EXPECT_EQ(parts_of(parse_partition("rows+1", rules), rules).size(), 4u * 8 * 8 * 8 * 8 * 8 * 8);
  // Limits prune parts whose fixed lines alone hold too many vehicles.
  const Rules limited(6, -1, Metric::Step, {.max_vehicles = 1});
  EXPECT_EQ(parts_of(parse_partition("rows", limited), limited).size(), 1u);  // the target alone
  for (const char* bad : {"row", "rows+0", "rows+7", "rows+", "rows+12", "exit"})
    EXPECT_THROW(parse_partition(bad, rules), InputError) << bad;
}

TEST(LinePartition, NamedLines) {
  const Rules rules(6);
  const Partition partition = parse_partition("lines:R3,C0,R2", rules);
  EXPECT_EQ(partition.lines, (std::vector<int>{2, 3, 6}));
  EXPECT_EQ(partition.name, "lines:R2,R3,C0");  // one name whatever the order given
  // The exit row (R2) ends in a car: 4 choices; R3 and C0 hold any of 8 kind sequences.
  EXPECT_EQ(parts_of(partition, rules).size(), 4u * 8 * 8);
  EXPECT_EQ(parse_partition("lines:R0,R1,R2,R3,R4,R5", rules).lines, parse_partition("rows", rules).lines);
  for (const char* bad : {"lines:", "lines:R6", "lines:C9", "lines:R2,R2", "lines:X1", "lines:R", "lines:R12",
                          "lines:R1,", "lines:r1"})
    EXPECT_THROW(parse_partition(bad, rules), InputError) << bad;
}

TEST(LinePartition, ABoardLiesInItsPart) {
  const Rules rules(6);
  const Board board = parse_board(
      "ooBCoo\n"
      "ooBCoo\n"
      "DDDAAo\n"
      "oEEoFF\n"
      "ooGGoo\n"
      "oooooo\n",
      rules);
  const DomainPart part = part_of(parse_partition("rows+2", rules), board);
  EXPECT_EQ(part.name(6), "R0=-,R1=-,R2=tc,R3=cc,R4=c,R5=-,C0=-,C1=-");
  EXPECT_TRUE(part.contains(board));
  DomainPart other = part;
  other.sequences[2] = {kCar};
  EXPECT_FALSE(other.contains(board));
  EXPECT_EQ(*part.fixed(3), (KindSequence{kCar, kCar}));
  EXPECT_EQ(part.fixed(9), nullptr);
}

// Every part's encoding: its sets hold exactly the part's boards, its layers are the explicit
// engine's layers restricted to the part, and the parts' domains add up to the domain.
TEST(LinePartition, EachPartEncodesExactlyItsBoards) {
  for (const Rules& rules : {Rules(4, -1, Metric::Step), Rules(4, 0, Metric::Move)}) {
    const ExplicitSolution solution = ExplicitSolution::solve(rules);
    for (const char* name : {"exit-row", "rows", "rows+2", "lines:R1,C2,C3"}) {
      const Partition partition = parse_partition(name, rules);
      Count domain = 0;
      Count winning = 0;
      for (const DomainPart& part : parts_of(partition, rules)) {
        BddSession session(0, test_support::tiny_table());
        const SlotEncoding encoding(session, rules, SlotEncodingOptions{}, part);
        domain += encoding.domain().count();
        winning += encoding.winning().count();
        encoding.for_each_board(encoding.domain().states(), [&](const Board& board) {
          EXPECT_TRUE(part.contains(board)) << to_board_string(rules, board);
          EXPECT_TRUE(encoding.encode(board) != bddfalse);
          EXPECT_EQ(part_of(partition, board), part);
          return true;
        });
        RetrogradeOptions options;
        options.dominance = false;
        const SymbolicRun run = classify_symbolic(encoding, session, options);
        for (std::size_t i = 0; i < run.layers.size(); ++i)
          encoding.for_each_board(run.layers[i], [&](const Board& board) {
            const auto state = solution.find(board);
            EXPECT_TRUE(state && solution.index(*state) == static_cast<int>(i))
                << to_board_string(rules, board) << " in layer " << i;
            return true;
          });
      }
      const PlacementCounts counts = count_placements(rules);
      EXPECT_EQ(domain, counts.domain) << name;
      EXPECT_EQ(winning, counts.winning) << name;
    }
  }
}

// The explicit engine's key: the lines' arrangement indices, rows then columns, first row
// most significant.
std::uint64_t key_of(const Board& board) {
  const LineTable table(board.size());
  std::uint64_t key = 0;
  for (const std::vector<Segment>& segments : line_segments(board))
    key = key << bits_for(table.size()) | static_cast<std::uint64_t>(table.find(segments));
  return key;
}

TEST(LinePartition, LeastBoardsFollowTheExplicitKeys) {
  const Rules rules(4);
  BddSession session(0, test_support::tiny_table());
  const SlotEncoding encoding(session, rules, SlotEncodingOptions{});
  std::vector<std::uint64_t> keys;
  for (const Board& board : encoding.least_boards(encoding.winning().states(), 6))
    keys.push_back(key_of(board));
  ASSERT_EQ(keys.size(), 6u);
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  // Nothing of the set lies below the first key or between the keys found.
  std::uint64_t below = 0;
  encoding.for_each_board(encoding.winning().states(), [&](const Board& board) {
    if (key_of(board) <= keys.back()) ++below;
    return true;
  });
  EXPECT_EQ(below, 6u);
}

}  // namespace
}  // namespace rushhour
