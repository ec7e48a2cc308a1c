#include "run/part_run.hpp"

#include <algorithm>

#include "util/clock.hpp"

namespace rushhour::run {

Count sample_key(const LineTable& table, const Board& board) {
  const int bits = bits_for(table.size());
  Count key = 0;
  for (const std::vector<Segment>& segments : line_segments(board))
    key = key << bits | static_cast<Count>(table.find(segments));
  return key;
}

PartRun classify_part(const Rules& rules, const DomainPart& part, const PartRunOptions& options) {
  BddSettings bdd = options.bdd;
  bdd.initial_nodes = std::min(bdd.initial_nodes, kPartInitialNodes);
  bdd.cache_size = std::min(bdd.cache_size, kPartInitialNodes / 4);
  RetrogradeOptions retrograde = options.retrograde;
  retrograde.samples_per_index = 0;  // taken here, by key
  const LineTable table(rules.size());
  BddSession session(0, bdd);
  const SlotEncoding encoding(session, rules, options.slot, part);
  std::vector<::bdd> first_layers;
  std::vector<double> first_seconds;
  if (options.whole_layers && !options.whole_layers->roots.empty()) {
    // Layer 0 is the part's winning set, which its encoding holds already (reading it cost 3x
    // building it on 6x6). The other layers' seconds: reading them into the part. Parts whose
    // layers end before the diagram's keep their first empty layer, which tells the driver
    // that they are complete.
    first_layers.push_back(encoding.winning().states());
    first_seconds.push_back(0.0);
    const LineDiagramReader reader(encoding, *options.whole_layers);
    for (std::size_t i = 1; i < options.whole_layers->roots.size() && first_layers.back() != bddfalse; ++i) {
      const auto start = Clock::now();
      first_layers.push_back(reader.set(i));
      first_seconds.push_back(seconds_since(start));
    }
    session.check();
  }
  SymbolicRun run = classify_symbolic(encoding, session, retrograde, std::move(first_layers), first_seconds);
  PartRun result(rules);
  result.interrupted = run.interrupted;
  // A part's T highest indices hold every index of the run's T highest it has.
  const int top = static_cast<int>(run.layers.size()) - 1;
  result.least.resize(run.layers.size());
  if (options.mirror_samples) result.least_by_mirror.resize(run.layers.size());
  for (int i = top; i >= 0 && top - i < options.sample_indices && options.samples_per_index > 0; --i) {
    const auto ui = static_cast<std::size_t>(i);
    for (const Board& board : encoding.least_boards(run.layers[ui], options.samples_per_index))
      result.least[ui].emplace_back(sample_key(table, board), board);
    if (options.mirror_samples)
      for (const Board& board :
           encoding.least_boards(run.layers[ui], options.samples_per_index, SlotEncoding::KeyOrder::Mirrored))
        result.least_by_mirror[ui].emplace_back(sample_key(table, board), board);
  }
  session.check();
  result.table_nodes = session.table_nodes();
  result.figures = std::move(run.figures);
  if (options.on_finished && !run.interrupted) options.on_finished(session, encoding, run.layers, result);
  run.layers.clear();
  return result;
}

}  // namespace rushhour::run
