#pragma once
// The census of a class sweep and its algebra. A sweep's state (ClassSweepState) holds the
// figures of a set of work items per (cars, trucks) pair; states of disjoint item sets add up
// (add_sweep), which is what checkpoints, resumes, threads, MPI ranks and merged parts rely
// on. The census (ClassCensus) is a finished state with its sample boards, and gives the
// classification of any vehicle limits within the sweep's own.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "board/classification.hpp"
#include "board/rules.hpp"
#include "board/search.hpp"
#include "explicit/sample_keys.hpp"

namespace rushhour {

inline constexpr int kMaxClassEngineSize = 8;

// a += b, refusing to wrap (std::overflow_error): sums over classes can pass 2^64 on 8x8.
void add_exact(std::uint64_t& a, std::uint64_t b);

// Classes of sizes [2^k, 2^(k+1)) states (bucket k), for measurements.
struct ClassSizeBucket {
  std::uint64_t classes = 0;  // solved (a mirror pair counts once)
  std::uint64_t states = 0;   // of the solved classes
  double cpu_seconds = 0;     // solving them (thread CPU time)
};

// The figures of one (cars, trucks) pair, over the domain.
struct VehicleTally {
  std::uint64_t domain = 0;
  std::vector<std::uint64_t> count;         // per index
  std::vector<std::uint64_t> nondominated;  // per index
  std::vector<std::uint64_t> components;    // per index (solvable components only)
  // Per minimal rule (by its MinimalRule value) and highest index, the clusters minimal under
  // it (ClassEngineOptions::minimal_counts); empty where none was counted.
  std::array<std::vector<std::uint64_t>, kMinimalRules> minimal{};
  friend bool operator==(const VehicleTally&, const VehicleTally&) = default;
};

// Where a sweep keeps each figure: one VehicleTally per (walls, cars, trucks), the number of
// walls within the rules' range (one value without walls), up to n*n/2 cars and n*n/3 trucks.
// A figure of any vehicle limits and wall range within the sweep's own is a sum over it.
struct TallyShape {
  int min_walls = 0;
  int wall_counts = 1;
  int max_cars = 0;
  int max_trucks = 0;

  std::size_t size() const {
    return static_cast<std::size_t>(wall_counts * (max_cars + 1) * (max_trucks + 1));
  }
  std::size_t slot(int walls, int cars, int trucks) const {
    return static_cast<std::size_t>(((walls - min_walls) * (max_cars + 1) + cars) * (max_trucks + 1) + trucks);
  }
  int max_walls() const { return min_walls + wall_counts - 1; }
};
TallyShape tally_shape(const Rules& rules);

// A run of work items [begin, end).
struct ItemRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  friend bool operator==(const ItemRange&, const ItemRange&) = default;
};

// Everything a sweep has found in a set of work items: every item before next_item and the
// items of later_items. Enough to continue it (a checkpoint), to add it to the state of other
// items (add_sweep) or to finish it (the census).
struct ClassSweepState {
  std::uint64_t next_item = 0;
  // Sorted, disjoint, non-adjacent ranges above next_item (a part of the items, a sweep whose
  // items finish out of order); empty for a sweep that ran its items in order.
  std::vector<ItemRange> later_items;
  std::uint64_t items = 0;    // work items in all
  std::uint64_t classes = 0;
  std::uint64_t states = 0;
  double seconds = 0;         // sweep time so far, earlier runs included (merged: summed)
  int highest = 0;            // the highest index met
  // Per (walls, cars, trucks), indexed by TallyShape::slot; vectors of highest + 1 entries
  // (a one-item delta leaves the slots it did not meet empty).
  std::vector<VehicleTally> tallies;
  // Per index (highest + 1 entries), the K least explicit-engine keys met, for the T highest.
  std::vector<std::vector<SampleKey>> sample_keys;
  // Work items refused (a class above the memory bound), ascending: not in the figures.
  std::vector<std::uint64_t> refused;
  friend bool operator==(const ClassSweepState&, const ClassSweepState&) = default;

  // The work items in the state.
  std::uint64_t items_done() const;
  bool holds(std::uint64_t item) const;
  // The items in [0, items) not in the state, as sorted ranges.
  std::vector<ItemRange> missing_items() const;
};

// How many items the ranges hold.
std::uint64_t count_of(const std::vector<ItemRange>& ranges);

// The items of [0, items) outside `ranges` (sorted and disjoint), as sorted ranges.
std::vector<ItemRange> complement(const std::vector<ItemRange>& ranges, std::uint64_t items);

// The items in both `a` and `b` (each sorted and disjoint), as sorted ranges.
std::vector<ItemRange> intersection(const std::vector<ItemRange>& a, const std::vector<ItemRange>& b);
// Every stride-th item of `ranges` (sorted and disjoint), counted across them from their first
// item, as one-item ranges.
std::vector<ItemRange> every_kth(const std::vector<ItemRange>& ranges, std::uint64_t stride);

// The items of `ranges` (sorted) that `state` does not hold, as sorted ranges.
std::vector<ItemRange> missing_of(const std::vector<ItemRange>& ranges, const ClassSweepState& state);

// Adds `part` (the state of other work items of the same sweep, e.g. a one-item delta) to
// `into`: figures, classes and seconds are sums, the highest index the max, and the samples
// of each of the T = sample_indices highest indices the K = samples_per_index least keys of
// both. An empty `into` (no tallies) takes the shape of `part`. Throws InputError if the two
// belong to sweeps of other boards or share a work item.
void add_sweep(ClassSweepState& into, const ClassSweepState& part, int samples_per_index, int sample_indices);

// The figures of a sweep: per (walls, cars, trucks), and the sample boards.
struct ClassCensus {
  explicit ClassCensus(Rules rules_in) : rules(std::move(rules_in)) {}

  Rules rules;
  bool complete = false;
  double seconds = 0;
  std::uint64_t classes = 0;
  TallyShape shape;
  std::vector<VehicleTally> tallies;  // indexed by shape.slot
  // Per index, up to K (explicit-engine key, board string) pairs, least keys first; only the
  // T highest indices are kept.
  std::vector<std::vector<std::pair<SampleKey, std::string>>> samples;
  std::vector<std::uint64_t> refused;  // work items refused (then complete is false)
  // With measure_class_sizes, of this run (not of a resumed part): bucket k holds the classes
  // of 2^k to 2^(k+1)-1 states.
  std::vector<ClassSizeBucket> class_sizes;
  std::vector<ClassSizeBucket> solver_class_sizes;  // the classes given to the class solver
  std::uint64_t largest_class = 0;  // states

  const VehicleTally& tally(int walls, int cars, int trucks) const { return tallies[shape.slot(walls, cars, trucks)]; }
  // The classification of the rules' metric under `limits` and `walls` (no wider than the
  // census' own): engine "classes", samples only where they were taken under the same limits
  // and walls (else none).
  Classification classification(const VehicleLimits& limits, const WallRange& walls) const;
  Classification classification() const { return classification(rules.limits(), rules.walls()); }
};

// The census of a sweep's state (e.g. a checkpoint's): complete when every work item is in
// it. Throws InputError if the state belongs to another board size.
ClassCensus census_of_sweep(const Rules& rules, const ClassSweepState& state);

}  // namespace rushhour
