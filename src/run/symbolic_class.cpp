#include "run/symbolic_class.hpp"

#include <memory>
#include <mutex>

#include "run/part_run.hpp"
#include "run/progress.hpp"

namespace rushhour::run {

DomainPart class_part(const ClassLines& lines) {
  DomainPart part;
  for (std::size_t line = 0; line < lines.sequences.size(); ++line) {
    part.lines.push_back(static_cast<int>(line));
    part.sequences.push_back(lines.sequences[line]);
  }
  return part;
}

ClassSolver symbolic_class_solver(const Rules& rules, int samples_per_index, int sample_indices,
                                  ComponentCount components) {
  const Rules unlimited(rules.size(), rules.exit_row(), rules.metric());
  auto session_slot = std::make_shared<std::mutex>();
  return [unlimited, samples_per_index, sample_indices, components,
          session_slot](const ClassLines& lines) -> std::optional<ClassFigures> {
    PartRunOptions options{.samples_per_index = samples_per_index,
                           .sample_indices = sample_indices,
                           .mirror_samples = lines.with_mirror};
    options.bdd.initial_nodes = kPartInitialNodes;
    options.bdd.max_bytes = lines.max_bytes;
    if (lines.max_bytes > 0 && options.bdd.node_ceiling() < kPartInitialNodes) return std::nullopt;
    options.retrograde.dominance = true;
    options.retrograde.dominance_indices = -1;
    options.retrograde.dominance_components = -1;
    options.retrograde.symbolic_components = components == ComponentCount::ByClosures;
    options.retrograde.closure_note_seconds = -1;
    options.retrograde.should_stop = [] { return StopSignals::stop_requested(); };
    const std::lock_guard lock(*session_slot);
    if (StopSignals::stop_requested()) return std::nullopt;
    std::optional<PartRun> run;
    try {
      run.emplace(classify_part(unlimited, class_part(lines), options));
    } catch (const BddFailure&) {
      return std::nullopt;  // above max_bytes
    }
    const Classification& got = run->figures;
    if (run->interrupted || !got.complete) return std::nullopt;
    ClassFigures figures;
    figures.states = static_cast<std::uint64_t>(got.domain_count);
    for (std::size_t i = 0; i < got.layers.size(); ++i) {
      figures.count.push_back(static_cast<std::uint64_t>(got.layers[i].count));
      figures.nondominated.push_back(static_cast<std::uint64_t>(got.nondominated.at(i)));
      if (got.components.at(i) < 0) throw std::logic_error("symbolic class: a component count was cut short");
      figures.components.push_back(static_cast<std::uint64_t>(got.components[i]));
    }
    auto keys_of = [](const std::vector<std::vector<KeyedBoard>>& boards) {
      std::vector<std::vector<SampleKey>> keys(boards.size());
      for (std::size_t i = 0; i < boards.size(); ++i)
        for (const auto& [key, board] : boards[i]) keys[i].push_back(key);
      return keys;
    };
    figures.least_keys = keys_of(run->least);
    figures.least_mirror_keys = keys_of(run->least_by_mirror);
    return figures;
  };
}

}  // namespace rushhour::run
