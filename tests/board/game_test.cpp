#include "board/game.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "board/board_string.hpp"
#include "explicit/explicit_engine.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

const Rules k4_rules(4);  // exit row 1

std::set<Board> board_set(const std::vector<Board>& boards) {
  return {boards.begin(), boards.end()};
}

std::set<Board> parse_all(std::initializer_list<const char*> texts) {
  std::set<Board> boards;
  for (const char* text : texts) boards.insert(parse_board(text, k4_rules));
  return boards;
}

TEST(FindTarget, IsTheRightmostHorizontalVehicleOfTheExitRow) {
  // Exit row 1 holds cars at columns 0 and 2; a vertical car crosses nothing.
  const Board board(4, {{1, 0, Orientation::Horizontal, kCar},
                        {1, 2, Orientation::Horizontal, kCar},
                        {2, 1, Orientation::Vertical, kCar}});
  const auto target = find_target(k4_rules, board);
  ASSERT_TRUE(target);
  EXPECT_EQ(board.vehicles()[*target], (Vehicle{1, 2, Orientation::Horizontal, kCar}));
}

TEST(FindTarget, IgnoresVerticalVehiclesAndOtherRows) {
  const Board board(4,
                    {{0, 3, Orientation::Vertical, kTruck}, {2, 0, Orientation::Horizontal, kCar}});
  EXPECT_EQ(find_target(k4_rules, board), std::nullopt);
}

TEST(DomainViolation, ExplainsEachReason) {
  const Board no_target(4, {{0, 0, Orientation::Vertical, kCar}});
  EXPECT_NE(domain_violation(k4_rules, no_target).find("no horizontal vehicle in the exit row 1"),
            std::string::npos);
  const Board two_in_exit_row(
      4, {{1, 0, Orientation::Horizontal, kCar}, {1, 2, Orientation::Horizontal, kCar}});
  EXPECT_EQ(domain_violation(k4_rules, two_in_exit_row), "");
  const Board truck_target(4, {{1, 0, Orientation::Horizontal, kTruck}});
  EXPECT_NE(domain_violation(k4_rules, truck_target).find("is a truck"), std::string::npos);
  const Board five(5, {{2, 0, Orientation::Horizontal, kCar}});
  EXPECT_NE(domain_violation(k4_rules, five).find("expected 4x4"), std::string::npos);
  const Board two_cars(
      4, {{1, 0, Orientation::Horizontal, kCar}, {0, 3, Orientation::Vertical, kCar}});
  const Rules one_car(4, -1, Metric::Step, VehicleLimits{1, -1, -1});
  EXPECT_NE(domain_violation(one_car, two_cars).find("exceed the vehicle limits"),
            std::string::npos);
  EXPECT_TRUE(in_domain(k4_rules, two_cars));
}

TEST(IsWinning, WhenTheTargetCoversTheTwoRightmostExitCells) {
  EXPECT_TRUE(is_winning(k4_rules, parse_board("oooo"
                                         "BBAA"
                                         "oooo"
                                         "oooo",
                                         k4_rules)));
  EXPECT_FALSE(is_winning(k4_rules, parse_board("oooo"
                                          "oAAo"
                                          "oooo"
                                          "oooo",
                                          k4_rules)));
  const Board truck_at_exit(4, {{1, 1, Orientation::Horizontal, kTruck}});
  EXPECT_FALSE(is_winning(k4_rules, truck_at_exit));
}

const char* const kBlocked =
    "Booo"
    "BAAo"
    "oooC"
    "oooC";

TEST(Neighbours, StepsMoveOneVehicleOneCell) {
  const Board board = parse_board(kBlocked, k4_rules);
  EXPECT_EQ(board_set(neighbours(Metric::Step, board)), parse_all({"oooo"
                                                                   "BAAo"
                                                                   "BooC"
                                                                   "oooC",
                                                                   "Booo"
                                                                   "BoAA"
                                                                   "oooC"
                                                                   "oooC",
                                                                   "Booo"
                                                                   "BAAC"
                                                                   "oooC"
                                                                   "oooo"}));
  for (const Move& move : legal_moves(Metric::Step, board)) EXPECT_EQ(std::abs(move.delta), 1);
}

TEST(Neighbours, MovesSlideOverFreeCellsOnly) {
  const Board board = parse_board(kBlocked, k4_rules);
  EXPECT_EQ(board_set(neighbours(Metric::Move, board)), parse_all({"oooo"
                                                                   "BAAo"
                                                                   "BooC"
                                                                   "oooC",
                                                                   "oooo"
                                                                   "oAAo"
                                                                   "BooC"
                                                                   "BooC",
                                                                   "Booo"
                                                                   "BoAA"
                                                                   "oooC"
                                                                   "oooC",
                                                                   "Booo"
                                                                   "BAAC"
                                                                   "oooC"
                                                                   "oooo",
                                                                   "BooC"
                                                                   "BAAC"
                                                                   "oooo"
                                                                   "oooo"}));
  EXPECT_EQ(legal_moves(Metric::Move, board).size(), 5u);
}

TEST(Neighbours, TrucksSlideAndWinningBoardsHaveMoves) {
  const Rules rules(5);  // exit row 2
  const Board board = parse_board(
      "ooooo"
      "ooooo"
      "oooAA"
      "ooooo"
      "BBBoo",
      rules);
  EXPECT_EQ(board_set(neighbours(Metric::Move, board)), board_set({parse_board("ooooo"
                                                                               "ooooo"
                                                                               "ooAAo"
                                                                               "ooooo"
                                                                               "BBBoo",
                                                                               rules),
                                                                   parse_board("ooooo"
                                                                               "ooooo"
                                                                               "oAAoo"
                                                                               "ooooo"
                                                                               "BBBoo",
                                                                               rules),
                                                                   parse_board("ooooo"
                                                                               "ooooo"
                                                                               "AAooo"
                                                                               "ooooo"
                                                                               "BBBoo",
                                                                               rules),
                                                                   parse_board("ooooo"
                                                                               "ooooo"
                                                                               "oooAA"
                                                                               "ooooo"
                                                                               "oBBBo",
                                                                               rules),
                                                                   parse_board("ooooo"
                                                                               "ooooo"
                                                                               "oooAA"
                                                                               "ooooo"
                                                                               "ooBBB",
                                                                               rules)}));
}

// Over the whole 4x4 domain: moves stay in the domain, keep the target in its row, are
// reversible, and steps are the moves of length one.
TEST(Neighbours, PropertiesOverTheFourByFourDomain) {
  const ExplicitSolution domain = ExplicitSolution::solve(k4_rules);
  for (std::size_t s = 0; s < domain.domain_size(); ++s) {
    const Board board = domain.board(s);
    const std::set<Board> steps = board_set(neighbours(Metric::Step, board));
    const std::set<Board> moves = board_set(neighbours(Metric::Move, board));
    ASSERT_TRUE(std::includes(moves.begin(), moves.end(), steps.begin(), steps.end()));
    for (const Board& next : moves) {
      ASSERT_TRUE(in_domain(k4_rules, next)) << to_board_string(k4_rules, board);
      const std::vector<Board> back = neighbours(Metric::Move, next);
      ASSERT_NE(std::find(back.begin(), back.end(), board), back.end());
      ASSERT_EQ(next.cars(), board.cars());
      ASSERT_EQ(next.trucks(), board.trucks());
    }
  }
}

}  // namespace
}  // namespace rushhour
