#pragma once
// A uniform random choice of `wanted` of `total` positions, ascending (all of them if wanted >=
// total): Floyd's algorithm on the standard's 64-bit Mersenne twister, whose output the
// standard fixes, so a seed gives the same choice on every machine.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

namespace rushhour {

inline std::vector<std::size_t> random_positions(std::size_t total, std::size_t wanted, std::uint64_t seed) {
  wanted = std::min(wanted, total);
  std::mt19937_64 random(seed);
  std::set<std::size_t> chosen;
  for (std::size_t j = total - wanted; j < total; ++j) {
    const auto t = static_cast<std::size_t>(random() % (j + 1));
    chosen.insert(chosen.count(t) != 0 ? j : t);
  }
  return {chosen.begin(), chosen.end()};
}

}  // namespace rushhour
