#pragma once
// Parts K/N of a class sweep's work items, for a job split over processes or machines and
// merged later (run/merge_parts.hpp).
//
// Parts. The work items are cut into chunks of kPartChunk consecutive items (chunk c holds the
// items c·kPartChunk ..), and the chunks into windows of N consecutive chunks (window w holds
// the chunks w·N .. w·N + N - 1). Each window gives one chunk to each part: chunk c goes to
// part 1 + (c + h(c / N)) mod N, h a fixed 64-bit mix (splitmix64's finaliser) of the window
// number. Consecutive items share the kind sequences of their first rows, which set their cost,
// so every part gets one chunk of every neighbourhood (the parts hold equally many chunks,
// within one); the rotation h makes the chunk it gets within the window pseudo-random, so no
// part is tied to fixed kind sequences of the last rows, whatever N shares with the number of
// kind sequences per row (a plain round robin, h = 0, gives part K of 8 on 6x6 only the items
// of one kind sequence of row 3). The split depends on N alone.
#include <cstdint>
#include <string>
#include <vector>

#include "explicit/class_census.hpp"

namespace rushhour {

inline constexpr std::uint64_t kPartChunk = 64;

// Part K of N (1-based); parts == 0: every item.
struct ItemPart {
  int part = 0;
  int parts = 0;
  bool whole() const { return parts == 0; }
  std::string describe() const;  // "K/N"
  friend bool operator==(const ItemPart&, const ItemPart&) = default;
};

// "K/N" with 1 <= K <= N. Throws InputError.
ItemPart parse_item_part(const std::string& text);
// The part (1-based) of N that holds chunk `chunk` (items chunk·kPartChunk ..).
int part_of_chunk(std::uint64_t chunk, int parts);
// The work items of a part, as sorted ranges (those of part_of_chunk).
std::vector<ItemRange> part_items(std::uint64_t items, ItemPart part);

}  // namespace rushhour
