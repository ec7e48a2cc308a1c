#include "board/board.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "board/errors.hpp"

namespace rushhour {

std::uint64_t Vehicle::mask(int size) const {
  std::uint64_t bits = 0;
  for (int k = 0; k < length; ++k) bits |= std::uint64_t{1} << cell(k, size);
  return bits;
}

Board::Board(int size, std::vector<Vehicle> vehicles, std::uint64_t walls)
    : size_(size), vehicles_(std::move(vehicles)), walls_(walls) {
  if (size < kMinSize || size > kMaxSize)
    throw InputError("board size " + std::to_string(size) + " is not supported");
  const int cells = size * size;
  if (cells < 64 && (walls >> cells) != 0)
    throw InputError("a wall lies off the " + std::to_string(size) + "x" + std::to_string(size) + " board");
  std::sort(vehicles_.begin(), vehicles_.end());
  for (const Vehicle& v : vehicles_) {
    if (v.length != kCar && v.length != kTruck)
      throw InputError("vehicle of length " + std::to_string(v.length) + " (only 2 and 3 exist)");
    const int last_row = v.horizontal() ? v.row : v.row + v.length - 1;
    const int last_col = v.horizontal() ? v.col + v.length - 1 : v.col;
    if (v.row < 0 || v.col < 0 || last_row >= size || last_col >= size)
      throw InputError("vehicle at row " + std::to_string(v.row) + ", column " +
                       std::to_string(v.col) + " leaves the board");
    const std::uint64_t m = v.mask(size);
    if (occupied_ & m)
      throw InputError("two vehicles overlap near row " + std::to_string(v.row) + ", column " +
                       std::to_string(v.col));
    if (walls_ & m)
      throw InputError("a vehicle covers a wall near row " + std::to_string(v.row) + ", column " +
                       std::to_string(v.col));
    occupied_ |= m;
  }
}

int Board::wall_count() const { return std::popcount(walls_); }

BoardKey Board::key() const {
  BoardKey key;
  key.occupied = occupied_;
  key.first = walls_;
  for (const Vehicle& v : vehicles_) {
    key.first |= std::uint64_t{1} << v.cell(0, size_);
    if (v.horizontal()) key.horizontal |= v.mask(size_);
  }
  return key;
}

int Board::cars() const {
  return static_cast<int>(std::count_if(vehicles_.begin(), vehicles_.end(),
                                        [](const Vehicle& v) { return v.is_car(); }));
}

int Board::trucks() const { return static_cast<int>(vehicles_.size()) - cars(); }

Board Board::moved(std::size_t index, int delta) const {
  std::vector<Vehicle> vehicles = vehicles_;
  Vehicle& v = vehicles.at(index);
  (v.horizontal() ? v.col : v.row) += delta;
  return Board(size_, std::move(vehicles), walls_);
}

}  // namespace rushhour
