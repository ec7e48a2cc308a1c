#include "board/board_string.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <vector>

#include "board/errors.hpp"
#include "board/game.hpp"

namespace rushhour {
namespace {

std::string where(int cell, int n) {
  return "row " + std::to_string(cell / n) + ", column " + std::to_string(cell % n);
}

bool is_vehicle_letter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z' && c != 'o' && c != 'x');
}

// The n*n cell characters, from either the one-line or the n-line form. A line may end with
// the "<exit" marker that to_grid draws, so a printed grid reads back.
std::string cells_of(std::string_view text, int n) {
  std::vector<std::string> lines;
  std::string current;
  auto end_line = [&] {
    constexpr std::string_view kExitMarker = "<exit";
    if (current.ends_with(kExitMarker)) current.resize(current.size() - kExitMarker.size());
    if (!current.empty()) lines.push_back(current);
    current.clear();
  };
  for (char c : text) {
    if (c == '\n' || c == '\r')
      end_line();
    else if (c != ' ' && c != '\t')
      current += c;
  }
  end_line();
  const auto expected = static_cast<std::size_t>(n * n);
  if (lines.size() == 1) {
    if (lines[0].size() != expected)
      throw InputError("board string has " + std::to_string(lines[0].size()) +
                       " characters, expected " + std::to_string(expected) + " for a " +
                       std::to_string(n) + "x" + std::to_string(n) + " board");
    return lines[0];
  }
  if (lines.size() != static_cast<std::size_t>(n))
    throw InputError("board has " + std::to_string(lines.size()) + " lines, expected 1 or " +
                     std::to_string(n));
  std::string cells;
  for (std::size_t r = 0; r < lines.size(); ++r) {
    if (lines[r].size() != static_cast<std::size_t>(n))
      throw InputError("board line " + std::to_string(r) + " has " +
                       std::to_string(lines[r].size()) + " characters, expected " +
                       std::to_string(n));
    cells += lines[r];
  }
  return cells;
}

}  // namespace

char vehicle_letter(int k) {
  static constexpr std::string_view kLetters = "BCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnpqrstuvwyz";
  if (k < 0 || k >= static_cast<int>(kLetters.size()))
    throw InputError("too many vehicles to name with letters");
  return kLetters[static_cast<std::size_t>(k)];
}

Board parse_board(std::string_view text, const Rules& rules) {
  const int n = rules.size();
  const std::string cells = cells_of(text, n);
  std::map<char, std::vector<int>> cells_of_letter;
  std::vector<char> order;  // letters in order of first appearance
  std::uint64_t walls = 0;
  for (int i = 0; i < n * n; ++i) {
    const char c = cells[static_cast<std::size_t>(i)];
    if (c == 'o' || c == '.') continue;
    if (c == 'x') {
      if (rules.walls().none()) throw InputError("wall 'x' at " + where(i, n) + ", but these rules have no walls (--walls)");
      walls |= std::uint64_t{1} << i;
      continue;
    }
    if (!is_vehicle_letter(c)) {
      const std::string shown = std::isprint(static_cast<unsigned char>(c))
                                    ? std::string("'") + c + "'"
                                    : "byte " + std::to_string(static_cast<unsigned char>(c));
      throw InputError("unknown character " + shown + " at " + where(i, n));
    }
    auto [it, inserted] = cells_of_letter.try_emplace(c);
    if (inserted) order.push_back(c);
    it->second.push_back(i);
  }

  std::vector<Vehicle> vehicles;
  std::optional<Vehicle> target_from_a;
  for (char letter : order) {
    const std::vector<int>& at = cells_of_letter[letter];  // ascending cell indices
    const std::string name = std::string("vehicle '") + letter + "'";
    const int length = static_cast<int>(at.size());
    if (length < 2 || length > 3)
      throw InputError(name + " has " + std::to_string(length) + " cell" +
                       (length == 1 ? "" : "s") + " starting at " + where(at[0], n) +
                       "; a car has 2, a truck 3");
    const bool same_row =
        std::all_of(at.begin(), at.end(), [&](int c) { return c / n == at[0] / n; });
    const bool same_col =
        std::all_of(at.begin(), at.end(), [&](int c) { return c % n == at[0] % n; });
    const int stride = same_row ? 1 : n;
    bool contiguous = same_row || same_col;
    for (std::size_t k = 1; contiguous && k < at.size(); ++k)
      contiguous = at[k] - at[k - 1] == stride;
    if (!contiguous)
      throw InputError(name + " is not one straight run of cells (first cell at " +
                       where(at[0], n) + ")");
    Vehicle v{at[0] / n, at[0] % n, same_row ? Orientation::Horizontal : Orientation::Vertical,
              length};
    if (letter == 'A') target_from_a = v;
    vehicles.push_back(v);
  }

  Board board(n, std::move(vehicles), walls);
  if (!target_from_a) throw InputError("no target car 'A' on the board");
  const Vehicle a = *target_from_a;
  if (!a.horizontal() || a.row != rules.exit_row())
    throw InputError("the target 'A' at " + where(a.row * n + a.col, n) +
                     " must be horizontal in the exit row " + std::to_string(rules.exit_row()));
  if (!a.is_car()) throw InputError("the target 'A' is a truck; it must be a car");
  const auto target = find_target(rules, board);
  if (board.vehicles()[*target] != a)
    throw InputError(
        "'A' is not the rightmost horizontal vehicle of the exit row (another one lies "
        "to its right at " +
        where(board.vehicles()[*target].row * n + board.vehicles()[*target].col, n) + ")");
  if (const std::string why = domain_violation(rules, board); !why.empty()) throw InputError(why);
  return board;
}

namespace {

std::string letters_by_cell(const Rules& rules, const Board& board) {
  const int n = board.size();
  std::string cells(static_cast<std::size_t>(n * n), 'o');
  for (int c = 0; c < n * n; ++c)
    if (board.walls() >> c & 1) cells[static_cast<std::size_t>(c)] = 'x';
  std::vector<int> owner(static_cast<std::size_t>(n * n), -1);
  const auto& vehicles = board.vehicles();
  for (std::size_t i = 0; i < vehicles.size(); ++i)
    for (int k = 0; k < vehicles[i].length; ++k)
      owner[static_cast<std::size_t>(vehicles[i].cell(k, n))] = static_cast<int>(i);
  const auto target = find_target(rules, board);
  std::vector<char> letter(vehicles.size(), 0);
  if (target) letter[*target] = 'A';
  int next = 0;
  for (int c = 0; c < n * n; ++c) {
    const int v = owner[static_cast<std::size_t>(c)];
    if (v < 0) continue;
    char& l = letter[static_cast<std::size_t>(v)];
    if (l == 0) l = vehicle_letter(next++);
    cells[static_cast<std::size_t>(c)] = l;
  }
  return cells;
}

}  // namespace

std::string to_board_string(const Rules& rules, const Board& board) {
  return letters_by_cell(rules, board);
}

std::string to_grid(const Rules& rules, const Board& board) {
  const std::string cells = letters_by_cell(rules, board);
  const auto n = static_cast<std::size_t>(board.size());
  std::string grid;
  for (std::size_t r = 0; r < n; ++r) {
    grid += cells.substr(r * n, n);
    if (static_cast<int>(r) == rules.exit_row()) grid += " <exit";
    grid += '\n';
  }
  return grid;
}

}  // namespace rushhour
