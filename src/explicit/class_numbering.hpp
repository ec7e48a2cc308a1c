#pragma once
// The states of one class, numbered, and their moves. A class is a work item's row
// combinations (ItemRows) with one kind sequence per column; each of its row combinations (an
// entry) holds a block of consecutive state numbers, and a state's number inside its block is
// the dot product of its column digits (each column's position in the list of arrangements its
// mask admits) with the entry's strides. ClassNumbering numbers a class, lists the states of its
// winning entries, gives every state's neighbours by a step or a move and every state's
// explicit-engine key. The class solver searches over it. Internal to src/explicit/class_*.cpp.
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "board/rules.hpp"
#include "explicit/class_lines.hpp"
#include "explicit/class_rows.hpp"

namespace rushhour::class_engine {

// A horizontal move changes the radices, so every neighbour by a horizontal move needs the
// whole dot product: it is taken on all columns at once, in lanes of a GCC/Clang vector
// extension. Up to 6x6, 16-bit lanes suffice: a column admits at most 6 arrangements of its
// kind sequence, so a combination holds at most 6^6 < 2^16 states. 7x7 and 8x8 columns admit
// up to 10 and 15 (15^8 < 2^32): 32-bit lanes, twice the width.
using DigitBytes = std::uint8_t __attribute__((vector_size(8)));
static_assert(std::endian::native == std::endian::little, "digit j is byte j of Item::digits");
static_assert(kMaxN <= 8, "a column's digit is one byte of Item::digits");

struct NarrowNumbering {
  using Lane = std::uint16_t;
  using Lanes = Lane __attribute__((vector_size(16)));
  using Key = std::uint64_t;  // 2n lines of 5 bits
  static constexpr std::size_t kAdmittedSlots = kNarrowAdmittedSlots;
  static constexpr std::uint64_t kMaxCombinationStates = 0xFFFF;
};
struct WideNumbering {
  using Lane = std::uint32_t;
  using Lanes = Lane __attribute__((vector_size(32)));
  using Key = SampleKey;
  static constexpr std::size_t kAdmittedSlots = kWideAdmittedSlots;
  static constexpr std::uint64_t kMaxCombinationStates = 0xFFFF'FFFF;
};

// A row combination inside one class: where its states start and the radices of its columns
// (lanes past n hold stride 0).
template <class Numbering>
struct Entry {
  std::uint32_t offset = 0;
  Combo combo;
  typename Numbering::Lanes stride{};
  std::array<std::uint8_t, kMaxN> radix{};
};

// A state with what its neighbours are computed from: its row combination (entry) and the
// position of every column's arrangement in that column's admitted list, one byte each.
struct Item {
  std::uint32_t state;
  std::uint32_t entry;
  std::uint64_t digits;
};
constexpr int kDigitBits = 8;
constexpr std::uint64_t kDigitMask = (1u << kDigitBits) - 1;

// Σ_j digit_j · stride_j.
template <class Lanes>
inline std::uint32_t combination_state(std::uint64_t digits, const Lanes& stride) {
#if defined(__SSE2__)
  if constexpr (std::is_same_v<Lanes, NarrowNumbering::Lanes>) {
    // One multiply-add of the 16-bit lanes into four 32-bit sums, then two adds: the generic
    // reduction below compiles to lane extracts and inserts, three times the instructions in
    // the search's hottest line. The lanes are read as signed: a stride of 2^15 or more is
    // that of a column with a single arrangement, whose digit is 0.
    const __m128i digit_lanes = _mm_unpacklo_epi8(_mm_cvtsi64_si128(static_cast<long long>(digits)), _mm_setzero_si128());
    __m128i stride_lanes;
    std::memcpy(&stride_lanes, &stride, sizeof stride_lanes);
    __m128i sum = _mm_madd_epi16(digit_lanes, stride_lanes);
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0x4E));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0xB1));
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(sum));
  }
#endif
  DigitBytes bytes;
  std::memcpy(&bytes, &digits, sizeof bytes);
  Lanes sum = __builtin_convertvector(bytes, Lanes) * stride;
  sum += __builtin_shufflevector(sum, sum, 4, 5, 6, 7, 0, 1, 2, 3);
  sum += __builtin_shufflevector(sum, sum, 2, 3, 0, 1, 2, 3, 0, 1);
  sum += __builtin_shufflevector(sum, sum, 1, 0, 1, 0, 1, 0, 1, 0);
  return sum[0];
}

// The slides for_each_neighbour gives: all of them; from a winning state, every edge to
// another winning state from one end only (the slides off the exit row that lead to a higher
// arrangement), with every slide of the exit row; or only the exit row's slides (from a
// winning state: all that can lead out of the winning states, for a search without unions).
enum class Slides { All, WinningOnce, ExitRow };

template <class Numbering>
class ClassNumbering {
  using Lanes = typename Numbering::Lanes;
  static constexpr std::size_t kAdmittedSlots = Numbering::kAdmittedSlots;

 public:
  ClassNumbering(const LineTables& t, const ItemRows& rows) : t_(t), rows_(rows) {}

  // A new work item of `combos` row combinations (rows.combos()).
  void start_item(std::uint64_t combos) { slot_of_combo_.assign(combos, 0); }

  // Numbers the class of the current item whose row combinations are `kept` (ascending, each
  // naming its combination by .combo) and whose columns hold `column_group`; returns its
  // states. Throws std::logic_error above `max_states`.
  template <class Kept>
  std::uint64_t number(const Kept& kept, const std::array<int, kMaxN>& column_group, std::uint64_t max_states) {
    const int n = t_.n;
    column_group_ = column_group;
    // A line without vehicles has no slides, and a column without vehicles keeps digit 0
    // whatever the rows do: the neighbour search skips both (a third of the lines on 6x6).
    active_columns_.clear();
    for (int j = 0; j < n; ++j) {
      const auto uj = static_cast<std::size_t>(j);
      column_table_[uj] = t_.admitted_table(column_group_[uj]);
      if (!t_.empty_group(column_group_[uj])) active_columns_.push_back(j);
    }
    entries_.resize(kept.size());
    offsets_.resize(kept.size() + 1);
    std::uint64_t total = 0;
    for (std::size_t k = 0; k < kept.size(); ++k) {
      Entry<Numbering>& e = entries_[k];
      e.combo = rows_.combos()[kept[k].combo];
      const Combo& c = e.combo;
      std::uint64_t size = 1;
      e.stride = Lanes{};
      for (int j = n - 1; j >= 0; --j) {
        const auto uj = static_cast<std::size_t>(j);
        e.stride[uj] = static_cast<typename Numbering::Lane>(size);
        e.radix[uj] = static_cast<std::uint8_t>(t_.admitted(column_group_[uj], c.column_mask[uj]).size());
        size *= e.radix[uj];
      }
      if (size > Numbering::kMaxCombinationStates)
        throw std::logic_error("class engine: a row combination holds more states than its numbering's lanes");
      e.offset = static_cast<std::uint32_t>(total);
      offsets_[k] = e.offset;
      slot_of_combo_[c.id] = static_cast<std::uint32_t>(k);
      total += size;
      if (total > max_states) throw std::logic_error("class engine: a class above the bound was not refused");
    }
    offsets_[kept.size()] = static_cast<std::uint32_t>(total);
    return total;
  }

  std::uint64_t states() const { return offsets_.empty() ? 0 : offsets_.back(); }  // of the class numbered last

  // Calls visit(item) for every state of the class's winning entries, in numbering order.
  template <class Visit>
  void for_each_winning_state(Visit&& visit) const {
    for (std::size_t k = 0; k < entries_.size(); ++k)
      if (entries_[k].combo.winning) for_each_state_of(k, visit);
  }

  // The explicit engine's key of a state: the wall placement, the arrangement of every row
  // then every column.
  SampleKey key_of(const Item& item) const {
    const int n = t_.n;
    const Combo& c = entries_[item.entry].combo;
    typename Numbering::Key key = 0;
    for (int i = 0; i < n; ++i) key = key << t_.key_bits | c.row[static_cast<std::size_t>(i)];
    for (int j = 0; j < n; ++j) {
      const auto uj = static_cast<std::size_t>(j);
      const int a = t_.admitted(column_group_[uj], c.column_mask[uj])[static_cast<std::size_t>(digit_of(item, j))];
      key = key << t_.key_bits | static_cast<typename Numbering::Key>(a);
    }
    return rows_.placement_key() | key;
  }

  // Calls visit(neighbour) for every state one step or move (`metric`) away from `item`, of
  // the slides `which` names.
  template <class Visit>
  void for_each_neighbour(const Item& item, Metric metric, Slides which, Visit&& visit) const {
    const bool winning = which != Slides::All;
    const int n = t_.n;
    const Entry<Numbering>& e = entries_[item.entry];
    const Combo& c = e.combo;
    // Only the active columns' entries are written and read (not zeroed: this runs per state).
    std::array<int, kMaxN> column;  // the arrangement of each active column
    std::array<std::uint64_t, kMaxN> toggled;
    std::uint64_t vertical = 0;
    for (const int j : active_columns_) {
      const auto uj = static_cast<std::size_t>(j);
      column[uj] = column_table_[uj][c.column_mask[uj] * kAdmittedSlots + static_cast<std::size_t>(digit_of(item, j))];
      toggled[uj] = t_.toggled_positions(column[uj], c.column_mask[uj]);
      vertical |= t_.col_mask(j, column[uj]);
    }
    const SlideTable& all_slides = t_.slide_table(metric, false);
    const SlideTable& slides = t_.slide_table(metric, winning);
    const int masks = t_.masks;
    for (const int j : active_columns_) {
      if (which == Slides::ExitRow) break;
      const auto uj = static_cast<std::size_t>(j);
      const int mask = c.column_mask[uj];
      const LegalSlide* end = slides.last(column[uj], masks, mask);
      for (const LegalSlide* m = slides.first(column[uj], masks, mask); m != end; ++m) {
        const auto state = static_cast<std::uint32_t>(static_cast<std::int64_t>(item.state) +
                                                      static_cast<std::int64_t>(m->shift) * e.stride[uj]);
        const std::uint64_t digits = (item.digits & ~(kDigitMask << (kDigitBits * j))) |
                                     std::uint64_t{m->to_position} << (kDigitBits * j);
        visit(Item{state, item.entry, digits});
      }
    }
    for (const int i : rows_.active_rows()) {
      if (which == Slides::ExitRow && i != t_.exit_row) continue;
      const auto ui = static_cast<std::size_t>(i);
      const int from = c.row[ui];
      const int crossing = (static_cast<int>(vertical >> (i * n)) & (masks - 1)) | static_cast<int>(rows_.walls_of_row(i));
      const SlideTable& row_slides = i == t_.exit_row ? all_slides : slides;  // the target car leaves
      const LegalSlide* first = row_slides.first(from, masks, crossing);
      const LegalSlide* end = row_slides.last(from, masks, crossing);
      if (first == end) continue;
      // Every column's digit if row i's vehicles covered or left its cell in row i; a slide
      // takes it in the columns whose cell changed and keeps the rest (a column without
      // vehicles has digit 0 either way).
      std::uint64_t flipped = 0;
      for (const int j : active_columns_)
        flipped |= (toggled[static_cast<std::size_t>(j)] >> (8 * i) & 0xFF) << (kDigitBits * j);
      for (const LegalSlide* slide = first; slide != end; ++slide) {
        const LegalSlide& m = *slide;
        const std::uint32_t id = c.id + static_cast<std::uint32_t>(m.group_shift * rows_.stride(i));
        const std::uint32_t entry = slot_of_combo_[id];
        const Entry<Numbering>& to = entries_[entry];
        const std::uint64_t digits = (item.digits & ~m.changed_digits) | (flipped & m.changed_digits);
        visit(Item{to.offset + combination_state(digits, to.stride), entry, digits});
      }
    }
  }

 private:
  static int digit_of(const Item& item, int j) {
    return static_cast<int>(item.digits >> (kDigitBits * j) & kDigitMask);
  }

  // Calls visit(item) for every state of entry k, in numbering order.
  template <class Visit>
  void for_each_state_of(std::size_t k, Visit&& visit) const {
    const int n = t_.n;
    const Entry<Numbering>& e = entries_[k];
    std::array<std::uint64_t, kMaxN> digit{};
    const std::uint32_t end = offsets_[k + 1];
    for (std::uint32_t s = e.offset; s < end; ++s) {
      std::uint64_t packed = 0;
      for (int j = 0; j < n; ++j) packed |= digit[static_cast<std::size_t>(j)] << (kDigitBits * j);
      visit(Item{s, static_cast<std::uint32_t>(k), packed});
      for (int j = n - 1; j >= 0; --j) {  // the last column's digit runs fastest
        const auto uj = static_cast<std::size_t>(j);
        if (++digit[uj] < e.radix[uj]) break;
        digit[uj] = 0;
      }
    }
  }

  const LineTables& t_;
  const ItemRows& rows_;
  std::vector<std::uint32_t> slot_of_combo_;  // per row combination of the item, its entry in the class
  std::array<int, kMaxN> column_group_{};
  std::array<const std::uint8_t*, kMaxN> column_table_{};  // admitted_table(column_group_[j])
  std::vector<int> active_columns_;                        // the columns holding vehicles
  std::vector<Entry<Numbering>> entries_;
  std::vector<std::uint32_t> offsets_;  // per entry, plus the end
};

}  // namespace rushhour::class_engine
