#include "explicit/item_parts.hpp"

#include <algorithm>
#include <cstdio>

#include "board/errors.hpp"

namespace rushhour {

std::string ItemPart::describe() const { return std::to_string(part) + "/" + std::to_string(parts); }

ItemPart parse_item_part(const std::string& text) {
  ItemPart p;
  char slash = 0, rest = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &p.part, &slash, &p.parts, &rest) != 3 || slash != '/' || p.parts < 1 ||
      p.part < 1 || p.part > p.parts || p.parts > 1000000)
    throw InputError("--items: '" + text + "' is not K/N with 1 <= K <= N");
  return p;
}

namespace {

// splitmix64's finaliser: a fixed, well-mixed function of a window number.
std::uint64_t window_mix(std::uint64_t window) {
  std::uint64_t z = window + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

int part_of_chunk(std::uint64_t chunk, int parts) {
  const auto n = static_cast<std::uint64_t>(parts);
  return static_cast<int>((chunk % n + window_mix(chunk / n) % n) % n) + 1;
}

std::vector<ItemRange> part_items(std::uint64_t items, ItemPart part) {
  if (part.whole()) return {{0, items}};
  std::vector<ItemRange> ranges;
  const auto parts = static_cast<std::uint64_t>(part.parts);
  const std::uint64_t chunks = (items + kPartChunk - 1) / kPartChunk;
  const auto wanted = static_cast<std::uint64_t>(part.part - 1);
  for (std::uint64_t window = 0; window * parts < chunks; ++window) {
    // The chunk of the window whose rotated position is the part's.
    const std::uint64_t chunk = window * parts + (wanted + parts - window_mix(window) % parts) % parts;
    if (chunk >= chunks) continue;  // the last window is short
    const ItemRange range{chunk * kPartChunk, std::min(items, (chunk + 1) * kPartChunk)};
    if (!ranges.empty() && ranges.back().end == range.begin) ranges.back().end = range.end;
    else ranges.push_back(range);
  }
  return ranges;
}

}  // namespace rushhour
