#include "query/board_cluster.hpp"

#include <algorithm>

#include "board/board_string.hpp"
#include "board/key_graph.hpp"
#include "board/search.hpp"
#include "explicit/sample_keys.hpp"

namespace rushhour {

std::optional<BoardCluster> cluster_of_board(const Rules& rules, const Board& board) {
  const ComponentIndices component = component_indices(rules, board);
  if (component.index.front() < 0) return std::nullopt;
  BoardCluster cluster;
  cluster.size = component.keys.size();
  cluster.board_index = component.index.front();
  cluster.highest_index = *std::max_element(component.index.begin(), component.index.end());
  cluster.histogram.assign(static_cast<std::size_t>(cluster.highest_index) + 1, 0);
  // The hardest board listed is the one of least sample key; the key orders the vehicles, and
  // every board of a component has the same walls, which the board keeps.
  const SampleKeys keys(rules);
  SampleKey least = ~SampleKey{0};
  std::optional<Board> hardest;
  for (std::size_t k = 0; k < component.keys.size(); ++k) {
    const int index = component.index[k];
    ++cluster.histogram[static_cast<std::size_t>(index)];
    if (index > cluster.board_index) ++cluster.harder;
    if (index != cluster.highest_index) continue;
    Board candidate = board_of_key(component.keys[k], rules.size());
    const SampleKey key = keys.key(candidate);
    if (key < least) {
      least = key;
      hardest = std::move(candidate);
    }
  }
  cluster.hardest = to_board_string(rules, *hardest);
  cluster.hardest_count = cluster.histogram.back();
  cluster.winning_count = cluster.histogram.front();
  return cluster;
}

}  // namespace rushhour
