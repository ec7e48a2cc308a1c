#pragma once
// A configuration: a set of unlabeled vehicles on an n x n board (SPEC §2).
// Rows 0..n-1 from the top, columns 0..n-1 from the left; cell index = row * n + col.
// Invariants (checked on construction): every vehicle is a car (length 2) or a truck
// (length 3) lying fully on the board, no two vehicles share a cell. Vehicles are kept
// sorted by their first cell, so two equal configurations compare equal.
#include <compare>
#include <cstdint>
#include <optional>
#include <vector>

#include "board/rules.hpp"

namespace rushhour {

enum class Orientation : std::uint8_t { Horizontal, Vertical };

inline constexpr int kCar = 2;
inline constexpr int kTruck = 3;

struct Vehicle {
  int row = 0;  // first (top or left) cell
  int col = 0;
  Orientation orientation = Orientation::Horizontal;
  int length = kCar;

  bool horizontal() const { return orientation == Orientation::Horizontal; }
  bool is_car() const { return length == kCar; }
  // The k-th cell (0 = first) as a cell index on an n x n board.
  int cell(int k, int size) const {
    return horizontal() ? row * size + col + k : (row + k) * size + col;
  }
  std::uint64_t mask(int size) const;
  friend auto operator<=>(const Vehicle&, const Vehicle&) = default;
};

class Board {
 public:
  // Throws InputError if a vehicle leaves the board, has a bad length, or overlaps another.
  Board(int size, std::vector<Vehicle> vehicles);

  int size() const { return size_; }
  const std::vector<Vehicle>& vehicles() const { return vehicles_; }
  std::uint64_t occupied() const { return occupied_; }
  bool is_free(int row, int col) const { return !(occupied_ >> (row * size_ + col) & 1); }
  int cars() const;
  int trucks() const;

  // The board with vehicle `index` shifted by `delta` cells along its axis (no checks beyond
  // the constructor's).
  Board moved(std::size_t index, int delta) const;

  friend bool operator==(const Board& a, const Board& b) {
    return a.size_ == b.size_ && a.vehicles_ == b.vehicles_;
  }
  friend auto operator<=>(const Board& a, const Board& b) {
    if (auto c = a.size_ <=> b.size_; c != 0) return c;
    return a.vehicles_ <=> b.vehicles_;
  }

 private:
  int size_;
  std::vector<Vehicle> vehicles_;
  std::uint64_t occupied_ = 0;
};

}  // namespace rushhour
