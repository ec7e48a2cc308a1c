#pragma once
// Sample keys: a configuration's identity and rank in the class engine's samples and cluster
// records. A key is the line arrangement indices of the rows then the columns,
// ceil(log2(arrangements per line)) bits each, the first row most significant (the explicit
// engine's key, which has the same bits: 60 on 6x6, 84 on 7x7, 112 on 8x8). With walls, the
// position of the configuration's wall mask in wall_placements(rules) sits above those fields,
// as in the explicit engine's key. Written and read as decimal text (to_string, parse_count).
#include <cstdint>
#include <string>
#include <vector>

#include "board/board.hpp"
#include "board/count.hpp"
#include "board/lines.hpp"
#include "board/rules.hpp"

namespace rushhour {

using SampleKey = Count;

// The bits of one line's field in a sample key: enough for every arrangement of a line.
int sample_key_bits(const LineTable& lines);

// The board of a key, its walls from `placements` (wall_placements of the rules). Throws
// InputError if the key names no configuration of the board.
Board board_of_sample_key(const LineTable& lines, int key_bits, const std::vector<std::uint64_t>& placements,
                          SampleKey key);
// The same board's key (board_of_sample_key(...).key()), without building the board.
BoardKey board_key_of_sample_key(const LineTable& lines, int key_bits, const std::vector<std::uint64_t>& placements,
                                 SampleKey key);

// Board strings of sample keys and sample keys of boards, for one board size.
class SampleKeys {
 public:
  explicit SampleKeys(const Rules& rules);
  // Throws InputError if the key names no configuration of the board.
  std::string board(SampleKey key) const;
  SampleKey key(const Board& board) const;

 private:
  Rules rules_;
  LineTable lines_;
  int key_bits_ = 1;
  std::vector<std::uint64_t> placements_;
};

}  // namespace rushhour
