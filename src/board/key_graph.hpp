#pragma once
// The step graph on BoardKey masks, for explicit searches that visit millions of
// configurations (dominance components) without building Board objects: a key determines
// its board, and a step changes two or three bits of it.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "board/board.hpp"

namespace rushhour {

// Calls visit(next) for every board one step away from `key` (a board of side `size`).
template <class Visit>
void for_each_step(const BoardKey& key, int size, Visit&& visit) {
  const auto bit = [](int cell) { return std::uint64_t{1} << cell; };
  for (std::uint64_t firsts = key.first; firsts != 0; firsts &= firsts - 1) {
    const int cell = std::countr_zero(firsts);
    const int row = cell / size;
    const int col = cell % size;
    if (key.horizontal & bit(cell)) {
      // A third cell belongs to this vehicle unless another vehicle starts there.
      const int length =
          col + 2 < size && (key.horizontal & ~key.first & bit(cell + 2)) ? 3 : 2;
      if (col + length < size && !(key.occupied & bit(cell + length))) {
        const std::uint64_t moved = bit(cell) | bit(cell + length);
        visit(BoardKey{key.first ^ bit(cell) ^ bit(cell + 1), key.horizontal ^ moved,
                       key.occupied ^ moved});
      }
      if (col > 0 && !(key.occupied & bit(cell - 1))) {
        const std::uint64_t moved = bit(cell - 1) | bit(cell + length - 1);
        visit(BoardKey{key.first ^ bit(cell) ^ bit(cell - 1), key.horizontal ^ moved,
                       key.occupied ^ moved});
      }
    } else {
      const int below = cell + 2 * size;
      const int length =
          row + 2 < size && (key.occupied & ~key.horizontal & ~key.first & bit(below)) ? 3 : 2;
      if (row + length < size && !(key.occupied & bit(cell + length * size))) {
        visit(BoardKey{key.first ^ bit(cell) ^ bit(cell + size), key.horizontal,
                       key.occupied ^ bit(cell) ^ bit(cell + length * size)});
      }
      if (row > 0 && !(key.occupied & bit(cell - size))) {
        visit(BoardKey{key.first ^ bit(cell) ^ bit(cell - size), key.horizontal,
                       key.occupied ^ bit(cell - size) ^ bit(cell + (length - 1) * size)});
      }
    }
  }
}

// A set of board keys: open addressing with linear probing in one flat array, so that an
// insertion costs no allocation. A key with no occupied cell marks a free slot (every
// configuration holds the target car).
class BoardKeySet {
 public:
  // True if `key` was not in the set.
  bool insert(const BoardKey& key);
  bool contains(const BoardKey& key) const;
  std::size_t size() const { return size_; }
  void clear();

 private:
  std::size_t slot_of(const BoardKey& key) const;
  void grow();

  std::vector<BoardKey> slots_;
  std::size_t size_ = 0;
};

}  // namespace rushhour
