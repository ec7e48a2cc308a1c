#include "board/game.hpp"

#include "board/lines.hpp"

namespace rushhour {

std::optional<std::size_t> find_target(const Rules& rules, const Board& board) {
  std::optional<std::size_t> target;
  const auto& vehicles = board.vehicles();
  for (std::size_t i = 0; i < vehicles.size(); ++i) {
    const Vehicle& v = vehicles[i];
    if (v.horizontal() && v.row == rules.exit_row() && (!target || v.col > vehicles[*target].col))
      target = i;
  }
  return target;
}

std::string domain_violation(const Rules& rules, const Board& board) {
  if (board.size() != rules.size())
    return "board is " + std::to_string(board.size()) + "x" + std::to_string(board.size()) +
           ", expected " + std::to_string(rules.size()) + "x" + std::to_string(rules.size());
  const auto target = find_target(rules, board);
  if (!target) return "no horizontal vehicle in the exit row " + std::to_string(rules.exit_row());
  if (!board.vehicles()[*target].is_car())
    return "the rightmost horizontal vehicle of the exit row is a truck, not a car";
  if (!rules.limits().allows(board.cars(), board.trucks()))
    return std::to_string(board.cars()) + " cars and " + std::to_string(board.trucks()) +
           " trucks exceed the vehicle limits (" + rules.describe() + ")";
  if (!rules.walls().allows(board.wall_count()))
    return std::to_string(board.wall_count()) + (board.wall_count() == 1 ? " wall" : " walls") +
           ", outside the wall range of the rules (" + rules.describe() + ")";
  if (rules.domain() == Domain::Puzzle) {
    const int n = rules.size();
    std::vector<std::vector<Segment>> segments = line_segments(board);
    const std::uint32_t full_line = (std::uint32_t{1} << n) - 1;
    for (int line = 0; line < 2 * n; ++line) {
      const bool exit_row = line == rules.exit_row();
      const LineArrangement arrangement = arrangement_of(std::move(segments[static_cast<std::size_t>(line)]));
      const std::uint32_t walls = line < n ? static_cast<std::uint32_t>(board.walls() >> (line * n)) & full_line : 0;
      switch (puzzle_line_fit(arrangement, n, exit_row, walls)) {
        case PuzzleLine::Fits: break;
        case PuzzleLine::ExitRowShared:
          return "the exit row holds another horizontal vehicle than the target (puzzle domain)";
        case PuzzleLine::WallRightOfTarget: return "a wall lies right of the target in the exit row (puzzle domain)";
        case PuzzleLine::Filled:
          return std::string(line < n ? "row " : "column ") + std::to_string(line % n) + " is filled by its own " +
                 (walls != 0 ? "vehicles and walls" : "vehicles") + " (puzzle domain)";
      }
    }
  }
  return {};
}

bool is_winning(const Rules& rules, const Board& board) {
  const auto target = find_target(rules, board);
  return target && board.vehicles()[*target].is_car() &&
         board.vehicles()[*target].col == rules.size() - 2;
}

std::vector<Move> legal_moves(const Metric metric, const Board& board) {
  std::vector<Move> moves;
  const int n = board.size();
  const int max_distance = longest_slide(metric, n);
  const auto& vehicles = board.vehicles();
  for (std::size_t i = 0; i < vehicles.size(); ++i) {
    const Vehicle& v = vehicles[i];
    const int along = v.horizontal() ? v.col : v.row;
    auto free_at = [&](int position) {
      return position >= 0 && position < n &&
             (v.horizontal() ? board.is_free(v.row, position) : board.is_free(position, v.col));
    };
    for (int d = 1; d <= max_distance && free_at(along - d); ++d) moves.push_back({i, -d});
    for (int d = 1; d <= max_distance && free_at(along + v.length - 1 + d); ++d)
      moves.push_back({i, d});
  }
  return moves;
}

std::vector<Board> neighbours(const Metric metric, const Board& board) {
  std::vector<Board> result;
  for (const Move& m : legal_moves(metric, board)) result.push_back(board.moved(m.vehicle, m.delta));
  return result;
}

}  // namespace rushhour
