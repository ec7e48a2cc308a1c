#pragma once
// A board's index and an optimal solution by breadth-first search from the board itself,
// with no saved layer: the index is the distance to the nearest winning configuration
// (SPEC §2) in the graph of the rules' metric, and the search stays inside the board's
// component. A component lies within the board's class (the kind sequence of every line never
// changes), so the search visits at most a few million configurations on 6x6.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "board/board.hpp"
#include "board/rules.hpp"

namespace rushhour {

// A lower bound on the index of a configuration of the rules' domain (0 exactly for the
// winning ones), from the vehicles between the target and the exit; the int maximum if one
// of them can never leave the exit row (the configuration is unsolvable). Searches skip
// what cannot reach a winning configuration within their depth.
int index_lower_bound(const Rules& rules, const BoardKey& key);

// The boards from `board` to a winning one, each one step or move (the rules' metric) from
// the previous, as few as there can be (the board's index is size() - 1); nullopt if the
// board is unsolvable. Throws std::invalid_argument if the board is not in the rules' domain.
std::optional<std::vector<Board>> shortest_solution(const Rules& rules, const Board& board);

// Whether every piece of the board but the target, each vehicle and each wall, is needed:
// removing any one of them lowers the board's index (`index`, in the rules' metric). Removing
// a piece never raises the index, and keeps the board in the domain (also the puzzle domain;
// the search does not ask for the rules' wall range). One search for an optimal solution, then
// one per wall and per vehicle that stays still along it, to depth index - 1 (no board is
// built for them: the piece's bits are cleared from the board's key). Throws
// std::invalid_argument if `index` is not the board's.
bool is_minimal(const Rules& rules, const Board& board, int index);

// Which of a cluster's hardest configurations the minimal test is made on (SPEC §2):
// - Any: the cluster is minimal when one of them is, and is listed with the first such in the
//   caller's order (least sample key). Once one is refused by a piece (named by its line and
//   its rank there, which no slide changes), one search from all the others at once without
//   it refuses them all where it finds no winning configuration within index - 1 (removing a
//   piece never raises the index); else they are tested in order, that piece first;
// - Canonical: only the first in the caller's order (the cluster's canonical hardest
//   configuration) is tested;
// - Public: the public database's enumerator (fogleman/rush) tests one representative, the
//   least by (horizontal mask with the walls, vertical mask), bit row * n + column. Its test
//   removes only the pieces its one optimal solution leaves in place, which gives is_minimal's
//   answer: a piece that moves on an optimal solution is always needed (without it the same
//   solution less its slides is shorter).
enum class MinimalRule { Any, Canonical, Public };
inline constexpr std::size_t kMinimalRules = 3;
std::string to_string(MinimalRule rule);                 // "any", "canonical", "public"
MinimalRule parse_minimal_rule(const std::string& text);  // throws InputError
// A set of rules as "any,public" (in MinimalRule order; "" for none), and back: a comma list of
// rule names, each once (throws InputError).
std::string to_string(const std::vector<MinimalRule>& rules);
std::vector<MinimalRule> parse_minimal_rules(const std::string& text);

// Whether `a` comes before `b` in the public enumerator's order of boards.
bool public_board_less(const Board& a, const Board& b);

// `hardest`: the configurations of index `index` (the highest) of one cluster, in the order a
// listing prefers. The position of the one the cluster is listed with under `rule`, or nullopt
// if the cluster is not minimal under it.
std::optional<std::size_t> minimal_choice(const Rules& rules, const std::vector<Board>& hardest, int index,
                                          MinimalRule rule);
// The same on the configurations' keys (a board is built only for those a search starts from).
std::optional<std::size_t> minimal_choice(const Rules& rules, const std::vector<BoardKey>& hardest, int index,
                                          MinimalRule rule);

// minimal_choice for many clusters, one after another (e.g. a work item's): the test keeps its
// searches' storage, and tries first in each cluster the piece that refused the one before
// (clusters of one class hold the same pieces). The answers are minimal_choice's.
class MinimalTest {
 public:
  explicit MinimalTest(const Rules& rules);
  ~MinimalTest();
  MinimalTest(const MinimalTest&) = delete;
  MinimalTest& operator=(const MinimalTest&) = delete;

  std::optional<std::size_t> choose(const std::vector<BoardKey>& hardest, int index, MinimalRule rule);

 private:
  struct State;
  const Rules& rules_;
  std::unique_ptr<State> state_;
};

// The board's component (all steps, also through winning configurations; moves connect the
// same configurations) with the index of each configuration in the rules' metric, from one
// breadth-first search over the component and one from its winning configurations.
struct ComponentIndices {
  std::vector<BoardKey> keys;  // keys[0] is the board's
  std::vector<int> index;      // per key; all -1 if the component holds no winning configuration
};
// Throws std::invalid_argument if the board is not in the rules' domain.
ComponentIndices component_indices(const Rules& rules, const Board& board);

}  // namespace rushhour
