#pragma once
// Every way to place non-overlapping cars and trucks on one line of `length` cells, with
// the single-line steps and moves between them. A configuration is exactly one arrangement
// per row (its horizontal vehicles) and one per column (its vertical vehicles) whose cells
// do not meet; that view drives the explicit engine and the exact counters.
// The number of arrangements follows f(L) = f(L-1) + f(L-2) + f(L-3), f(0)=f(1)=1:
// 7 for L=4, 13 for 5, 24 for 6, 44 for 7, 81 for 8.
#include <cstdint>
#include <vector>

#include "board/board.hpp"

namespace rushhour {

struct Segment {
  int start;
  int length;
  friend bool operator==(const Segment&, const Segment&) = default;
};

struct LineArrangement {
  std::vector<Segment> segments;  // left to right (top to bottom)
  std::uint32_t occupied = 0;     // bit k = cell k covered
  int cars = 0;
  int trucks = 0;
};

// A change of one line caused by one vehicle sliding along it.
struct LineMove {
  int to;                  // index of the resulting arrangement
  std::uint32_t swept = 0;  // cells entered on the way; they must be free of crossing vehicles
  int distance = 0;        // cells travelled (1 for a step)
};

class LineTable {
 public:
  explicit LineTable(int length);

  int length() const { return length_; }
  int size() const { return static_cast<int>(arrangements_.size()); }
  const LineArrangement& operator[](int index) const { return arrangements_[index]; }
  const std::vector<LineArrangement>& arrangements() const { return arrangements_; }
  // Index of the arrangement with exactly these segments, or -1.
  int find(const std::vector<Segment>& segments) const;
  // The arrangement read from the other end (a column of a board reflected top to bottom).
  int reversed(int index) const;
  // Moves of single vehicles within the line (steps are the moves of distance 1).
  const std::vector<LineMove>& moves(int index) const { return moves_[index]; }

 private:
  int length_;
  std::vector<LineArrangement> arrangements_;
  std::vector<std::vector<LineMove>> moves_;
};

// A board as lines: lines 0..n-1 are its rows (holding its horizontal vehicles), n..2n-1 its
// columns (holding its vertical ones).
// The segments of every line, each line's in order along it.
std::vector<std::vector<Segment>> line_segments(const Board& board);
// The arrangement of a line's segments (in order along it), without a LineTable.
LineArrangement arrangement_of(std::vector<Segment> segments);
// Whether an arrangement may fill a line of the puzzle domain (Domain::Puzzle), beside the
// line's walls (a row's; the public database's enumerator places walls in rows, so a
// column's walls do not count): in the exit row it is the target car alone with no wall to
// its right, and with the walls it does not cover the whole line. Fits, or why not.
enum class PuzzleLine { Fits, ExitRowShared, WallRightOfTarget, Filled };
PuzzleLine puzzle_line_fit(const LineArrangement& arrangement, int length, bool exit_row, std::uint32_t walls = 0);
inline bool puzzle_line(const LineArrangement& arrangement, int length, bool exit_row, std::uint32_t walls = 0) {
  return puzzle_line_fit(arrangement, length, exit_row, walls) == PuzzleLine::Fits;
}

// Appends the vehicles of `arrangement` on line `line` of an n x n board to `vehicles`.
void append_line_vehicles(const LineArrangement& arrangement, int line, int size,
                          std::vector<Vehicle>& vehicles);

}  // namespace rushhour
