#pragma once
// The class solver: a worker that solves every class of one work item (WorkerFigures::run_item)
// and keeps what it found until the sweep takes it (take_item, or the running totals for a
// checkpoint). One worker per thread; the tables are shared. Internal to
// src/explicit/class_*.cpp.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "explicit/class_engine.hpp"
#include "explicit/class_options.hpp"
#include "explicit/class_lines.hpp"

namespace rushhour::class_engine {

struct Tallies {
  TallyShape shape;
  std::vector<VehicleTally> by_vehicles;  // indexed by shape.slot
};

// Per thread: what a sweep's worker has found, read by the sweep between items.
class WorkerFigures {
 public:
  WorkerFigures(const ClassEngineOptions& options, const TallyShape& shape) : options_(options) {
    tallies_.shape = shape;
    tallies_.by_vehicles.resize(shape.size());
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
  // The configurations work item `item` adds to a sweep within the vehicle limits (its classes'
  // states, twice for an item that solves its mirror item's too; 0 where it solves none),
  // found without solving it: from its row combinations and their columns' arrangements.
  virtual std::uint64_t item_states(std::uint64_t item) = 0;

  std::uint64_t classes() const { return classes_.load(std::memory_order_relaxed); }
  std::uint64_t states() const { return states_.load(std::memory_order_relaxed); }
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
  // The most states of a class listed without solving it: by item_states (within vehicle
  // limits; an item sized without its classes lists none) and by an item solved by drawn
  // classes.
  std::uint64_t largest_listed() const { return largest_listed_; }
  // The classes drawn from the last item (ClassEngineOptions::draw_classes_above), the item's
  // configurations and the CPU of the draw's second column search, and forgets them.
  struct ClassDraws {
    std::uint64_t drawn_from = 0;
    std::vector<ClassDraw> draws;
    double search_seconds = 0;
  };
  ClassDraws take_class_draws() {
    return {std::exchange(drawn_from_, 0), std::exchange(class_draws_, {}), std::exchange(draw_search_seconds_, 0)};
  }

  // The figures found since the last call, as the state of work item `item` alone, and
  // forgets them. Only the (walls, cars, trucks) slots the item met get figures. Its samples are
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
  // The tally of (walls, cars, trucks), marked as met by the current item.
  VehicleTally& touch(int walls, int cars, int trucks) {
    const std::size_t slot = tallies_.shape.slot(walls, cars, trucks);
    touched_[slot] = true;
    return tallies_.by_vehicles[slot];
  }

  // Before an item that may be refused after some of its classes were counted: the state
  // forget_item returns to.
  void mark_item_start() {
    item_start_ = {highest_, highest_index_, sizes_, solver_sizes_, largest_solved_};
  }
  // Forgets what the item since mark_item_start added (a refused item adds nothing): its
  // tallies, samples and counters (take_item has taken every earlier item's).
  void forget_item() {
    for (std::size_t v = 0; v < touched_.size(); ++v) {
      if (!touched_[v]) continue;
      touched_[v] = false;
      VehicleTally& tally = tallies_.by_vehicles[v];
      tally.domain = 0;
      for (auto* values : {&tally.count, &tally.nondominated, &tally.components})
        std::fill(values->begin(), values->end(), 0);
    }
    for (std::size_t i = 0; i <= static_cast<std::size_t>(item_highest_); ++i) best_[i].clear();
    item_highest_ = 0;
    classes_.store(taken_classes_, std::memory_order_relaxed);
    states_.store(taken_states_, std::memory_order_relaxed);
    highest_ = item_start_.highest;
    highest_index_ = item_start_.highest_index;
    sizes_ = item_start_.sizes;
    solver_sizes_ = item_start_.solver_sizes;
    largest_solved_ = item_start_.largest_solved;
  }

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
  std::uint64_t largest_listed_ = 0;
  ClusterRecords clusters_;
  std::uint64_t drawn_from_ = 0;
  std::vector<ClassDraw> class_draws_;
  double draw_search_seconds_ = 0;
  struct ItemStart {
    int highest = 0, highest_index = 0;
    std::array<ClassSizeBucket, 64> sizes{}, solver_sizes{};
    std::uint64_t largest_solved = 0;
  } item_start_;
};

// The memory a class takes per state while a worker solves it.
std::uint64_t bytes_per_state();

// True where the sweep numbers states in 32-bit lanes: 7x7 and 8x8, or forced by the options.
bool wide_numbering(const Rules& rules, const ClassEngineOptions& options);

// A worker of the numbering the board needs (wide: 7x7 and 8x8, or forced), bounded by its
// thread's share of options.max_memory.
std::unique_ptr<WorkerFigures> make_worker(const LineTables& tables, const Rules& rules, const ClassEngineOptions& options,
                                           bool wide);

}  // namespace rushhour::class_engine
