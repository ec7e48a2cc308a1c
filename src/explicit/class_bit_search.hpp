#pragma once
// The search of one numbered class (ClassNumbering) on sets of states as bits, for classes
// whose row combinations hold many states each (large 7x7 and 8x8 classes hold tens to
// thousands; ClassSearch's byte, parent and queue entry per state then leave the caches).
// docs/class-engine.md, "Dense classes".
//
// Layout: entry k's states take a block of 2^b_k bits, word-aligned; column j's digit is the
// bit field [o_jk, o_jk + w_jk) of a state's place in its block, w_jk = ceil(log2 radix_jk),
// the columns of one width in every block lowest. Fields at or above their radix are never
// set. A layer is a bit set over the blocks: C_{i+1} = N(C_i) \ (C_0 ∪ … ∪ C_i).
//
// A column slide changes one digit by a shift d: the states whose digit has that slide move
// by d << o_jk places, a mask and a shift a word at a time. A row slide of entry k (row i from
// one arrangement to another, to entry k') is legal in a state iff every column whose cell of
// row i it sweeps holds an arrangement clear of that cell; the columns whose cell changed take
// new digits (their masks toggle row i), the others keep theirs, their widths alike in k'.
// Each entry's row slides are tabled once per class. Where k and k' lay out the fields inside a
// word alike, a slide moves the states of each tuple of its swept columns' digits a word at a
// time; else a state at a time.
//
// Components: in one block, the states whose every column's arrangement lies in one
// component of that column's own slides (its mask fixed) are connected, columns sliding
// independently: a node. Union-find over the nodes along the tabled row slides gives the
// components without a search. Internal to src/explicit/class_*.cpp.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "explicit/class_lines.hpp"
#include "explicit/class_numbering.hpp"

namespace rushhour::class_engine {

template <class Numbering>
class ClassBitSearch {
 public:
  // Lays the class `numbering` numbers (every line in use, not split) out and tables its row
  // slides under `metric`; finds its winning states.
  void prepare(const ClassNumbering<Numbering>& numbering, Metric metric) {
    lay_out(numbering);
    table_row_slides(numbering, metric);
    const std::size_t words = word_of_.back();
    winning_.assign(words, 0);
    for (std::size_t k = 0; k < blocks_.size(); ++k)
      if (numbering.entries()[k].combo.winning) for_each_place(k, [&](std::uint32_t bit) { set(winning_, k, bit); });
    visited_.assign(words, 0);
    frontier_.assign(words, 0);
    next_.assign(words, 0);
  }

  // After prepare(): searches from the winning states; calls on_layer(index, count, layer)
  // once each layer (a bit set, read with for_each_state) is complete. Returns the solvable
  // states. Throws std::runtime_error above index 254.
  template <class OnLayer>
  std::uint64_t run(OnLayer&& on_layer) {
    const std::size_t words = winning_.size();
    frontier_ = winning_;
    visited_ = winning_;
    std::uint64_t solvable = 0;
    for (int index = 0;; ++index) {
      const std::uint64_t count = popcount(frontier_);
      if (count == 0) break;
      if (index > kMaxStoredIndex) throw std::runtime_error("an index exceeds 254");
      solvable += count;
      on_layer(index, count, frontier_);
      std::fill(next_.begin(), next_.end(), 0);
      expand(frontier_, next_);
      for (std::size_t w = 0; w < words; ++w) {
        next_[w] &= ~visited_[w];
        visited_[w] |= next_[w];
      }
      frontier_.swap(next_);
    }
    return solvable;
  }

  // After prepare(): the components of the class's solvable states, counted without a
  // search. A block's states with the same component of every column's arrangements under
  // that column's own slides (its mask fixed) form a connected set, a node: columns slide
  // independently. Union-find joins the nodes along the row slides, each tabled slide taken
  // once per tuple of its swept columns' passing digits and per node of the other columns.
  // The solvable components are the roots of the winning blocks' nodes.
  std::size_t solvable_components(const ClassNumbering<Numbering>& numbering) {
    const LineTables& t = numbering.tables();
    const int n = t.n;
    const auto& entries = numbering.entries();
    // Per block and column: the component of each digit, and the components' stride.
    column_components_.assign(static_cast<std::size_t>(kMaxN * t.masks), {});
    node_of_.resize(blocks_.size() + 1);
    std::uint32_t nodes = 0;
    for (std::size_t k = 0; k < blocks_.size(); ++k) {
      Block& b = blocks_[k];
      node_of_[k] = nodes;
      if (b.empty) continue;
      std::uint32_t size = 1;
      for (int j = n - 1; j >= 0; --j) {
        const auto uj = static_cast<std::size_t>(j);
        const ColumnComponents& cc = column_components(numbering, j, b.mask[uj]);
        b.component[uj] = &cc;
        b.component_stride[uj] = size;
        size *= cc.count;
      }
      nodes += size;
    }
    node_of_[blocks_.size()] = nodes;
    parent_.resize(nodes);
    for (std::uint32_t v = 0; v < nodes; ++v) parent_[v] = v;
    for (std::size_t k = 0; k < blocks_.size(); ++k) {
      const Block& b = blocks_[k];
      if (b.empty) continue;
      for (std::uint32_t r = b.first_slide; r < b.end_slide; ++r) {
        const RowSlide& slide = row_slides_[r];
        const Block& to = blocks_[slide.target];
        // The other columns: those with two components or more that the slide does not sweep.
        std::uint32_t swept_columns = 0;
        for (std::uint32_t q = slide.first_swept; q < slide.end_swept; ++q) swept_columns |= 1u << swept_[q].column;
        std::array<int, kMaxN> other{};
        int others = 0;
        for (int j = 0; j < n; ++j)
          if (!(swept_columns >> j & 1) && b.component[static_cast<std::size_t>(j)]->count > 1) other[static_cast<std::size_t>(others++)] = j;
        for_each_tuple(slide, [&](const std::array<std::uint8_t, kMaxN>& digit) {
          std::uint32_t from_node = node_of_[k], to_node = node_of_[slide.target];
          for (std::uint32_t q = 0; q < slide.end_swept - slide.first_swept; ++q) {
            const Swept& sw = swept_[slide.first_swept + q];
            const std::size_t c = sw.column;
            const std::uint8_t d = digit[q];
            const std::uint8_t after = digit_after(sw, d);
            from_node += b.component[c]->of[d] * b.component_stride[c];
            to_node += to.component[c]->of[after] * to.component_stride[c];
          }
          // An odometer over the other columns' components.
          std::array<std::uint8_t, kMaxN> label{};
          while (true) {
            std::uint32_t f = from_node, g = to_node;
            for (int o = 0; o < others; ++o) {
              const auto c = static_cast<std::size_t>(other[static_cast<std::size_t>(o)]);
              f += label[static_cast<std::size_t>(o)] * b.component_stride[c];
              g += label[static_cast<std::size_t>(o)] * to.component_stride[c];
            }
            join(f, g);
            int o = others - 1;
            for (; o >= 0; --o) {
              const auto c = static_cast<std::size_t>(other[static_cast<std::size_t>(o)]);
              if (++label[static_cast<std::size_t>(o)] < b.component[c]->count) break;
              label[static_cast<std::size_t>(o)] = 0;
            }
            if (o < 0) break;
          }
        });
      }
    }
    for (std::uint32_t v = 0; v < nodes; ++v) parent_[v] = find(v);  // every node's root, flat
    last_index_.assign(nodes, -1);
    top_states_.assign(nodes, 0);
    std::vector<std::uint32_t> roots;
    for (std::size_t k = 0; k < blocks_.size(); ++k)
      if (entries[k].combo.winning)
        for (std::uint32_t v = node_of_[k]; v < node_of_[k + 1]; ++v) roots.push_back(parent_[v]);
    std::sort(roots.begin(), roots.end());
    return static_cast<std::size_t>(std::unique(roots.begin(), roots.end()) - roots.begin());
  }

  // After solvable_components(), for each layer of run() in turn (ascending): notes the
  // states of layer `index` in their components, so that for_each_component can tell each
  // component's highest index. A block of one node adds its count at once, others state by state.
  void note_components(int index, const std::vector<std::uint64_t>& layer) {
    const auto note = [&](std::uint32_t root, std::uint32_t states) {
      if (last_index_[root] != index) {
        last_index_[root] = static_cast<std::int16_t>(index);
        top_states_[root] = 0;
      }
      top_states_[root] += states;
    };
    for (std::size_t k = 0; k < blocks_.size(); ++k) {
      const Block& b = blocks_[k];
      if (b.empty) continue;
      const std::uint32_t base = word_of_[k];
      if (node_of_[k + 1] - node_of_[k] == 1) {
        std::uint32_t states = 0;
        for (std::uint32_t w = base; w < word_of_[k + 1]; ++w) states += static_cast<std::uint32_t>(std::popcount(layer[w]));
        if (states != 0) note(parent_[node_of_[k]], states);
        continue;
      }
      for (std::uint32_t w = base; w < word_of_[k + 1]; ++w)
        for (std::uint64_t bits = layer[w]; bits != 0; bits &= bits - 1) {
          const auto bit = static_cast<std::uint32_t>(64 * (w - base) + static_cast<std::uint32_t>(std::countr_zero(bits)));
          std::uint32_t node = node_of_[k];
          for (std::size_t j = 0; j < kMaxN; ++j)
            if (b.component[j] != nullptr && b.component[j]->count > 1)
              node += b.component[j]->of[bit >> b.offset[j] & ((1u << b.width[j]) - 1)] * b.component_stride[j];
          note(parent_[node], 1);
        }
    }
  }

  // After the last layer's note_components: visit(top, states) for every component of solvable
  // states, its highest index and its states of that index.
  template <class Visit>
  void for_each_component(Visit&& visit) const {
    for (std::uint32_t v = 0; v < parent_.size(); ++v)
      if (parent_[v] == v && last_index_[v] >= 0) visit(last_index_[v], std::uint64_t{top_states_[v]});
  }

  // Calls visit(item) for every state of `layer`: its entry and digits (state 0: the explicit
  // numbering's state number is not needed by key_of).
  template <class Visit>
  void for_each_state(const std::vector<std::uint64_t>& layer, Visit&& visit) const {
    for (std::size_t k = 0; k < blocks_.size(); ++k)
      for (std::uint32_t w = word_of_[k]; w < word_of_[k + 1]; ++w)
        for (std::uint64_t bits = layer[w]; bits != 0; bits &= bits - 1) {
          const auto bit = static_cast<std::uint32_t>(64 * (w - word_of_[k]) + static_cast<std::uint32_t>(std::countr_zero(bits)));
          visit(Item{0, static_cast<std::uint32_t>(k), packed_digits(k, bit)});
        }
  }

  // Gives the bit sets' and tables' memory back.
  void release() {
    for (auto* v : {&visited_, &frontier_, &next_, &winning_}) std::vector<std::uint64_t>().swap(*v);
    std::vector<RowSlide>().swap(row_slides_);
    std::vector<Swept>().swap(swept_);
    std::vector<Tuple>().swap(tuples_);
    std::vector<HighPart>().swap(highs_);
    std::vector<Move>().swap(moves_);
    std::vector<std::uint32_t>().swap(parent_);
    std::vector<std::int16_t>().swap(last_index_);
    std::vector<std::uint32_t>().swap(top_states_);
  }

 private:
  // The components of one column's admitted arrangements under its own slides: per digit.
  struct ColumnComponents {
    std::uint8_t count = 0;
    std::array<std::uint8_t, 16> of{};
  };
  struct Block {
    std::array<std::uint8_t, kMaxN> offset{};
    std::array<std::uint8_t, kMaxN> width{};
    std::array<std::uint8_t, kMaxN> radix{};
    std::array<std::int32_t, kMaxN> column{};     // per active column: admitted_table row of its mask
    std::array<std::uint8_t, kMaxN> mask{};        // per column: its crossing mask
    std::uint32_t first_slide = 0, end_slide = 0;  // its row slides in row_slides_
    std::uint32_t first_state_slide = 0;           // those from here on not by words
    bool empty = false;                            // a column admits no arrangement
    std::array<const ColumnComponents*, kMaxN> component{};  // solvable_components()
    std::array<std::uint32_t, kMaxN> component_stride{};
  };
  // One column a row slide sweeps: the digits that let it pass (bit d), and for a column whose
  // cell changed, the digit each takes after (else the same digit).
  struct Swept {
    std::uint8_t column;
    bool changed;
    std::uint16_t passes;
    std::uint32_t map;  // its CrossingMap in crossing_maps_ (the digits after, if changed)
    std::uint8_t from_offset = 0, to_offset = 0, digit_mask = 0;  // its field in both blocks
  };
  std::uint8_t digit_after(const Swept& s, std::uint32_t d) const {
    return s.changed ? crossing_maps_[s.map].to[d] : static_cast<std::uint8_t>(d);
  }
  const ColumnComponents& column_components(const ClassNumbering<Numbering>& numbering, int j, int mask) {
    const LineTables& t = numbering.tables();
    const std::size_t key = static_cast<std::size_t>(j * t.masks + mask);
    ColumnComponents& cc = column_components_[key];
    if (cc.count != 0) return cc;
    const std::vector<std::uint8_t>& list = t.admitted(numbering.column_group(j), mask);
    std::array<std::uint8_t, 16> up{};
    for (std::size_t d = 0; d < list.size(); ++d) up[d] = static_cast<std::uint8_t>(d);
    const auto top = [&](std::size_t d) {
      while (up[d] != d) d = up[d];
      return d;
    };
    for (std::size_t d = 0; d < list.size(); ++d)
      for (const LegalSlide* m = vertical_slides_->first(list[d], t.masks, mask); m != vertical_slides_->last(list[d], t.masks, mask); ++m)
        up[top(d)] = static_cast<std::uint8_t>(top(m->to_position));
    std::array<int, 16> label;
    label.fill(-1);
    for (std::size_t d = 0; d < list.size(); ++d) {
      int& l = label[top(d)];
      if (l < 0) l = cc.count++;
      cc.of[d] = static_cast<std::uint8_t>(l);
    }
    if (list.empty()) cc.count = 1;
    return cc;
  }
  // Per class: column_components() per column * masks + mask (count 0: not yet worked out).
  std::vector<ColumnComponents> column_components_;

  struct RowSlide {
    std::uint32_t target;
    std::uint32_t first_swept, end_swept;  // in swept_
    // Whether the target block lays a word's fields out as this one does: then the slide
    // moves the states of each tuple of the swept columns' passing digits a word at a time
    // (tuples_[first_tuple, end_tuple)).
    bool by_words = false;
    std::uint32_t first_tuple = 0, end_tuple = 0;
    // The other columns: by words, their parts in a word's place (highs_); else, a state at a
    // time, their fields grouped by how far they move (moves_).
    std::uint32_t first_part = 0, end_part = 0;
  };
  struct Move {
    std::uint32_t mask;
    std::int32_t by;
  };
  struct Tuple {
    // by_words: the states of the tuple are the bits in_mask of the words x with
    // x & word_mask == word_value; each goes in_shift places along its word, to word
    // x_const + the other columns' high parts of x moved to the target's places.
    std::uint64_t in_mask = 0;
    std::int32_t in_shift = 0;
    std::uint32_t word_mask = 0, word_value = 0, x_const = 0;
  };
  // A column's part of a word's place in its block: `bits` bits from bit `from` to bit `to`.
  struct HighPart {
    std::uint8_t from, to, bits;
  };
  // What a row slide does to a column it sweeps or whose cell it changes, by the column's kind
  // sequence and mask, the row and whether the vehicle passes the cell: the digits that let it
  // pass (bit d), and each one's digit after the column's mask toggles the row.
  struct CrossingMap {
    bool ready = false;
    std::uint16_t passes = 0;
    std::array<std::uint8_t, 16> to{};
  };
  std::uint32_t crossing_map(const LineTables& t, int group, int mask, int row, bool swept) {
    const std::size_t size = static_cast<std::size_t>(t.groups * t.masks * t.n * 2);
    if (crossing_maps_.size() != size) crossing_maps_.assign(size, {});
    const auto at = static_cast<std::uint32_t>(((group * t.masks + mask) * t.n + row) * 2 + (swept ? 1 : 0));
    CrossingMap& map = crossing_maps_[at];
    if (map.ready) return at;
    const std::vector<std::uint8_t>& list = t.admitted(group, mask);
    for (std::size_t d = 0; d < list.size(); ++d) {
      const int arrangement = list[d];
      if (swept && (t.lines[static_cast<std::size_t>(arrangement)].occupied >> row & 1)) continue;
      map.passes |= static_cast<std::uint16_t>(1u << d);
      map.to[d] = static_cast<std::uint8_t>(t.toggled_positions(arrangement, mask) >> (8 * row) & 0xFF);
    }
    map.ready = true;
    return at;
  }
  std::vector<CrossingMap> crossing_maps_;  // per tables: [((group * masks + mask) * n + row) * 2 + swept]

  // Calls visit(digits) for every tuple of digits of the slide's swept columns that let it pass.
  template <class Visit>
  void for_each_tuple(const RowSlide& slide, Visit&& visit) const {
    const std::uint32_t count = slide.end_swept - slide.first_swept;
    std::array<std::uint8_t, kMaxN> d{};
    const auto valid = [&](std::uint32_t q) { return swept_[slide.first_swept + q].passes >> d[q] & 1; };
    for (std::uint32_t q = 0; q < count; ++q)
      while (!valid(q)) ++d[q];
    while (true) {
      visit(d);
      std::uint32_t q = count;
      while (q-- > 0) {
        do ++d[q];
        while (d[q] < 16 && !valid(q));
        if (d[q] < 16) break;
        d[q] = 0;
        while (!valid(q)) ++d[q];
      }
      if (q == ~std::uint32_t{0}) return;
    }
  }

  // A field [o, o + w) of a block's place: its low bits in the word, the rest in the word's place.
  static int low_bits(int o, int w) { return o >= 6 ? 0 : std::min(w, 6 - o); }
  static int high_shift(int o) { return o >= 6 ? o - 6 : 0; }

  void lay_out(const ClassNumbering<Numbering>& numbering) {
    const LineTables& t = numbering.tables();
    const int n = t.n;
    const auto& entries = numbering.entries();
    blocks_.resize(entries.size());
    word_of_.resize(entries.size() + 1);
    // The columns whose width is the same in every block lowest (a word's fields then lie
    // alike in every block, so that most row slides go a word at a time), narrowest first.
    std::array<int, kMaxN> least{}, most{};
    least.fill(99);
    for (const Entry<Numbering>& e : entries) {
      bool empty = false;
      for (int j = 0; j < n; ++j) empty = empty || e.radix[static_cast<std::size_t>(j)] == 0;
      if (empty) continue;
      for (int j = 0; j < n; ++j) {
        const auto uj = static_cast<std::size_t>(j);
        const int w = std::bit_width(static_cast<unsigned>(e.radix[uj]) - 1u);
        least[uj] = std::min(least[uj], w);
        most[uj] = std::max(most[uj], w);
      }
    }
    std::array<int, kMaxN> order{};
    for (int j = 0; j < n; ++j) order[static_cast<std::size_t>(j)] = j;
    std::stable_sort(order.begin(), order.begin() + n, [&](int a, int c) {
      const auto ua = static_cast<std::size_t>(a), uc = static_cast<std::size_t>(c);
      const bool fixed_a = least[ua] == most[ua], fixed_c = least[uc] == most[uc];
      if (fixed_a != fixed_c) return fixed_a;
      return most[ua] < most[uc];
    });
    std::uint32_t word = 0;
    for (std::size_t k = 0; k < entries.size(); ++k) {
      Block& b = blocks_[k];
      b = Block{};
      int offset = 0;
      for (int j = 0; j < n; ++j) b.empty = b.empty || entries[k].radix[static_cast<std::size_t>(j)] == 0;
      for (int q = 0; q < n; ++q) {
        const auto uj = static_cast<std::size_t>(order[static_cast<std::size_t>(q)]);
        b.radix[uj] = entries[k].radix[uj];
        b.width[uj] = b.empty ? 0 : static_cast<std::uint8_t>(std::bit_width(static_cast<unsigned>(b.radix[uj]) - 1u));
        b.offset[uj] = static_cast<std::uint8_t>(offset);
        b.mask[uj] = entries[k].combo.column_mask[uj];
        b.column[uj] = b.mask[uj] * static_cast<std::int32_t>(t.admitted_slots);
        offset += b.width[uj];
      }
      if (offset > 31) throw std::logic_error("class engine: a row combination's block above 2^31 bits");
      word_of_[k] = word;
      if (!b.empty) word += offset <= 6 ? 1u : 1u << (offset - 6);
    }
    word_of_[entries.size()] = word;
  }

  void table_row_slides(const ClassNumbering<Numbering>& numbering, Metric metric) {
    const LineTables& t = numbering.tables();
    const ItemRows& rows = numbering.rows();
    const int n = t.n;
    const SlideTable& slides = t.slide_table(metric, false);
    row_slides_.clear();
    swept_.clear();
    tuples_.clear();
    highs_.clear();
    moves_.clear();
    const auto& entries = numbering.entries();
    for (std::size_t k = 0; k < entries.size(); ++k) {
      Block& b = blocks_[k];
      const Combo& c = entries[k].combo;
      b.first_slide = static_cast<std::uint32_t>(row_slides_.size());
      b.end_slide = b.first_slide;
      if (b.empty) continue;
      for (const int i : numbering.slide_rows()) {
        const auto ui = static_cast<std::size_t>(i);
        const int arrangement = c.row[ui];
        const int walls = static_cast<int>(rows.walls_of_row(i));
        for (const LegalSlide* m = slides.first(arrangement, t.masks, walls); m != slides.last(arrangement, t.masks, walls); ++m) {
          const std::uint32_t before = t.lines[static_cast<std::size_t>(arrangement)].occupied;
          const std::uint32_t after = t.lines[m->to].occupied;
          const std::uint32_t changed = before ^ after;
          // The cells between the first and the last that changed, other than the vehicle's own.
          const std::uint32_t hull = ((2u << (31 - std::countl_zero(changed))) - 1) & ~((1u << std::countr_zero(changed)) - 1);
          const std::uint32_t swept = hull & ~before;
          RowSlide slide{0, static_cast<std::uint32_t>(swept_.size()), 0};
          bool possible = true;
          for (int j = 0; j < n && possible; ++j) {
            const auto uj = static_cast<std::size_t>(j);
            if (!((swept | changed) >> j & 1)) continue;
            const int group = numbering.column_group(j);
            const std::uint32_t map = crossing_map(t, group, b.mask[uj], i, static_cast<bool>(swept >> j & 1));
            Swept s{static_cast<std::uint8_t>(j), static_cast<bool>(changed >> j & 1), crossing_maps_[map].passes, map};
            if (s.passes == 0) possible = false;
            if (!t.empty_group(group)) swept_.push_back(s);
          }
          if (!possible) {
            swept_.resize(slide.first_swept);
            continue;
          }
          slide.end_swept = static_cast<std::uint32_t>(swept_.size());
          slide.target = numbering.entry_of_combo(c.id + static_cast<std::uint32_t>(m->group_shift * static_cast<int>(rows.stride(i))));
          {
            const Block& tb = blocks_[slide.target];
            // By words where both blocks lay their words out alike: the fields in a word, at the
            // same offsets and of the same widths there.
            bool by_words = true;
            for (int j = 0; j < n; ++j) {
              const auto uj = static_cast<std::size_t>(j);
              const bool in = b.offset[uj] < 6 && b.width[uj] > 0, target_in = tb.offset[uj] < 6 && tb.width[uj] > 0;
              if (in != target_in) by_words = false;
              else if (in && (b.offset[uj] != tb.offset[uj] || low_bits(b.offset[uj], b.width[uj]) != low_bits(tb.offset[uj], tb.width[uj]))) by_words = false;
            }
            slide.by_words = by_words;
            std::uint32_t swept_columns = 0;
            for (std::uint32_t q = slide.first_swept; q < slide.end_swept; ++q) swept_columns |= 1u << swept_[q].column;
            if (by_words) {
              slide.first_part = static_cast<std::uint32_t>(highs_.size());
              for (int j = 0; j < n; ++j) {
                const auto uj = static_cast<std::size_t>(j);
                if (swept_columns >> j & 1) continue;
                const int bits = b.width[uj] - low_bits(b.offset[uj], b.width[uj]);
                if (bits > 0)
                  highs_.push_back({static_cast<std::uint8_t>(high_shift(b.offset[uj])), static_cast<std::uint8_t>(high_shift(tb.offset[uj])), static_cast<std::uint8_t>(bits)});
              }
              slide.end_part = static_cast<std::uint32_t>(highs_.size());
            } else {
              slide.first_part = slide.end_part = static_cast<std::uint32_t>(moves_.size());
              for (int j = 0; j < n; ++j) {
                const auto uj = static_cast<std::size_t>(j);
                if ((swept_columns >> j & 1) || b.width[uj] == 0) continue;
                const std::int32_t by = tb.offset[uj] - b.offset[uj];
                std::uint32_t g = slide.first_part;
                while (g < slide.end_part && moves_[g].by != by) ++g;
                if (g == slide.end_part) {
                  moves_.push_back({0, by});
                  ++slide.end_part;
                }
                moves_[g].mask |= ((1u << b.width[uj]) - 1) << b.offset[uj];
              }
              for (std::uint32_t q = slide.first_swept; q < slide.end_swept; ++q) {
                Swept& sw = swept_[q];
                sw.from_offset = b.offset[sw.column];
                sw.to_offset = tb.offset[sw.column];
                sw.digit_mask = static_cast<std::uint8_t>((1u << b.width[sw.column]) - 1);
              }
            }
            slide.first_tuple = slide.end_tuple = static_cast<std::uint32_t>(tuples_.size());
            if (by_words) {
              const std::uint32_t count = slide.end_swept - slide.first_swept;
              for_each_tuple(slide, [&](const std::array<std::uint8_t, kMaxN>& d) {
                Tuple& tuple = tuples_.emplace_back();
                tuple.in_mask = ~std::uint64_t{0};
                for (std::uint32_t q = 0; q < count; ++q) {
                  const Swept& sw = swept_[slide.first_swept + q];
                  const std::size_t column = sw.column;
                  const std::uint32_t from = d[q], to = digit_after(sw, d[q]);
                  const int o = b.offset[column], w = b.width[column], to_o = tb.offset[column], to_w = tb.width[column];
                  const int low = low_bits(o, w);
                  if (low > 0) {
                    const std::uint32_t low_mask = (1u << low) - 1;
                    tuple.in_mask &= patterns_[static_cast<std::size_t>(o)][static_cast<std::size_t>(low)][from & low_mask];
                    tuple.in_shift += (static_cast<std::int32_t>(to & low_mask) - static_cast<std::int32_t>(from & low_mask)) * (std::int32_t{1} << o);
                  }
                  if (w - low > 0) {
                    tuple.word_mask |= ((1u << (w - low)) - 1) << high_shift(o);
                    tuple.word_value |= (from >> low) << high_shift(o);
                  }
                  if (to_w - low_bits(to_o, to_w) > 0) tuple.x_const |= (to >> low_bits(to_o, to_w)) << high_shift(to_o);
                }
                // A tuple that reads and writes the same words by the same shift as one before
                // joins its mask (about half do: digits of a swept column that keep their value).
                const std::size_t last = tuples_.size() - 1;
                const std::size_t first = std::max<std::size_t>(slide.first_tuple, last - std::min<std::size_t>(last, 16));
                for (std::size_t u = last; u-- > first;) {  // the latest first
                  Tuple& other = tuples_[u];
                  if (other.word_mask == tuple.word_mask && other.word_value == tuple.word_value &&
                      other.x_const == tuple.x_const && other.in_shift == tuple.in_shift) {
                    other.in_mask |= tuple.in_mask;
                    tuples_.pop_back();
                    break;
                  }
                }
              });
              slide.end_tuple = static_cast<std::uint32_t>(tuples_.size());
            }
          }
          row_slides_.push_back(slide);
        }
      }
      b.end_slide = static_cast<std::uint32_t>(row_slides_.size());
      // The slides by words first.
      state_slides_.clear();
      std::uint32_t kept = b.first_slide;
      for (std::uint32_t r = b.first_slide; r < b.end_slide; ++r) {
        if (row_slides_[r].by_words) row_slides_[kept++] = row_slides_[r];
        else state_slides_.push_back(row_slides_[r]);
      }
      b.first_state_slide = kept;
      std::copy(state_slides_.begin(), state_slides_.end(), row_slides_.begin() + kept);
    }
    // The numbering's column tables and vertical slides, for expand.
    numbering_tables_ = &t;
    vertical_slides_ = &slides;
    active_columns_ = numbering.active_columns();
    for (const int j : active_columns_) column_table_[static_cast<std::size_t>(j)] = t.admitted_table(numbering.column_group(j));
  }

  // Adds to `to` every state one slide from a state of `from`.
  void expand(const std::vector<std::uint64_t>& from, std::vector<std::uint64_t>& to) const {
    for (std::size_t k = 0; k < blocks_.size(); ++k) {
      const Block& b = blocks_[k];
      const std::uint32_t base = word_of_[k];
      bool any = false;
      for (std::uint32_t w = base; w < word_of_[k + 1]; ++w) any = any || from[w] != 0;
      if (!any) continue;
      expand_vertical(k, from, to);
      expand_rows(k, from, to);
      for (std::uint32_t w = base; w < word_of_[k + 1]; ++w) {
        for (std::uint64_t bits = from[w]; bits != 0; bits &= bits - 1) {
          const auto bit = static_cast<std::uint32_t>(64 * (w - base) + static_cast<std::uint32_t>(std::countr_zero(bits)));
          for (std::uint32_t r = b.first_state_slide; r < b.end_slide; ++r) {
            const RowSlide& slide = row_slides_[r];
            std::uint32_t place = 0;
            bool passes = true;
            for (std::uint32_t s = slide.first_swept; s < slide.end_swept; ++s) {
              const Swept& swept = swept_[s];
              const std::uint32_t d = bit >> swept.from_offset & swept.digit_mask;
              if (!(swept.passes >> d & 1)) {
                passes = false;
                break;
              }
              place |= static_cast<std::uint32_t>(digit_after(swept, d)) << swept.to_offset;
            }
            if (!passes) continue;
            for (std::uint32_t g = slide.first_part; g < slide.end_part; ++g) {
              const std::uint32_t field = bit & moves_[g].mask;
              place |= moves_[g].by >= 0 ? field << moves_[g].by : field >> -moves_[g].by;
            }
            set(to, slide.target, place);
          }
        }
      }
    }
  }

  // Adds to `to` every state one row slide of a by_words record from a state of block k of
  // `from`: per tuple, a word at a time.
  void expand_rows(std::size_t k, const std::vector<std::uint64_t>& from, std::vector<std::uint64_t>& to) const {
    const Block& b = blocks_[k];
    const std::uint32_t base = word_of_[k], words = word_of_[k + 1] - base;
    for (std::uint32_t r = b.first_slide; r < b.first_state_slide; ++r) {
      const RowSlide& slide = row_slides_[r];
      const std::uint32_t target_base = word_of_[slide.target];
      for (std::uint32_t u = slide.first_tuple; u < slide.end_tuple; ++u) {
        const Tuple& tuple = tuples_[u];
        for (std::uint32_t x = 0; x < words; ++x) {
          if ((x & tuple.word_mask) != tuple.word_value) continue;
          const std::uint64_t m = from[base + x] & tuple.in_mask;
          if (m == 0) continue;
          std::uint32_t at = tuple.x_const;
          for (std::uint32_t h = slide.first_part; h < slide.end_part; ++h)
            at |= (x >> highs_[h].from & ((1u << highs_[h].bits) - 1)) << highs_[h].to;
          to[target_base + at] |= tuple.in_shift >= 0 ? m << tuple.in_shift : m >> -tuple.in_shift;
        }
      }
    }
  }

  // Adds to block k of `to` every state one column slide from a state of block k of `from`:
  // per column and shift δ of its digit, the states whose digit has a slide by δ, moved by
  // δ << offset bits, a word at a time.
  void expand_vertical(std::size_t k, const std::vector<std::uint64_t>& from, std::vector<std::uint64_t>& to) const {
    const LineTables& t = *numbering_tables_;
    const Block& b = blocks_[k];
    const std::uint32_t base = word_of_[k], words = word_of_[k + 1] - base;
    for (const int j : active_columns_) {
      const auto uj = static_cast<std::size_t>(j);
      if (b.radix[uj] < 2) continue;
      const int o = b.offset[uj], width = b.width[uj];
      // Per shift, the digits that have a slide by it (a digit is below 16: shifts of -15 to 15).
      std::array<std::int8_t, 32> shift{};
      std::array<std::uint16_t, 32> digits{};
      int shifts = 0;
      for (int d = 0; d < b.radix[uj]; ++d) {
        const int arrangement = column_table_[uj][b.column[uj] + d];
        const LegalSlide* end = vertical_slides_->last(arrangement, t.masks, b.mask[uj]);
        for (const LegalSlide* m = vertical_slides_->first(arrangement, t.masks, b.mask[uj]); m != end; ++m) {
          int g = 0;
          while (g < shifts && shift[static_cast<std::size_t>(g)] != m->shift) ++g;
          if (g == shifts) {
            shift[static_cast<std::size_t>(shifts++)] = m->shift;
          }
          digits[static_cast<std::size_t>(g)] |= static_cast<std::uint16_t>(1u << d);
        }
      }
      const int low_bits = o >= 6 ? 0 : std::min(width, 6 - o);
      const int high_shift = o >= 6 ? o - 6 : 0;
      const std::uint32_t high_mask = (1u << (width - low_bits)) - 1;
      for (int g = 0; g < shifts; ++g) {
        const std::int64_t by = static_cast<std::int64_t>(shift[static_cast<std::size_t>(g)]) * (std::int64_t{1} << o);
        const std::int64_t by_words = by >> 6;  // floor
        const int by_bits = static_cast<int>(by & 63);
        const std::uint16_t d_set = digits[static_cast<std::size_t>(g)];
        std::array<std::uint64_t, 16> mask_of_high{};
        for (std::uint32_t high = 0; high <= high_mask; ++high)
          for (int low = 0; low < (1 << low_bits); ++low)
            if (d_set >> (low | static_cast<int>(high << low_bits)) & 1)
              mask_of_high[high] |= patterns_[static_cast<std::size_t>(o >= 6 ? 0 : o)][static_cast<std::size_t>(low_bits)][static_cast<std::size_t>(low)];
        for (std::uint32_t x = 0; x < words; ++x) {
          const std::uint64_t source = from[base + x];
          if (source == 0) continue;
          // The digit's high part from the word's place, its low part from the bit's.
          const std::uint32_t high = o >= 6 ? (x >> high_shift) & high_mask : (x & high_mask);
          const std::uint64_t mask = mask_of_high[high];
          const std::uint64_t m = source & mask;
          if (m == 0) continue;
          const std::size_t target = base + static_cast<std::size_t>(static_cast<std::int64_t>(x) + by_words);
          to[target] |= m << by_bits;
          if (by_bits != 0) to[target + 1] |= m >> (64 - by_bits);
        }
      }
    }
  }

  // [o][bits][value]: the bits b of a word whose field [o, o + bits) holds `value`.
  using Patterns = std::array<std::array<std::array<std::uint64_t, 64>, 7>, 6>;
  static constexpr Patterns make_patterns() {
    Patterns p{};
    for (int o = 0; o < 6; ++o)
      for (int bits = 0; bits + o <= 6; ++bits)
        for (int bit = 0; bit < 64; ++bit)
          p[static_cast<std::size_t>(o)][static_cast<std::size_t>(bits)][static_cast<std::size_t>(bit >> o & ((1 << bits) - 1))] |= std::uint64_t{1} << bit;
    return p;
  }
  static constexpr Patterns patterns_ = make_patterns();

  template <class Visit>
  void for_each_place(std::size_t k, Visit&& visit) const {
    const Block& b = blocks_[k];
    if (b.empty) return;
    std::array<std::uint8_t, kMaxN> digit{};
    while (true) {
      std::uint32_t bit = 0;
      for (std::size_t j = 0; j < kMaxN; ++j) bit |= static_cast<std::uint32_t>(digit[j]) << b.offset[j];
      visit(bit);
      int j = kMaxN - 1;
      for (; j >= 0; --j) {
        const auto uj = static_cast<std::size_t>(j);
        if (b.radix[uj] > 1 && ++digit[uj] < b.radix[uj]) break;
        digit[uj] = 0;
      }
      if (j < 0) return;
    }
  }

  std::uint64_t packed_digits(std::size_t k, std::uint32_t bit) const {
    const Block& b = blocks_[k];
    std::uint64_t packed = 0;
    for (std::size_t j = 0; j < kMaxN; ++j)
      packed |= std::uint64_t{bit >> b.offset[j] & ((1u << b.width[j]) - 1)} << (kDigitBits * j);
    return packed;
  }

  void set(std::vector<std::uint64_t>& bits, std::size_t k, std::uint32_t bit) const {
    bits[word_of_[k] + (bit >> 6)] |= std::uint64_t{1} << (bit & 63);
  }

  std::uint32_t find(std::uint32_t v) {
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];
      v = parent_[v];
    }
    return v;
  }
  void join(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

  static std::uint64_t popcount(const std::vector<std::uint64_t>& bits) {
    std::uint64_t total = 0;
    for (const std::uint64_t w : bits) total += static_cast<std::uint64_t>(std::popcount(w));
    return total;
  }

  std::vector<Block> blocks_;
  std::vector<std::uint32_t> word_of_;  // per entry, its block's first word, plus the end
  std::vector<RowSlide> row_slides_;
  std::vector<Swept> swept_;
  std::vector<Tuple> tuples_;
  std::vector<HighPart> highs_;
  std::vector<Move> moves_;
  std::vector<RowSlide> state_slides_;  // table_row_slides' buffer
  std::vector<std::uint32_t> node_of_, parent_;  // solvable_components(): per block, its first node; union-find
  std::vector<std::int16_t> last_index_;   // per root: the highest index noted (-1: none)
  std::vector<std::uint32_t> top_states_;  // per root: its states of that index (a class holds < 2^32)
  const LineTables* numbering_tables_ = nullptr;
  const SlideTable* vertical_slides_ = nullptr;
  std::vector<int> active_columns_;
  std::array<const std::uint8_t*, kMaxN> column_table_{};
  std::vector<std::uint64_t> visited_, frontier_, next_, winning_;
};

}  // namespace rushhour::class_engine
