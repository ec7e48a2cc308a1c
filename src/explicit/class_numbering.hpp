#pragma once
// The states of one class, numbered, and their moves. A class is a work item's row
// combinations (ItemRows) with one kind sequence per column; each of its row combinations (an
// entry) holds a block of consecutive state numbers, and a state's number inside its block is
// the dot product of its column digits (each column's position in the list of arrangements its
// mask admits) with the entry's strides. ClassNumbering numbers a class, lists the states of its
// winning entries, gives every state's neighbours by a step or a move and every state's
// explicit-engine key. It also splits a class whose lines fall into parts that never contest
// a cell (split()): the class is then the product of its parts' slices, and the search can run
// on one slice of it. The class solver searches over it. Internal to src/explicit/class_*.cpp.
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
  static constexpr std::uint64_t kMaxStride = kMaxCombinationStates;
};
struct WideNumbering {
  using Lane = std::uint32_t;
  using Lanes = Lane __attribute__((vector_size(32)));
  using Key = SampleKey;
  static constexpr std::size_t kAdmittedSlots = kWideAdmittedSlots;
  static constexpr std::uint64_t kMaxCombinationStates = 0xFFFF'FFFF;
  // combination_state takes a stride in two 15-bit halves.
  static constexpr std::uint64_t kMaxStride = (std::uint64_t{1} << 30) - 1;
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
  } else if constexpr (std::is_same_v<Lanes, WideNumbering::Lanes>) {
    // SSE2 has no 32-bit lane multiply: each stride is split into two 15-bit halves, each
    // taken by one 16-bit multiply-add, the second sum shifted into place. A stride is the
    // product of the radices of the columns after its own, at most seven of at most 15:
    // below 15^7 < 2^30. The sums are taken mod 2^32, exact as the state number is below it.
    const __m128i digit_lanes = _mm_unpacklo_epi8(_mm_cvtsi64_si128(static_cast<long long>(digits)), _mm_setzero_si128());
    __m128i low_strides, high_strides;
    std::memcpy(&low_strides, &stride, sizeof low_strides);
    std::memcpy(&high_strides, reinterpret_cast<const char*>(&stride) + sizeof low_strides, sizeof high_strides);
    const __m128i part = _mm_set1_epi32(0x7FFF);
    const auto bits = [&](int shift) {
      return _mm_packs_epi32(_mm_and_si128(_mm_srli_epi32(low_strides, shift), part),
                             _mm_and_si128(_mm_srli_epi32(high_strides, shift), part));
    };
    __m128i sum = _mm_madd_epi16(digit_lanes, bits(0));
    sum = _mm_add_epi32(sum, _mm_slli_epi32(_mm_madd_epi16(digit_lanes, bits(15)), 15));
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

// A set of lines: bit i is row i, bit n + j column j.
using LineSet = std::uint32_t;
constexpr LineSet kEveryLine = ~LineSet{0};

// What makes a part's slice what it is, whatever the rest of its class: its lines, their
// kind sequences and the cells of each that the other parts' vehicles (as in state 0) and the
// walls hold. Two parts of one shape have the same slice graph (ClassNumbering::part_shape).
struct PartShape {
  LineSet lines = 0;
  std::array<std::uint32_t, 2 * kMaxN> line{};  // per line of the part: group << 16 | walls << 8 | held cells
  friend bool operator==(const PartShape&, const PartShape&) = default;
};
struct PartShapeHash {
  std::size_t operator()(const PartShape& shape) const {
    std::uint64_t h = shape.lines * 0x9E3779B97F4A7C15u;
    for (const std::uint32_t v : shape.line) h = (h ^ v) * 0x100000001B3u;
    return static_cast<std::size_t>(h ^ h >> 29);
  }
};

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
        if (size > Numbering::kMaxStride) throw std::logic_error("class engine: a column's stride above its numbering's");
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
    parts_.clear();
    use_lines(kEveryLine);
    return total;
  }

  // After number(): splits the class's lines that move (hold more than one arrangement in the
  // class) into parts, a row and a column in one part if a vehicle of each covers their
  // common cell in some state. Vehicles of different parts never meet, so the class is the
  // product of its parts' slices (a state is one state of each), a slide changes one part
  // only, and a state's index is that of its exit row's part: the other parts' slides change
  // no distance to the winning states. Leaves the exit row's part in use (use_lines), and
  // returns whether there are other parts.
  bool split() {
    const int n = t_.n;
    // Per column, the rows its crossing vehicles and walls cover in some entry (the union of
    // the masks) and in every entry (their intersection). A row moves iff its cells differ
    // between entries (a kind sequence's arrangement is its cells); a column's vehicles cover
    // at most the cells its arrangements admitted by the intersection cover, and it moves only
    // if that admits two. Both may overstate what moves and meets: parts are then merged,
    // never wrongly split.
    std::uint64_t union_masks = 0, common_masks = ~std::uint64_t{0};
    static_assert(sizeof(Combo::column_mask) == sizeof(std::uint64_t));
    for (const Entry<Numbering>& e : entries_) {
      std::uint64_t masks;
      std::memcpy(&masks, e.combo.column_mask.data(), sizeof masks);
      union_masks |= masks;
      common_masks &= masks;
    }
    const auto column_byte = [](std::uint64_t masks, int j) { return static_cast<int>(masks >> (8 * j) & 0xFF); };
    LineSet moving = 0;
    for (const int i : rows_.active_rows())
      if (((union_masks ^ common_masks) >> i & 0x0101010101010101u) != 0) moving |= LineSet{1} << i;
    std::array<std::uint32_t, kMaxN> column_cover{};
    for (const int j : active_columns_) {
      const auto uj = static_cast<std::size_t>(j);
      const int common = column_byte(common_masks, j);
      column_cover[uj] = t_.admitted_cells(column_group_[uj], common);
      if (t_.admitted(column_group_[uj], common).size() > 1) moving |= LineSet{1} << (n + j);
    }
    // Union-find over the lines that move (a line that does not never meets another line's
    // vehicles: its cells are theirs in no state): rows 0..n-1, then the columns.
    std::array<int, 2 * kMaxN> part;
    for (int l = 0; l < 2 * n; ++l) part[static_cast<std::size_t>(l)] = l;
    const auto find = [&part](int l) {
      while (part[static_cast<std::size_t>(l)] != l) l = part[static_cast<std::size_t>(l)];
      return l;
    };
    for (const int i : rows_.active_rows())
      for (const int j : active_columns_)
        if ((column_byte(union_masks, j) & column_cover[static_cast<std::size_t>(j)]) >> i & 1)
          part[static_cast<std::size_t>(find(n + j))] = find(i);
    // The exit row's part first, then the others in the order of their first line; the lines
    // that do not move in none (their slides are none).
    parts_.clear();
    std::array<int, 2 * kMaxN> part_of{};
    part_of.fill(-1);
    const auto add = [&](int line) {
      int& p = part_of[static_cast<std::size_t>(find(line))];
      if (p < 0) {
        p = static_cast<int>(parts_.size());
        parts_.push_back(0);
      }
      parts_[static_cast<std::size_t>(p)] |= LineSet{1} << line;
    };
    add(t_.exit_row);
    for (const int i : rows_.active_rows())
      if (moving >> i & 1) add(i);
    for (const int j : active_columns_)
      if (moving >> (n + j) & 1) add(n + j);
    use_lines(parts_[0]);
    if (parts_.size() == 1) {
      parts_.clear();
      return false;
    }
    // State 0's column arrangements: a slice holds the lines outside its part at state 0's.
    for (int j = 0; j < n; ++j) {
      const auto uj = static_cast<std::size_t>(j);
      first_column_[uj] = t_.admitted(column_group_[uj], entries_[0].combo.column_mask[uj])[0];
    }
    return true;
  }

  // After a split(): its parts, the exit row's first (each a set of lines with vehicles).
  const std::vector<LineSet>& parts() const { return parts_; }

  // Only the slides of `lines` from now on; and while they are a split class's main part,
  // for_each_winning_state lists only the main slice's winning states.
  void use_lines(LineSet lines) {
    const int n = t_.n;
    slide_lines_ = lines;
    slide_rows_.clear();
    slide_columns_.clear();
    for (const int i : rows_.active_rows())
      if (lines >> i & 1) slide_rows_.push_back(i);
    for (const int j : active_columns_)
      if (lines >> (n + j) & 1) slide_columns_.push_back(j);
  }

  std::size_t entry_count() const { return entries_.size(); }
  // Gives the item's and the class's arrays back (after a heavy item).
  void release() {
    std::vector<std::uint32_t>().swap(slot_of_combo_);
    std::vector<Entry<Numbering>>().swap(entries_);
    std::vector<std::uint32_t>().swap(offsets_);
  }
  // What a search of the whole class other than ClassSearch reads (class_bit_search.hpp).
  const std::vector<Entry<Numbering>>& entries() const { return entries_; }
  const std::vector<int>& active_columns() const { return active_columns_; }
  const std::vector<int>& slide_rows() const { return slide_rows_; }
  int column_group(int j) const { return column_group_[static_cast<std::size_t>(j)]; }
  std::uint32_t entry_of_combo(std::uint32_t id) const { return slot_of_combo_[id]; }
  const LineTables& tables() const { return t_; }
  const ItemRows& rows() const { return rows_; }

  // The shape of the part `lines` of the class split last.
  PartShape part_shape(LineSet lines) const {
    const int n = t_.n;
    PartShape shape;
    shape.lines = lines;
    const std::uint32_t part_rows = lines & ((1u << n) - 1);
    for (int i = 0; i < n; ++i) {
      if (!(lines >> i & 1)) continue;
      std::uint32_t held = rows_.walls_of_row(i);
      for (const int j : active_columns_)
        if (!(lines >> (n + j) & 1)) held |= (t_.lines[first_column_[static_cast<std::size_t>(j)]].occupied >> i & 1u) << j;
      shape.line[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(rows_.group(i)) << 16 | rows_.walls_of_row(i) << 8 | held;
    }
    for (int j = 0; j < n; ++j) {
      if (!(lines >> (n + j) & 1)) continue;
      std::uint32_t walls = 0;
      for (int i = 0; i < n; ++i) walls |= (rows_.walls_of_row(i) >> j & 1u) << i;
      const std::uint32_t held = (entries_[0].combo.column_mask[static_cast<std::size_t>(j)] & ~part_rows) | walls;
      shape.line[static_cast<std::size_t>(n + j)] =
          static_cast<std::uint32_t>(column_group_[static_cast<std::size_t>(j)]) << 16 | walls << 8 | held;
    }
    return shape;
  }

  // The place of a state of the slice of the lines in use among its entry's states in that
  // slice: the digits of those lines' columns in mixed radix, the last column fastest (the
  // order for_each_slice_state lists them in).
  std::uint32_t slice_position(const Item& item) const {
    const Entry<Numbering>& e = entries_[item.entry];
    std::uint32_t position = 0;
    for (const int j : slide_columns_)
      position = position * e.radix[static_cast<std::size_t>(j)] + static_cast<std::uint32_t>(digit_of(item, j));
    return position;
  }

  // The fields of `lines` in key_of's keys.
  SampleKey key_mask(LineSet lines) const {
    const int n = t_.n;
    const SampleKey field = (SampleKey{1} << t_.key_bits) - 1;
    SampleKey mask = 0;
    for (int l = 0; l < 2 * n; ++l)
      if (lines >> l & 1) mask |= field << (t_.key_bits * (2 * n - 1 - l));
    return mask;
  }

  // Calls visit(item) for every state of the slice of `lines` (a part of a split class): the
  // states whose other lines hold state 0's arrangements, in numbering order (ascending); only
  // the winning ones if `winning`.
  template <class Visit>
  void for_each_slice_state(LineSet lines, bool winning, Visit&& visit) const {
    const int n = t_.n;
    std::array<int, kMaxN> free_columns;
    int free_count = 0;
    for (const int j : active_columns_)
      if (lines >> (n + j) & 1) free_columns[static_cast<std::size_t>(free_count++)] = j;
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      const Entry<Numbering>& e = entries_[k];
      const Combo& c = e.combo;
      if ((winning && !c.winning) || !in_slice(k, lines)) continue;
      std::array<std::uint8_t, kMaxN> digit{};
      for (const int j : active_columns_) {
        const auto uj = static_cast<std::size_t>(j);
        if (lines >> (n + j) & 1) continue;
        const int position = t_.position(first_column_[uj], c.column_mask[uj]);
        if (position < 0) throw std::logic_error("class engine: a split class is not a product");
        digit[uj] = static_cast<std::uint8_t>(position);
      }
      // An odometer over the free columns, the last one fastest: ascending state numbers.
      while (true) {
        std::uint64_t packed = 0;
        std::uint32_t state = e.offset;
        for (int j = 0; j < n; ++j) {
          const auto uj = static_cast<std::size_t>(j);
          packed |= std::uint64_t{digit[uj]} << (kDigitBits * j);
          state += digit[uj] * static_cast<std::uint32_t>(e.stride[uj]);
        }
        visit(Item{state, static_cast<std::uint32_t>(k), packed});
        int f = free_count - 1;
        for (; f >= 0; --f) {
          const auto uj = static_cast<std::size_t>(free_columns[static_cast<std::size_t>(f)]);
          if (++digit[uj] < e.radix[uj]) break;
          digit[uj] = 0;
        }
        if (f < 0) break;
      }
    }
  }

  // The states of the slice of `lines`, counted without listing them.
  std::uint64_t slice_states(LineSet lines) const {
    const int n = t_.n;
    std::uint64_t total = 0;
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      const Entry<Numbering>& e = entries_[k];
      if (!in_slice(k, lines)) continue;
      std::uint64_t size = 1;
      for (const int j : active_columns_)
        if (lines >> (n + j) & 1) size *= e.radix[static_cast<std::size_t>(j)];
      total += size;
    }
    return total;
  }

  std::uint64_t states() const { return offsets_.empty() ? 0 : offsets_.back(); }  // of the class numbered last

  // Calls visit(item) for every state of the class's winning entries, in numbering order (with
  // a split class's main part in use, of the main slice's).
  template <class Visit>
  void for_each_winning_state(Visit&& visit) const {
    if (!parts_.empty() && slide_lines_ == parts_[0]) {
      for_each_slice_state(parts_[0], true, visit);
      return;
    }
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
  // the slides `which` names, by the lines in use (use_lines). Without kNumbered, a
  // neighbour by a row slide comes with its entry and digits but state 0 (its number is the
  // dearest part, and a part's union-find places it by slice_position).
  template <bool kNumbered = true, class Visit>
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
    for (const int j : slide_columns_) {
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
    for (const int i : slide_rows_) {
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
        if constexpr (kNumbered)
          visit(Item{to.offset + combination_state(digits, to.stride), entry, digits});
        else
          visit(Item{0, entry, digits});
      }
    }
  }

 private:
  // Whether entry k holds states of the slice of `lines`: its rows outside them hold state 0's
  // arrangements (and it holds states at all).
  bool in_slice(std::size_t k, LineSet lines) const {
    if (offsets_[k + 1] == offsets_[k]) return false;
    const Combo& c = entries_[k].combo;
    const Combo& first = entries_[0].combo;
    for (const int i : rows_.active_rows())
      if (!(lines >> i & 1) && c.row[static_cast<std::size_t>(i)] != first.row[static_cast<std::size_t>(i)]) return false;
    return true;
  }

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
  // split(): its parts and state 0's column arrangements; use_lines(): the lines that slide.
  std::vector<LineSet> parts_;
  std::array<int, kMaxN> first_column_{};
  LineSet slide_lines_ = kEveryLine;
  std::vector<int> slide_rows_, slide_columns_;
  std::vector<Entry<Numbering>> entries_;
  std::vector<std::uint32_t> offsets_;  // per entry, plus the end
};

}  // namespace rushhour::class_engine
