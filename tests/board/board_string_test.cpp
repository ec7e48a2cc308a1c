#include "board/board_string.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "board/errors.hpp"
#include "board/game.hpp"
#include "explicit/explicit_engine.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

const Rules k4(4);  // exit row 1
const Rules k6(6);  // exit row 2

// The InputError message of parsing `text`, or "" if it parses.
std::string rejection(const std::string& text, const Rules& rules) {
  try {
    parse_board(text, rules);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Expects `text` to be rejected with a message containing every one of `parts`.
void expect_rejected(const std::string& text, const Rules& rules,
                     std::initializer_list<std::string> parts) {
  const std::string message = rejection(text, rules);
  ASSERT_FALSE(message.empty()) << "accepted:\n" << text;
  for (const std::string& part : parts)
    EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
}

TEST(BoardString, EveryFourByFourConfigurationRoundTrips) {
  const ExplicitSolution domain = ExplicitSolution::solve(k4);
  for (std::size_t s = 0; s < domain.domain_size(); ++s) {
    const Board board = domain.board(s);
    const std::string line = to_board_string(k4, board);
    ASSERT_EQ(parse_board(line, k4), board) << line;
    ASSERT_EQ(parse_board(to_grid(k4, board), k4), board) << to_grid(k4, board);
  }
}

TEST(BoardString, OutputNamesTheTargetAThenLettersInOrderOfFirstAppearance) {
  const Board board = parse_board(
      "ooooZo"
      "ooooZo"
      "qqAAZo"
      "oooooo"
      "QQQoYo"
      "ooooYo",
      k6);
  EXPECT_EQ(to_board_string(k6, board),
            "ooooBo"
            "ooooBo"
            "CCAABo"
            "oooooo"
            "DDDoEo"
            "ooooEo");
  EXPECT_EQ(to_grid(k6, board),
            "ooooBo\n"
            "ooooBo\n"
            "CCAABo <exit\n"
            "oooooo\n"
            "DDDoEo\n"
            "ooooEo\n");
}

TEST(BoardString, AcceptsDotsAndTheMultiLineForm) {
  const Board one_line = parse_board("oooBAAoBoooooCCo", k4);
  EXPECT_EQ(parse_board("...B\n"
                        "AA.B\n"
                        "....\n"
                        ".CC.\n",
                        k4),
            one_line);
  EXPECT_EQ(parse_board("  ...B\r\n  AA.B\r\n  ....\r\n  .CC.", k4), one_line);
  EXPECT_EQ(one_line.cars(), 3);
}

TEST(BoardString, AcceptsLowercaseLetters) {
  const Rules rules(5);
  const Board board = parse_board(
      "ooooo"
      "ooooo"
      "bbAAo"
      "ooooo"
      "zzzoo",
      rules);
  EXPECT_EQ(to_board_string(rules, board),
            "ooooo"
            "ooooo"
            "BBAAo"
            "ooooo"
            "CCCoo");
}

TEST(BoardString, VehicleLettersSkipTheEmptyAndWallSymbols) {
  EXPECT_EQ(vehicle_letter(0), 'B');
  EXPECT_EQ(vehicle_letter(24), 'Z');
  EXPECT_EQ(vehicle_letter(25), 'a');
  std::string all;
  for (int k = 0; k < 49; ++k) all += vehicle_letter(k);
  EXPECT_EQ(all.find('o'), std::string::npos);
  EXPECT_EQ(all.find('x'), std::string::npos);
  EXPECT_EQ(all.find('A'), std::string::npos);
  EXPECT_THROW(vehicle_letter(49), InputError);
}

TEST(BoardStringRejects, WrongLength) {
  expect_rejected("oooBAAoBoooooCC", k4, {"15 characters", "expected 16"});
}

TEST(BoardStringRejects, WrongLineCount) {
  expect_rejected("oooB\nAAoB\noooo\n", k4, {"3 lines", "expected 1 or 4"});
}

TEST(BoardStringRejects, WrongLineLength) {
  expect_rejected("oooB\nAAoB\nooo\noooo\n", k4, {"line 2", "3 characters", "expected 4"});
}

TEST(BoardStringRejects, UnknownCharacter) {
  expect_rejected(
      "oooB"
      "AA#B"
      "oooo"
      "oooo",
      k4, {"unknown character '#'", "row 1, column 2"});
}

TEST(BoardStringRejects, Wall) {
  expect_rejected(
      "oxoB"
      "AAoB"
      "oooo"
      "oooo",
      k4, {"wall 'x'", "row 0, column 1"});
}

TEST(BoardStringRejects, LetterOfOneCell) {
  expect_rejected(
      "oooo"
      "AAoB"
      "oooo"
      "oooo",
      k4, {"'B'", "1 cell", "row 1, column 3"});
}

TEST(BoardStringRejects, LetterOfFourCells) {
  expect_rejected(
      "oooo"
      "AAoo"
      "oooo"
      "BBBB",
      k4, {"'B'", "4 cells", "row 3, column 0"});
}

TEST(BoardStringRejects, LetterNotInOneStraightRun) {
  expect_rejected(
      "BoBo"
      "AAoo"
      "oooo"
      "oooo",
      k4, {"'B'", "not one straight run", "row 0, column 0"});
  expect_rejected(
      "Booo"
      "AABo"
      "oooo"
      "oooo",
      k4, {"'B'", "not one straight run"});
  expect_rejected(
      "BBoo"
      "AoBo"
      "Aooo"
      "oooo",
      k4, {"'B'", "not one straight run"});
}

TEST(BoardStringRejects, NoTarget) {
  expect_rejected(
      "oooo"
      "BBoo"
      "oooo"
      "oooo",
      k4, {"no target car 'A'"});
}

TEST(BoardStringRejects, VerticalTarget) {
  expect_rejected(
      "Aooo"
      "ABBo"
      "oooo"
      "oooo",
      k4, {"'A'", "row 0, column 0", "horizontal in the exit row 1"});
}

TEST(BoardStringRejects, TargetOutsideTheExitRow) {
  expect_rejected(
      "oooo"
      "BBoo"
      "AAoo"
      "oooo",
      k4, {"'A'", "row 2, column 0", "exit row 1"});
}

TEST(BoardStringRejects, TruckTarget) {
  expect_rejected(
      "oooo"
      "oAAA"
      "oooo"
      "oooo",
      k4, {"'A' is a truck"});
}

TEST(BoardStringRejects, TargetNotTheRightmostHorizontalVehicle) {
  expect_rejected(
      "oooo"
      "AABB"
      "oooo"
      "oooo",
      k4, {"not the rightmost", "row 1, column 2"});
  // A truck to its right makes the exit row's target a truck: not in the domain either.
  expect_rejected(
      "oooooo"
      "oooooo"
      "AAoBBB"
      "oooooo"
      "oooooo"
      "oooooo",
      k6, {"not the rightmost", "row 2, column 3"});
}

TEST(BoardStringRejects, VehicleLimitsExceeded) {
  const Rules limited(4, -1, Metric::Step, VehicleLimits{-1, 0, -1});
  expect_rejected(
      "oooB"
      "AAoB"
      "oooB"
      "oooo",
      limited, {"1 trucks", "exceed the vehicle limits"});
  const Rules few(4, -1, Metric::Step, VehicleLimits{-1, -1, 2});
  expect_rejected(
      "CCoB"
      "AAoB"
      "oooo"
      "oooo",
      few, {"3 cars", "exceed the vehicle limits"});
}

TEST(BoardStringRejects, NeverCrashesOnGarbage) {
  const std::vector<std::string> garbage = {"",
                                            "\n\n",
                                            "A",
                                            std::string(16, 'A'),
                                            std::string("\0\0", 2),
                                            std::string(16, '\xff'),
                                            "oooo\noooo\noooo\noooo"};
  for (const std::string& text : garbage) EXPECT_FALSE(rejection(text, k4).empty()) << text;
}

}  // namespace
}  // namespace rushhour
