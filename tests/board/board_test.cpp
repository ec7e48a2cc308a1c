#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "board/lines.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

TEST(LineTable, CountsFollowTheTribonacciRecurrence) {
  EXPECT_EQ(LineTable(4).size(), 7);
  EXPECT_EQ(LineTable(5).size(), 13);
  EXPECT_EQ(LineTable(6).size(), 24);
  EXPECT_EQ(LineTable(8).size(), 81);
}

TEST(LineTable, MovesAreReversibleAndStepsSweepOneCell) {
  const LineTable lines(6);
  for (int a = 0; a < lines.size(); ++a) {
    for (const LineMove& move : lines.moves(a)) {
      EXPECT_EQ(std::popcount(move.swept), move.distance);
      EXPECT_EQ(lines[move.to].cars, lines[a].cars);
      EXPECT_EQ(lines[move.to].trucks, lines[a].trucks);
      const auto& back = lines.moves(move.to);
      EXPECT_TRUE(std::any_of(back.begin(), back.end(), [&](const LineMove& m) {
        return m.to == a && m.distance == move.distance;
      }));
    }
  }
}

TEST(Board, RejectsVehiclesOffTheBoardOverlappingOrOfBadLength) {
  EXPECT_THROW(Board(4, {{1, 3, Orientation::Horizontal, kCar}}), InputError);
  EXPECT_THROW(Board(4, {{2, 0, Orientation::Vertical, kTruck}}), InputError);
  EXPECT_THROW(Board(4, {{0, 0, Orientation::Horizontal, 4}}), InputError);
  EXPECT_THROW(
      Board(4, {{0, 0, Orientation::Horizontal, kCar}, {0, 1, Orientation::Vertical, kCar}}),
      InputError);
  EXPECT_THROW(Board(9, {}), InputError);
}

TEST(Board, IsTheSetOfItsVehicles) {
  const Vehicle car{1, 0, Orientation::Horizontal, kCar};
  const Vehicle truck{0, 3, Orientation::Vertical, kTruck};
  const Board board(4, {car, truck});
  EXPECT_EQ(board, Board(4, {truck, car}));
  EXPECT_EQ(board.cars(), 1);
  EXPECT_EQ(board.trucks(), 1);
  EXPECT_EQ(board.occupied(), car.mask(4) | truck.mask(4));
  EXPECT_FALSE(board.is_free(1, 1));
  EXPECT_TRUE(board.is_free(1, 2));
}

TEST(Board, MovedShiftsOneVehicleAlongItsAxis) {
  const Board board = parse_board(
      "oooB"
      "AAoB"
      "oooB"
      "oooo",
      Rules(4));
  // Vehicles are sorted by first cell: 0 is the truck B, 1 the car A.
  EXPECT_EQ(board.moved(0, 1), parse_board("oooo"
                                           "AAoB"
                                           "oooB"
                                           "oooB",
                                           Rules(4)));
  EXPECT_THROW(board.moved(0, -1), InputError);  // off the top
  EXPECT_THROW(board.moved(1, 2), InputError);   // onto the truck
}

}  // namespace
}  // namespace rushhour
