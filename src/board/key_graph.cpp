#include "board/key_graph.hpp"

#include <stdexcept>

namespace rushhour {

Board board_of_key(const BoardKey& key, int size) {
  std::vector<Vehicle> vehicles;
  for (std::uint64_t firsts = key.first; firsts != 0; firsts &= firsts - 1) {
    const int cell = std::countr_zero(firsts);
    const int row = cell / size;
    const int col = cell % size;
    const auto bit = [](int c) { return std::uint64_t{1} << c; };
    if (key.horizontal & bit(cell)) {
      const bool truck = col + 2 < size && (key.horizontal & ~key.first & bit(cell + 2));
      vehicles.push_back({row, col, Orientation::Horizontal, truck ? kTruck : kCar});
    } else {
      const bool truck = row + 2 < size && (key.occupied & ~key.horizontal & ~key.first & bit(cell + 2 * size));
      vehicles.push_back({row, col, Orientation::Vertical, truck ? kTruck : kCar});
    }
  }
  return Board(size, std::move(vehicles));
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
  slots_.clear();
  size_ = 0;
}

void BoardKeySet::grow() {
  std::vector<BoardKey> old(slots_.empty() ? 1024 : 2 * slots_.size());
  old.swap(slots_);
  for (const BoardKey& key : old)
    if (key.occupied != 0) slots_[slot_of(key)] = key;
}

}  // namespace rushhour
