#pragma once
// The cluster of a board (query --board): its component searched from the board
// (board/search.hpp), so it needs no saved layer and no database, and agrees with the record
// a class sweep writes of the same cluster (storage/cluster_database.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "board/board.hpp"
#include "board/rules.hpp"

namespace rushhour {

struct BoardCluster {
  std::uint64_t size = 0;      // configurations
  int highest_index = 0;
  std::string hardest;         // the canonical hardest configuration: least explicit-engine key
  std::uint64_t hardest_count = 0;
  std::uint64_t winning_count = 0;
  std::vector<std::uint64_t> histogram;  // configurations per index 0..highest_index
  int board_index = 0;         // the board's own index
  std::uint64_t harder = 0;    // configurations of the cluster with a higher index than the board
};

// nullopt if the board is unsolvable (its component holds no winning configuration). Throws
// std::invalid_argument if the board is not in the rules' domain.
std::optional<BoardCluster> cluster_of_board(const Rules& rules, const Board& board);

}  // namespace rushhour
