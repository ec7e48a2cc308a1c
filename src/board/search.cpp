#include "board/search.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "board/errors.hpp"
#include "board/game.hpp"
#include "board/key_graph.hpp"

namespace rushhour {

// The target must still slide to the exit, and every vehicle across the exit row between them
// (always a vertical one: the target is the row's rightmost horizontal vehicle) must leave
// that row, up or down as far as the board and the walls of its column let it, each the
// fewest cells it can (step metric) or in one move of its own (move metric). A wall between
// them, or a vehicle between them that can leave the row neither way, makes the board
// unsolvable. The vehicles in such a vehicle's way out (neither the target nor across the exit
// row) must move first, at least once each: every one in its only way, or one of those in
// its two ways; a vehicle is counted once.
int index_lower_bound(const Rules& rules, const BoardKey& key) {
  const int n = rules.size();
  const int exit = rules.exit_row();
  const bool steps = longest_slide(rules.metric(), n) == 1;  // a move costs its cells
  const auto bit = [](int cell) { return std::uint64_t{1} << cell; };
  const std::uint64_t row_horizontal = (key.horizontal >> (exit * n)) & ((std::uint64_t{1} << n) - 1);
  const int target_col = static_cast<int>(std::bit_width(row_horizontal)) - 2;  // the target's first cell
  if (target_col == n - 2) return 0;
  int bound = steps ? n - 2 - target_col : 1;
  const std::uint64_t walls = key.first & ~key.occupied;
  // The cells of column col in rows [from, to].
  const auto column_cells = [&](int col, int from, int to) {
    std::uint64_t cells = 0;
    for (int row = from; row <= to; ++row) cells |= bit(row * n + col);
    return cells;
  };
  // The first cells of the vehicles on `cells`.
  const auto vehicles_on = [&](std::uint64_t cells) {
    std::uint64_t firsts = 0;
    for (cells &= key.occupied; cells != 0; cells &= cells - 1) {
      int cell = std::countr_zero(cells);
      const int step = key.horizontal & bit(cell) ? 1 : n;
      while (!(key.first & bit(cell))) cell -= step;
      firsts |= bit(cell);
    }
    return firsts;
  };
  std::uint64_t must_move = 0;  // first cells of the vehicles counted as moving first
  std::uint64_t either_ways[8] = {};  // per vehicle with two ways out, both in the way
  int two_ways_blocked = 0;
  for (int col = target_col + 2; col < n; ++col) {
    if (walls & bit(exit * n + col)) return std::numeric_limits<int>::max();  // the exit is walled off
    if (!(key.occupied & bit(exit * n + col))) continue;
    int top = exit;
    while (!(key.first & bit(top * n + col))) --top;
    const int length = top + 2 < n && (key.occupied & ~key.horizontal & ~key.first & bit((top + 2) * n + col)) ? 3 : 2;
    // The cells it must pass to end on row exit - 1 (up) or start on row exit + 1 (down).
    const bool up_fits = exit - length >= 0, down_fits = exit + length <= n - 1;
    const std::uint64_t up_way = up_fits ? column_cells(col, exit - length, top - 1) : 0;
    const std::uint64_t down_way = down_fits ? column_cells(col, top + length, exit + length) : 0;
    const bool up = up_fits && (up_way & walls) == 0;
    const bool down = down_fits && (down_way & walls) == 0;
    if (!up && !down) return std::numeric_limits<int>::max();
    if (!up || !down) must_move |= vehicles_on(up ? up_way : down_way);
    else if ((up_way & key.occupied) && (down_way & key.occupied))
      either_ways[two_ways_blocked++] = vehicles_on(up_way | down_way);
    if (!steps) {
      bound += 1;
      continue;
    }
    const int up_cells = top + length - exit;
    const int down_cells = exit + 1 - top;
    bound += !up ? down_cells : !down ? up_cells : std::min(up_cells, down_cells);
  }
  int first_movers = std::popcount(must_move);
  // One of each set moves; sets that share a vehicle with one counted are not counted.
  for (int k = 0; k < two_ways_blocked; ++k)
    if (!(either_ways[k] & must_move)) {
      ++first_movers;
      must_move |= either_ways[k];
    }
  return bound + first_movers;
}

// Types a MinimalTest keeps between clusters (named, not internal: MinimalTest::State holds
// them).
namespace search_detail {

// A breadth-first search from one or more starts towards the nearest winning configuration,
// stopped after depth `max_depth` (none: nothing is found): the configurations met, each with
// the position of the one it was met from (a start: its own), and the position of the winning
// one met first, if any. A configuration whose depth plus index_lower_bound exceeds max_depth
// is not searched on: no winning configuration within max_depth lies beyond it (the bound
// never exceeds the index, and its depth is at most its place on any path from a start).
struct WinningSearch {
  struct Node {
    BoardKey key;
    std::size_t parent;
  };
  std::vector<Node> met;
  std::optional<std::size_t> found;
  BoardKeySet seen;  // the keys of `met` and those left out
};

// A piece of a board other than the target, named so that it names the same piece in every
// configuration of a cluster: a wall by its cell; a vehicle by its orientation, its line and
// its rank among that line's vehicles of that orientation (no slide changes the three).
struct Piece {
  bool wall = false;
  int cell = 0;  // a wall's
  Orientation orientation = Orientation::Horizontal;
  int line = 0;
  int rank = 0;
  friend bool operator==(const Piece&, const Piece&) = default;
};

}  // namespace search_detail

namespace {

// Winning: the target car starts on the exit row's second-to-last cell (the target is the
// rightmost horizontal vehicle of that row, so it is the one starting there).
bool winning_key(const Rules& rules, const BoardKey& key) {
  const int n = rules.size();
  const std::uint64_t goal = std::uint64_t{1} << (rules.exit_row() * n + n - 2);
  return (key.first & key.horizontal & goal) != 0;
}

using search_detail::WinningSearch;

// Searches from every key of `starts` at once (each at depth 0) into `search`, whose storage
// is reused: a minimal test makes many small searches, which then allocate nothing. It finds a
// winning configuration within max_depth if one of the starts has one within max_depth.
void search_winning(const Rules& rules, std::span<const BoardKey> starts, int max_depth, WinningSearch& search) {
  const int n = rules.size();
  search.met.clear();
  search.found.reset();
  search.seen.clear();
  if (max_depth < 0) return;
  for (const BoardKey& start : starts) {
    if (search.found || index_lower_bound(rules, start) > max_depth || !search.seen.insert(start)) continue;
    search.met.push_back({start, search.met.size()});
    if (winning_key(rules, start)) search.found = search.met.size() - 1;
  }
  for (std::size_t begin = 0, depth = 1; !search.found && begin < search.met.size() && static_cast<int>(depth) <= max_depth;
       ++depth) {
    const std::size_t end = search.met.size();
    for (std::size_t head = begin; !search.found && head < end; ++head) {
      const BoardKey key = search.met[head].key;  // a copy: met grows below
      for_each_slide(key, n, rules.metric(), [&](const BoardKey& next) {
        // A configuration left out is seen all the same: met again later, it is no nearer.
        if (search.found || !search.seen.insert(next) ||
            index_lower_bound(rules, next) > max_depth - static_cast<int>(depth))
          return;
        search.met.push_back({next, head});
        if (winning_key(rules, next)) search.found = search.met.size() - 1;
      });
    }
    begin = end;
  }
}

void search_winning(const Rules& rules, const BoardKey& start, int max_depth, WinningSearch& search) {
  search_winning(rules, std::span<const BoardKey>(&start, 1), max_depth, search);
}

// The keys of the search's optimal solution, from the start it leads from to the winning
// configuration it found (none if it found none).
std::vector<BoardKey> found_path(const WinningSearch& search) {
  std::vector<BoardKey> path;
  for (std::size_t at = search.found.value_or(0); search.found; at = search.met[at].parent) {
    path.push_back(search.met[at].key);
    if (search.met[at].parent == at) break;  // a start
  }
  std::reverse(path.begin(), path.end());
  return path;
}

// The boards of an optimal solution from `board` if its index is at most max_depth.
std::optional<std::vector<Board>> solution_within(const Rules& rules, const Board& board, int max_depth,
                                                   WinningSearch& search) {
  search_winning(rules, board.key(), max_depth, search);
  if (!search.found) return std::nullopt;
  std::vector<Board> path;
  for (const BoardKey& key : found_path(search)) path.push_back(board_of_key(key, rules.size()));
  return path;
}

}  // namespace

std::optional<std::vector<Board>> shortest_solution(const Rules& rules, const Board& board) {
  if (const std::string why = domain_violation(rules, board); !why.empty())
    throw std::invalid_argument("shortest_solution: " + why);
  WinningSearch search;
  return solution_within(rules, board, std::numeric_limits<int>::max(), search);
}

namespace {

using search_detail::Piece;

// A piece a minimal test removes, with the board's key without it.
struct Removal {
  Piece piece;
  BoardKey without;
  int first_cell = -1;     // a vehicle's (-1 for a wall)
  std::uint64_t cells = 0;  // a vehicle's
};

// The cells of the vehicle whose first cell is `cell`.
std::uint64_t vehicle_cells(const BoardKey& key, int cell, int n) {
  const bool horizontal = (key.horizontal >> cell & 1) != 0;
  std::uint64_t cells = 0;
  for (int k = 0; k < vehicle_length(key, cell, n); ++k) cells |= std::uint64_t{1} << (cell + k * (horizontal ? 1 : n));
  return cells;
}

// The first cells of the vehicles of one orientation along one line. Cells ascend along a row
// and down a column, so a vehicle's rank along its line is the number of them below its own.
std::uint64_t line_firsts(const BoardKey& key, bool horizontal, int line, int n) {
  std::uint64_t along = 0;
  for (int place = 0; place < n; ++place) along |= std::uint64_t{1} << (horizontal ? line * n + place : place * n + line);
  return key.first & key.occupied & (horizontal ? key.horizontal : ~key.horizontal) & along;
}

// The first cell of the target, the exit row's rightmost horizontal vehicle (-1 if none).
int target_cell(const Rules& rules, const BoardKey& key) {
  return 63 - std::countl_zero(line_firsts(key, true, rules.exit_row(), rules.size()));
}

// The board's vehicles but the target, then its walls, from its key.
std::vector<Removal> removals(const Rules& rules, const BoardKey& key) {
  const int n = rules.size();
  const auto bit = [](int cell) { return std::uint64_t{1} << cell; };
  const std::uint64_t firsts = key.first & key.occupied;
  const int target = target_cell(rules, key);
  std::vector<Removal> all;
  for (std::uint64_t rest = firsts; rest != 0; rest &= rest - 1) {
    const int cell = std::countr_zero(rest);
    if (cell == target) continue;
    const bool horizontal = (key.horizontal & bit(cell)) != 0;
    const int line = horizontal ? cell / n : cell % n;
    const int rank = std::popcount(line_firsts(key, horizontal, line, n) & (bit(cell) - 1));
    const std::uint64_t cells = vehicle_cells(key, cell, n);
    all.push_back({.piece = {.orientation = horizontal ? Orientation::Horizontal : Orientation::Vertical,
                             .line = line,
                             .rank = rank},
                   .without = {.first = key.first & ~bit(cell),
                               .horizontal = key.horizontal & ~cells,
                               .occupied = key.occupied & ~cells},
                   .first_cell = cell,
                   .cells = cells});
  }
  for (std::uint64_t walls = key.first & ~key.occupied; walls != 0; walls &= walls - 1)
    all.push_back({.piece = {.wall = true, .cell = std::countr_zero(walls)},
                   .without = {.first = key.first & ~(walls & -walls), .horizontal = key.horizontal, .occupied = key.occupied}});
  return all;
}

// Whether a piece is needed, per board without it, for the configurations of one cluster (one
// index): two hardest configurations that differ only where a piece lies are the same board
// without it. A cluster's hardest configurations are often the placements of a few vehicles
// that block nothing, and the piece found not needed is then one of those.
using NeededMemo = std::unordered_map<BoardKey, bool, BoardKeyHash>;

// is_minimal on the board's key. `hint`: a piece found not needed in another configuration of
// the same cluster, tried first (often it is not needed here either, and one search then
// decides without the search for an optimal solution); set to the piece found not needed, if
// one is. The board must be in the rules' domain.
bool minimal_with_hint(const Rules& rules, const BoardKey& board, int index, std::optional<Piece>& hint,
                       WinningSearch& search, NeededMemo* memo = nullptr) {
  const std::vector<Removal> pieces = removals(rules, board);
  // Without a needed piece, a winning configuration lies within index - 1.
  const auto search_without = [&](const Removal& removal) {
    search_winning(rules, removal.without, index - 1, search);
    return search.found.has_value();
  };
  const auto needed = [&](const Removal& removal) {
    if (memo == nullptr) return search_without(removal);
    const auto [at, added] = memo->try_emplace(removal.without, false);
    if (added) at->second = search_without(removal);
    return at->second;
  };
  const auto hinted = std::find_if(pieces.begin(), pieces.end(), [&](const Removal& r) { return r.piece == hint; });
  if (hinted != pieces.end() && !needed(*hinted)) return false;
  // A vehicle that moves on an optimal solution is needed: without it the same solution,
  // less that vehicle's slides, is shorter. Only the pieces still along one optimal solution
  // are searched without.
  search_winning(rules, board, index, search);
  const std::vector<BoardKey> solution = found_path(search);
  if (static_cast<int>(solution.size()) - 1 != index)
    throw std::invalid_argument("is_minimal: the board's index is not " + std::to_string(index));
  const auto still = [&](const Removal& removal) {
    return removal.first_cell < 0 || std::all_of(solution.begin(), solution.end(), [&](const BoardKey& on_the_way) {
      // The same first cell and cells: the same vehicle in the same place.
      return (on_the_way.first >> removal.first_cell & 1) != 0 &&
             vehicle_cells(on_the_way, removal.first_cell, rules.size()) == removal.cells;
    });
  };
  for (auto at = pieces.begin(); at != pieces.end(); ++at)
    if (at != hinted && still(*at) && !needed(*at)) {
      hint = at->piece;
      return false;
    }
  return true;
}

}  // namespace

bool is_minimal(const Rules& rules, const Board& board, int index) {
  if (const std::string why = domain_violation(rules, board); !why.empty())
    throw std::invalid_argument("is_minimal: " + why);
  std::optional<Piece> hint;
  WinningSearch search;
  return minimal_with_hint(rules, board.key(), index, hint, search);
}

std::string to_string(MinimalRule rule) {
  switch (rule) {
    case MinimalRule::Any: return "any";
    case MinimalRule::Canonical: return "canonical";
    case MinimalRule::Public: return "public";
  }
  return "?";
}

MinimalRule parse_minimal_rule(const std::string& text) {
  for (const MinimalRule rule : {MinimalRule::Any, MinimalRule::Canonical, MinimalRule::Public})
    if (text == to_string(rule)) return rule;
  throw InputError("--minimal-rule must be any, canonical or public (got '" + text + "')");
}

std::string to_string(const std::vector<MinimalRule>& rules) {
  std::string text;
  for (const MinimalRule rule : rules) {
    if (!text.empty()) text += ',';
    text += to_string(rule);
  }
  return text;
}

std::vector<MinimalRule> parse_minimal_rules(const std::string& text) {
  std::vector<MinimalRule> rules;
  if (text.empty()) return rules;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = text.find(',', from);
    const std::string name = text.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    const MinimalRule rule = parse_minimal_rule(name);
    if (std::find(rules.begin(), rules.end(), rule) != rules.end())
      throw InputError("minimal rule '" + name + "' named twice in '" + text + "'");
    rules.push_back(rule);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  std::sort(rules.begin(), rules.end());
  return rules;
}

namespace {

bool public_key_less(const BoardKey& a, const BoardKey& b) {
  const auto horizontal = [](const BoardKey& key) { return key.horizontal | (key.first & ~key.occupied); };
  const auto vertical = [](const BoardKey& key) { return key.occupied & ~key.horizontal; };
  if (horizontal(a) != horizontal(b)) return horizontal(a) < horizontal(b);
  return vertical(a) < vertical(b);
}

// The first cell of the vehicle `piece` names (as removals names it), or -1 if the board has
// no such vehicle.
int vehicle_first_cell(const BoardKey& key, const Piece& piece, int n) {
  std::uint64_t firsts = line_firsts(key, piece.orientation == Orientation::Horizontal, piece.line, n);
  for (int below = 0; below < piece.rank && firsts != 0; ++below) firsts &= firsts - 1;
  return firsts == 0 ? -1 : std::countr_zero(firsts);
}

// The key of the board `key` stands for without `piece` (named as removals names it), or
// nullopt if the board has no such piece.
std::optional<BoardKey> without_piece(const BoardKey& key, const Piece& piece, int n) {
  const auto bit = [](int cell) { return std::uint64_t{1} << cell; };
  if (piece.wall) {
    if (!(key.first & ~key.occupied & bit(piece.cell))) return std::nullopt;
    return BoardKey{key.first & ~bit(piece.cell), key.horizontal, key.occupied};
  }
  const int cell = vehicle_first_cell(key, piece, n);
  if (cell < 0) return std::nullopt;
  const std::uint64_t cells = vehicle_cells(key, cell, n);
  return BoardKey{key.first & ~bit(cell), key.horizontal & ~cells, key.occupied & ~cells};
}

// Whether `piece` is needed in one of the configurations `hardest` (of index `index`): one
// search from all of them at once without it. Without a piece the index never rises (every
// slide stays legal), so where no winning configuration lies within index - 1 of any of them,
// the piece is needed in none, and the memo says so for each. Otherwise the memo notes the
// start the search reached a winning configuration from, where the piece is needed.
bool needed_in_one(const Rules& rules, std::span<const BoardKey> hardest, int index, const Piece& piece,
                   WinningSearch& search, NeededMemo& memo, std::vector<BoardKey>& without) {
  without.clear();
  for (const BoardKey& key : hardest) {
    const std::optional<BoardKey> less = without_piece(key, piece, rules.size());
    if (!less) return true;  // not a piece of every configuration: no joint answer
    if (const auto known = memo.find(*less); known == memo.end()) without.push_back(*less);
    else if (known->second) return true;
  }
  search_winning(rules, without, index - 1, search);
  if (search.found) {
    memo.try_emplace(found_path(search).front(), true);
    return true;
  }
  for (const BoardKey& less : without) memo.try_emplace(less, false);
  return false;
}

}  // namespace

bool public_board_less(const Board& a, const Board& b) { return public_key_less(a.key(), b.key()); }

struct MinimalTest::State {
  WinningSearch search;
  std::optional<Piece> last_refusing;  // the piece that refused the last cluster, if one did
  std::vector<BoardKey> without;       // needed_in_one's starts
};

MinimalTest::MinimalTest(const Rules& rules) : rules_(rules), state_(std::make_unique<State>()) {}
MinimalTest::~MinimalTest() = default;

std::optional<std::size_t> MinimalTest::choose(const std::vector<BoardKey>& hardest, int index, MinimalRule rule) {
  if (hardest.empty()) throw std::invalid_argument("minimal_choice: a cluster without hardest configurations");
  const Rules& rules = rules_;
  const int n = rules.size();
  // Of index 0 or 1, a configuration is minimal only when it holds the target alone: removing
  // a piece moves no vehicle, so it leaves a configuration that is not winning not winning, and
  // the index cannot fall below 1 (nor below 0). Every configuration of a cluster holds the
  // same pieces, so the first decides for all.
  const BoardKey& front = hardest.front();
  const bool target_alone = std::popcount(front.first) == 1 && (front.first & ~front.occupied) == 0;
  if (index == 0) return target_alone ? std::optional<std::size_t>(0) : std::nullopt;
  // The domain's conditions (each line's kind sequence, the vehicles, the walls) are the same
  // in every configuration of a cluster: one check answers for all.
  if (const std::string why = domain_violation(rules, board_of_key(front, n)); !why.empty())
    throw std::invalid_argument("minimal_choice: " + why);
  std::size_t representative = 0;
  for (std::size_t k = 1; k < hardest.size() && rule == MinimalRule::Public; ++k)
    if (public_key_less(hardest[k], hardest[representative])) representative = k;
  if (index == 1) return target_alone ? std::optional<std::size_t>(representative) : std::nullopt;
  // The piece that refused the cluster before is tried first: where that cluster lies in the
  // same work item, the piece is there too, and often needed in neither (a vehicle that blocks
  // nothing); one search then refuses the cluster, without the search for an optimal
  // solution. The hint orders the searches only, never an answer.
  std::optional<Piece>& hint = state_->last_refusing;
  WinningSearch& search = state_->search;
  // A piece of another cluster may name nothing here, or this cluster's target, which
  // removals never names.
  if (hint) {
    const int cell = hint->wall ? -1 : vehicle_first_cell(front, *hint, n);
    const bool named = hint->wall ? ((front.first & ~front.occupied) >> hint->cell & 1) != 0
                                  : cell >= 0 && cell != target_cell(rules, front);
    if (!named) hint.reset();
  }
  if (rule != MinimalRule::Any) {
    if (minimal_with_hint(rules, hardest[representative], index, hint, search)) return representative;
    return std::nullopt;
  }
  NeededMemo memo;
  // The piece that refused the cluster before refuses all this one's configurations where one
  // search from all of them without it finds no winning configuration within index - 1.
  std::optional<Piece> jointly_searched;
  if (hint && hardest.size() > 1) {
    jointly_searched = hint;
    if (!needed_in_one(rules, hardest, index, *hint, search, memo, state_->without)) return std::nullopt;
  }
  for (std::size_t k = 0; k < hardest.size(); ++k) {
    // Most configurations of a cluster that is not minimal are refused by the memo's answer
    // for the hinted piece: their pieces are not listed.
    if (hint)
      if (const std::optional<BoardKey> without = without_piece(hardest[k], *hint, n))
        if (const auto known = memo.find(*without); known != memo.end() && !known->second) continue;
    if (minimal_with_hint(rules, hardest[k], index, hint, search, &memo)) return k;
    // Refused by `hint`: one search may refuse all the others with it.
    if (jointly_searched != hint && k + 1 < hardest.size()) {
      jointly_searched = hint;
      if (!needed_in_one(rules, std::span(hardest).subspan(k + 1), index, *hint, search, memo, state_->without))
        return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<std::size_t> minimal_choice(const Rules& rules, const std::vector<BoardKey>& hardest, int index,
                                          MinimalRule rule) {
  return MinimalTest(rules).choose(hardest, index, rule);
}

std::optional<std::size_t> minimal_choice(const Rules& rules, const std::vector<Board>& hardest, int index,
                                          MinimalRule rule) {
  std::vector<BoardKey> keys;
  keys.reserve(hardest.size());
  for (const Board& board : hardest) keys.push_back(board.key());
  return minimal_choice(rules, keys, index, rule);
}

ComponentIndices component_indices(const Rules& rules, const Board& board) {
  if (const std::string why = domain_violation(rules, board); !why.empty())
    throw std::invalid_argument("component_indices: " + why);
  const int n = rules.size();
  ComponentIndices component;
  std::vector<BoardKey>& keys = component.keys;
  std::unordered_map<BoardKey, std::uint32_t, BoardKeyHash> position;
  keys.push_back(board.key());
  position.emplace(keys.front(), 0);
  for (std::size_t head = 0; head < keys.size(); ++head) {
    const BoardKey key = keys[head];  // a copy: keys grows below
    for_each_step(key, n, [&](const BoardKey& next) {
      if (position.emplace(next, static_cast<std::uint32_t>(keys.size())).second) keys.push_back(next);
    });
  }
  component.index.assign(keys.size(), -1);
  std::vector<std::uint32_t> queue;
  for (std::uint32_t k = 0; k < keys.size(); ++k)
    if (winning_key(rules, keys[k])) {
      component.index[k] = 0;
      queue.push_back(k);
    }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::uint32_t from = queue[head];
    for_each_slide(keys[from], n, rules.metric(), [&](const BoardKey& next) {
      const std::uint32_t to = position.at(next);
      if (component.index[to] >= 0) return;
      component.index[to] = component.index[from] + 1;
      queue.push_back(to);
    });
  }
  return component;
}

}  // namespace rushhour
