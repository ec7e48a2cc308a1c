// Walls in the board model: board strings, the rules and their codec, the domain rules of the
// puzzle domain, board keys and the slides on them.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "board/key_graph.hpp"
#include "board/rules_codec.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

const Rules kFourWalls(4, -1, Metric::Step, {}, Domain::All, {0, 2});

std::uint64_t cell_bit(int row, int col, int n) { return std::uint64_t{1} << (row * n + col); }

TEST(Walls, BoardStringsReadAndWriteThem) {
  const Board board = parse_board(
      "xoBC"
      "AABC"
      "ooDD"
      "oxEE",
      kFourWalls);
  EXPECT_EQ(board.walls(), cell_bit(0, 0, 4) | cell_bit(3, 1, 4));
  EXPECT_EQ(board.wall_count(), 2);
  EXPECT_EQ(board.vehicles().size(), 5u);
  EXPECT_EQ(to_board_string(kFourWalls, board), "xoBCAABCooDDoxEE");
  EXPECT_EQ(to_grid(kFourWalls, board), "xoBC\nAABC <exit\nooDD\noxEE\n");
  EXPECT_EQ(parse_board(to_grid(kFourWalls, board), kFourWalls), board);
  // The same vehicles without the walls are another configuration.
  EXPECT_NE(parse_board("ooBCAABCooDDooEE", kFourWalls), board);
}

TEST(Walls, AreRefusedBeyondTheRulesWallRange) {
  const Rules no_walls(4);
  try {
    parse_board("xoBCAABCooDDooEE", no_walls);
    FAIL() << "a wall was accepted by rules without walls";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("wall 'x' at row 0, column 0, but these rules have no walls"), std::string::npos) << error.what();
  }
  const Rules one_wall(4, -1, Metric::Step, {}, Domain::All, {0, 1});
  try {
    parse_board("xoBCAABCooDDoxEE", one_wall);
    FAIL() << "two walls were accepted by rules with at most one";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("2 walls, outside the wall range"), std::string::npos) << error.what();
  }
  EXPECT_NO_THROW(parse_board("xoBCAABCooDDooEE", one_wall));
  const Rules exactly_one(4, -1, Metric::Step, {}, Domain::All, {1, 1});
  EXPECT_THROW(parse_board("ooBCAABCooDDooEE", exactly_one), InputError);
}

TEST(Walls, BoardRefusesAVehicleOnAWallAndAWallOffTheBoard) {
  const std::vector<Vehicle> target{{1, 0, Orientation::Horizontal, kCar}};
  EXPECT_THROW(Board(4, target, cell_bit(1, 1, 4)), InputError);
  EXPECT_THROW(Board(4, target, std::uint64_t{1} << 16), InputError);
  EXPECT_NO_THROW(Board(4, target, cell_bit(1, 3, 4)));
}

TEST(Walls, RangesParseAndRulesRefuseEmptyOrOverfullRanges) {
  EXPECT_EQ(parse_wall_range("2"), (WallRange{0, 2}));
  EXPECT_EQ(parse_wall_range("1-2"), (WallRange{1, 2}));
  EXPECT_EQ(parse_wall_range("0"), WallRange{});
  for (const char* bad : {"3-1", "", "-1", "a", "1-", "1-2-3", "1.5", "99999"})
    EXPECT_THROW(parse_wall_range(bad), InputError) << bad;
  EXPECT_THROW(Rules(4, -1, Metric::Step, {}, Domain::All, {0, 15}), InputError);
  EXPECT_NO_THROW(Rules(4, -1, Metric::Step, {}, Domain::All, {0, 14}));
  EXPECT_THROW(Rules(4, -1, Metric::Step, {}, Domain::All, {2, 1}), InputError);
  EXPECT_EQ(Rules(4, -1, Metric::Step, {}, Domain::All, {0, 1}).describe(),
            "4x4, exit row 1, step metric, up to 1 wall, no vehicle limits");
  EXPECT_EQ(Rules(5, -1, Metric::Move, {}, Domain::Puzzle, {1, 2}).describe(),
            "5x5, exit row 2, move metric, puzzle domain, 1-2 walls, no vehicle limits");
}

// The text form names the wall range only when there are walls, so that the identity of every
// run without walls stays what it was, and reads back to the same rules.
TEST(Walls, RulesTextCarriesTheWallRange) {
  EXPECT_EQ(rules_text(Rules(4)), "size=4 exit_row=1 metric=step max_cars=-1 max_trucks=-1 max_vehicles=-1");
  const Rules walled(5, 0, Metric::Move, {3, 1, -1}, Domain::Puzzle, {1, 2});
  const std::string text = rules_text(walled);
  EXPECT_EQ(text, "size=5 exit_row=0 metric=move max_cars=3 max_trucks=1 max_vehicles=-1 domain=puzzle walls=1-2");
  EXPECT_EQ(rules_from_fields(parse_text_fields(text), "here"), walled);
  EXPECT_NE(rules_from_fields(parse_text_fields(rules_text(Rules(5, 0, Metric::Move, {3, 1, -1}, Domain::Puzzle))),
                              "here"),
            walled);
  EXPECT_THROW(rules_from_fields(parse_text_fields(text + " walls=2-1"), "here"), InputError);
}

// The puzzle domain follows the public database's enumerator: a row's walls count towards
// filling it, a column's do not, and no wall lies right of the target.
TEST(Walls, PuzzleDomainCountsWallsInRowsOnly) {
  const Rules puzzle(4, -1, Metric::Step, {}, Domain::Puzzle, {0, 2});
  EXPECT_TRUE(in_domain(puzzle, parse_board("ooooAAooooooxooo", puzzle)));
  // Row 0 filled by a truck and a wall.
  EXPECT_THROW(parse_board("BBBxAAoooooooooo", puzzle), InputError);
  EXPECT_NO_THROW(parse_board("BBBxAAoooooooooo", Rules(4, -1, Metric::Step, {}, Domain::All, {0, 2})));
  // Column 0 holds a vertical truck and a wall: four cells, but walls do not count in columns.
  EXPECT_NO_THROW(parse_board("BoooBAAoBoooxooo", puzzle));
  // A wall right of the target in the exit row.
  try {
    parse_board("ooooAAoxoooooooo", puzzle);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("right of the target"), std::string::npos) << error.what();
  }
  // Left of it is allowed.
  EXPECT_NO_THROW(parse_board("ooooxAAooooooooo", puzzle));
}

// A key keeps the walls (first & ~occupied), reads back to the same board, and the slides on
// keys are exactly the legal moves of the board: no vehicle enters or crosses a wall.
TEST(Walls, KeysKeepWallsAndSlidesStopAtThem) {
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const Rules rules = kFourWalls.with_metric(metric);
    for (const char* text : {"xoBCAABCooDDoxEE", "BoooBAAxooooxCCo", "ooooxAAooBxooBoo", "BxooBAAoBooooCCx"}) {
      SCOPED_TRACE(text);
      const Board board = parse_board(text, rules);
      const BoardKey key = board.key();
      EXPECT_EQ(key.first & ~key.occupied, board.walls());
      EXPECT_EQ(board_of_key(key, 4), board);
      std::set<Board> by_key, by_board;
      for_each_slide(key, 4, metric, [&](const BoardKey& next) { by_key.insert(board_of_key(next, 4)); });
      for (const Board& next : neighbours(metric, board)) {
        EXPECT_EQ(next.walls(), board.walls());
        EXPECT_EQ(next.occupied() & next.walls(), 0u);
        by_board.insert(next);
      }
      EXPECT_EQ(by_key, by_board);
      EXPECT_FALSE(by_board.empty());
    }
  }
  // The target's only way out is through the wall: no move of it to the right.
  const Board blocked = parse_board("ooooAAxooooooooo", kFourWalls);
  for (const Move& move : legal_moves(Metric::Move, blocked)) EXPECT_LT(move.delta, 0);
}

// Boards that differ in their walls only never share a kind signature: they never meet.
TEST(Walls, KindSignatureSeparatesWallPlacements) {
  const Board a = parse_board("xoooAAoooooooooo", kFourWalls);
  const Board b = parse_board("oxooAAoooooooooo", kFourWalls);
  EXPECT_NE(kind_signature(a.key(), 4), kind_signature(b.key(), 4));
  EXPECT_EQ(kind_signature(a.key(), 4), kind_signature(parse_board("xoooooAAoooooooo", kFourWalls).key(), 4));
}

}  // namespace
}  // namespace rushhour
