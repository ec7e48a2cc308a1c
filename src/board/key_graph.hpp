#pragma once
// The step graph on BoardKey masks, for explicit searches that visit millions of
// configurations (dominance components) without building Board objects: a key determines
// its board, and a step changes two or three bits of it.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "board/board.hpp"

namespace rushhour {

// The length (kCar, kTruck) of the vehicle whose first cell is `cell` of `key`: a third cell
// belongs to it unless another vehicle starts there.
inline int vehicle_length(const BoardKey& key, int cell, int size) {
  const auto bit = [](int c) { return std::uint64_t{1} << c; };
  if (key.horizontal & bit(cell))
    return cell % size + 2 < size && (key.horizontal & ~key.first & bit(cell + 2)) ? kTruck : kCar;
  return cell / size + 2 < size && (key.occupied & ~key.horizontal & ~key.first & bit(cell + 2 * size)) ? kTruck
                                                                                                      : kCar;
}

// Calls visit(next) for every board one step (metric Step) or one move (Move: a slide of any
// length over free cells) away from `key`, a board of side `size`.
template <class Visit>
void for_each_slide(const BoardKey& key, int size, Metric metric, Visit&& visit) {
  const auto bit = [](int cell) { return std::uint64_t{1} << cell; };
  const int reach = longest_slide(metric, size);
  // Vehicles and walls (first & ~occupied) block a slide; only vehicles slide.
  const std::uint64_t blocked = key.occupied | key.first;
  for (std::uint64_t firsts = key.first & key.occupied; firsts != 0; firsts &= firsts - 1) {
    const int cell = std::countr_zero(firsts);
    const int row = cell / size;
    const int col = cell % size;
    if (key.horizontal & bit(cell)) {
      const int length = vehicle_length(key, cell, size);
      const std::uint64_t body = (bit(length) - 1) << cell;
      for (int d = 1; d <= reach && col + length - 1 + d < size && !(blocked & bit(cell + length - 1 + d)); ++d) {
        const std::uint64_t moved = body ^ (body << d);
        visit(BoardKey{key.first ^ bit(cell) ^ bit(cell + d), key.horizontal ^ moved, key.occupied ^ moved});
      }
      for (int d = 1; d <= reach && col - d >= 0 && !(blocked & bit(cell - d)); ++d) {
        const std::uint64_t moved = body ^ (body >> d);
        visit(BoardKey{key.first ^ bit(cell) ^ bit(cell - d), key.horizontal ^ moved, key.occupied ^ moved});
      }
    } else {
      const int length = vehicle_length(key, cell, size);
      std::uint64_t body = 0;
      for (int k = 0; k < length; ++k) body |= bit(cell + k * size);
      for (int d = 1; d <= reach && row + length - 1 + d < size && !(blocked & bit(cell + (length - 1 + d) * size)); ++d) {
        const std::uint64_t moved = body ^ (body << (d * size));
        visit(BoardKey{key.first ^ bit(cell) ^ bit(cell + d * size), key.horizontal, key.occupied ^ moved});
      }
      for (int d = 1; d <= reach && row - d >= 0 && !(blocked & bit(cell - d * size)); ++d) {
        const std::uint64_t moved = body ^ (body >> (d * size));
        visit(BoardKey{key.first ^ bit(cell) ^ bit(cell - d * size), key.horizontal, key.occupied ^ moved});
      }
    }
  }
}

template <class Visit>
void for_each_step(const BoardKey& key, int size, Visit&& visit) {
  for_each_slide(key, size, Metric::Step, std::forward<Visit>(visit));
}

// The board a key stands for (the inverse of Board::key).
Board board_of_key(const BoardKey& key, int size);

// A hash of every line's kind sequence (the lengths of a row's horizontal vehicles in order,
// of a column's vertical ones): no step or move changes it, so two configurations with
// different signatures lie in different components. Different classes may share a signature.
std::uint64_t kind_signature(const BoardKey& key, int size);

// A set of board keys: open addressing with linear probing in one flat array, so that an
// insertion costs no allocation. A key with no occupied cell marks a free slot (every
// configuration holds the target car).
class BoardKeySet {
 public:
  // True if `key` was not in the set.
  bool insert(const BoardKey& key);
  bool contains(const BoardKey& key) const;
  std::size_t size() const { return size_; }
  // Empties the set. The table is kept unless it is much larger than what it held, so that
  // emptying it after each of many small searches costs in proportion to their work.
  void clear();

 private:
  static constexpr std::size_t kMinimumSlots = 64;

  std::size_t slot_of(const BoardKey& key) const;
  void grow();

  std::vector<BoardKey> slots_;
  std::size_t size_ = 0;
};

}  // namespace rushhour
