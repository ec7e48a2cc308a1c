#include "explicit/sample_keys.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "board/board_string.hpp"
#include "board/errors.hpp"

namespace rushhour {

int sample_key_bits(const LineTable& lines) {
  int bits = 1;
  while ((1 << bits) < lines.size()) ++bits;
  return bits;
}

Board board_of_sample_key(const LineTable& lines, int key_bits, const std::vector<std::uint64_t>& placements,
                          SampleKey key) {
  const int n = lines.length();
  std::vector<Vehicle> vehicles;
  const SampleKey placement = key >> (2 * n * key_bits);
  if (placement >= placements.size()) throw InputError("a sample key names no wall placement of the board");
  const std::uint64_t walls = placements[static_cast<std::size_t>(placement)];
  for (int line = 2 * n - 1; line >= 0; --line) {
    const int a = static_cast<int>(key & ((SampleKey{1} << key_bits) - 1));
    key >>= key_bits;
    if (a >= lines.size()) throw InputError("a sample key names no line arrangement");
    append_line_vehicles(lines[a], line, n, vehicles);
  }
  return Board(n, std::move(vehicles), walls);
}

BoardKey board_key_of_sample_key(const LineTable& lines, int key_bits, const std::vector<std::uint64_t>& placements,
                                 SampleKey key) {
  const int n = lines.length();
  const SampleKey placement = key >> (2 * n * key_bits);
  if (placement >= placements.size()) throw InputError("a sample key names no wall placement of the board");
  BoardKey board{.first = placements[static_cast<std::size_t>(placement)]};
  for (int line = 2 * n - 1; line >= 0; --line) {
    const int a = static_cast<int>(key & ((SampleKey{1} << key_bits) - 1));
    key >>= key_bits;
    if (a >= lines.size()) throw InputError("a sample key names no line arrangement");
    const bool row = line < n;
    const int along = row ? 1 : n;  // the cell step along the line
    const int line_start = row ? line * n : line - n;
    for (const Segment& s : lines[a].segments) {
      const int first = line_start + s.start * along;
      board.first |= std::uint64_t{1} << first;
      for (int k = 0; k < s.length; ++k) {
        const std::uint64_t cell = std::uint64_t{1} << (first + k * along);
        board.occupied |= cell;
        if (row) board.horizontal |= cell;
      }
    }
  }
  return board;
}

SampleKeys::SampleKeys(const Rules& rules)
    : rules_(rules), lines_(rules.size()), key_bits_(sample_key_bits(lines_)),
      placements_(wall_placements(rules.size(), rules.walls())) {}

std::string SampleKeys::board(SampleKey key) const {
  return to_board_string(rules_, board_of_sample_key(lines_, key_bits_, placements_, key));
}

SampleKey SampleKeys::key(const Board& board) const {
  SampleKey key = 0;
  for (const std::vector<Segment>& segments : line_segments(board)) {
    const int a = lines_.find(segments);
    if (a < 0) throw std::logic_error("a line of a board is no arrangement");
    key = key << key_bits_ | static_cast<SampleKey>(a);
  }
  const auto placement = std::lower_bound(placements_.begin(), placements_.end(), board.walls());
  if (placement == placements_.end() || *placement != board.walls())
    throw std::logic_error("a board's walls are no wall placement of the rules");
  return key | static_cast<SampleKey>(placement - placements_.begin()) << (2 * rules_.size() * key_bits_);
}

}  // namespace rushhour
