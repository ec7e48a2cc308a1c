#include "explicit/class_engine.hpp"

#include <chrono>
#include <utility>

#include "board/errors.hpp"
#include "explicit/class_lines.hpp"
#include "explicit/class_records.hpp"
#include "explicit/class_solver.hpp"
#include "util/clock.hpp"

namespace rushhour {

using class_engine::LineTables;
using class_engine::WorkerFigures;

namespace {

// A worker behind the ItemSolver interface: each item's figures, its cluster records and
// what its classes added to the worker's size buckets.
class WorkerItemSolver final : public ItemSolver {
 public:
  WorkerItemSolver(const LineTables& tables, const Rules& rules, const ClassEngineOptions& options, bool wide,
                   std::uint64_t items)
      : tables_(tables), rules_(rules), options_(options), items_(items),
        worker_(class_engine::make_worker(tables, rules, options, wide)) {}

  ItemFigures solve(std::uint64_t item) override {
    const auto start = Clock::now();
    worker_->run_item(item);
    ItemFigures figures;
    figures.delta = worker_->take_item(item, items_);
    figures.delta.seconds = seconds_since(start);
    if (options_.on_clusters) {
      figures.clusters = worker_->take_clusters();
      if (options_.minimal_clusters || !options_.minimal_counts.empty())
        figures.clusters = class_engine::tested_records(
            tables_, rules_, options_, std::move(figures.clusters),
            [&](const ClusterRecord& r, MinimalRule rule) { count_minimal(r, rule, figures.delta); });
    }
    if (options_.measure_class_sizes) {
      figures.class_sizes = new_sizes(worker_->class_sizes(), reported_);
      figures.solver_class_sizes = new_sizes(worker_->solver_class_sizes(), solver_reported_);
    }
    figures.largest_class = worker_->largest_class();
    class_engine::WorkerFigures::ClassDraws draws = worker_->take_class_draws();
    figures.drawn_from = draws.drawn_from;
    figures.class_draws = std::move(draws.draws);
    figures.draw_search_seconds = draws.search_seconds;
    return figures;
  }

 private:
  using Buckets = std::array<ClassSizeBucket, 64>;
  // What `now` holds beyond `reported` (which it then becomes), without trailing empty buckets.
  static std::vector<ClassSizeBucket> new_sizes(const Buckets& now, Buckets& reported) {
    std::vector<ClassSizeBucket> added(now.size());
    for (std::size_t k = 0; k < now.size(); ++k) {
      added[k] = {.classes = now[k].classes - reported[k].classes,
                  .states = now[k].states - reported[k].states,
                  .cpu_seconds = now[k].cpu_seconds - reported[k].cpu_seconds};
    }
    reported = now;
    while (!added.empty() && added.back().classes == 0) added.pop_back();
    return added;
  }

  // A cluster minimal under `rule` counted in `delta`'s figures, at its highest index.
  void count_minimal(const ClusterRecord& r, MinimalRule rule, ClassSweepState& delta) const {
    VehicleTally& t = delta.tallies[shape_.slot(static_cast<int>(r.walls), static_cast<int>(r.cars),
                                                static_cast<int>(r.trucks))];
    // The cluster's states are in the tally: it has highest + 1 entries.
    std::vector<std::uint64_t>& minimal = t.minimal[static_cast<std::size_t>(rule)];
    minimal.resize(t.count.size(), 0);
    ++minimal.at(r.highest_index);
  }

  const LineTables& tables_;
  const Rules& rules_;
  const ClassEngineOptions& options_;
  const TallyShape shape_ = tally_shape(rules_);
  std::uint64_t items_;
  std::unique_ptr<WorkerFigures> worker_;
  Buckets reported_{}, solver_reported_{};
};

}  // namespace

ClassItems::ClassItems(const Rules& rules, const ClassEngineOptions& options) : rules_(rules), options_(options) {
  if (rules.size() > kMaxClassEngineSize)
    throw InputError("the class engine supports sizes up to " + std::to_string(kMaxClassEngineSize) + " (got " +
                     std::to_string(rules.size()) + ")");
  if (options.on_clusters && options.class_solver)
    throw std::logic_error("cluster records come from classes solved by the sweep (no class_solver)");
  if (!rules.walls().none() && options.class_solver)
    throw std::logic_error("the class solver's classes are kind sequences without walls (no class_solver with walls)");
  wide_ = class_engine::wide_numbering(rules, options);
  tables_ = std::make_unique<const LineTables>(class_engine::tables_of(rules, wide_));
  items_ = class_engine::work_items(*tables_);
}

ClassItems::~ClassItems() = default;

std::vector<ItemRange> ClassItems::within_limits() const {
  const std::vector<std::uint64_t> listed = class_engine::items_within_limits(*tables_, rules_, items_);
  if (listed.empty()) return {{0, items_}};
  std::vector<ItemRange> ranges;
  for (const std::uint64_t item : listed) {
    if (!ranges.empty() && ranges.back().end == item) ++ranges.back().end;
    else ranges.push_back({item, item + 1});
  }
  return ranges;
}

std::vector<std::uint64_t> ClassItems::items_of_fixed_rows() const {
  const LineTables& t = *tables_;
  const std::array<int, 2 * class_engine::kMaxN> fixed = class_engine::fixed_groups(t, options_.fixed_lines);
  std::vector<std::uint64_t> rows = {0};  // the rows' part of the items, row 0 most significant
  for (int i = 0; i < t.n; ++i) {
    std::vector<std::uint64_t> longer;
    for (const std::uint64_t prefix : rows)
      for (int g = 0; g < t.groups; ++g)
        if (fixed[static_cast<std::size_t>(i)] < 0 || fixed[static_cast<std::size_t>(i)] == g)
          longer.push_back(prefix * static_cast<std::uint64_t>(t.groups) + static_cast<std::uint64_t>(g));
    rows = std::move(longer);
  }
  std::vector<std::uint64_t> items;
  for (std::uint64_t placement = 0; placement < t.placements.size(); ++placement)
    for (const std::uint64_t row_part : rows) items.push_back(placement * t.row_items + row_part);
  return items;
}

std::vector<std::uint64_t> ClassItems::item_sizes(const std::vector<std::uint64_t>& items, std::uint64_t* largest_class) const {
  const std::unique_ptr<WorkerFigures> worker = class_engine::make_worker(*tables_, rules_, options_, wide_);
  std::vector<std::uint64_t> sizes;
  sizes.reserve(items.size());
  for (const std::uint64_t item : items) sizes.push_back(worker->item_states(item));
  if (largest_class) *largest_class = worker->largest_listed();
  return sizes;
}

std::unique_ptr<ItemSolver> ClassItems::solver() const {
  return std::make_unique<WorkerItemSolver>(*tables_, rules_, options_, wide_, items_);
}

std::uint64_t class_bytes_per_state() { return class_engine::bytes_per_state(); }

std::uint64_t class_work_items(const Rules& rules) {
  return class_engine::work_items(class_engine::tables_of(rules, rules.size() > 6));
}

}  // namespace rushhour
