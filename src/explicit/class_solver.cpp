#include "explicit/class_solver.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <numeric>
#include <random>
#include <stdexcept>
#include <unordered_map>

#include <unistd.h>

#include "board/board.hpp"
#include "board/errors.hpp"
#include "explicit/class_bit_search.hpp"
#include "explicit/class_numbering.hpp"
#include "explicit/class_rows.hpp"
#include "explicit/class_search.hpp"
#include "util/clock.hpp"
#include "util/process.hpp"

namespace rushhour::class_engine {
namespace {

// Solving a class takes per state: its index and its component's top index (a byte each), its
// union-find parent (4 bytes) and its queue entry.
constexpr std::uint64_t kBytesPerState = 2 + 4 + sizeof(Item);
// A split class's other parts take per state of a part: its entry in the part's list, its
// union-find parent and (at most) one start per entry. A part holds fewer states than its class.
constexpr std::uint64_t kBytesPerPartState = sizeof(Item) + 4 + 4;
// Classes of at least this many states give the arrays of the path they do not take back
// (tens of megabytes and more; a few milliseconds to allocate again).
constexpr std::uint64_t kReleaseOtherPathAbove = std::uint64_t{1} << 20;
// Per row combination of a work item: the combination, its slot, its entries in the column
// search's levels, its Entry if kept in the class (an upper bound).
constexpr std::uint64_t kBytesPerCombo = sizeof(Combo) + 4 + 4 * (kMaxN + 1) + 96 + 4;

// The bounds a work item must fit, per thread.
struct ItemBounds {
  std::uint64_t class_states = 0;  // states of one class
  std::uint64_t combos = 0;        // row combinations of one item
  std::uint64_t bytes = 0;         // the thread's share of the memory
};

// The states and components of one part of a split class, or of a product of parts (one
// and one: no part).
struct PartFigures {
  std::uint64_t states = 1, components = 1;
};

// A class solved by the class solver, counted once its item is known to be taken.
struct SolvedElsewhere {
  int cars = 0, trucks = 0, weight = 1;
  ClassFigures figures;
  double cpu_seconds = 0;  // the solver's, on this thread
};

template <class Numbering>
class Worker final : public WorkerFigures {
 public:
  Worker(const LineTables& t, const Rules& rules, const ClassEngineOptions& options, bool mirror, ItemBounds bounds)
      : WorkerFigures(options, tally_shape(rules)), t_(t), rules_(rules), mirror_(mirror), bounds_(bounds) {
    if (t.admitted_slots != Numbering::kAdmittedSlots) throw std::logic_error("class engine: tables of another numbering");
    if (mirror && !options.fixed_lines.empty()) throw std::logic_error("class engine: fixed lines with the mirror");
  }

  // Work item `item`: a wall placement (item / row_items) and the rows' kind sequences, the
  // base-`groups` digits of the rest, row 0 most significant. Items outside the domain (no
  // target car) hold no class.
  void run_item(std::uint64_t item) override {
    const std::optional<std::uint64_t> rows = rows_.take(item);
    if (!rows) return;
    const std::uint64_t combos = *rows;
    const bool own_mirror = rows_.own_mirror();
    if (combos > bounds_.combos) {  // bounds_.combos < 2^32: ids and strides fit 32 bits
      refused_.push_back(item);
      return;
    }
    // largest_solved_ counts this item's classes alone while it runs.
    const std::uint64_t largest_before = largest_solved_;
    largest_solved_ = 0;
    solve_item(item, combos, own_mirror);
    // A thread keeps its arrays from item to item, each at the size the largest item needed
    // so far; the largest of different items then add up. After a heavy item they go back.
    if (combos >= options_.release_after_combos || largest_solved_ >= options_.release_after_states) release_arrays();
    largest_solved_ = std::max(largest_solved_, largest_before);
  }

  void solve_item(std::uint64_t item, std::uint64_t combos, bool own_mirror) {
    const std::uint64_t item_states = build_combos(combos);
    if (options_.draw_classes_above != 0 && (own_mirror ? 1 : 2) * item_states > options_.draw_classes_above) {
      draw_classes(item, own_mirror);
      return;
    }
    const std::uint64_t explicit_limit =
        options_.class_solver ? std::min(bounds_.class_states, options_.solver_above) : bounds_.class_states;
    // Only an item above the bound in all can hold a class above it (or one for the class
    // solver): each of its classes then goes the path its size picks, and if one fits
    // neither, the item is refused and what it counted so far forgotten.
    guarded_ = item_states > explicit_limit;
    refuse_ = false;
    if (guarded_) mark_item_start();
    search_classes(own_mirror);
    if (guarded_ && refuse_) {
      forget_item();
      refused_.push_back(item);
    }
  }

  void release_arrays() {
    search_.release();
    bit_search_.release();
    numbering_.release();
    rows_.release();
    for (std::vector<Reached>& r : reached_) std::vector<Reached>().swap(r);
    for (std::vector<std::uint8_t>& m : masks_) std::vector<std::uint8_t>().swap(m);
    std::vector<std::uint64_t>().swap(listed_);
    std::vector<std::uint64_t>().swap(times_drawn_);
  }

  // Lists the current item's row combinations (rows_.combos(); the numbering sized for them)
  // and returns the states of all its classes, vehicle limits or not.
  std::uint64_t build_combos(std::uint64_t combos) {
    numbering_.start_item(combos);
    return rows_.build_combos(combos);
  }

  // The configurations work item `item` adds (its classes' states, twice where it solves its
  // mirror item's too; 0 where it holds none, or its mirror item solves them), found without
  // solving them: a work sample's measure of an item's size, within the vehicle limits.
  std::uint64_t item_states(std::uint64_t item) override {
    const std::optional<std::uint64_t> rows = rows_.take(item);
    if (!rows) return 0;
    // Within vehicle limits, the column search lists the classes the limits leave, with their
    // states, as a solve would meet them (an item of too many combinations to search keeps
    // the count without limits below, an upper bound).
    if (!rules_.limits().unlimited() && *rows <= bounds_.combos) {
      build_combos(*rows);
      listed_.clear();
      drawing_ = Drawing::List;
      search_classes(rows_.own_mirror());
      drawing_ = Drawing::None;
      return std::accumulate(listed_.begin(), listed_.end(), std::uint64_t{0});
    }
    const std::uint64_t states = rows_.states_without_listing();
    return rows_.own_mirror() ? states : 2 * states;
  }

 private:
  // A row combination the column search reached, with its states so far: the product over
  // the columns chosen of the arrangements each admits.
  struct Reached {
    std::uint32_t combo;
    std::uint32_t states;  // at most 15^8 < 2^32 (the numbering's lanes hold a combination's states)
  };

  // Every class of the current item, in the order of its columns' kind sequences (column 0's
  // most significant), through search_columns.
  void search_classes(bool own_mirror) {
    std::vector<Reached>& all = reached_[0];
    all.clear();
    for (const std::uint32_t id : rows_.admitted()) all.push_back(Reached{id, 1});
    search_columns(0, rows_.cars(), rows_.trucks(), own_mirror, all);
  }

  // Columns j.. of the classes of the current item; `reached`: the row combinations that
  // columns 0..j-1 admit, ascending; cars and trucks so far. A choice that breaks the vehicle
  // limits is not followed (later columns only add vehicles). `undecided`: the item is its own
  // mirror and the columns so far are their own mirrors: a column whose mirror group is less
  // leads to classes whose mirrors are solved instead, one whose mirror is greater to classes
  // that are solved for both.
  void search_columns(int j, int cars, int trucks, bool undecided, const std::vector<Reached>& reached) {
    const int n = t_.n;
    if (j == n) {
      const int weight = undecided && mirror_ ? 1 : mirror_ ? 2 : 1;
      class_ = &reached;
      class_states_ = 0;
      for (const Reached& r : reached) class_states_ += r.states;
      if (drawing_ == Drawing::List) {
        listed_.push_back(static_cast<std::uint64_t>(weight) * class_states_);
        largest_listed_ = std::max(largest_listed_, class_states_);
      } else if (drawing_ == Drawing::Solve) {
        if (const std::uint64_t times = times_drawn_[listed_at_++]; times > 0) {
            solve_drawn(cars, trucks, weight, times);
        }
      } else if (!guarded_) {
        solve_class(cars, trucks, weight);
      } else if (!refuse_) {
        solve_on_its_path(cars, trucks, weight);
      }
      return;
    }
    const auto uj = static_cast<std::size_t>(j);
    std::uint32_t allowed = 0;
    for (int g = 0; g < t_.groups; ++g) {
      const int mirror_g = t_.mirror_group[static_cast<std::size_t>(g)];
      if (mirror_ && undecided && mirror_g < g) continue;
      if (const int fixed = fixed_group_[static_cast<std::size_t>(n) + uj]; fixed >= 0 && g != fixed) continue;
      if (!rules_.limits().allows(cars + t_.group_cars[static_cast<std::size_t>(g)],
                                  trucks + t_.group_trucks[static_cast<std::size_t>(g)]))
        continue;
      allowed |= std::uint32_t{1} << g;
    }
    // One list per column at a time (a heavy 7x7 item holds up to 10^8 combinations): each
    // kind sequence allowed here keeps, in order, the combinations whose mask it admits; the
    // masks are looked up once and read in order per kind sequence.
    std::vector<Reached>& kept = reached_[uj + 1];
    std::vector<std::uint8_t>& masks = masks_[uj];
    masks.resize(reached.size());
    for (std::size_t k = 0; k < reached.size(); ++k) masks[k] = rows_.combos()[reached[k].combo].column_mask[uj];
    for (std::uint32_t bits = allowed; bits != 0; bits &= bits - 1) {
      const int g = std::countr_zero(bits);
      kept.clear();
      for (std::size_t k = 0; k < reached.size(); ++k)
        if (t_.column_groups[masks[k]] >> g & 1)
          kept.push_back(Reached{reached[k].combo,
                                 reached[k].states * static_cast<std::uint32_t>(t_.admitted(g, masks[k]).size())});
      if (kept.empty()) continue;
      column_group_[uj] = g;
      search_columns(j + 1, cars + t_.group_cars[static_cast<std::size_t>(g)],
                     trucks + t_.group_trucks[static_cast<std::size_t>(g)],
                     undecided && t_.mirror_group[static_cast<std::size_t>(g)] == g, kept);
    }
  }

  // ClassEngineOptions::draw_classes_above: lists the current item's classes (their
  // configurations, in the search's order), draws options_.classes_drawn of them with
  // replacement in proportion to those, and solves each drawn class once (the figures are
  // theirs alone). A drawn class that neither path can take refuses the item.
  void draw_classes(std::uint64_t item, bool own_mirror) {
    listed_.clear();
    drawing_ = Drawing::List;
    search_classes(own_mirror);
    std::vector<std::uint64_t> cumulative;
    std::uint64_t total = 0;
    for (const std::uint64_t configurations : listed_) cumulative.push_back(total += configurations);
    times_drawn_.assign(listed_.size(), 0);
    if (total > 0) {
      std::mt19937_64 random(options_.class_draw_seed ^ (item * 0x9E37'79B9'7F4A'7C15));
      for (int d = 0; d < options_.classes_drawn; ++d) {
        const std::uint64_t at = random() % total;  // the bias of % is below 2^-20 for totals below 2^44
        ++times_drawn_[static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), at) -
                                                cumulative.begin())];
      }
      drawing_ = Drawing::Solve;
      listed_at_ = 0;
      refuse_ = false;
      // A sweep searches the columns once; this second search, apart from its drawn classes,
      // is the draw's own cost.
      const double start = thread_cpu_seconds();
      search_classes(own_mirror);
      double classes = 0;
      for (const ClassDraw& d : class_draws_) classes += d.cpu_seconds;
      draw_search_seconds_ = std::max(0.0, thread_cpu_seconds() - start - classes);
    }
    drawing_ = Drawing::None;
    drawn_from_ = total;
    if (refuse_) {
      class_draws_.clear();
      refused_.push_back(item);
    }
  }

  void solve_drawn(int cars, int trucks, int weight, std::uint64_t times) {
    const std::uint64_t states = class_states_;
    const double start = thread_cpu_seconds();
    solve_on_its_path(cars, trucks, weight);
    class_draws_.push_back({static_cast<std::uint64_t>(weight) * states, times, thread_cpu_seconds() - start, path_});
  }

  // The current class on the path its size picks: the class solver, or this worker; refuse_
  // if it fits neither.
  void solve_on_its_path(int cars, int trucks, int weight) {
    const std::uint64_t states = class_states_;
    if (for_solver(states)) {
      path_ = ClassPath::Symbolic;
      solve_elsewhere(cars, trucks, weight, states);
      for (const SolvedElsewhere& solved : solved_elsewhere_) count_solved_elsewhere(solved);
      solved_elsewhere_.clear();
    } else if (states > bounds_.class_states) {
      refuse_ = true;
    } else {
      solve_class(cars, trucks, weight);
    }
  }

  // Whether the current class (of this many states) goes to the class solver.
  bool for_solver(std::uint64_t states) const {
    return options_.class_solver && (states > bounds_.class_states ||
                                     (states > options_.solver_above && !dense_for_bits(states, class_->size())));
  }

  // Whether a class of `states` states in `combinations` row combinations is dense enough for
  // the bit sets (ClassEngineOptions::bit_search_above), unless it falls into parts.
  bool dense_for_bits(std::uint64_t states, std::uint64_t combinations) const {
    return states >= options_.bit_search_above && states >= options_.bit_search_per_combination * combinations &&
           !options_.on_clusters;
  }

  // The current class by the class solver, kept in solved_elsewhere_ until the item is known
  // to be taken; refuse_ if the solver cannot take it.
  void solve_elsewhere(int cars, int trucks, int weight, std::uint64_t states) {
    const int n = t_.n;
    ClassLines lines;
    lines.states = states;
    lines.with_mirror = weight == 2;
    lines.max_bytes = bounds_.bytes;
    for (int i = 0; i < n; ++i) lines.sequences.push_back(kind_lengths(t_, rows_.group(i)));
    for (int j = 0; j < n; ++j) lines.sequences.push_back(kind_lengths(t_, column_group_[static_cast<std::size_t>(j)]));
    // The thread's share goes to the solver while this worker waits: its own arrays go.
    search_.release();
    bit_search_.release();
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
    VehicleTally& tally = touch(rows_.wall_count(), solved.cars, solved.trucks);
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
      largest_solved_ = std::max(largest_solved_, solve_class_now(cars, trucks, weight));
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
    classes_.fetch_add(static_cast<std::uint64_t>(weight), std::memory_order_relaxed);
    const std::uint64_t total = numbering_.number(*class_, column_group_, bounds_.class_states);
    const auto states = static_cast<std::size_t>(total);
    states_.fetch_add(states * static_cast<std::uint64_t>(weight), std::memory_order_relaxed);
    // A class whose parts never meet is searched on its main slice alone: each state found
    // there stands for rest_.states states, each component for rest_.components.
    rest_ = PartFigures{};
    rest_keys_.assign(1, 0);
    rest_mirror_keys_.assign(1, 0);
    rest_key_mask_ = rest_mirror_mask_ = 0;
    rest_keys_ready_ = true;
    // The split's lists need memory beside the search's: a class is split only where both fit
    // the thread's share.
    if (!options_.split_classes || options_.on_clusters || total > bounds_.bytes / (kBytesPerState + kBytesPerPartState))
      numbering_.use_lines(kEveryLine);
    else if (numbering_.split())
      take_rest(total);

    const bool on_bits = dense_for_bits(total, numbering_.entry_count()) && numbering_.parts().empty();
    // Each path keeps its arrays for the next class; a large class gives the other path's
    // back, so that the thread holds one path's largest at a time, not both.
    if (total >= kReleaseOtherPathAbove) on_bits ? search_.release() : bit_search_.release();
    path_ = on_bits ? ClassPath::Bits : numbering_.parts().empty() ? ClassPath::Explicit : ClassPath::Parts;
    if (on_bits) {
      solve_on_bits(states, cars, trucks, weight);
      return states;
    }
    std::array<std::uint64_t, kIndexSlots> layer{};
    const std::size_t solvable =
        search_.run(numbering_, states, rules_.metric(), [&](int index, std::size_t first, std::size_t end) {
          layer[static_cast<std::size_t>(index)] = end - first;
          highest_index_ = std::max(highest_index_, index);
          item_highest_ = std::max(item_highest_, index);
          note_samples(index, first, end, weight == 2);
        });

    const auto w = static_cast<std::uint64_t>(weight);
    VehicleTally& tally = touch(rows_.wall_count(), cars, trucks);
    add_exact(tally.domain, w * states);
    for (int i = 0; i < kIndexSlots && layer[static_cast<std::size_t>(i)] != 0; ++i)
      add_exact(tally.count[static_cast<std::size_t>(i)], w * rest_.states * layer[static_cast<std::size_t>(i)]);
    // At most w * (the class's states) per class: these counters cannot pass 2^64 (the sums
    // of several workers' and runs' counters are added exactly).
    const std::uint64_t per_state = w * rest_.states, per_component = w * rest_.components;
    for (std::size_t q = 0; q < solvable; ++q) {
      const std::uint32_t s = search_.queued(q).state;
      const std::uint32_t r = search_.root(s);
      const std::uint8_t top = search_.top(r);
      if (search_.index(s) == top) tally.nondominated[top] += per_state;
      if (r == s) tally.components[top] += per_component;
    }
    if (options_.on_clusters) note_clusters(cars, trucks, weight == 2, solvable);
    return states;
  }

  // Solves the class just numbered (every line in use) on bit sets (ClassBitSearch).
  void solve_on_bits(std::uint64_t states, int cars, int trucks, int weight) {
    bit_search_.prepare(numbering_, rules_.metric());
    // One component needs nothing but the layers' counts: its highest index is the last.
    const bool one_component = bit_search_.solvable_components(numbering_) <= 1;
    std::array<std::uint64_t, kIndexSlots> layer{};
    int top = 0;
    bit_search_.run([&](int index, std::uint64_t count, const std::vector<std::uint64_t>& bits) {
      layer[static_cast<std::size_t>(index)] = count;
      top = index;
      highest_index_ = std::max(highest_index_, index);
      item_highest_ = std::max(item_highest_, index);
      if (!one_component) bit_search_.note_components(index, bits);
      // As note_samples, for a class not split.
      if (options_.samples_per_index <= 0 || options_.sample_indices <= 0) return;
      highest_ = std::max(highest_, index);
      if (index < highest_ - options_.sample_indices + 1) return;
      std::vector<SampleKey>& best = best_[static_cast<std::size_t>(index)];
      bit_search_.for_each_state(bits, [&](const Item& item) {
        const SampleKey key = numbering_.key_of(item);
        offer_sample(best, key);
        if (weight == 2) offer_sample(best, t_.mirror_key(key));
      });
    });
    const auto w = static_cast<std::uint64_t>(weight);
    VehicleTally& tally = touch(rows_.wall_count(), cars, trucks);
    add_exact(tally.domain, w * states);
    for (int i = 0; i <= top; ++i) add_exact(tally.count[static_cast<std::size_t>(i)], w * layer[static_cast<std::size_t>(i)]);
    if (layer[0] == 0) return;
    if (one_component) {
      tally.nondominated[static_cast<std::size_t>(top)] += w * layer[static_cast<std::size_t>(top)];
      tally.components[static_cast<std::size_t>(top)] += w;
      return;
    }
    bit_search_.for_each_component([&](int component_top, std::uint64_t top_states) {
      tally.nondominated[static_cast<std::size_t>(component_top)] += w * top_states;
      tally.components[static_cast<std::size_t>(component_top)] += w;
    });
  }

  // The parts of the class just split other than the exit row's: the states and components
  // of their product (the rest: a product of graphs has the product of their components).
  // Each part is listed as its slice, and its components found by union-find along its own
  // slides (the metric does not change components). Checks that the class is the product of
  // its parts' slices, and leaves the exit row's part in use.
  void take_rest(std::uint64_t total) {
    const std::vector<LineSet>& parts = numbering_.parts();
    rest_keys_ready_ = false;
    std::uint64_t product = numbering_.slice_states(parts[0]);
    for (std::size_t p = 1; p < parts.size(); ++p) {
      const PartFigures part = part_figures(parts[p]);
      rest_.states *= part.states;
      rest_.components *= part.components;
      product *= part.states;
    }
    if (product != total) throw std::logic_error("class engine: a split class is not the product of its parts' slices");
    numbering_.use_lines(parts[0]);
  }

  // The states and components of the slice of part `lines` of the class just split. Parts of
  // one shape recur across classes (the classes of an item differ in the main part's
  // columns): each shape's figures are worked out once per worker. May change the lines in
  // use.
  PartFigures part_figures(LineSet lines) {
    const PartShape shape = numbering_.part_shape(lines);
    if (const auto known = part_figures_.find(shape); known != part_figures_.end()) return known->second;
    std::vector<Item>& items = part_items_;
    items.clear();
    // Per entry, where its slice states start in items (kNoEntry: it holds none).
    constexpr std::uint32_t kNoEntry = ~std::uint32_t{0};
    part_start_.assign(numbering_.entry_count(), kNoEntry);
    numbering_.for_each_slice_state(lines, false, [&](const Item& item) {
      if (part_start_[item.entry] == kNoEntry) part_start_[item.entry] = static_cast<std::uint32_t>(items.size());
      items.push_back(item);
    });
    std::vector<std::uint32_t>& parent = part_parent_;
    parent.resize(items.size());
    std::iota(parent.begin(), parent.end(), 0u);
    const auto find = [&parent](std::uint32_t x) {
      while (parent[x] != x) x = parent[x] = parent[parent[x]];
      return x;
    };
    std::uint64_t components = items.size();
    numbering_.use_lines(lines);
    // The union-find needs each edge once: from the end where it leads to a higher
    // arrangement (the exit row, whose slides are all given, is in the main part).
    for (std::size_t q = 0; q < items.size(); ++q)
      numbering_.template for_each_neighbour<false>(items[q], rules_.metric(), Slides::WinningOnce, [&](const Item& to) {
        const std::uint32_t start = part_start_[to.entry];
        const std::uint32_t at = start + numbering_.slice_position(to);
        if (start == kNoEntry || at >= items.size())
          throw std::logic_error("class engine: a slide leaves its part's slice");
        const std::uint32_t a = find(static_cast<std::uint32_t>(q)), b = find(at);
        if (a != b) {
          parent[b] = a;
          --components;
        }
      });
    if (part_figures_.size() >= kMaxPartShapes) part_figures_.clear();
    return part_figures_.emplace(shape, PartFigures{.states = items.size(), .components = components}).first->second;
  }

  // For the samples of a split class, once a layer is sampled: the least keys of the rest's
  // states restricted to its lines' fields, and of their mirror images (`with_mirror`). The
  // least keys of a product of parts (disjoint fields) are combinations of each part's least
  // keys: `cap` of them are kept, part by part.
  void take_rest_keys(bool with_mirror) {
    rest_keys_ready_ = true;
    const std::vector<LineSet>& parts = numbering_.parts();
    const auto cap = static_cast<std::size_t>(options_.samples_per_index);
    for (std::size_t p = 1; p < parts.size(); ++p) {
      // The mirror keeps each column's field and moves row i's to row n - 1 - i.
      const SampleKey mask = numbering_.key_mask(parts[p]);
      const SampleKey image_mask = numbering_.key_mask(mirrored(parts[p]));
      rest_key_mask_ |= mask;
      rest_mirror_mask_ |= image_mask;
      part_keys_.clear();
      part_mirror_keys_.clear();
      numbering_.for_each_slice_state(parts[p], false, [&](const Item& item) {
        const SampleKey key = numbering_.key_of(item);
        part_keys_.push_back(key & mask);
        if (with_mirror) part_mirror_keys_.push_back(t_.mirror_key(key) & image_mask);
      });
      combine_least(rest_keys_, part_keys_, cap);
      if (with_mirror) combine_least(rest_mirror_keys_, part_mirror_keys_, cap);
    }
  }

  // The lines of the mirror image of `lines`: the rows in reverse order, the columns kept.
  LineSet mirrored(LineSet lines) const {
    const int n = t_.n;
    LineSet image = lines & ~((LineSet{1} << n) - 1);
    for (int i = 0; i < n; ++i)
      if (lines >> i & 1) image |= LineSet{1} << (n - 1 - i);
    return image;
  }

  // keys = the `cap` least of {a | b: a in keys, b in part} (keys and part of disjoint fields).
  void combine_least(std::vector<SampleKey>& keys, std::vector<SampleKey>& part, std::size_t cap) {
    std::sort(part.begin(), part.end());
    part.erase(std::unique(part.begin(), part.end()), part.end());
    if (part.size() > cap) part.resize(cap);
    combined_.clear();
    for (const SampleKey a : keys)
      for (const SampleKey b : part) combined_.push_back(a | b);
    std::sort(combined_.begin(), combined_.end());
    if (combined_.size() > cap) combined_.resize(cap);
    keys.swap(combined_);
  }

  // Appends a record of every component of the class just solved whose highest index is at
  // least cluster_min_index (every one when the minimal clusters are counted), its mirror
  // image's too if `with_mirror`, in the order the search's queue meets their roots (its first
  // `solvable` entries are the solvable states).
  void note_clusters(int cars, int trucks, bool with_mirror, std::size_t solvable) {
    const int min_index = options_.minimal_counts.empty() ? options_.cluster_min_index : 0;
    const auto least = static_cast<std::uint8_t>(std::min(min_index, kMaxStoredIndex + 1));
    std::vector<ClusterRecord>& records = clusters_.records;
    std::vector<std::uint64_t>& histogram = clusters_.histogram;
    const std::size_t first = records.size();
    record_of_root_.resize(numbering_.states());
    histogram_at_.clear();
    for (std::size_t q = 0; q < solvable; ++q) {
      const std::uint32_t s = search_.queued(q).state;
      if (search_.root(s) != s || search_.top(s) < least) continue;
      record_of_root_[s] = static_cast<std::uint32_t>(records.size() - first);
      records.push_back({.hardest = ~SampleKey{0}, .highest_index = search_.top(s),
                         .cars = static_cast<std::uint32_t>(cars), .trucks = static_cast<std::uint32_t>(trucks),
                         .walls = static_cast<std::uint32_t>(rows_.wall_count())});
      histogram_at_.push_back(histogram.size());
      histogram.resize(histogram.size() + search_.top(s) + 1u, 0);
    }
    const std::size_t added = records.size() - first;
    if (added == 0) return;
    mirror_hardest_.assign(with_mirror ? added : 0, ~SampleKey{0});
    // The minimal test chooses among every hardest configuration (the images' after them).
    std::vector<std::vector<SampleKey>>& candidates = clusters_.hardest_keys;
    const bool tested = options_.minimal_clusters || !options_.minimal_counts.empty();
    if (tested) candidates.resize(first + added * (with_mirror ? 2 : 1));
    for (std::size_t q = 0; q < solvable; ++q) {
      const std::uint32_t s = search_.queued(q).state;
      const std::uint32_t r = search_.root(s);
      if (search_.top(r) < least) continue;
      const std::uint32_t k = record_of_root_[r];
      ClusterRecord& record = records[first + k];
      ++record.size;
      ++histogram[histogram_at_[k] + search_.index(s)];
      if (search_.index(s) == 0) ++record.winning;
      if (search_.index(s) != search_.top(r)) continue;
      ++record.hardest_count;
      const SampleKey key = numbering_.key_of(search_.queued(q));
      record.hardest = std::min(record.hardest, key);
      if (with_mirror) mirror_hardest_[k] = std::min(mirror_hardest_[k], t_.mirror_key(key));
      // Of index 0, the canonical configuration decides alone (minimal_choice).
      if (tested && (search_.top(r) > 0 || candidates[first + k].empty())) {
        candidates[first + k].push_back(key);
        if (with_mirror) candidates[first + added + k].push_back(t_.mirror_key(key));
      }
    }
    for (std::size_t k = first; k < candidates.size(); ++k) std::sort(candidates[k].begin(), candidates[k].end());
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
    if (!options_.cluster_both_metrics) return;
    // With minimal counts every cluster is noted for the test, but only the records from
    // cluster_min_index on are kept: a class without one needs no search under the other
    // metric. Its records get an empty figure (highest index 0) so the layout holds.
    const auto kept = [this](const ClusterRecord& r) { return static_cast<int>(r.highest_index) >= options_.cluster_min_index; };
    if (!options_.minimal_counts.empty() && std::none_of(records.begin() + static_cast<std::ptrdiff_t>(first), records.end(), kept))
      clusters_.other_histogram.resize(clusters_.other_histogram.size() + (records.size() - first), 0);
    else
      note_other_metric(first, added, with_mirror, solvable, least);
  }

  // The other metric's figures of the records [first, first + added) note_clusters just
  // appended (their mirror images, if any, follow them): a breadth-first search under it from
  // the same winning states. A cluster is the same component under both metrics, so the
  // search's roots and record_of_root_ still name each state's record; the second search
  // replaces the first's indices and queue, whose figures are taken.
  void note_other_metric(std::size_t first, std::size_t added, bool with_mirror, std::size_t solvable,
                         std::uint8_t least) {
    const Metric metric = other_metric(rules_.metric());
    const std::size_t tail = search_.run_indices(numbering_, metric);
    if (tail != solvable) throw std::logic_error("class engine: the two metrics reach different states");
    std::vector<ClusterRecord>& records = clusters_.records;
    std::vector<std::uint64_t>& histogram = clusters_.other_histogram;
    // The queue holds the states by ascending index: a record's last one has its highest.
    for (std::size_t q = 0; q < tail; ++q) {
      const std::uint32_t s = search_.queued(q).state;
      const std::uint32_t r = search_.root(s);
      if (search_.top(r) >= least) records[first + record_of_root_[r]].other_highest_index = search_.index(s);
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
      const std::uint32_t s = search_.queued(q).state;
      const std::uint32_t r = search_.root(s);
      if (search_.top(r) < least) continue;
      const std::uint32_t k = record_of_root_[r];
      ClusterRecord& record = records[first + k];
      ++histogram[histogram_at_[k] + search_.index(s)];
      if (search_.index(s) != record.other_highest_index) continue;
      ++record.other_hardest_count;
      const SampleKey key = numbering_.key_of(search_.queued(q));
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

  // The states queued(from..to-1) got index `index`: keep the least keys of high indices (with
  // their mirror images' where the mirror class is counted with this one).
  void note_samples(int index, std::size_t from, std::size_t to, bool with_mirror) {
    if (from == to || options_.samples_per_index <= 0 || options_.sample_indices <= 0) return;
    highest_ = std::max(highest_, index);
    if (index < highest_ - options_.sample_indices + 1) return;
    std::vector<SampleKey>& best = best_[static_cast<std::size_t>(index)];
    if (!rest_keys_ready_) take_rest_keys(with_mirror);
    for (std::size_t q = from; q < to; ++q) {
      const SampleKey key = numbering_.key_of(search_.queued(q));
      // A state of a split class's main slice stands for itself with every state of the rest:
      // of those, only the rest's least keys can be among the least (the fields are
      // disjoint). A class not split has one rest key, 0, and masks 0.
      const SampleKey main_key = key & ~rest_key_mask_;
      for (const SampleKey rest_key : rest_keys_) offer_sample(best, main_key | rest_key);
      if (!with_mirror) continue;
      const SampleKey main_image = t_.mirror_key(key) & ~rest_mirror_mask_;
      for (const SampleKey rest_image : rest_mirror_keys_) offer_sample(best, main_image | rest_image);
    }
  }

  const LineTables& t_;
  const Rules& rules_;
  const bool mirror_;
  const ItemBounds bounds_;
  const std::array<int, 2 * kMaxN> fixed_group_ = fixed_groups(t_, options_.fixed_lines);  // per line, or -1

  // The current work item and class.
  ItemRows rows_{t_, rules_, mirror_, fixed_group_};
  // draw_classes: search_columns lists the classes, or solves the drawn ones.
  enum class Drawing { None, List, Solve } drawing_ = Drawing::None;
  std::vector<std::uint64_t> listed_;       // per class, its configurations
  std::vector<std::uint64_t> times_drawn_;  // per class, how often drawn
  std::size_t listed_at_ = 0;
  bool guarded_ = false;  // the item may hold a class above the explicit bound
  bool refuse_ = false;   // a class of the item fits neither path
  std::vector<SolvedElsewhere> solved_elsewhere_;
  std::array<std::vector<Reached>, kMaxN + 1> reached_;  // [column]: the combinations columns 0..j-1 admit
  std::array<std::vector<std::uint8_t>, kMaxN> masks_;    // [column]: their masks in that column
  const std::vector<Reached>* class_ = nullptr;  // the current class's combinations, ascending
  std::uint64_t class_states_ = 0;           // the current class's states
  ClassPath path_ = ClassPath::Explicit;     // the path of the class solved last
  std::array<int, kMaxN> column_group_{};  // the kind sequences of the columns chosen so far
  ClassNumbering<Numbering> numbering_{t_, rows_};  // the current class's states
  ClassBitSearch<Numbering> bit_search_;  // for classes of at least options_.bit_search_above states
  ClassSearch<Numbering> search_;                    // their indices and components
  // A split class's parts other than the exit row's (take_rest): one state and one component
  // for a class not split; the least keys of their lines' fields (one key 0 if not split).
  PartFigures rest_;
  std::vector<SampleKey> rest_keys_, rest_mirror_keys_;
  SampleKey rest_key_mask_ = 0, rest_mirror_mask_ = 0;  // their fields, and their images'
  bool rest_keys_ready_ = true;
  // The figures of the part shapes met (take_rest), at most kMaxPartShapes (~8 MB).
  static constexpr std::size_t kMaxPartShapes = std::size_t{1} << 16;
  std::unordered_map<PartShape, PartFigures, PartShapeHash> part_figures_;
  // take_rest's storage, kept from class to class.
  std::vector<Item> part_items_;
  std::vector<std::uint32_t> part_parent_, part_start_;
  std::vector<SampleKey> part_keys_, part_mirror_keys_, combined_;
  // note_clusters: per root, its record among the class's; per record, where its histogram
  // starts; the least mirrored key of each record's hardest states.
  std::vector<std::uint32_t> record_of_root_;
  std::vector<std::size_t> histogram_at_;
  std::vector<SampleKey> mirror_hardest_;
};

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

}  // namespace

std::uint64_t bytes_per_state() { return kBytesPerState; }

bool wide_numbering(const Rules& rules, const ClassEngineOptions& options) {
  return options.wide_numbering || rules.size() > 6;
}

std::unique_ptr<WorkerFigures> make_worker(const LineTables& tables, const Rules& rules, const ClassEngineOptions& options,
                                           bool wide) {
  const bool mirror = mirror_applies(rules, options.mirror);
  const ItemBounds bounds = item_bounds(options, std::max(1, options.threads));
  if (wide)
    return std::make_unique<Worker<WideNumbering>>(tables, rules, options, mirror, bounds);
  return std::make_unique<Worker<NarrowNumbering>>(tables, rules, options, mirror, bounds);
}

}  // namespace rushhour::class_engine
