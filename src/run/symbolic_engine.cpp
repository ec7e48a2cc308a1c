#include "run/symbolic_engine.hpp"

#include <limits>
#include <memory>
#include <optional>

#include "explicit/counting.hpp"
#include "retrograde/retrograde.hpp"
#include "run/class_sweep_engine.hpp"
#include "run/partitioned_run.hpp"
#include "util/clock.hpp"

namespace rushhour::run {
namespace {

Classification run_layers(const RunSettings& settings, const RunDirectory* directory,
                          ProgressLog& log) {
  const CommonSettings& common = settings.common;
  const SymbolicSettings& s = settings.symbolic;
  BddSession session(0, s.bdd, [&log](const std::string& note) { log.line(note); });
  const auto build_start = Clock::now();
  const std::unique_ptr<StateEncoding> built =
      make_encoding(session, common.rules, s.encoding, s.slot, s.cell);
  const StateEncoding& encoding = *built;
  const std::string layout = s.encoding == EncodingKind::Cell
                                 ? "coding sequential, order " + s.cell.order + ", clustering line"
                                 : "line code " + s.slot.line_code + ", order " + s.slot.order + ", clustering line";
  const Metric metric = common.rules.metric();
  int relation_nodes = 0;
  for (const TransitionPart& part : encoding.transitions(metric))
    relation_nodes += bdd_nodecount(part.relation);
  log.line("encoding " + encoding.name() + " (" + layout + "): " +
           std::to_string(encoding.variable_count()) + " variables, domain " +
           std::to_string(bdd_nodecount(encoding.domain().states())) + " nodes, winning " +
           std::to_string(bdd_nodecount(encoding.winning().states())) + " nodes, " +
           std::to_string(encoding.transitions(metric).size()) + " transition parts " +
           std::to_string(relation_nodes) + " nodes, built in " +
           std::to_string(seconds_since(build_start)) + " s");
  const std::string identity = layer_identity(encoding, metric);
  std::unique_ptr<LayerStore> store;
  std::unique_ptr<DominanceCheckpoint> checkpoint;
  LayerStore::Loaded finished;
  RetrogradeOptions options = s.retrograde(common);
  if (directory != nullptr) {
    store = std::make_unique<LayerStore>(directory->layers(identity));
    checkpoint = std::make_unique<DominanceCheckpoint>(directory->dominance_checkpoint(
        dominance_identity(identity, s.dominance_indices, s.dominance_components, s.components_from)));
    if (common.resume) {
      const int count = store->finished_layers();
      finished = store->load(count);
      session.check();
      log.line("resuming after " + std::to_string(count) + " finished layers in " +
               store->directory().string());
      if (options.dominance) {
        std::string why;
        options.resume_dominance = checkpoint->load(count, &why);
        session.check();
        if (!options.resume_dominance) log.line("dominance starts at the top: " + why);
      }
    } else {
      if (const int removed = store->clear(); removed > 0)
        log.line("fresh run: removed " + std::to_string(removed) + " old layer files");
      constexpr auto kind = RunDirectory::RunKind::Layers;
      if (const int removed = directory->remove_other_runs(kind); removed > 0)
        log.line("fresh run: removed " + std::to_string(removed) + " " + RunDirectory::other_runs(kind));
      checkpoint->clear();
    }
    if (options.dominance)
      options.on_dominance = [&checkpoint](const DominanceProgress& progress) {
        checkpoint->save(progress);
      };
  }
  // Every layer is saved by then, so the dominance pass may read them back one at a time.
  if (store) options.reload_layer = [&store](int index) { return store->load_one(index); };
  const int already = static_cast<int>(finished.layers.size());
  if (store)
    options.on_layer = [&store, already](int index, const bdd& layer, double seconds) {
      if (index >= already) store->save(index, layer, seconds);
    };
  options.on_progress = [&log](const LayerProgress& p) {
    log.line(layer_line(p.index, p.count, p.frontier_nodes, p.seconds, p.elapsed) +
             ", visited " + std::to_string(p.visited_nodes) + " nodes, table " +
             std::to_string(p.table_nodes));
  };
  options.on_note = [&log](const std::string& note) { log.line(note); };
  options.should_stop = [] { return StopSignals::stop_requested(); };
  std::vector<double> finished_seconds;
  for (const std::optional<double>& seconds : finished.seconds)
    finished_seconds.push_back(seconds.value_or(std::numeric_limits<double>::quiet_NaN()));
  SymbolicRun run =
      classify_symbolic(encoding, session, options, std::move(finished.layers), finished_seconds);
  return std::move(run.figures);
}

// The bdd engine's warning: above the 6x6 board's 4·10^10 configurations.
constexpr Count kBddWarnAbove = 100'000'000'000;

}  // namespace

RunOutcome SymbolicEngine::run(const RunSettings& settings, const RunDirectory* directory, ProgressLog& log) const {
  // Beyond 6x6 the layers' BDDs outgrow one machine's memory (results/7x7/bdd-step: 14 GiB of
  // node table held the full 7x7 board's indices 0-6 only): say so before the tables grow.
  if (const Count domain = count_placements(settings.common.rules).domain; domain > kBddWarnAbove)
    log.line("classify: " + rushhour::to_string(domain) + " configurations: the bdd engine's node tables grow with "
             "the layers (on the full 7x7 board 14 GiB held indices 0-6 only); `--engine classes --estimate` "
             "projects the class engine's job, which runs on many machines too (docs/cluster.md)");
  Classification result = settings.symbolic.partitioned()
                              ? classify_partitioned(settings, directory, log)
                              : run_layers(settings, directory, log);
  // The BDD session is gone by now: the sweep gets the memory the layers had.
  if (settings.symbolic.dominance_by_classes && result.complete && !StopSignals::stop_requested())
    add_class_dominance(settings, directory, log, result);
  return {std::move(result)};
}

}  // namespace rushhour::run
