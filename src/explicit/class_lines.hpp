#pragma once
// The class engine's tables of single lines, built once per sweep and shared by its workers:
// which arrangements a line's kind sequence has, which of them a crossing mask admits and at
// which position, the legal slides (steps and moves) of each under each crossing mask, the
// board cells of each, and the mirror. Internal to src/explicit/class_*.cpp.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "board/board.hpp"
#include "board/lines.hpp"
#include "board/rules.hpp"
#include "explicit/class_census.hpp"
#include "explicit/sample_keys.hpp"

namespace rushhour::class_engine {

constexpr std::uint8_t kUnreached = 0xFF;
constexpr int kMaxStoredIndex = kUnreached - 1;
constexpr int kIndexSlots = 256;
constexpr int kMaxN = kMaxClassEngineSize;
// Kind sequences of a line (groups): 15 on 8x8 (cars and trucks filling at most 8 cells).
constexpr int kMaxGroups = 16;
// Room per (group, mask) for the admitted arrangements: at least the most arrangements a kind
// sequence has (6 up to n = 6, 15 on n = 8).
constexpr std::size_t kNarrowAdmittedSlots = 8;
constexpr std::size_t kWideAdmittedSlots = 16;

// One vehicle's slide along a line that the crossing vehicles allow (its swept cells are
// free of them): the line's new arrangement and, for a column, the arrangement's position in
// the list the rows admit after the slide and its shift from the position before; for a row,
// the cells whose occupancy changed, as a byte mask over the columns' digits (Item::digits).
struct LegalSlide {
  std::uint8_t to;
  std::uint8_t to_position;
  std::int8_t shift;        // to_position - the position before
  std::int8_t group_shift;  // for a row: the change of the arrangement's position in its group
  std::uint64_t changed_digits;
};

// For every arrangement and crossing mask, its legal slides, contiguous.
struct SlideTable {
  std::vector<LegalSlide> slides;
  std::vector<std::uint32_t> begin;  // [arrangement * masks + crossing], plus the end
  const LegalSlide* first(int arrangement, int masks, int crossing) const {
    return slides.data() + begin[static_cast<std::size_t>(arrangement * masks + crossing)];
  }
  const LegalSlide* last(int arrangement, int masks, int crossing) const {
    return slides.data() + begin[static_cast<std::size_t>(arrangement * masks + crossing) + 1];
  }
};
// Everything about single lines that the sweep looks up, built once. `admitted_slots`: room
// per (group, mask) in admitted_flat, at least the most arrangements a kind sequence has (6 up
// to n = 6, 15 on n = 8).
struct LineTables {
  LineTables(const Rules& rules, std::size_t admitted_slots_in);

  // The admitted arrangements of `group` under every mask, admitted_slots per mask.
  const std::uint8_t* admitted_table(int group) const {
    return &admitted_flat[static_cast<std::size_t>(group * masks) * admitted_slots];
  }
  const std::vector<std::uint8_t>& admitted(int group, int mask) const {
    return compat[static_cast<std::size_t>(group * masks + mask)];
  }
  bool empty_group(int group) const { return group_cars[static_cast<std::size_t>(group)] + group_trucks[static_cast<std::size_t>(group)] == 0; }
  int position(int arrangement, int mask) const {
    return compat_pos[static_cast<std::size_t>(arrangement * masks + mask)];
  }
  // The cells of a line (bit k: cell k) that some arrangement of `group` admitted by `mask` covers.
  std::uint32_t admitted_cells(int group, int mask) const {
    return admitted_cover[static_cast<std::size_t>(group * masks + mask)];
  }
  std::uint64_t toggled_positions(int arrangement, int mask) const {
    return toggled[static_cast<std::size_t>(arrangement * masks + mask)];
  }
  std::uint64_t row_mask(int row, int a) const {
    return row_cells[static_cast<std::size_t>(row * lines.size() + a)];
  }
  std::uint64_t col_mask(int col, int a) const {
    return col_cells[static_cast<std::size_t>(col * lines.size() + a)];
  }
  // The key of the mirror image of the state with this key: the rows in reverse order, every
  // column reflected.
  SampleKey mirror_key(SampleKey key) const {
    const SampleKey field = (SampleKey{1} << key_bits) - 1;
    auto shift = [&](int line) { return key_bits * (2 * n - 1 - line); };  // line 0 on top
    SampleKey mirrored = 0;
    for (int i = 0; i < n; ++i) mirrored |= (key >> shift(n - 1 - i) & field) << shift(i);
    for (int j = n; j < 2 * n; ++j)
      mirrored |= static_cast<SampleKey>(reflected[static_cast<std::size_t>(key >> shift(j) & field)]) << shift(j);
    return mirrored;
  }

  int n;
  int exit_row;
  LineTable lines;
  std::size_t admitted_slots;
  int key_bits = 1;
  int masks = 0;
  int groups = 0;
  std::vector<int> group_of, group_pos;
  std::vector<std::vector<int>> members;
  std::vector<int> group_cars, group_trucks;
  std::vector<bool> exit_ok;  // [group]: may be the exit row's
  std::vector<bool> line_ok;  // [group]: may be another row's or a column's
  std::vector<std::vector<std::uint8_t>> compat;  // [group * masks + mask]: arrangements admitted
  std::vector<std::int8_t> compat_pos;            // [arrangement * masks + mask]: position or -1
  std::vector<std::uint8_t> admitted_flat;        // the same lists, admitted_slots apart
  std::vector<std::uint32_t> admitted_cover;      // [group * masks + mask]: the cells they cover
  std::vector<std::uint64_t> free_arrangements;   // [mask]: a column's arrangements clear of it
  std::vector<std::uint32_t> column_groups;       // [mask]: bit g if line_ok[g] and g admits one
  std::vector<int> reflected;                     // [arrangement]: the line read backwards
  std::vector<int> mirror_group;                  // [group]: the group of its reversed sequence
  // [arrangement * masks + mask]: byte i = position(arrangement, mask ^ (1 << i)), 0 where
  // not admitted: a column's digit after row i's vehicle enters or leaves its cell.
  std::vector<std::uint64_t> toggled;
  // The slides of each metric, [arrangement * masks + crossing mask]; forward: only the slides
  // to a higher arrangement (of a slide and its reverse, one).
  std::array<SlideTable, 2> all_slides, forward_slides;  // [metric]
  SlideTable& slide_table(Metric metric, bool forward) {
    return (forward ? forward_slides : all_slides)[static_cast<std::size_t>(metric)];
  }
  const SlideTable& slide_table(Metric metric, bool forward) const {
    return (forward ? forward_slides : all_slides)[static_cast<std::size_t>(metric)];
  }
  std::vector<std::uint64_t> row_cells, col_cells;  // [line * count + arrangement]: board cells
  // The rules' wall masks (wall_placements; {0} without walls), and the work items per
  // placement: one kind sequence per row, groups^n.
  std::vector<std::uint64_t> placements;
  std::uint64_t row_items = 1;
};

Board board_of_key(const LineTables& t, SampleKey key);

// The kind sequence of `group`: its vehicles' lengths along the line, in order.
std::vector<int> kind_lengths(const LineTables& t, int group);

// Per line (rows 0..n-1, then columns), the group of the kind sequence `fixed` gives it, or -1
// where it gives none (ClassEngineOptions::fixed_lines). Throws InputError for a sequence no
// line of the board holds, or more than 2n lines.
std::array<int, 2 * kMaxN> fixed_groups(const LineTables& t,
                                        const std::vector<std::optional<std::vector<int>>>& fixed);

// Under vehicle limits most items of a large board hold more vehicles in their rows alone
// than the limits allow (8x8 has 15^8 items, 7x7 11^7): the items that remain, ascending, if
// they are at most a quarter of all (else none: every item is tried, each checks itself).
std::vector<std::uint64_t> items_within_limits(const LineTables& t, const Rules& rules, std::uint64_t items);

// The tables of the rules' board for the 16-bit (narrow) or 32-bit (wide) numbering. Throws
// InputError above kMaxClassEngineSize.
LineTables tables_of(const Rules& rules, bool wide);

// The number of work items: a wall placement and one kind sequence per row; item =
// placement * row_items + the rows' groups in base `groups`, row 0 most significant.
std::uint64_t work_items(const LineTables& tables);

}  // namespace rushhour::class_engine
