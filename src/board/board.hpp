#pragma once
// A configuration: a set of unlabeled vehicles and walls on an n x n board (SPEC §2).
// Rows 0..n-1 from the top, columns 0..n-1 from the left; cell index = row * n + col.
// Invariants (checked on construction): every vehicle is a car (length 2) or a truck
// (length 3) lying fully on the board, no two vehicles share a cell, and no vehicle covers a
// wall (a fixed 1x1 obstacle). Vehicles are kept sorted by their first cell, so two equal
// configurations compare equal.
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

// Three masks that determine a configuration (its vehicles' first cells, the cells of
// horizontal vehicles, the cells vehicles cover): a compact hashable identity. A wall is a
// cell of `first` that no vehicle covers (first & ~occupied), so the masks of a board without
// walls are unchanged and a slide, which moves bits of vehicles only, leaves walls in place.
struct BoardKey {
  std::uint64_t first = 0;
  std::uint64_t horizontal = 0;
  std::uint64_t occupied = 0;
  friend bool operator==(const BoardKey&, const BoardKey&) = default;
};

struct BoardKeyHash {
  std::size_t operator()(const BoardKey& k) const {
    std::uint64_t h = k.first * 0x9E3779B97F4A7C15ull;
    h ^= (k.horizontal + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= (k.occupied + 0x85EBCA77C2B2AE63ull) * 0x165667B19E3779F9ull;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

class Board {
 public:
  // Throws InputError if a vehicle leaves the board, has a bad length, or overlaps another
  // vehicle or a wall, or a wall lies off the board.
  Board(int size, std::vector<Vehicle> vehicles, std::uint64_t walls = 0);

  int size() const { return size_; }
  const std::vector<Vehicle>& vehicles() const { return vehicles_; }
  std::uint64_t occupied() const { return occupied_; }  // cells vehicles cover
  std::uint64_t walls() const { return walls_; }
  int wall_count() const;
  // A cell no vehicle covers and no wall fills.
  bool is_free(int row, int col) const { return !((occupied_ | walls_) >> (row * size_ + col) & 1); }
  BoardKey key() const;
  int cars() const;
  int trucks() const;

  // The board with vehicle `index` shifted by `delta` cells along its axis (no checks beyond
  // the constructor's).
  Board moved(std::size_t index, int delta) const;

  friend bool operator==(const Board& a, const Board& b) {
    return a.size_ == b.size_ && a.walls_ == b.walls_ && a.vehicles_ == b.vehicles_;
  }
  friend auto operator<=>(const Board& a, const Board& b) {
    if (auto c = a.size_ <=> b.size_; c != 0) return c;
    if (auto c = a.walls_ <=> b.walls_; c != 0) return c;
    return a.vehicles_ <=> b.vehicles_;
  }

 private:
  int size_;
  std::vector<Vehicle> vehicles_;
  std::uint64_t occupied_ = 0;
  std::uint64_t walls_ = 0;
};

}  // namespace rushhour
