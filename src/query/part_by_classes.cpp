#include "query/part_by_classes.hpp"

#include <algorithm>

#include "explicit/class_engine.hpp"

namespace rushhour {

std::optional<PartFigures> part_by_classes(const PartitionedRunIdentity& identity, const DomainPart& part,
                                           std::uint64_t number, int threads) {
  const Rules& rules = identity.layers.rules;
  ClassEngineOptions options;
  options.threads = threads;
  options.mirror = false;  // a class's image lies in another part
  options.samples_per_index = 0;
  options.sample_indices = 0;
  options.fixed_lines.resize(static_cast<std::size_t>(2 * rules.size()));
  for (std::size_t k = 0; k < part.lines.size(); ++k)
    options.fixed_lines[static_cast<std::size_t>(part.lines[k])] = part.sequences[k];
  const ClassItems items(rules, options);
  const std::unique_ptr<ItemSolver> solver = items.solver();
  std::vector<Count> count, nondominated, components;
  Count domain = 0;
  for (const std::uint64_t item : items.items_of_fixed_rows()) {
    const ItemFigures solved = solver->solve(item);
    if (!solved.delta.refused.empty()) return std::nullopt;
    for (const VehicleTally& tally : solved.delta.tallies) {
      domain += tally.domain;
      for (auto [into, from] : {std::pair{&count, &tally.count}, std::pair{&nondominated, &tally.nondominated},
                                std::pair{&components, &tally.components}}) {
        if (into->size() < from->size()) into->resize(from->size(), 0);
        for (std::size_t i = 0; i < from->size(); ++i) (*into)[i] += (*from)[i];
      }
    }
  }
  // A one-item delta's tallies hold zeros up to the item's highest index: the part's highest
  // index is the last with configurations.
  while (!count.empty() && count.back() == 0) count.pop_back();
  PartFigures figures;
  figures.number = number;
  figures.complete = identity.max_layers < 0 || static_cast<int>(count.size()) < identity.max_layers;
  if (!figures.complete) count.resize(static_cast<std::size_t>(identity.max_layers));
  figures.domain = domain;
  figures.winning = count.empty() ? Count(0) : count[0];
  for (const Count& c : count) {
    figures.layers.push_back({.count = c});
    figures.solvable += c;
  }
  figures.unsolvable = domain - figures.solvable;
  if (identity.dominance) {
    nondominated.resize(count.size(), 0);
    components.resize(count.size(), 0);
    figures.nondominated.assign(nondominated.begin(), nondominated.end());
    for (std::size_t i = 0; i < count.size(); ++i)
      figures.components.push_back(static_cast<int>(i) < identity.components_from
                                       ? -1
                                       : static_cast<std::int64_t>(static_cast<std::uint64_t>(components[i])));
  }
  return figures;
}

}  // namespace rushhour
