// Sample keys decoded to a board key directly, against the board they decode to.
#include <gtest/gtest.h>

#include <random>

#include "board/errors.hpp"
#include "board/rules.hpp"
#include "explicit/sample_keys.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

TEST(SampleKeys, BoardKeyOfAKeyIsTheKeyOfItsBoard) {
  for (const int n : {4, 5, 6}) {
    const LineTable lines(n);
    const int bits = sample_key_bits(lines);
    const std::vector<std::uint64_t> placements = wall_placements(n, WallRange{0, 2});
    std::mt19937_64 random(static_cast<std::uint64_t>(n));
    int boards = 0;
    // Random boards: a wall placement, then each row's arrangement on cells the walls leave, then
    // each column's on cells the rows and walls leave.
    const auto cells_of = [&](int a, int line) {  // line < n: row line; else column line - n
      std::uint64_t cells = 0;
      for (int k = 0; k < n; ++k)
        if (lines[a].occupied >> k & 1) cells |= std::uint64_t{1} << (line < n ? line * n + k : k * n + (line - n));
      return cells;
    };
    for (int draw = 0; draw < 2000; ++draw) {
      const std::size_t placement = random() % placements.size();
      std::uint64_t taken = placements[placement];
      SampleKey key = placement;
      for (int line = 0; line < 2 * n; ++line) {
        int a = 0;
        for (int tries = 0; tries < 8; ++tries) {
          const int candidate = static_cast<int>(random() % static_cast<std::uint64_t>(lines.size()));
          if ((cells_of(candidate, line) & taken) == 0) {
            a = candidate;
            break;
          }
        }
        taken |= cells_of(a, line);
        key = key << bits | static_cast<SampleKey>(a);
      }
      const Board board = board_of_sample_key(lines, bits, placements, key);
      boards += board.vehicles().size() > 2 && board.walls() != 0;
      const BoardKey expected = board.key();
      const BoardKey direct = board_key_of_sample_key(lines, bits, placements, key);
      ASSERT_EQ(direct.first, expected.first) << to_string(key);
      ASSERT_EQ(direct.horizontal, expected.horizontal) << to_string(key);
      ASSERT_EQ(direct.occupied, expected.occupied) << to_string(key);
    }
    EXPECT_GT(boards, 100) << n;  // many draws hold several vehicles and walls
  }
}

TEST(SampleKeys, BoardKeyOfAKeyRefusesAKeyOfNoBoard) {
  const LineTable lines(4);
  const int bits = sample_key_bits(lines);
  const std::vector<std::uint64_t> placements = wall_placements(4, WallRange{0, 1});
  EXPECT_THROW(board_key_of_sample_key(lines, bits, placements, SampleKey{placements.size()} << (8 * bits)),
               InputError);
}

}  // namespace
}  // namespace rushhour
