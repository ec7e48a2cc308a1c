#pragma once
// The properties the libFuzzer targets check, shared with the gtest suite
// (tests/fuzz_regression_test.cpp replays the seed corpus and every input a fuzzer found).
// A violated property throws PropertyViolation: the fuzzers let it escape (libFuzzer reports
// the uncaught exception as a crash), the tests catch it and fail.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "app/commands.hpp"
#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"

namespace rushhour::fuzz {

struct PropertyViolation : std::logic_error {
  using std::logic_error::logic_error;
};

inline void require(bool condition, const std::string& what) {
  if (!condition) throw PropertyViolation(what);
}

// An InputError is the expected way to reject input: a non-empty one-line reason.
inline void require_one_line(const InputError& e, const char* where) {
  const std::string_view message = e.what();
  require(!message.empty() && message.find('\n') == std::string_view::npos,
          std::string(where) + ": error message is not one non-empty line: " + e.what());
}

// -1 (no limit) for bytes >= 0x80, else 0..15.
inline int limit_of(std::uint8_t byte) { return byte & 0x80 ? -1 : byte & 0x0f; }

// Board strings (SPEC §5). Input: 5 header bytes choose the rules (size 2..8; exit row: the
// default when the byte is >= 0x80, else byte % (size+1), so sometimes off the board; car,
// truck and vehicle limits), the rest is the board text. parse_board either throws InputError
// or returns a board of the domain whose one-line form (n*n characters) and grid drawing both
// parse back to the same board, and whose printing is stable.
inline void check_board_string(const std::uint8_t* data, std::size_t size) {
  if (size < 5) return;
  const int n = kMinSize + data[0] % (kMaxSize - kMinSize + 1);
  const int exit_row = data[1] & 0x80 ? -1 : data[1] % (n + 1);
  const VehicleLimits limits{limit_of(data[2]), limit_of(data[3]), limit_of(data[4])};
  std::optional<Rules> rules;
  try {
    rules.emplace(n, exit_row, Metric::Step, limits);
  } catch (const InputError& e) {
    require_one_line(e, "Rules");
    return;
  }
  const std::string_view text(reinterpret_cast<const char*>(data + 5), size - 5);
  std::optional<Board> board;
  try {
    board.emplace(parse_board(text, *rules));
  } catch (const InputError& e) {
    require_one_line(e, "parse_board");
    return;
  }
  require(domain_violation(*rules, *board).empty(), "a parsed board is not in the domain");
  const std::string line = to_board_string(*rules, *board);
  require(line.size() == static_cast<std::size_t>(rules->cells()),
          "one-line form '" + line + "' does not have n*n cells");
  require(parse_board(line, *rules) == *board, "'" + line + "' parses to another board");
  require(to_board_string(*rules, parse_board(line, *rules)) == line, "printing is not stable");
  require(parse_board(to_grid(*rules, *board), *rules) == *board,
          "the grid drawing of '" + line + "' parses to another board");
}

// Config files of `rushhour classify` (INI). Input: the file's text. It either throws
// InputError or gives an effective configuration ("key = value" lines) that is itself a valid
// config text giving the same configuration again.
inline void check_config_file(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string configuration;
  try {
    configuration = app::classify_configuration(text);
  } catch (const InputError& e) {
    require_one_line(e, "classify config");
    return;
  }
  // Known and accepted (results/fuzz.md): the record lists every option, also those that do
  // not apply to the chosen engine/encoding at their defaults, which a config file may not set
  // ("--X applies to the ... only"). Such lines are dropped one by one; dropping a default
  // must not change the configuration.
  std::string reread = configuration;
  std::string again;
  for (int attempt = 0;; ++attempt) {
    try {
      again = app::classify_configuration(reread);
      break;
    } catch (const InputError& e) {
      const std::string message = e.what();
      const std::size_t dashes = message.find("--");
      const std::size_t applies = message.find(" applies to the ");
      if (attempt >= 8 || dashes == std::string::npos || applies == std::string::npos)
        throw PropertyViolation("effective configuration rejected (" + message + "):\n" +
                                configuration);
      const std::string line = "\n" + message.substr(dashes + 2, applies - dashes - 2) + " = ";
      const std::size_t at = ("\n" + reread).find(line);
      require(at != std::string::npos, "rejected option not in the configuration: " + message);
      const std::size_t eol = reread.find('\n', at);
      reread.erase(at, eol == std::string::npos ? std::string::npos : eol + 1 - at);
    }
  }
  require(again == configuration, "the effective configuration changes when read back:\n" +
                                      configuration + "---\n" + again);
}

}  // namespace rushhour::fuzz
