#include "explicit/class_engine.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <unistd.h>

#include "board/board.hpp"
#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/lines.hpp"
#include "board/search.hpp"
#include "util/clock.hpp"
#include "util/process.hpp"

namespace rushhour {
namespace {

constexpr std::uint8_t kUnreached = 0xFF;
constexpr int kMaxStoredIndex = kUnreached - 1;
constexpr int kIndexSlots = 256;
constexpr int kMaxN = kMaxClassEngineSize;

// a += b, refusing to wrap: sums over classes can pass 2^64 on 8x8.
void add_exact(std::uint64_t& a, std::uint64_t b) {
  if (__builtin_add_overflow(a, b, &a))
    throw std::overflow_error("class engine: a sum of configurations exceeds 2^64");
}


// The bits of one line's field in a sample key: enough for every arrangement of a line.
int key_bits_of(const LineTable& lines) {
  int bits = 1;
  while ((1 << bits) < lines.size()) ++bits;
  return bits;
}

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
  LineTables(const Rules& rules, std::size_t admitted_slots_in)
      : n(rules.size()), exit_row(rules.exit_row()), lines(n), admitted_slots(admitted_slots_in) {
    key_bits = key_bits_of(lines);
    masks = 1 << n;
    const int count = lines.size();
    group_of.resize(static_cast<std::size_t>(count));
    group_pos.resize(static_cast<std::size_t>(count));
    std::vector<std::vector<int>> sequences;  // the kind sequence (lengths) of each group
    for (int a = 0; a < count; ++a) {
      std::vector<int> sequence;
      for (const Segment& s : lines[a].segments) sequence.push_back(s.length);
      auto it = std::find(sequences.begin(), sequences.end(), sequence);
      if (it == sequences.end()) {
        sequences.push_back(sequence);
        members.emplace_back();
        group_cars.push_back(lines[a].cars);
        group_trucks.push_back(lines[a].trucks);
        exit_ok.push_back(!sequence.empty() && sequence.back() == kCar &&
                          (rules.domain() == Domain::All || puzzle_line(lines[a], n, true)));
        // The puzzle domain: the arrangements of a kind sequence fill the line all or none.
        line_ok.push_back(rules.domain() == Domain::All || puzzle_line(lines[a], n, false));
        it = sequences.end() - 1;
      }
      const auto g = static_cast<std::size_t>(it - sequences.begin());
      group_of[static_cast<std::size_t>(a)] = static_cast<int>(g);
      group_pos[static_cast<std::size_t>(a)] = static_cast<int>(members[g].size());
      members[g].push_back(a);
    }
    groups = static_cast<int>(members.size());

    compat.assign(static_cast<std::size_t>(groups * masks), {});
    admitted_flat.assign(static_cast<std::size_t>(groups * masks) * admitted_slots, 0);
    compat_pos.assign(static_cast<std::size_t>(count * masks), -1);
    for (int g = 0; g < groups; ++g)
      for (int m = 0; m < masks; ++m)
        for (int a : members[static_cast<std::size_t>(g)])
          if ((lines[a].occupied & static_cast<std::uint32_t>(m)) == 0) {
            auto& list = compat[static_cast<std::size_t>(g * masks + m)];
            compat_pos[static_cast<std::size_t>(a * masks + m)] = static_cast<std::int8_t>(list.size());
            if (list.size() >= admitted_slots) throw std::logic_error("class engine: a line admits too many arrangements");
            admitted_flat[static_cast<std::size_t>(g * masks + m) * admitted_slots + list.size()] =
                static_cast<std::uint8_t>(a);
            list.push_back(static_cast<std::uint8_t>(a));
          }

    toggled.assign(static_cast<std::size_t>(count * masks), 0);
    for (int a = 0; a < count; ++a)
      for (int m = 0; m < masks; ++m)
        for (int i = 0; i < n; ++i)
          toggled[static_cast<std::size_t>(a * masks + m)] |=
              static_cast<std::uint64_t>(std::max(0, position(a, m ^ (1 << i)))) << (8 * i);

    free_arrangements.assign(static_cast<std::size_t>(masks), 0);
    for (int m = 0; m < masks; ++m)
      for (int a = 0; a < count; ++a)
        if ((lines[a].occupied & static_cast<std::uint32_t>(m)) == 0) ++free_arrangements[static_cast<std::size_t>(m)];

    // The mirror: a line read backwards (a column of the board reflected top to bottom).
    reflected.resize(static_cast<std::size_t>(count));
    for (int a = 0; a < count; ++a) reflected[static_cast<std::size_t>(a)] = lines.reversed(a);
    for (int g = 0; g < groups; ++g)
      mirror_group.push_back(group_of[static_cast<std::size_t>(reflected[static_cast<std::size_t>(members[static_cast<std::size_t>(g)][0])])]);

    row_cells.assign(static_cast<std::size_t>(n * count), 0);
    col_cells.assign(static_cast<std::size_t>(n * count), 0);
    for (int kind = 0; kind < 4; ++kind) {
      const bool by_moves = kind & 1, forward_only = kind & 2;
      SlideTable& table = forward_only ? (by_moves ? forward_moves : forward_steps) : (by_moves ? legal_moves : legal_steps);
      for (int a = 0; a < count; ++a)
        for (int crossing = 0; crossing < masks; ++crossing) {
          table.begin.push_back(static_cast<std::uint32_t>(table.slides.size()));
          const int from = compat_pos[static_cast<std::size_t>(a * masks + crossing)];
          for (const LineMove& m : lines.moves(a)) {
            if ((m.distance != 1 && !by_moves) || (m.swept & static_cast<std::uint32_t>(crossing))) continue;
            if (forward_only && m.to < a) continue;
            const int to = compat_pos[static_cast<std::size_t>(m.to * masks + crossing)];
            std::uint64_t changed_digits = 0;
            for (int k = 0; k < n; ++k)
              if ((lines[a].occupied ^ lines[m.to].occupied) >> k & 1) changed_digits |= std::uint64_t{0xFF} << (8 * k);
            table.slides.push_back({static_cast<std::uint8_t>(m.to), static_cast<std::uint8_t>(std::max(to, 0)),
                                    static_cast<std::int8_t>(to - from),
                                    static_cast<std::int8_t>(group_pos[m.to] - group_pos[a]), changed_digits});
          }
        }
      table.begin.push_back(static_cast<std::uint32_t>(table.slides.size()));
    }
    for (int a = 0; a < count; ++a) {
      for (int line = 0; line < n; ++line)
        for (int k = 0; k < n; ++k)
          if (lines[a].occupied >> k & 1) {
            row_cells[static_cast<std::size_t>(line * count + a)] |= std::uint64_t{1} << (line * n + k);
            col_cells[static_cast<std::size_t>(line * count + a)] |= std::uint64_t{1} << (k * n + line);
          }
    }
  }

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
  std::vector<std::uint64_t> free_arrangements;   // [mask]: arrangements (any group) clear of it
  std::vector<int> reflected;                     // [arrangement]: the line read backwards
  std::vector<int> mirror_group;                  // [group]: the group of its reversed sequence
  // [arrangement * masks + mask]: byte i = position(arrangement, mask ^ (1 << i)), 0 where
  // not admitted: a column's digit after row i's vehicle enters or leaves its cell.
  std::vector<std::uint64_t> toggled;
  SlideTable legal_steps, legal_moves;  // [arrangement * masks + crossing mask]
  // The same, only the slides to a higher arrangement: of a slide and its reverse, one.
  SlideTable forward_steps, forward_moves;
  std::vector<std::uint64_t> row_cells, col_cells;  // [line * count + arrangement]: board cells
};

// One row combination of a work item: an arrangement per row.
struct Combo {
  std::array<std::uint8_t, kMaxN> row{};
  std::array<std::uint8_t, kMaxN> column_mask{};  // per column: rows covered by horizontals
  std::uint32_t id = 0;                            // mixed radix over the rows' group positions
  bool winning = false;
};

// A state's number inside its row combination is the dot product of its column digits with
// the combination's strides. A horizontal move changes the radices, so every neighbour by a
// horizontal move needs the whole product: it is taken on all columns at once, in lanes of a
// GCC/Clang vector extension. Up to 6x6, 16-bit lanes suffice: a column admits at most 6
// arrangements of its kind sequence, so a combination holds at most 6^6 < 2^16 states. 7x7
// and 8x8 columns admit up to 10 and 15 (15^8 < 2^32): 32-bit lanes, twice the width.
using DigitBytes = std::uint8_t __attribute__((vector_size(8)));
static_assert(std::endian::native == std::endian::little, "digit j is byte j of Item::digits");
static_assert(kMaxN <= 8, "a column's digit is one byte of Item::digits");

struct NarrowNumbering {
  using Lane = std::uint16_t;
  using Lanes = Lane __attribute__((vector_size(16)));
  using Key = std::uint64_t;  // 2n lines of 5 bits
  static constexpr std::size_t kAdmittedSlots = 8;
  static constexpr std::uint64_t kMaxCombinationStates = 0xFFFF;
};
struct WideNumbering {
  using Lane = std::uint32_t;
  using Lanes = Lane __attribute__((vector_size(32)));
  using Key = SampleKey;
  static constexpr std::size_t kAdmittedSlots = 16;
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
// Solving a class takes per state: its index and its component's top index (a byte each), its
// union-find parent (4 bytes) and its queue entry.
constexpr std::uint64_t kBytesPerState = 2 + 4 + sizeof(Item);
// Per row combination of a work item: the combination, its slot, its entries in the column
// search's levels, its Entry if kept in the class (an upper bound).
constexpr std::uint64_t kBytesPerCombo = sizeof(Combo) + 4 + 4 * (kMaxN + 1) + 96 + 4;

// Σ_j digit_j · stride_j.
template <class Lanes>
inline std::uint32_t combination_state(std::uint64_t digits, const Lanes& stride) {
  DigitBytes bytes;
  std::memcpy(&bytes, &digits, sizeof bytes);
  Lanes sum = __builtin_convertvector(bytes, Lanes) * stride;
  sum += __builtin_shufflevector(sum, sum, 4, 5, 6, 7, 0, 1, 2, 3);
  sum += __builtin_shufflevector(sum, sum, 2, 3, 0, 1, 2, 3, 0, 1);
  sum += __builtin_shufflevector(sum, sum, 1, 0, 1, 0, 1, 0, 1, 0);
  return sum[0];
}

struct Tallies {
  int max_trucks = 0;
  std::vector<VehicleTally> by_vehicles;
  VehicleTally& at(int cars, int trucks) {
    return by_vehicles[static_cast<std::size_t>(cars * (max_trucks + 1) + trucks)];
  }
};

// Per thread: what a sweep's worker has found, read by the sweep between items.
class WorkerFigures {
 public:
  WorkerFigures(const ClassEngineOptions& options, int max_cars, int max_trucks) : options_(options) {
    tallies_.max_trucks = max_trucks;
    tallies_.by_vehicles.resize(static_cast<std::size_t>((max_cars + 1) * (max_trucks + 1)));
    for (VehicleTally& v : tallies_.by_vehicles) {
      v.count.assign(kIndexSlots, 0);
      v.nondominated.assign(kIndexSlots, 0);
      v.components.assign(kIndexSlots, 0);
    }
    best_.resize(kIndexSlots);
    touched_.assign(tallies_.by_vehicles.size(), false);
  }
  virtual ~WorkerFigures() = default;
  WorkerFigures(const WorkerFigures&) = delete;
  WorkerFigures& operator=(const WorkerFigures&) = delete;

  // Solves every class of work item `item` (or refuses the item, adding nothing).
  virtual void run_item(std::uint64_t item) = 0;

  std::uint64_t classes() const { return classes_.load(std::memory_order_relaxed); }
  std::uint64_t states() const { return states_.load(std::memory_order_relaxed); }
  Tallies& tallies() { return tallies_; }
  // Per index, the least keys seen (up to K), for indices >= own highest - T + 1.
  const std::vector<std::vector<SampleKey>>& best_keys() const { return best_; }
  int highest() const { return highest_; }  // for the samples' threshold
  // The highest index this worker has met (highest_ only counts while samples are taken).
  int highest_index() const { return highest_index_; }
  const std::vector<std::uint64_t>& refused() const { return refused_; }
  const std::array<ClassSizeBucket, 64>& class_sizes() const { return sizes_; }
  const std::array<ClassSizeBucket, 64>& solver_class_sizes() const { return solver_sizes_; }
  // The cluster records found since the last call (options.on_clusters), and forgets them.
  ClusterRecords take_clusters() { return std::exchange(clusters_, {}); }
  std::uint64_t largest_class() const { return largest_solved_; }

  // The figures found since the last call, as the state of work item `item` alone, and
  // forgets them. Only the (cars, trucks) pairs the item met get figures. Its samples are
  // those of its indices that were among the worker's T highest when met: every index that
  // can be among the T highest of a sweep holding the item. A refused item is done and
  // listed as refused, with no figures.
  ClassSweepState take_item(std::uint64_t item, std::uint64_t items) {
    ClassSweepState delta;
    delta.items = items;
    if (item == 0) delta.next_item = 1;
    else delta.later_items.push_back({item, item + 1});
    delta.refused = std::exchange(refused_, {});
    const std::uint64_t classes = classes_.load(std::memory_order_relaxed);
    const std::uint64_t states = states_.load(std::memory_order_relaxed);
    delta.classes = classes - taken_classes_;
    delta.states = states - taken_states_;
    taken_classes_ = classes;
    taken_states_ = states;
    delta.highest = item_highest_;
    const auto slots = static_cast<std::size_t>(item_highest_ + 1);
    delta.tallies.resize(tallies_.by_vehicles.size());
    for (std::size_t v = 0; v < touched_.size(); ++v) {
      if (!touched_[v]) continue;
      touched_[v] = false;
      VehicleTally& from = tallies_.by_vehicles[v];
      VehicleTally& to = delta.tallies[v];
      to.domain = std::exchange(from.domain, 0);
      for (auto [source, target] : {std::pair{&from.count, &to.count}, std::pair{&from.nondominated, &to.nondominated},
                                    std::pair{&from.components, &to.components}}) {
        target->assign(source->begin(), source->begin() + static_cast<std::ptrdiff_t>(slots));
        std::fill(source->begin(), source->begin() + static_cast<std::ptrdiff_t>(slots), 0);
      }
    }
    delta.sample_keys.resize(slots);
    for (std::size_t i = 0; i < slots; ++i) delta.sample_keys[i] = std::move(best_[i]), best_[i].clear();
    item_highest_ = 0;
    return delta;
  }

 protected:
  // Offers `key` for index `index`'s samples (highest_ already covers index).
  void offer_sample(std::vector<SampleKey>& best, SampleKey key) const {
    const auto cap = static_cast<std::size_t>(options_.samples_per_index);
    if (best.size() == cap && key >= best.back()) return;
    const auto at = std::lower_bound(best.begin(), best.end(), key);
    if (at != best.end() && *at == key) return;  // a self-mirrored state met as its own image
    best.insert(at, key);
    if (best.size() > cap) best.pop_back();
  }

  const ClassEngineOptions& options_;
  Tallies tallies_;
  std::atomic<std::uint64_t> classes_{0};  // read by the progress reports
  std::atomic<std::uint64_t> states_{0};
  int highest_ = 0;
  int highest_index_ = 0;
  std::vector<std::vector<SampleKey>> best_;
  std::vector<std::uint64_t> refused_;
  // What take_item reports: the pairs with figures, the highest index since the last call,
  // the counters' values at the last call.
  std::vector<bool> touched_;
  int item_highest_ = 0;
  std::uint64_t taken_classes_ = 0, taken_states_ = 0;
  std::array<ClassSizeBucket, 64> sizes_{};
  std::array<ClassSizeBucket, 64> solver_sizes_{};
  std::uint64_t largest_solved_ = 0;
  ClusterRecords clusters_;
};

// The bounds a work item must fit, per thread.
struct ItemBounds {
  std::uint64_t class_states = 0;  // states of one class
  std::uint64_t combos = 0;        // row combinations of one item
  std::uint64_t bytes = 0;         // the thread's share of the memory
};

// A class solved by the class solver, counted once its item is known to be taken.
struct SolvedElsewhere {
  int cars = 0, trucks = 0, weight = 1;
  ClassFigures figures;
  double cpu_seconds = 0;  // the solver's, on this thread
};

// The slides for_each_neighbour gives: all of them; from a winning state, every edge to
// another winning state from one end only (the slides off the exit row that lead to a higher
// arrangement), with every slide of the exit row; or only the exit row's slides (from a
// winning state: all that can lead out of the winning states, for a search without unions).
enum class Slides { All, WinningOnce, ExitRow };

template <class Numbering>
class Worker final : public WorkerFigures {
  using Lanes = typename Numbering::Lanes;
  static constexpr std::size_t kAdmittedSlots = Numbering::kAdmittedSlots;

 public:
  Worker(const LineTables& t, const Rules& rules, const ClassEngineOptions& options, int max_cars,
         int max_trucks, bool mirror, ItemBounds bounds)
      : WorkerFigures(options, max_cars, max_trucks), t_(t), rules_(rules), mirror_(mirror), bounds_(bounds) {
    if (t.admitted_slots != kAdmittedSlots) throw std::logic_error("class engine: tables of another numbering");
  }

  // Work item `item`: the rows' kind sequences are the base-`groups` digits of item, row 0
  // most significant. Items outside the domain (no target car) hold no class.
  void run_item(std::uint64_t item) override {
    const int n = t_.n;
    const auto groups = static_cast<std::uint64_t>(t_.groups);
    std::array<int, kMaxN>& row_group = row_group_;
    std::uint64_t rest = item;
    for (int i = n - 1; i >= 0; --i) {
      row_group[static_cast<std::size_t>(i)] = static_cast<int>(rest % groups);
      rest /= groups;
    }
    if (!t_.exit_ok[static_cast<std::size_t>(row_group[static_cast<std::size_t>(t_.exit_row)])]) return;
    for (int i = 0; i < n; ++i)
      if (i != t_.exit_row && !t_.line_ok[static_cast<std::size_t>(row_group[static_cast<std::size_t>(i)])]) return;
    // The mirror item's classes are this item's classes reflected: the lesser item solves
    // both; an item that is its own mirror pairs its classes up inside (search_columns).
    std::uint64_t mirrored = 0;  // the item of the rows in reverse order
    for (int i = n - 1; i >= 0 && mirror_; --i)
      mirrored = mirrored * groups + static_cast<std::uint64_t>(row_group[static_cast<std::size_t>(i)]);
    if (mirror_ && mirrored < item) return;
    const bool own_mirror = !mirror_ || mirrored == item;
    row_cars_ = row_trucks_ = 0;
    active_rows_.clear();
    for (int i = 0; i < n; ++i)
      if (!t_.empty_group(row_group[static_cast<std::size_t>(i)])) active_rows_.push_back(i);
    std::uint64_t combos = 1;  // at most 15^8 on 8x8: no overflow
    std::array<std::uint64_t, kMaxN> row_stride{};
    for (int i = n - 1; i >= 0; --i) {
      const int g = row_group[static_cast<std::size_t>(i)];
      row_stride[static_cast<std::size_t>(i)] = combos;
      combos *= t_.members[static_cast<std::size_t>(g)].size();
      row_cars_ += t_.group_cars[static_cast<std::size_t>(g)];
      row_trucks_ += t_.group_trucks[static_cast<std::size_t>(g)];
    }
    if (!rules_.limits().allows(row_cars_, row_trucks_)) return;  // counts only grow
    if (combos > bounds_.combos) {  // bounds_.combos < 2^32: ids and strides fit 32 bits
      refused_.push_back(item);
      return;
    }
    for (int i = 0; i < n; ++i)
      row_stride_[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(row_stride[static_cast<std::size_t>(i)]);
    combos_.clear();
    std::uint64_t item_states = 0;  // of all the item's classes
    for (std::uint32_t id = 0; id < combos; ++id) {
      Combo c;
      c.id = id;
      std::uint64_t horizontal = 0;
      for (int i = 0; i < n; ++i) {
        const auto& m = t_.members[static_cast<std::size_t>(row_group[static_cast<std::size_t>(i)])];
        const int a = m[id / row_stride_[static_cast<std::size_t>(i)] % m.size()];
        c.row[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(a);
        horizontal |= t_.row_mask(i, a);
      }
      std::uint64_t columns = 1;
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i)
          if (horizontal >> (i * n + j) & 1) c.column_mask[static_cast<std::size_t>(j)] |= static_cast<std::uint8_t>(1u << i);
        columns *= t_.free_arrangements[c.column_mask[static_cast<std::size_t>(j)]];
      }
      item_states += columns;
      const LineArrangement& exit = t_.lines[c.row[static_cast<std::size_t>(t_.exit_row)]];
      c.winning = exit.segments.back().start == n - 2;
      combos_.push_back(c);
    }
    slot_of_combo_.assign(combos, 0);
    level_.resize(static_cast<std::size_t>(n + 1));
    level_[0].resize(combos);
    for (std::uint32_t k = 0; k < combos; ++k) level_[0][k] = k;
    // Only an item above the bound in all can hold a class above it (or one for the class
    // solver): then its classes are measured first, those for the class solver solved, and
    // the item is refused before anything is counted if a class fits neither path.
    const std::uint64_t explicit_limit =
        options_.class_solver ? std::min(bounds_.class_states, options_.solver_above) : bounds_.class_states;
    measured_ = item_states > explicit_limit;
    if (measured_) {
      largest_class_ = 0;
      refuse_ = false;
      solved_elsewhere_.clear();
      measuring_ = true;
      search_columns(0, row_cars_, row_trucks_, own_mirror);
      measuring_ = false;
      if (refuse_ || (!options_.class_solver && largest_class_ > bounds_.class_states)) {
        solved_elsewhere_.clear();
        refused_.push_back(item);
        return;
      }
      for (const SolvedElsewhere& solved : solved_elsewhere_) count_solved_elsewhere(solved);
      solved_elsewhere_.clear();
    }
    search_columns(0, row_cars_, row_trucks_, own_mirror);
  }

 private:
  // Columns j.. of the classes of the current item; cars and trucks so far. A choice that
  // breaks the vehicle limits is not followed (later columns only add vehicles). `undecided`:
  // the item is its own mirror and the columns so far are their own mirrors: a column whose
  // mirror group is less leads to classes whose mirrors are solved instead, one whose mirror
  // is greater to classes that are solved for both.
  void search_columns(int j, int cars, int trucks, bool undecided) {
    const int n = t_.n;
    if (j == n) {
      const int weight = undecided && mirror_ ? 1 : mirror_ ? 2 : 1;
      if (measuring_) {
        const std::uint64_t states = class_states();
        largest_class_ = std::max(largest_class_, states);
        if (!refuse_ && for_solver(states)) solve_elsewhere(cars, trucks, weight, states);
      } else if (!measured_ || !for_solver(class_states())) {
        solve_class(cars, trucks, weight);
      }
      return;
    }
    const std::vector<std::uint32_t>& from = level_[static_cast<std::size_t>(j)];
    std::vector<std::uint32_t>& kept = level_[static_cast<std::size_t>(j + 1)];
    for (int g = 0; g < t_.groups; ++g) {
      const int mirror_g = t_.mirror_group[static_cast<std::size_t>(g)];
      if (mirror_ && undecided && mirror_g < g) continue;
      if (!t_.line_ok[static_cast<std::size_t>(g)]) continue;
      const int more_cars = cars + t_.group_cars[static_cast<std::size_t>(g)];
      const int more_trucks = trucks + t_.group_trucks[static_cast<std::size_t>(g)];
      if (!rules_.limits().allows(more_cars, more_trucks)) continue;
      kept.clear();
      for (std::uint32_t k : from)
        if (!t_.admitted(g, combos_[k].column_mask[static_cast<std::size_t>(j)]).empty()) kept.push_back(k);
      if (kept.empty()) continue;
      column_group_[static_cast<std::size_t>(j)] = g;
      column_table_[static_cast<std::size_t>(j)] = t_.admitted_table(g);
      search_columns(j + 1, more_cars, more_trucks, undecided && mirror_g == g);
    }
  }

  // The states of the class of the kept row combinations (level_[n]).
  std::uint64_t class_states() const {
    const int n = t_.n;
    std::uint64_t total = 0;
    for (const std::uint32_t k : level_[static_cast<std::size_t>(n)]) {
      std::uint64_t size = 1;
      for (int j = 0; j < n; ++j)
        size *= t_.admitted(column_group_[static_cast<std::size_t>(j)], combos_[k].column_mask[static_cast<std::size_t>(j)]).size();
      total += size;
    }
    return total;
  }

  // Whether a class of this many states goes to the class solver.
  bool for_solver(std::uint64_t states) const {
    return options_.class_solver && (states > bounds_.class_states || states > options_.solver_above);
  }

  // The current class by the class solver, kept in solved_elsewhere_ until the item is known
  // to be taken; refuse_ if the solver cannot take it.
  void solve_elsewhere(int cars, int trucks, int weight, std::uint64_t states) {
    const int n = t_.n;
    ClassLines lines;
    lines.states = states;
    lines.with_mirror = weight == 2;
    lines.max_bytes = bounds_.bytes;
    auto sequence_of = [&](int group) {
      std::vector<int> lengths;
      for (const Segment& s : t_.lines[t_.members[static_cast<std::size_t>(group)][0]].segments) lengths.push_back(s.length);
      return lengths;
    };
    for (int i = 0; i < n; ++i) lines.sequences.push_back(sequence_of(row_group_[static_cast<std::size_t>(i)]));
    for (int j = 0; j < n; ++j) lines.sequences.push_back(sequence_of(column_group_[static_cast<std::size_t>(j)]));
    // The thread's share goes to the solver while this worker waits: its own arrays go.
    for (auto* bytes : {&index_, &top_}) std::vector<std::uint8_t>().swap(*bytes);
    std::vector<std::uint32_t>().swap(parent_);
    std::vector<Item>().swap(queue_);
    const double start = thread_cpu_seconds();
    std::optional<ClassFigures> figures = options_.class_solver(lines);
    if (!figures) {
      refuse_ = true;
      return;
    }
    if (figures->states != states || figures->count.size() != figures->nondominated.size() ||
        figures->count.size() != figures->components.size())
      throw std::logic_error("class engine: the class solver's figures do not fit the class (" +
                             std::to_string(figures->states) + " states of " + std::to_string(states) + ")");
    solved_elsewhere_.push_back({cars, trucks, weight, std::move(*figures), thread_cpu_seconds() - start});
  }

  // Counts a class the class solver solved like one solved here (solve_class_now).
  void count_solved_elsewhere(const SolvedElsewhere& solved) {
    const ClassFigures& f = solved.figures;
    const auto w = static_cast<std::uint64_t>(solved.weight);
    if (options_.measure_class_sizes) {
      ClassSizeBucket& bucket = solver_sizes_[static_cast<std::size_t>(std::bit_width(f.states) - 1)];
      ++bucket.classes;
      bucket.states += f.states;
      bucket.cpu_seconds += solved.cpu_seconds;
      largest_solved_ = std::max(largest_solved_, f.states);
    }
    if (f.count.size() > static_cast<std::size_t>(kMaxStoredIndex) + 1) throw std::runtime_error("an index exceeds 254");
    classes_.fetch_add(w, std::memory_order_relaxed);
    states_.fetch_add(f.states * w, std::memory_order_relaxed);
    VehicleTally& tally = tallies_.at(solved.cars, solved.trucks);
    touched_[static_cast<std::size_t>(solved.cars * (tallies_.max_trucks + 1) + solved.trucks)] = true;
    add_exact(tally.domain, w * f.states);
    for (std::size_t i = 0; i < f.count.size(); ++i) {
      add_exact(tally.count[i], w * f.count[i]);
      add_exact(tally.nondominated[i], w * f.nondominated[i]);
      add_exact(tally.components[i], w * f.components[i]);
    }
    if (f.count.empty()) return;  // no solvable state
    const int top = static_cast<int>(f.count.size()) - 1;
    highest_index_ = std::max(highest_index_, top);
    item_highest_ = std::max(item_highest_, top);
    if (options_.samples_per_index <= 0 || options_.sample_indices <= 0) return;
    // As note_samples, index by index upwards.
    for (int i = 0; i <= top; ++i) {
      highest_ = std::max(highest_, i);
      if (i < highest_ - options_.sample_indices + 1) continue;
      const auto ui = static_cast<std::size_t>(i);
      std::vector<SampleKey>& best = best_[ui];
      if (ui < f.least_keys.size())
        for (const SampleKey key : f.least_keys[ui]) offer_sample(best, key);
      if (solved.weight == 2 && ui < f.least_mirror_keys.size())
        for (const SampleKey key : f.least_mirror_keys[ui]) offer_sample(best, t_.mirror_key(key));
    }
  }

  // Solves the current class and counts it `weight` times (2: for its mirror image too).
  void solve_class(int cars, int trucks, int weight) {
    if (!options_.measure_class_sizes) {
      solve_class_now(cars, trucks, weight);
      return;
    }
    const double start = thread_cpu_seconds();
    const std::uint64_t states = solve_class_now(cars, trucks, weight);
    ClassSizeBucket& bucket = sizes_[static_cast<std::size_t>(std::bit_width(states) - 1)];
    ++bucket.classes;
    bucket.states += states;
    bucket.cpu_seconds += thread_cpu_seconds() - start;
    largest_solved_ = std::max(largest_solved_, states);
  }

  // Returns the class's states.
  std::uint64_t solve_class_now(int cars, int trucks, int weight) {
    const int n = t_.n;
    // A line without vehicles has no slides, and a column without vehicles keeps digit 0
    // whatever the rows do: the neighbour search skips both (a third of the lines on 6x6).
    active_columns_.clear();
    for (int j = 0; j < n; ++j)
      if (!t_.empty_group(column_group_[static_cast<std::size_t>(j)])) active_columns_.push_back(j);
    classes_.fetch_add(static_cast<std::uint64_t>(weight), std::memory_order_relaxed);

    const std::vector<std::uint32_t>& kept = level_[static_cast<std::size_t>(n)];
    entries_.resize(kept.size());
    offsets_.resize(kept.size() + 1);
    std::uint64_t total = 0;
    for (std::size_t k = 0; k < kept.size(); ++k) {
      Entry<Numbering>& e = entries_[k];
      e.combo = combos_[kept[k]];
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
      if (total > bounds_.class_states) throw std::logic_error("class engine: a class above the bound was not refused");
    }
    offsets_[kept.size()] = static_cast<std::uint32_t>(total);
    const auto states = static_cast<std::size_t>(total);
    states_.fetch_add(states * static_cast<std::uint64_t>(weight), std::memory_order_relaxed);

    // Breadth-first from the winning states for the indices. Every edge it meets also joins
    // the components of its two ends (union-find over parent_, roots are states), so no
    // second search is needed for the dominance figures.
    index_.assign(states, kUnreached);
    parent_.resize(states);
    queue_.resize(states);
    std::array<std::uint64_t, kIndexSlots> layer{};
    std::size_t tail = queue_winning_states();
    for (std::size_t q = 0; q < tail; ++q) parent_[queue_[q].state] = queue_[q].state;
    const bool by_moves = rules_.metric() == Metric::Move;
    // The queue holds the layers one after another: layer `index` is queue_[begin, end).
    for (std::size_t begin = 0, index = 0; begin < tail; ++index) {
      const std::size_t end = tail;
      layer[index] = end - begin;
      highest_index_ = std::max(highest_index_, static_cast<int>(index));
      item_highest_ = std::max(item_highest_, static_cast<int>(index));
      note_samples(static_cast<int>(index), begin, end, weight == 2);
      const int next = static_cast<int>(index) + 1;
      // A winning state's neighbours are winning (index 0, only a union to do), except where
      // the target car leaves the exit: each edge between two winning states off the exit
      // row is enumerated from one end only, the end where it leads to a higher arrangement.
      // A third of the solvable states are winning (SPEC), so this saves a sixth of the work.
      const bool winning = index == 0;
      for (std::size_t head = begin; head < end; ++head) {
        const Item item = queue_[head];
        const std::uint32_t root = find(item.state);
        for_each_neighbour(item, by_moves, winning ? Slides::WinningOnce : Slides::All, [&](const Item& to) {
          if (index_[to.state] == kUnreached) {
            index_[to.state] = static_cast<std::uint8_t>(next);
            parent_[to.state] = root;
            queue_[tail++] = to;
          } else if (index_[to.state] < next && parent_[to.state] != root) {
            // An edge to a higher index is met again from its other end, once that end is
            // dequeued; most ends found here hang right under `root` already.
            if (const std::uint32_t other = find(to.state); other != root) parent_[other] = root;
          }
        });
      }
      if (tail > end && next > kMaxStoredIndex) throw std::runtime_error("an index exceeds 254");
      begin = end;
    }

    const auto w = static_cast<std::uint64_t>(weight);
    VehicleTally& tally = tallies_.at(cars, trucks);
    touched_[static_cast<std::size_t>(cars * (tallies_.max_trucks + 1) + trucks)] = true;
    add_exact(tally.domain, w * states);
    for (int i = 0; i < kIndexSlots && layer[static_cast<std::size_t>(i)] != 0; ++i)
      add_exact(tally.count[static_cast<std::size_t>(i)], w * layer[static_cast<std::size_t>(i)]);

    // top_[r]: the highest index in the component of root r. Unsolvable states were never
    // queued; the queue holds exactly the solvable ones.
    top_.assign(states, 0);
    for (std::size_t q = 0; q < tail; ++q) {
      const std::uint32_t s = queue_[q].state;
      const std::uint32_t r = find(s);
      parent_[s] = r;
      top_[r] = std::max(top_[r], index_[s]);
    }
    // One addition of w <= 2 per solved state: these counters cannot pass 2^64 (the sums
    // of several workers' and runs' counters are added exactly).
    for (std::size_t q = 0; q < tail; ++q) {
      const std::uint32_t s = queue_[q].state;
      const std::uint32_t r = parent_[s];  // the root, since the loop above
      if (index_[s] == top_[r]) tally.nondominated[top_[r]] += w;
      if (r == s) tally.components[top_[r]] += w;
    }
    if (options_.on_clusters) note_clusters(cars, trucks, weight == 2, tail);
    return states;
  }

  // Queues the class's winning states (index 0) at the front of queue_; returns how many.
  std::size_t queue_winning_states() {
    std::size_t tail = 0;
    for (std::size_t k = 0; k < entries_.size(); ++k)
      if (entries_[k].combo.winning)
        for_each_state_of(k, [&](const Item& item) {
          index_[item.state] = 0;
          queue_[tail++] = item;
        });
    return tail;
  }

  // Appends a record of every component of the class just solved whose highest index is at
  // least cluster_min_index (its mirror image's too if `with_mirror`), in the order the
  // queue meets their roots. The queue's first `solvable` entries are the solvable states,
  // parent_ holds their roots and top_ their roots' highest indices.
  void note_clusters(int cars, int trucks, bool with_mirror, std::size_t solvable) {
    const auto least = static_cast<std::uint8_t>(std::min(options_.cluster_min_index, kMaxStoredIndex + 1));
    std::vector<ClusterRecord>& records = clusters_.records;
    std::vector<std::uint64_t>& histogram = clusters_.histogram;
    const std::size_t first = records.size();
    record_of_root_.resize(index_.size());
    histogram_at_.clear();
    for (std::size_t q = 0; q < solvable; ++q) {
      const std::uint32_t s = queue_[q].state;
      if (parent_[s] != s || top_[s] < least) continue;
      record_of_root_[s] = static_cast<std::uint32_t>(records.size() - first);
      records.push_back({.hardest = ~SampleKey{0}, .highest_index = top_[s],
                         .cars = static_cast<std::uint32_t>(cars), .trucks = static_cast<std::uint32_t>(trucks)});
      histogram_at_.push_back(histogram.size());
      histogram.resize(histogram.size() + top_[s] + 1u, 0);
    }
    const std::size_t added = records.size() - first;
    if (added == 0) return;
    mirror_hardest_.assign(with_mirror ? added : 0, ~SampleKey{0});
    for (std::size_t q = 0; q < solvable; ++q) {
      const std::uint32_t s = queue_[q].state;
      const std::uint32_t r = parent_[s];
      if (top_[r] < least) continue;
      const std::uint32_t k = record_of_root_[r];
      ClusterRecord& record = records[first + k];
      ++record.size;
      ++histogram[histogram_at_[k] + index_[s]];
      if (index_[s] == 0) ++record.winning;
      if (index_[s] != top_[r]) continue;
      ++record.hardest_count;
      const SampleKey key = key_of(queue_[q]);
      record.hardest = std::min(record.hardest, key);
      if (with_mirror) mirror_hardest_[k] = std::min(mirror_hardest_[k], t_.mirror_key(key));
    }
    // The mirror class is counted with this one: its clusters are these reflected, with the
    // same figures.
    for (std::size_t k = 0; k < mirror_hardest_.size(); ++k) {
      ClusterRecord image = records[first + k];
      image.hardest = mirror_hardest_[k];
      records.push_back(image);
      const auto from = static_cast<std::ptrdiff_t>(histogram_at_[k]);
      histogram.insert(histogram.end(), histogram.begin() + from,
                       histogram.begin() + from + static_cast<std::ptrdiff_t>(image.highest_index) + 1);
    }
    if (options_.cluster_both_metrics) note_other_metric(first, added, with_mirror, solvable, least);
  }

  // The other metric's figures of the records [first, first + added) note_clusters just
  // appended (their mirror images, if any, follow them): a breadth-first search under it from
  // the same winning states. A cluster is the same component under both metrics, so parent_
  // (every solvable state's root, compressed) and record_of_root_ still name each state's
  // record; index_ and queue_ are reused, the first search's figures being taken.
  void note_other_metric(std::size_t first, std::size_t added, bool with_mirror, std::size_t solvable,
                         std::uint8_t least) {
    const bool by_moves = rules_.metric() != Metric::Move;
    std::fill(index_.begin(), index_.end(), kUnreached);
    std::size_t tail = queue_winning_states();
    for (std::size_t begin = 0, index = 0; begin < tail; ++index) {
      const std::size_t end = tail;
      const int next = static_cast<int>(index) + 1;
      // Without unions to do, a winning state's slides that keep it winning are not needed.
      const Slides slides = index == 0 ? Slides::ExitRow : Slides::All;
      for (std::size_t head = begin; head < end; ++head)
        for_each_neighbour(queue_[head], by_moves, slides, [&](const Item& to) {
          if (index_[to.state] != kUnreached) return;
          index_[to.state] = static_cast<std::uint8_t>(next);
          queue_[tail++] = to;
        });
      if (tail > end && next > kMaxStoredIndex) throw std::runtime_error("an index exceeds 254");
      begin = end;
    }
    if (tail != solvable) throw std::logic_error("class engine: the two metrics reach different states");
    std::vector<ClusterRecord>& records = clusters_.records;
    std::vector<std::uint64_t>& histogram = clusters_.other_histogram;
    // The queue holds the states by ascending index: a record's last one has its highest.
    for (std::size_t q = 0; q < tail; ++q) {
      const std::uint32_t s = queue_[q].state;
      const std::uint32_t r = parent_[s];
      if (top_[r] >= least) records[first + record_of_root_[r]].other_highest_index = index_[s];
    }
    histogram_at_.resize(added);
    for (std::size_t k = 0; k < added; ++k) {
      ClusterRecord& record = records[first + k];
      record.other_hardest = ~SampleKey{0};
      histogram_at_[k] = histogram.size();
      histogram.resize(histogram.size() + record.other_highest_index + 1u, 0);
    }
    mirror_hardest_.assign(with_mirror ? added : 0, ~SampleKey{0});
    for (std::size_t q = 0; q < tail; ++q) {
      const std::uint32_t s = queue_[q].state;
      const std::uint32_t r = parent_[s];
      if (top_[r] < least) continue;
      const std::uint32_t k = record_of_root_[r];
      ClusterRecord& record = records[first + k];
      ++histogram[histogram_at_[k] + index_[s]];
      if (index_[s] != record.other_highest_index) continue;
      ++record.other_hardest_count;
      const SampleKey key = key_of(queue_[q]);
      record.other_hardest = std::min(record.other_hardest, key);
      if (with_mirror) mirror_hardest_[k] = std::min(mirror_hardest_[k], t_.mirror_key(key));
    }
    for (std::size_t k = 0; k < mirror_hardest_.size(); ++k) {
      const ClusterRecord& record = records[first + k];
      ClusterRecord& image = records[first + added + k];
      image.other_highest_index = record.other_highest_index;
      image.other_hardest_count = record.other_hardest_count;
      image.other_hardest = mirror_hardest_[k];
      const auto from = static_cast<std::ptrdiff_t>(histogram_at_[k]);
      histogram.insert(histogram.end(), histogram.begin() + from,
                       histogram.begin() + from + static_cast<std::ptrdiff_t>(record.other_highest_index) + 1);
    }
  }

  std::uint32_t find(std::uint32_t s) {
    while (parent_[s] != s) {
      parent_[s] = parent_[parent_[s]];  // path halving
      s = parent_[s];
    }
    return s;
  }

  // The states queue_[from, to) got index `index`: keep the least keys of high indices (with
  // their mirror images' where the mirror class is counted with this one).
  void note_samples(int index, std::size_t from, std::size_t to, bool with_mirror) {
    if (from == to || options_.samples_per_index <= 0 || options_.sample_indices <= 0) return;
    highest_ = std::max(highest_, index);
    if (index < highest_ - options_.sample_indices + 1) return;
    std::vector<SampleKey>& best = best_[static_cast<std::size_t>(index)];
    for (std::size_t q = from; q < to; ++q) {
      const SampleKey key = key_of(queue_[q]);
      offer_sample(best, key);
      if (with_mirror) offer_sample(best, t_.mirror_key(key));
    }
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

  static int digit_of(const Item& item, int j) {
    return static_cast<int>(item.digits >> (kDigitBits * j) & kDigitMask);
  }

  // The explicit engine's key of a state: the arrangement of every row then every column.
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
    return key;
  }

  template <class Visit>
  void for_each_neighbour(const Item& item, bool by_moves, Slides which, Visit&& visit) const {
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
    const SlideTable& all_slides = by_moves ? t_.legal_moves : t_.legal_steps;
    const SlideTable& slides = winning ? (by_moves ? t_.forward_moves : t_.forward_steps) : all_slides;
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
    for (const int i : active_rows_) {
      if (which == Slides::ExitRow && i != t_.exit_row) continue;
      const auto ui = static_cast<std::size_t>(i);
      const int from = c.row[ui];
      const int crossing = static_cast<int>(vertical >> (i * n)) & (masks - 1);
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
        const std::uint32_t id = c.id + static_cast<std::uint32_t>(m.group_shift * row_stride_[ui]);
        const std::uint32_t entry = slot_of_combo_[id];
        const Entry<Numbering>& to = entries_[entry];
        const std::uint64_t digits = (item.digits & ~m.changed_digits) | (flipped & m.changed_digits);
        visit(Item{to.offset + combination_state(digits, to.stride), entry, digits});
      }
    }
  }

  const LineTables& t_;
  const Rules& rules_;
  const bool mirror_;
  const ItemBounds bounds_;

  // The current work item and class.
  std::array<std::uint32_t, kMaxN> row_stride_{};
  int row_cars_ = 0, row_trucks_ = 0;
  std::array<int, kMaxN> row_group_{};  // the rows' kind sequences (groups)
  bool measuring_ = false;          // search_columns only measures the classes
  std::uint64_t largest_class_ = 0;  // what it measured
  bool measured_ = false;           // the item's classes were measured first
  bool refuse_ = false;             // a class of the item fits neither path
  std::vector<SolvedElsewhere> solved_elsewhere_;
  std::vector<Combo> combos_;
  std::vector<std::uint32_t> slot_of_combo_;
  std::vector<std::vector<std::uint32_t>> level_;  // combos admitted by columns 0..j-1
  std::array<int, kMaxN> column_group_{};
  std::array<const std::uint8_t*, kMaxN> column_table_{};  // admitted_table(column_group_[j])
  std::vector<int> active_rows_, active_columns_;          // the lines holding vehicles
  std::vector<Entry<Numbering>> entries_;
  std::vector<std::uint32_t> offsets_;  // per entry, plus the end
  std::vector<std::uint8_t> index_, top_;
  std::vector<std::uint32_t> parent_;
  std::vector<Item> queue_;
  // note_clusters: per root, its record among the class's; per record, where its histogram
  // starts; the least mirrored key of each record's hardest states.
  std::vector<std::uint32_t> record_of_root_;
  std::vector<std::size_t> histogram_at_;
  std::vector<SampleKey> mirror_hardest_;
};

Board board_of_key(const LineTable& lines, int key_bits, SampleKey key) {
  const int n = lines.length();
  std::vector<Vehicle> vehicles;
  if (key >> (2 * n * key_bits) != 0) throw InputError("a sample key has more bits than the board's lines");
  for (int line = 2 * n - 1; line >= 0; --line) {
    const int a = static_cast<int>(key & ((SampleKey{1} << key_bits) - 1));
    key >>= key_bits;
    if (a >= lines.size()) throw InputError("a sample key names no line arrangement");
    append_line_vehicles(lines[a], line, n, vehicles);
  }
  return Board(n, std::move(vehicles));
}

Board board_of_key(const LineTables& t, SampleKey key) { return board_of_key(t.lines, t.key_bits, key); }

// Under vehicle limits most items of a large board hold more vehicles in their rows alone
// than the limits allow (8x8 has 15^8 items, 7x7 11^7): the items that remain, ascending, if
// they are at most a quarter of all (else none: every item is tried, each checks itself).
std::vector<std::uint64_t> items_within_limits(const LineTables& t, const Rules& rules, std::uint64_t items) {
  std::vector<std::uint64_t> listed;
  if (rules.limits().unlimited()) return listed;
  const std::uint64_t most = items / 4;
  bool too_many = false;
  const auto groups = static_cast<std::uint64_t>(t.groups);
  auto extend = [&](auto& self, int row, std::uint64_t item, int cars, int trucks) -> void {
    if (too_many) return;
    if (row == t.n) {
      if (listed.size() == most) too_many = true;
      else listed.push_back(item);
      return;
    }
    for (int g = 0; g < t.groups; ++g) {
      const auto ug = static_cast<std::size_t>(g);
      if (row == t.exit_row ? !t.exit_ok[ug] : !t.line_ok[ug]) continue;
      if (!rules.limits().allows(cars + t.group_cars[ug], trucks + t.group_trucks[ug])) continue;
      self(self, row + 1, item * groups + static_cast<std::uint64_t>(g), cars + t.group_cars[ug], trucks + t.group_trucks[ug]);
    }
  };
  extend(extend, 0, 0, 0, 0);
  if (too_many) listed.clear();
  return listed;
}

// The records whose canonical hardest configuration is minimal, with their histograms.
ClusterRecords minimal_records(const LineTables& tables, const Rules& rules, ClusterRecords&& records) {
  ClusterRecords kept;
  std::size_t at = 0;
  std::size_t other_at = 0;
  for (const ClusterRecord& r : records.records) {
    const auto from = records.histogram.begin() + static_cast<std::ptrdiff_t>(at);
    at += r.highest_index + 1u;
    const auto other_from = records.other_histogram.begin() + static_cast<std::ptrdiff_t>(other_at);
    if (!records.other_histogram.empty()) other_at += r.other_highest_index + 1u;
    if (!is_minimal(rules, board_of_key(tables, r.hardest), static_cast<int>(r.highest_index))) continue;
    kept.records.push_back(r);
    kept.histogram.insert(kept.histogram.end(), from, from + static_cast<std::ptrdiff_t>(r.highest_index) + 1);
    if (!records.other_histogram.empty())
      kept.other_histogram.insert(kept.other_histogram.end(), other_from,
                                  other_from + static_cast<std::ptrdiff_t>(r.other_highest_index) + 1);
  }
  return kept;
}

bool wide_numbering(const Rules& rules, const ClassEngineOptions& options) {
  return options.wide_numbering || rules.size() > 6;
}

LineTables tables_of(const Rules& rules, bool wide) {
  if (rules.size() > kMaxClassEngineSize)
    throw InputError("the class engine supports sizes up to " + std::to_string(kMaxClassEngineSize) +
                     " (got " + std::to_string(rules.size()) + ")");
  return LineTables(rules, wide ? WideNumbering::kAdmittedSlots : NarrowNumbering::kAdmittedSlots);
}

// The bounds per thread: its share of the memory, states numbered in 32 bits.
ItemBounds item_bounds(const ClassEngineOptions& options, int threads) {
  std::uint64_t memory = options.max_memory;
  if (memory == 0) {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    memory = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 2
                                   : std::uint64_t{4} << 30;
  }
  const std::uint64_t share = memory / static_cast<std::uint64_t>(threads);
  ItemBounds bounds;
  bounds.bytes = share;
  bounds.class_states = std::min<std::uint64_t>(share / kBytesPerState, 0xFFFF'FFFE);
  if (options.max_class_states != 0) bounds.class_states = std::min(bounds.class_states, options.max_class_states);
  bounds.combos = std::min<std::uint64_t>(share / kBytesPerCombo, 0xFFFF'FFFE);
  return bounds;
}

// A worker of the numbering the board needs (wide: 7x7 and 8x8, or forced).
std::unique_ptr<WorkerFigures> make_worker(const LineTables& tables, const Rules& rules, const ClassEngineOptions& options,
                                           bool wide) {
  const int n = rules.size();
  const bool mirror = mirror_applies(rules, options.mirror);
  const ItemBounds bounds = item_bounds(options, std::max(1, options.threads));
  if (wide)
    return std::make_unique<Worker<WideNumbering>>(tables, rules, options, n * n / kCar, n * n / kTruck, mirror, bounds);
  return std::make_unique<Worker<NarrowNumbering>>(tables, rules, options, n * n / kCar, n * n / kTruck, mirror, bounds);
}

// Folds later_items into next_item where they touch it, and drops the ranges below it.
void normalize_items(ClassSweepState& state) {
  std::vector<ItemRange>& later = state.later_items;
  std::size_t first = 0;
  while (first < later.size() && later[first].begin <= state.next_item) {
    state.next_item = std::max(state.next_item, later[first].end);
    ++first;
  }
  later.erase(later.begin(), later.begin() + static_cast<std::ptrdiff_t>(first));
}

std::uint64_t work_items(const LineTables& tables) {
  std::uint64_t items = 1;
  for (int i = 0; i < tables.n; ++i) items *= static_cast<std::uint64_t>(tables.groups);
  return items;
}

}  // namespace

SampleKeys::SampleKeys(const Rules& rules) : rules_(rules), lines_(rules.size()), key_bits_(key_bits_of(lines_)) {}

std::string SampleKeys::board(SampleKey key) const {
  return to_board_string(rules_, board_of_key(lines_, key_bits_, key));
}

SampleKey SampleKeys::key(const Board& board) const {
  SampleKey key = 0;
  for (const std::vector<Segment>& segments : line_segments(board)) {
    const int a = lines_.find(segments);
    if (a < 0) throw std::logic_error("a line of a board is no arrangement");
    key = key << key_bits_ | static_cast<SampleKey>(a);
  }
  return key;
}

bool mirror_applies(const Rules& rules, bool mirror_option) {
  return mirror_option && rules.size() % 2 == 1 && rules.exit_row() == rules.size() / 2;
}

std::uint64_t ClassSweepState::items_done() const {
  std::uint64_t done = next_item;
  for (const ItemRange& r : later_items) done += r.end - r.begin;
  return done;
}

bool ClassSweepState::holds(std::uint64_t item) const {
  if (item < next_item) return true;
  const auto it = std::upper_bound(later_items.begin(), later_items.end(), item,
                                   [](std::uint64_t value, const ItemRange& r) { return value < r.end; });
  return it != later_items.end() && it->begin <= item;
}

std::vector<ItemRange> ClassSweepState::missing_items() const {
  std::vector<ItemRange> missing;
  std::uint64_t from = next_item;
  for (const ItemRange& r : later_items) {
    if (r.begin > from) missing.push_back({from, r.begin});
    from = r.end;
  }
  if (from < items) missing.push_back({from, items});
  return missing;
}

void add_sweep(ClassSweepState& into, const ClassSweepState& part, int samples_per_index, int sample_indices) {
  if (into.tallies.empty()) {
    into.items = part.items;
    into.tallies.resize(part.tallies.size());
  }
  if (into.items != part.items || into.tallies.size() != part.tallies.size())
    throw InputError("the class sweeps to merge belong to other boards (" + std::to_string(into.items) + " and " +
                     std::to_string(part.items) + " work items)");
  // The union of the done sets, refused where they meet. A part is usually one item that
  // extends a range of `into`: a binary search, no copy.
  std::vector<ItemRange>& later = into.later_items;
  const auto overlap = [](std::uint64_t item) {
    return InputError("the class sweeps to merge share work item " + std::to_string(item));
  };
  const auto insert = [&](ItemRange r) {
    if (r.begin >= r.end) return;
    if (r.end > into.items)
      throw InputError("a class sweep to merge holds work items beyond its board's " + std::to_string(into.items));
    if (r.begin < into.next_item) throw overlap(r.begin);
    if (r.begin == into.next_item) {
      into.next_item = r.end;
      std::size_t absorbed = 0;
      while (absorbed < later.size() && later[absorbed].begin <= into.next_item) {
        if (later[absorbed].begin < into.next_item) throw overlap(later[absorbed].begin);
        into.next_item = later[absorbed++].end;
      }
      later.erase(later.begin(), later.begin() + static_cast<std::ptrdiff_t>(absorbed));
      return;
    }
    auto it = std::lower_bound(later.begin(), later.end(), r.begin,
                               [](const ItemRange& x, std::uint64_t value) { return x.end < value; });
    if (it == later.end()) {
      later.push_back(r);
    } else if (it->end == r.begin) {
      const auto after = it + 1;
      if (after != later.end() && after->begin < r.end) throw overlap(after->begin);
      it->end = r.end;
      if (after != later.end() && after->begin == r.end) {
        it->end = after->end;
        later.erase(after);
      }
    } else if (it->begin < r.end) {
      throw overlap(std::max(it->begin, r.begin));
    } else if (it->begin == r.end) {
      it->begin = r.begin;
    } else {
      later.insert(it, r);
    }
  };
  if (part.next_item > 0) insert({0, part.next_item});
  for (const ItemRange& r : part.later_items) insert(r);

  into.refused.insert(into.refused.end(), part.refused.begin(), part.refused.end());
  std::sort(into.refused.begin(), into.refused.end());
  add_exact(into.classes, part.classes);
  add_exact(into.states, part.states);
  into.seconds += part.seconds;
  const int old_highest = into.highest;
  into.highest = std::max(into.highest, part.highest);
  const auto slots = static_cast<std::size_t>(into.highest + 1);
  if (into.tallies.front().count.size() < slots)  // every pair has highest + 1 entries
    for (VehicleTally& sum : into.tallies)
      for (auto* figures : {&sum.count, &sum.nondominated, &sum.components}) figures->resize(slots, 0);
  for (std::size_t v = 0; v < into.tallies.size(); ++v) {
    const VehicleTally& add = part.tallies[v];
    if (add.domain == 0 && add.count.empty()) continue;  // a pair the part did not meet
    VehicleTally& sum = into.tallies[v];
    add_exact(sum.domain, add.domain);
    for (auto [total, more] : {std::pair{&sum.count, &add.count}, std::pair{&sum.nondominated, &add.nondominated},
                               std::pair{&sum.components, &add.components}}) {
      if (more->size() > slots) throw InputError("a class sweep to merge has figures beyond its highest index");
      if (total->size() < slots) total->resize(slots, 0);
      for (std::size_t i = 0; i < more->size(); ++i) add_exact((*total)[i], (*more)[i]);
    }
  }
  // A state's keys of index i are complete when i is among its T highest; an index among the
  // T highest of the sum is among the T highest of each part.
  into.sample_keys.resize(slots);
  const int lowest = std::max(0, into.highest - sample_indices + 1);
  for (int i = 0; i <= into.highest; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    std::vector<SampleKey>& keys = into.sample_keys[ui];
    if (i < lowest || samples_per_index <= 0) {
      keys.clear();
      continue;
    }
    if (i < old_highest - sample_indices + 1) keys.clear();  // not kept by `into` before
    if (ui < part.sample_keys.size() && i >= part.highest - sample_indices + 1)
      keys.insert(keys.end(), part.sample_keys[ui].begin(), part.sample_keys[ui].end());
    std::sort(keys.begin(), keys.end());
    keys.resize(std::min(keys.size(), static_cast<std::size_t>(samples_per_index)));
  }
}

ClassSweepState merge_sweeps(ClassSweepState a, const ClassSweepState& b, int samples_per_index, int sample_indices) {
  add_sweep(a, b, samples_per_index, sample_indices);
  return a;
}

std::uint64_t class_work_items(const Rules& rules) { return work_items(tables_of(rules, rules.size() > 6)); }

void sweep_work_items(const Rules& rules, const ClassEngineOptions& options,
                      const std::function<std::optional<std::uint64_t>()>& next_item,
                      const std::function<void(std::uint64_t item, ClassSweepState&& delta)>& on_item) {
  if (options.on_clusters) throw std::logic_error("cluster records come from a whole sweep (classify_by_classes)");
  const bool wide = wide_numbering(rules, options);
  const LineTables tables = tables_of(rules, wide);
  const std::uint64_t items = work_items(tables);
  const int threads = std::max(1, options.threads);
  std::vector<std::unique_ptr<WorkerFigures>> workers;
  for (int w = 0; w < threads; ++w) workers.push_back(make_worker(tables, rules, options, wide));
  std::mutex deal, report;
  std::atomic<bool> stopped{false};
  std::exception_ptr failure;
  auto run = [&](WorkerFigures& worker) {
    try {
      for (;;) {
        if (stopped || (options.should_stop && options.should_stop())) break;
        std::optional<std::uint64_t> item;
        {
          const std::lock_guard lock(deal);
          item = next_item();
        }
        if (!item) break;
        if (*item >= items) throw std::logic_error("work item " + std::to_string(*item) + " of " + std::to_string(items));
        const auto start = std::chrono::steady_clock::now();
        worker.run_item(*item);
        ClassSweepState delta = worker.take_item(*item, items);
        delta.seconds = seconds_since(start);
        const std::lock_guard lock(report);
        on_item(*item, std::move(delta));
      }
    } catch (...) {
      const std::lock_guard lock(report);
      if (!failure) failure = std::current_exception();
      stopped = true;
    }
  };
  std::vector<std::thread> pool;
  for (int w = 0; w < threads; ++w) pool.emplace_back(run, std::ref(*workers[static_cast<std::size_t>(w)]));
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

ClassSweepState sweep_item_ranges(const Rules& rules, const std::vector<ItemRange>& ranges,
                                  const ClassEngineOptions& options) {
  const std::uint64_t items = class_work_items(rules);
  const int n = rules.size();
  ClassSweepState state;
  state.items = items;
  state.tallies.resize(static_cast<std::size_t>((n * n / kCar + 1) * (n * n / kTruck + 1)));
  std::size_t range = 0;
  std::uint64_t at = ranges.empty() ? 0 : ranges.front().begin;
  sweep_work_items(
      rules, options,
      [&]() -> std::optional<std::uint64_t> {
        while (range < ranges.size() && at >= ranges[range].end)
          if (++range < ranges.size()) at = ranges[range].begin;
        if (range == ranges.size()) return std::nullopt;
        return at++;
      },
      [&](std::uint64_t, ClassSweepState&& delta) {
        add_sweep(state, delta, options.samples_per_index, options.sample_indices);
      });
  return state;
}

ClassCensus classify_by_classes(const Rules& rules, const ClassEngineOptions& options) {
  if (rules.size() > kMaxClassEngineSize)
    throw InputError("the class engine supports sizes up to " + std::to_string(kMaxClassEngineSize) +
                     " (got " + std::to_string(rules.size()) + ")");
  const auto start = std::chrono::steady_clock::now();
  const bool wide = wide_numbering(rules, options);
  const LineTables tables = tables_of(rules, wide);
  const int n = rules.size();
  const int max_cars = n * n / kCar;
  const int max_trucks = n * n / kTruck;

  std::uint64_t items = 1;
  for (int i = 0; i < n; ++i) items *= static_cast<std::uint64_t>(tables.groups);

  const int threads = std::max(1, options.threads);
  const auto stride = static_cast<std::uint64_t>(std::max(1, options.item_stride));
  const std::size_t pairs = static_cast<std::size_t>((max_cars + 1) * (max_trucks + 1));
  ClassSweepState base;
  base.items = items;
  base.tallies.resize(pairs);
  if (options.resume != nullptr) {
    base = *options.resume;
    if (base.items != items || base.tallies.size() != pairs || base.next_item > items ||
        (!base.later_items.empty() && base.later_items.back().end > items))
      throw InputError("the class sweep to resume belongs to another board");
  }

  std::vector<std::unique_ptr<WorkerFigures>> workers;
  for (int w = 0; w < threads; ++w) workers.push_back(make_worker(tables, rules, options, wide));
  // The items an earlier run refused are tried again first, then the sweep goes on at next.
  const std::vector<std::uint64_t> retries = std::move(base.refused);
  base.refused.clear();
  std::atomic<std::size_t> retry{0};
  // Positions in the sequence of items to run: every item, or the listed ones.
  const std::vector<std::uint64_t> listed = items_within_limits(tables, rules, items);
  const std::uint64_t positions = listed.empty() ? items : listed.size();
  auto item_at = [&](std::uint64_t position) {
    return position >= positions ? items : listed.empty() ? position : listed[position];
  };
  const std::uint64_t first_position =
      listed.empty() ? base.next_item
                     : static_cast<std::uint64_t>(std::lower_bound(listed.begin(), listed.end(), base.next_item) - listed.begin());
  std::atomic<std::uint64_t> next{first_position};
  std::atomic<std::uint64_t> done{0};
  std::atomic<bool> stopped{false};
  std::exception_ptr failure;
  // Checkpoints pause the workers between items: once every running worker waits, each item
  // before `next` is finished and in some worker's tallies.
  std::mutex mutex;
  std::condition_variable resume_work, worker_waits;
  bool pause = false;
  int waiting = 0;
  int running = threads;
  // An item and its cluster records, reported before the worker takes another item (so
  // before it can wait for a checkpoint). A class given to the class solver has no records.
  if (options.on_clusters && options.class_solver)
    throw std::logic_error("cluster records come from classes solved by the sweep (no class_solver)");
  std::mutex clusters_mutex;
  auto run_item = [&](WorkerFigures& worker, std::uint64_t item) {
    worker.run_item(item);
    if (!options.on_clusters) return;
    ClusterRecords records = worker.take_clusters();
    if (options.minimal_clusters) records = minimal_records(tables, rules, std::move(records));
    if (records.records.empty()) return;
    const std::lock_guard lock(clusters_mutex);
    options.on_clusters(item, std::move(records));
  };
  auto run = [&](WorkerFigures& worker) {
    try {
      for (;;) {
        {
          std::unique_lock lock(mutex);
          if (pause) {
            ++waiting;
            worker_waits.notify_all();
            resume_work.wait(lock, [&] { return !pause; });
            --waiting;
          }
        }
        if (stopped) break;
        if (const std::size_t r = retry.fetch_add(1); r < retries.size()) {
          run_item(worker, retries[r]);
          continue;
        }
        const std::uint64_t position = next.fetch_add(stride);
        if (position >= positions) break;
        const std::uint64_t item = item_at(position);
        if (!base.later_items.empty() && base.holds(item)) {  // finished by an earlier run
          ++done;
          continue;
        }
        run_item(worker, item);
        ++done;
      }
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      stopped = true;
    }
    const std::lock_guard lock(mutex);
    --running;
    worker_waits.notify_all();
  };

  // The sweep so far: base plus every worker (call with the workers paused or finished).
  auto snapshot = [&] {
    ClassSweepState state;
    state.items = items;
    state.next_item = item_at(next.load());
    state.later_items = base.later_items;
    normalize_items(state);
    state.classes = base.classes;
    state.states = base.states;
    state.highest = base.highest;
    for (const auto& w : workers) {
      state.classes += w->classes();
      state.states += w->states();
      state.highest = std::max(state.highest, w->highest_index());
    }
    const auto slots = static_cast<std::size_t>(state.highest + 1);
    state.tallies.resize(pairs);
    for (std::size_t v = 0; v < pairs; ++v) {
      VehicleTally& sum = state.tallies[v];
      sum.count.assign(slots, 0);
      sum.nondominated.assign(slots, 0);
      sum.components.assign(slots, 0);
      auto add = [&](const VehicleTally& part) {
        add_exact(sum.domain, part.domain);
        for (std::size_t i = 0; i < slots && i < part.count.size(); ++i) {
          add_exact(sum.count[i], part.count[i]);
          add_exact(sum.nondominated[i], part.nondominated[i]);
          add_exact(sum.components[i], part.components[i]);
        }
      };
      add(base.tallies[v]);
      for (const auto& w : workers) add(w->tallies().by_vehicles[v]);
    }
    state.sample_keys.assign(slots, {});
    const int lowest_sampled = std::max(0, state.highest - options.sample_indices + 1);
    for (int i = state.highest; i >= lowest_sampled && options.samples_per_index > 0; --i) {
      const auto ui = static_cast<std::size_t>(i);
      std::vector<SampleKey> keys;
      // A part keeps index i only if i was among its own T highest when it was met.
      if (i >= base.highest - options.sample_indices + 1 && ui < base.sample_keys.size())
        keys.insert(keys.end(), base.sample_keys[ui].begin(), base.sample_keys[ui].end());
      for (const auto& w : workers)
        if (i >= w->highest() - options.sample_indices + 1)
          keys.insert(keys.end(), w->best_keys()[ui].begin(), w->best_keys()[ui].end());
      std::sort(keys.begin(), keys.end());
      keys.resize(std::min(keys.size(), static_cast<std::size_t>(options.samples_per_index)));
      state.sample_keys[ui] = std::move(keys);
    }
    for (std::size_t r = std::min(retry.load(), retries.size()); r < retries.size(); ++r)
      state.refused.push_back(retries[r]);
    for (const auto& w : workers) state.refused.insert(state.refused.end(), w->refused().begin(), w->refused().end());
    std::sort(state.refused.begin(), state.refused.end());
    state.seconds = base.seconds + seconds_since(start);
    return state;
  };

  if (options.should_stop && options.should_stop()) stopped = true;
  std::vector<std::thread> pool;
  for (int w = 0; w < threads; ++w) pool.emplace_back(run, std::ref(*workers[static_cast<std::size_t>(w)]));
  auto report = [&] {
    if (!options.on_progress) return;
    ClassProgress p;
    p.items_done = first_position / stride + done;
    p.items_total = (positions + stride - 1) / stride;
    p.classes = base.classes;
    p.states = base.states;
    for (const auto& w : workers) {
      p.classes += w->classes();
      p.states += w->states();
    }
    p.elapsed = base.seconds + seconds_since(start);
    options.on_progress(p);
  };
  auto last_report = std::chrono::steady_clock::now();
  auto last_checkpoint = last_report;
  // A failure here (a checkpoint that cannot be written, bad_alloc in a snapshot) must not
  // unwind past running workers, whose std::thread destructors would end the process: they
  // are stopped and joined first, and the failure goes on to the caller.
  try {
    for (;;) {
      {
        const std::lock_guard lock(mutex);
        if (running == 0) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (options.should_stop && options.should_stop()) stopped = true;
      if (seconds_since(last_report) >= options.progress_seconds) {
        report();
        last_report = std::chrono::steady_clock::now();
      }
      if (options.on_checkpoint && seconds_since(last_checkpoint) >= options.checkpoint_seconds) {
        std::unique_lock lock(mutex);
        pause = true;
        worker_waits.wait(lock, [&] { return waiting == running; });
        const ClassSweepState state = snapshot();
        lock.unlock();
        options.on_checkpoint(state);  // may take a while (a file write): workers wait
        lock.lock();
        pause = false;
        resume_work.notify_all();
        last_checkpoint = std::chrono::steady_clock::now();
      }
    }
  } catch (...) {
    {
      const std::lock_guard lock(mutex);
      stopped = true;
      pause = false;
    }
    resume_work.notify_all();
    for (std::thread& thread : pool) thread.join();
    throw;
  }
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);  // no checkpoint: a worker's item is cut short
  report();
  const ClassSweepState state = snapshot();
  if (options.on_checkpoint) options.on_checkpoint(state);

  ClassCensus census = census_of_sweep(rules, state);
  census.complete = census.complete && stride == 1;
  if (options.measure_class_sizes) {
    census.class_sizes.resize(64);
    census.solver_class_sizes.resize(64);
    for (const auto& w : workers) {
      for (std::size_t k = 0; k < 64; ++k) {
        census.class_sizes[k].classes += w->class_sizes()[k].classes;
        census.class_sizes[k].states += w->class_sizes()[k].states;
        census.class_sizes[k].cpu_seconds += w->class_sizes()[k].cpu_seconds;
        census.solver_class_sizes[k].classes += w->solver_class_sizes()[k].classes;
        census.solver_class_sizes[k].states += w->solver_class_sizes()[k].states;
        census.solver_class_sizes[k].cpu_seconds += w->solver_class_sizes()[k].cpu_seconds;
      }
      census.largest_class = std::max(census.largest_class, w->largest_class());
    }
    for (auto* sizes : {&census.class_sizes, &census.solver_class_sizes})
      while (!sizes->empty() && sizes->back().classes == 0) sizes->pop_back();
  }
  return census;
}

ClassCensus census_of_sweep(const Rules& rules, const ClassSweepState& state) {
  if (rules.size() > kMaxClassEngineSize)
    throw InputError("a class sweep of size " + std::to_string(rules.size()) + " (at most " +
                     std::to_string(kMaxClassEngineSize) + ")");
  const LineTables tables = tables_of(rules, rules.size() > 6);
  const int n = rules.size();
  ClassCensus census(rules);
  census.complete = state.next_item >= state.items && state.refused.empty();
  census.refused = state.refused;
  census.max_cars = n * n / kCar;
  census.max_trucks = n * n / kTruck;
  if (state.tallies.size() != static_cast<std::size_t>((census.max_cars + 1) * (census.max_trucks + 1)))
    throw InputError("the class sweep belongs to another board size");
  census.tallies = state.tallies;
  census.classes = state.classes;
  census.samples.resize(state.sample_keys.size());
  for (std::size_t i = 0; i < state.sample_keys.size(); ++i)
    for (const SampleKey key : state.sample_keys[i])
      census.samples[i].emplace_back(key, to_board_string(rules, board_of_key(tables, key)));
  census.seconds = state.seconds;
  return census;
}

Classification ClassCensus::classification(const VehicleLimits& limits) const {
  Classification result(Rules(rules.size(), rules.exit_row(), rules.metric(), limits, rules.domain()));
  result.engine = "classes";
  result.encoding = "none";
  result.variable_order = "none";
  result.complete = complete;
  result.seconds = seconds;
  std::vector<std::uint64_t> count, nondominated, components;
  for (int cars = 0; cars <= max_cars; ++cars)
    for (int trucks = 0; trucks <= max_trucks; ++trucks) {
      if (!limits.allows(cars, trucks)) continue;
      const VehicleTally& v = tally(cars, trucks);
      result.domain_count = checked_add(result.domain_count, v.domain);
      count.resize(std::max(count.size(), v.count.size()), 0);
      nondominated.resize(count.size(), 0);
      components.resize(count.size(), 0);
      for (std::size_t i = 0; i < v.count.size(); ++i) {
        add_exact(count[i], v.count[i]);
        add_exact(nondominated[i], v.nondominated[i]);
        add_exact(components[i], v.components[i]);
      }
    }
  while (!count.empty() && count.back() == 0) count.pop_back();
  for (std::size_t i = 0; i < count.size(); ++i) {
    result.layers.push_back({count[i], 0, 0.0});
    result.nondominated.push_back(nondominated[i]);
    result.components.push_back(static_cast<std::int64_t>(components[i]));
    result.solvable_count = checked_add(result.solvable_count, count[i]);
  }
  result.winning_count = count.empty() ? 0 : count[0];
  result.unsolvable_count = result.domain_count - result.solvable_count;
  if (limits == rules.limits()) {
    for (int i = static_cast<int>(count.size()) - 1; i >= 0; --i)
      for (const auto& [key, board] : samples[static_cast<std::size_t>(i)])
        result.samples.push_back({board, static_cast<std::uint32_t>(i)});
  }
  return result;
}

}  // namespace rushhour
