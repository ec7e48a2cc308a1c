#pragma once
// Count: the exact number of configurations, states or placements. 64 bits do not suffice:
// on 8x8 the domain exceeds 2^64, so every count that may grow with the board size is an
// unsigned 128-bit integer (8x8 placements stay far below 2^128). Counts are printed and
// parsed as plain decimal text; arithmetic that could exceed 2^128 - 1 goes through
// checked_add / checked_mul, which throw std::overflow_error instead of wrapping.
#include <cstdint>
#include <istream>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include "board/errors.hpp"

namespace rushhour {

// __extension__ keeps -Wpedantic quiet: __int128 is a GCC/Clang extension.
__extension__ typedef unsigned __int128 Count;

inline constexpr Count kCountMax = ~Count{0};
inline constexpr Count kUint64Limit = Count{1} << 64;  // 2^64, the first count not in a uint64

inline constexpr Count kExactDoubleLimit = Count{1} << 53;  // doubles hold every integer up to it

inline bool fits_uint64(Count value) { return value < kUint64Limit; }

// Decimal digits, no sign, no leading zeros except "0" itself.
inline std::string to_string(Count value) {
  char digits[40];  // 2^128 - 1 has 39 decimal digits
  char* end = digits + sizeof digits;
  char* begin = end;
  do {
    *--begin = static_cast<char>('0' + static_cast<int>(value % 10));
    value /= 10;
  } while (value != 0);
  return std::string(begin, end);
}

// Accepts exactly what to_string produces plus leading zeros: one or more decimal digits, no
// sign, no spaces. Anything else, or a value above 2^128 - 1, is an InputError (counts are
// read from files and command lines, so a bad one is bad input).
inline Count parse_count(std::string_view text) {
  if (text.empty()) throw InputError("count is empty (expected a decimal integer)");
  Count value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9')
      throw InputError("count '" + std::string(text) + "' is not a decimal integer");
    const Count digit = static_cast<Count>(c - '0');
    if (value > (kCountMax - digit) / 10)
      throw InputError("count '" + std::string(text) + "' exceeds 2^128 - 1");
    value = value * 10 + digit;
  }
  return value;
}

// Reads the next whitespace-separated word of `in` as a count (text files: checkpoints,
// census). Returns false, with in's failbit set, at the end of the input or when the word is
// not a count, so that it chains like `in >> value`.
inline bool read_count(std::istream& in, Count& value) {
  std::string word;
  if (!(in >> word)) return false;
  try {
    value = parse_count(word);
  } catch (const InputError&) {
    in.setstate(std::ios::failbit);
    return false;
  }
  return true;
}

inline Count checked_add(Count a, Count b) {
  Count sum;
  if (__builtin_add_overflow(a, b, &sum))
    throw std::overflow_error("count overflow: " + to_string(a) + " + " + to_string(b));
  return sum;
}

inline Count checked_mul(Count a, Count b) {
  Count product;
  if (__builtin_mul_overflow(a, b, &product))
    throw std::overflow_error("count overflow: " + to_string(a) + " * " + to_string(b));
  return product;
}

// The value as a uint64 where a 64-bit field needs it; throws std::overflow_error when it
// does not fit (callers that can store a wider form test fits_uint64 first).
inline std::uint64_t to_uint64(Count value) {
  if (!fits_uint64(value))
    throw std::overflow_error("count " + to_string(value) + " does not fit 64 bits");
  return static_cast<std::uint64_t>(value);
}

}  // namespace rushhour
