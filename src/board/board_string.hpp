#pragma once
// Board strings (SPEC §5): n*n characters row-major from the top-left, 'o' (or '.' on input)
// for an empty cell, 'x' for a wall, 'A' for the target car, one further letter per vehicle
// (B..Z, then the lowercase letters other than 'o' and 'x'). Input may also be n lines of n
// characters.
#include <string>
#include <string_view>

#include "board/board.hpp"
#include "board/rules.hpp"

namespace rushhour {

// Parses a board of the rules' domain. Throws InputError naming the problem and where it is
// (wrong length, unknown character, a letter that is not one straight run of 2 or 3 cells,
// no target, 'A' not the target, limits or the wall range exceeded, ...).
Board parse_board(std::string_view text, const Rules& rules);

// One-line form: 'A' for the target, then letters in order of first appearance.
std::string to_board_string(const Rules& rules, const Board& board);

// n lines of n characters (same letters as to_board_string); the exit row ends with " <exit".
std::string to_grid(const Rules& rules, const Board& board);

// The letter for the k-th vehicle after the target (k = 0 -> 'B'); 50 letters exist.
char vehicle_letter(int k);

}  // namespace rushhour
