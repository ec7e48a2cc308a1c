#include <gtest/gtest.h>

#include "board/board_string.hpp"
#include "board/game.hpp"
#include "board/lines.hpp"

namespace rushhour {
namespace {

TEST(LineTable, CountsFollowTheTribonacciRecurrence) {
  EXPECT_EQ(LineTable(4).size(), 7);
  EXPECT_EQ(LineTable(5).size(), 13);
  EXPECT_EQ(LineTable(6).size(), 24);
  EXPECT_EQ(LineTable(8).size(), 81);
}

}  // namespace
}  // namespace rushhour
