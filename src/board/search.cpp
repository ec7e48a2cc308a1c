#include "board/search.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "board/game.hpp"
#include "board/key_graph.hpp"

namespace rushhour {

std::optional<std::vector<Board>> shortest_solution(const Rules& rules, const Board& board) {
  if (const std::string why = domain_violation(rules, board); !why.empty())
    throw std::invalid_argument("shortest_solution: " + why);
  const int n = rules.size();
  // Winning: the target car starts on the exit row's second-to-last cell (the target is the
  // rightmost horizontal vehicle of that row, so it is the one starting there).
  const std::uint64_t goal = std::uint64_t{1} << (rules.exit_row() * n + n - 2);
  const auto winning = [&](const BoardKey& key) { return (key.first & key.horizontal & goal) != 0; };

  struct Node {
    BoardKey key;
    std::size_t parent;
  };
  std::vector<Node> queue{{board.key(), 0}};
  BoardKeySet seen;
  seen.insert(queue.front().key);
  std::optional<std::size_t> found;
  if (winning(queue.front().key)) found = 0;
  for (std::size_t head = 0; !found && head < queue.size(); ++head) {
    const BoardKey key = queue[head].key;
    for_each_slide(key, n, rules.metric(), [&](const BoardKey& next) {
      if (found || !seen.insert(next)) return;
      queue.push_back({next, head});
      if (winning(next)) found = queue.size() - 1;
    });
  }
  if (!found) return std::nullopt;
  std::vector<Board> path;
  for (std::size_t at = *found;; at = queue[at].parent) {
    path.push_back(board_of_key(queue[at].key, n));
    if (at == 0) break;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace rushhour
