#include "board/key_graph.hpp"

#include <algorithm>
#include <stdexcept>

namespace rushhour {

std::uint64_t kind_signature(const BoardKey& key, int size) {
  // Per line, its kind sequence in base 3 (digit 1 a car, 2 a truck): at most 3^4 on 8x8.
  std::uint64_t rows[kMaxSize] = {};
  std::uint64_t columns[kMaxSize] = {};
  const auto bit = [](int c) { return std::uint64_t{1} << c; };
  // Ascending cells meet a row's vehicles left to right and a column's top to bottom.
  for (std::uint64_t firsts = key.first & key.occupied; firsts != 0; firsts &= firsts - 1) {
    const int cell = std::countr_zero(firsts);
    const int row = cell / size;
    const int col = cell % size;
    const int digit = vehicle_length(key, cell, size) == kTruck ? 2 : 1;
    if (key.horizontal & bit(cell))
      rows[row] = 3 * rows[row] + digit;
    else
      columns[col] = 3 * columns[col] + digit;
  }
  // Walls never move: boards with different walls lie in different components.
  std::uint64_t signature = key.first & ~key.occupied;
  for (int line = 0; line < size; ++line) {
    signature = (signature ^ rows[line]) * 0x9E3779B97F4A7C15ull;
    signature = (signature ^ columns[line]) * 0xC2B2AE3D27D4EB4Full;
  }
  return signature ^ (signature >> 31);
}

Board board_of_key(const BoardKey& key, int size) {
  std::vector<Vehicle> vehicles;
  for (std::uint64_t firsts = key.first & key.occupied; firsts != 0; firsts &= firsts - 1) {
    const int cell = std::countr_zero(firsts);
    const int row = cell / size;
    const int col = cell % size;
    const auto bit = [](int c) { return std::uint64_t{1} << c; };
    const Orientation orientation = key.horizontal & bit(cell) ? Orientation::Horizontal : Orientation::Vertical;
    vehicles.push_back({row, col, orientation, vehicle_length(key, cell, size)});
  }
  return Board(size, std::move(vehicles), key.first & ~key.occupied);
}

std::size_t BoardKeySet::slot_of(const BoardKey& key) const {
  const std::size_t mask = slots_.size() - 1;
  std::size_t slot = BoardKeyHash{}(key) & mask;
  while (slots_[slot].occupied != 0 && !(slots_[slot] == key)) slot = (slot + 1) & mask;
  return slot;
}

bool BoardKeySet::insert(const BoardKey& key) {
  if (key.occupied == 0) throw std::invalid_argument("a board key without occupied cells");
  // At most three quarters full: probe sequences stay short, and the table stays within
  // 1.33-2.67 slots a key (24 bytes each).
  if (4 * (size_ + 1) > 3 * slots_.size()) grow();
  BoardKey& slot = slots_[slot_of(key)];
  if (slot.occupied != 0) return false;
  slot = key;
  ++size_;
  return true;
}

bool BoardKeySet::contains(const BoardKey& key) const {
  return !slots_.empty() && slots_[slot_of(key)].occupied != 0;
}

void BoardKeySet::clear() {
  if (slots_.size() > 8 * std::max<std::size_t>(size_, kMinimumSlots)) {
    slots_.clear();
  } else {
    std::fill(slots_.begin(), slots_.end(), BoardKey{});
  }
  size_ = 0;
}

void BoardKeySet::grow() {
  std::vector<BoardKey> old(slots_.empty() ? kMinimumSlots : 2 * slots_.size());
  old.swap(slots_);
  for (const BoardKey& key : old)
    if (key.occupied != 0) slots_[slot_of(key)] = key;
}

}  // namespace rushhour
