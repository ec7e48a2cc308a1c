#include "explicit/class_census.hpp"

#include <algorithm>
#include <stdexcept>

#include "board/errors.hpp"
#include "board/lines.hpp"

namespace rushhour {

TallyShape tally_shape(const Rules& rules) {
  const int n = rules.size();
  return {.min_walls = rules.walls().min,
          .wall_counts = rules.walls().max - rules.walls().min + 1,
          .max_cars = n * n / kCar,
          .max_trucks = n * n / kTruck};
}

void add_exact(std::uint64_t& a, std::uint64_t b) {
  if (__builtin_add_overflow(a, b, &a))
    throw std::overflow_error("class engine: a sum of configurations exceeds 2^64");
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
  std::vector<ItemRange> done = later_items;
  if (next_item > 0) done.insert(done.begin(), {0, next_item});
  return complement(done, items);
}

std::uint64_t count_of(const std::vector<ItemRange>& ranges) {
  std::uint64_t count = 0;
  for (const ItemRange& r : ranges) count += r.end - r.begin;
  return count;
}

std::vector<ItemRange> complement(const std::vector<ItemRange>& ranges, std::uint64_t items) {
  std::vector<ItemRange> outside;
  std::uint64_t from = 0;
  for (const ItemRange& r : ranges) {
    if (r.begin > from) outside.push_back({from, r.begin});
    from = r.end;
  }
  if (from < items) outside.push_back({from, items});
  return outside;
}

std::vector<ItemRange> every_kth(const std::vector<ItemRange>& ranges, std::uint64_t stride) {
  std::vector<ItemRange> sample;
  std::uint64_t position = 0;
  for (const ItemRange& r : ranges) {
    const std::uint64_t skip = (stride - position % stride) % stride;
    for (std::uint64_t item = r.begin + skip; item < r.end; item += stride) sample.push_back({item, item + 1});
    position += r.end - r.begin;
  }
  return sample;
}

std::vector<ItemRange> intersection(const std::vector<ItemRange>& a, const std::vector<ItemRange>& b) {
  std::vector<ItemRange> both;
  std::size_t first = 0;
  for (const ItemRange& r : a) {
    while (first < b.size() && b[first].end <= r.begin) ++first;
    for (std::size_t k = first; k < b.size() && b[k].begin < r.end; ++k) {
      const ItemRange common{std::max(r.begin, b[k].begin), std::min(r.end, b[k].end)};
      if (common.begin < common.end) both.push_back(common);
    }
  }
  return both;
}

std::vector<ItemRange> missing_of(const std::vector<ItemRange>& ranges, const ClassSweepState& state) {
  return intersection(ranges, state.missing_items());
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
    for (std::size_t rule = 0; rule < kMinimalRules; ++rule) {
      const std::vector<std::uint64_t>& more = add.minimal[rule];
      std::vector<std::uint64_t>& total = sum.minimal[rule];
      if (more.size() > slots) throw InputError("a class sweep to merge has figures beyond its highest index");
      if (total.size() < more.size()) total.resize(more.size(), 0);
      for (std::size_t i = 0; i < more.size(); ++i) add_exact(total[i], more[i]);
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

ClassCensus census_of_sweep(const Rules& rules, const ClassSweepState& state) {
  if (rules.size() > kMaxClassEngineSize)
    throw InputError("a class sweep of size " + std::to_string(rules.size()) + " (at most " +
                     std::to_string(kMaxClassEngineSize) + ")");
  const SampleKeys keys(rules);
  ClassCensus census(rules);
  census.complete = state.next_item >= state.items && state.refused.empty();
  census.refused = state.refused;
  census.shape = tally_shape(rules);
  if (state.tallies.size() != census.shape.size())
    throw InputError("the class sweep belongs to another board size or wall range");
  census.tallies = state.tallies;
  census.classes = state.classes;
  census.samples.resize(state.sample_keys.size());
  for (std::size_t i = 0; i < state.sample_keys.size(); ++i)
    for (const SampleKey key : state.sample_keys[i])
      census.samples[i].emplace_back(key, keys.board(key));
  census.seconds = state.seconds;
  return census;
}

Classification ClassCensus::classification(const VehicleLimits& limits, const WallRange& walls) const {
  if (walls.min < shape.min_walls || walls.max > shape.max_walls())
    throw InputError("walls " + to_string(walls) + " are outside the class sweep's " + to_string(rules.walls()));
  Classification result(Rules(rules.size(), rules.exit_row(), rules.metric(), limits, rules.domain(), walls));
  result.engine = "classes";
  result.encoding = "none";
  result.variable_order = "none";
  result.complete = complete;
  result.seconds = seconds;
  std::vector<std::uint64_t> count, nondominated, components;
  for (int wall_count = walls.min; wall_count <= walls.max; ++wall_count)
    for (int cars = 0; cars <= shape.max_cars; ++cars)
      for (int trucks = 0; trucks <= shape.max_trucks; ++trucks) {
        if (!limits.allows(cars, trucks)) continue;
        const VehicleTally& v = tally(wall_count, cars, trucks);
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
  if (limits == rules.limits() && walls == rules.walls()) {
    for (int i = static_cast<int>(count.size()) - 1; i >= 0; --i)
      for (const auto& [key, board] : samples[static_cast<std::size_t>(i)])
        result.samples.push_back({board, static_cast<std::uint32_t>(i)});
  }
  return result;
}

}  // namespace rushhour
