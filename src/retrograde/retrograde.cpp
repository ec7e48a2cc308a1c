#include "retrograde/retrograde.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "board/board_string.hpp"
#include "board/key_graph.hpp"
#include "util/clock.hpp"
#include "util/process.hpp"

namespace rushhour {

bdd predecessors(const StateEncoding& encoding, const bdd& states, Metric metric) {
  std::vector<bdd> terms;
  for (const TransitionPart& part : encoding.transitions(metric))
    terms.push_back(bdd_relprod(part.relation, part.rename->apply(states), part.next_variables));
  return disjunction(std::move(terms));
}

bdd component_closure(const StateEncoding& encoding, BddSession& session, const bdd& states,
                      int* rounds, const ClosureRoundHook& after_round) {
  // Moves are reversible, so the predecessors of a set are also its successors.
  bdd reached = states;
  bdd frontier = states;
  int round = 0;
  const std::vector<TransitionPart>& parts = encoding.transitions(Metric::Move);
  while (frontier != bddfalse) {
    ++round;
    bdd found_in_round = bddfalse;
    for (const TransitionPart& part : parts) {
      const bdd found = minus(
          bdd_relprod(part.relation, part.rename->apply(frontier), part.next_variables), reached);
      session.check();
      reached |= found;
      frontier |= found;
      found_in_round |= found;
    }
    frontier = found_in_round;
    if (after_round) after_round(round, frontier, reached);
  }
  if (rounds != nullptr) *rounds += round;
  return reached;
}

namespace {

// The number of components meeting `nondominated`, each explored explicitly from a seed
// (steps connect the same components as moves). -1 if the closure budget runs out first.
// Explicit exploration costs work proportional to the component, where a symbolic closure
// per component costs BDD operations per BFS level: with ~10^5 small components at the low
// indices of 5x5 that is the difference between seconds and minutes. The search runs on
// board keys (key_graph.hpp): no Board objects, no allocation per configuration.
// The seeds are taken class by class (by kind signature): a component never leaves its
// class, so the set of explored configurations is emptied between classes and holds one
// class's share of the components, mostly within the processor's caches, rather than every
// component met at the index (on 6x6 parts, gigabytes touched at random).
std::int64_t count_components(const StateEncoding& encoding, const bdd& nondominated,
                              std::int64_t& closures_left) {
  const int size = encoding.rules().size();
  struct Seed {
    std::uint64_t signature;
    BoardKey key;
  };
  std::vector<Seed> seeds;
  encoding.for_each_board(nondominated, [&](const Board& board) {
    const BoardKey key = board.key();
    seeds.push_back({kind_signature(key, size), key});
    return true;
  });
  std::sort(seeds.begin(), seeds.end(),
            [](const Seed& a, const Seed& b) { return a.signature < b.signature; });
  BoardKeySet seen;
  std::int64_t components = 0;
  std::vector<BoardKey> stack;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    if (i > 0 && seeds[i].signature != seeds[i - 1].signature) seen.clear();
    const BoardKey& seed_key = seeds[i].key;
    if (seen.contains(seed_key)) continue;
    if (closures_left == 0) return -1;
    if (closures_left > 0) --closures_left;
    ++components;
    seen.insert(seed_key);
    stack.assign(1, seed_key);
    while (!stack.empty()) {
      const BoardKey key = stack.back();
      stack.pop_back();
      for_each_step(key, size, [&](const BoardKey& next) {
        if (seen.insert(next)) stack.push_back(next);
      });
    }
  }
  return components;
}

// The same number by one closure per component: the least configuration left is a seed, its
// component's closure is taken off. Slower where components are many and small, but it
// holds nothing per configuration: only BDDs, under the session's node ceiling.
std::int64_t count_components_symbolically(const StateEncoding& encoding, BddSession& session,
                                           const bdd& nondominated, std::int64_t& closures_left) {
  std::int64_t components = 0;
  bdd remaining = nondominated;
  while (remaining != bddfalse) {
    if (closures_left == 0) return -1;
    if (closures_left > 0) --closures_left;
    bdd seed = bddfalse;
    encoding.for_each_board(remaining, [&](const Board& board) {
      seed = encoding.encode(board);
      return false;
    });
    remaining = minus(remaining, component_closure(encoding, session, seed));
    session.check();
    ++components;
  }
  return components;
}

using LayerSource = std::function<bdd(int index)>;

void compute_dominance(const StateEncoding& encoding, BddSession& session,
                       const RetrogradeOptions& options, SymbolicRun& run,
                       const LayerSource& layer_at) {
  const int max_index = static_cast<int>(run.layers.size()) - 1;
  Classification& figures = run.figures;
  figures.nondominated.assign(run.layers.size(), 0);
  figures.components.assign(run.layers.size(), -1);
  std::int64_t closures_left = options.dominance_components;
  bdd above = bddfalse;  // A_{i+1}: the components of every configuration of index > i
  int first = max_index;
  if (const auto& resumed = options.resume_dominance) {
    if (resumed->nondominated.size() != run.layers.size() ||
        resumed->components.size() != run.layers.size() || resumed->lowest < 0 ||
        resumed->lowest > max_index)
      throw std::invalid_argument("dominance progress of another run");
    figures.nondominated = resumed->nondominated;
    figures.components = resumed->components;
    closures_left = resumed->closures_left;
    above = resumed->above;
    first = resumed->lowest - 1;
    if (options.on_note && first >= 0)
      options.on_note("dominance resumed below index " + std::to_string(resumed->lowest));
  }
  // A pass that ends early leaves both figures empty; the checkpoint has its progress.
  const auto end_early = [&](const std::string& note) {
    run.interrupted = true;
    figures.nondominated.clear();
    figures.components.clear();
    if (options.on_note) options.on_note(note);
  };
  for (int i = first; i >= 0; --i) {
    if (options.should_stop && options.should_stop()) {
      end_early("dominance interrupted: its figures are left out of this result");
      return;
    }
    const auto start = Clock::now();
    const bdd nondominated = minus(layer_at(i), above);
    session.check();
    figures.nondominated[i] = encoding.state_set(nondominated).count();
    if ((options.dominance_indices < 0 || max_index - i < options.dominance_indices) &&
        i >= options.components_from)
      figures.components[i] = options.symbolic_components
                                  ? count_components_symbolically(encoding, session, nondominated, closures_left)
                                  : count_components(encoding, nondominated, closures_left);
    const double counting_seconds = seconds_since(start);
    int rounds = 0;
    auto last_note = start;
    const auto note_round = [&](int round, const bdd& found, const bdd& reached) {
      if (!options.on_note || options.closure_note_seconds < 0 ||
          seconds_since(last_note) < options.closure_note_seconds)
        return;
      last_note = Clock::now();
      char text[160];
      std::snprintf(text, sizeof text,
                    ": closure round %d, found %d nodes, reached %d nodes, %.2f s", round,
                    bdd_nodecount(found), bdd_nodecount(reached), seconds_since(start));
      options.on_note("dominance index " + std::to_string(i) + text);
    };
    if (i > 0)
      above |= component_closure(encoding, session, nondominated, &rounds, note_round);
    session.check();
    if (options.on_note) {
      char timing[160];
      std::snprintf(timing, sizeof timing,
                    " components, %.2f s (components %.2f s, closure %d rounds %.2f s, above %d nodes)",
                    seconds_since(start), counting_seconds, rounds,
                    seconds_since(start) - counting_seconds, bdd_nodecount(above));
      options.on_note("dominance index " + std::to_string(i) + ": " +
                      to_string(figures.nondominated[i]) + " non-dominated, " +
                      (figures.components[i] < 0 ? std::string("uncounted")
                                                 : std::to_string(figures.components[i])) +
                      timing);
    }
    if (options.on_dominance)
      options.on_dominance({i, above, figures.nondominated, figures.components, closures_left});
    if (i > 0 && i <= options.dominance_stop) {
      end_early("dominance stopped after index " + std::to_string(i) +
                " as asked: its figures are left out of this result, --resume continues");
      return;
    }
  }
}

void take_samples(const StateEncoding& encoding, const RetrogradeOptions& options,
                  SymbolicRun& run, const LayerSource& layer_at) {
  const int max_index = static_cast<int>(run.layers.size()) - 1;
  for (int i = max_index; i >= 0 && max_index - i < options.sample_indices; --i) {
    bdd remaining = layer_at(i);
    for (int k = 0; k < options.samples_per_index && remaining != bddfalse; ++k) {
      const Board board = encoding.decode_one(remaining);
      run.figures.samples.push_back(
          {to_board_string(encoding.rules(), board), static_cast<std::uint32_t>(i)});
      remaining &= !encoding.encode(board);
    }
  }
}

}  // namespace

SymbolicRun classify_symbolic(const StateEncoding& encoding, BddSession& session,
                              const RetrogradeOptions& options, std::vector<bdd> finished_layers,
                              const std::vector<double>& finished_seconds) {
  const auto start = Clock::now();
  const Rules& rules = encoding.rules();
  SymbolicRun run(rules);
  Classification& figures = run.figures;
  figures.engine = "bdd";
  figures.encoding = encoding.name();
  figures.variable_order = encoding.order_name();
  figures.domain_count = encoding.domain().count();
  figures.winning_count = encoding.winning().count();

  // With vehicle limits, `frontier` may be the last layer of the unlimited board (see
  // Frontiers); C_i = frontier_i ∧ limits either way, because a configuration and its
  // neighbours have the same vehicle counts. `visited` is the union of the frontiers so far.
  bool unlimited_frontiers = false;
  if (encoding.vehicle_limits() != bddtrue) {
    unlimited_frontiers =
        options.frontiers == Frontiers::Unlimited ||
        (options.frontiers == Frontiers::Auto &&
         2 * figures.winning_count >= encoding.unlimited_winning().count());
    if (options.on_note)
      options.on_note(std::string("vehicle limits: ") +
                      (unlimited_frontiers ? "unlimited" : "limited") + " frontiers");
  }
  bdd frontier;
  bdd visited = bddfalse;
  auto finish_layer = [&](const bdd& layer, double layer_seconds) {
    const int index = static_cast<int>(run.layers.size());
    session.check();
    LayerFigures layer_figures{encoding.state_set(layer).count(),
                               static_cast<std::uint64_t>(bdd_nodecount(layer)), layer_seconds};
    run.layers.push_back(layer);
    figures.layers.push_back(layer_figures);
    if (options.on_layer) options.on_layer(index, layer, layer_seconds);
    if (options.on_progress)
      options.on_progress({index, layer_figures.count, layer_figures.bdd_nodes,
                           static_cast<std::uint64_t>(bdd_nodecount(visited)), layer_seconds,
                           seconds_since(start), session.table_nodes()});
  };

  if (finished_layers.empty()) {
    frontier = unlimited_frontiers ? encoding.unlimited_winning().states()
                                   : encoding.winning().states();
    visited = frontier;
    finish_layer(encoding.winning().states(), seconds_since(start));
  } else {
    for (bdd& layer : finished_layers) {
      const std::size_t index = run.layers.size();
      visited |= layer;
      figures.layers.push_back({encoding.state_set(layer).count(),
                                static_cast<std::uint64_t>(bdd_nodecount(layer)),
                                index < finished_seconds.size()
                                    ? finished_seconds[index]
                                    : std::numeric_limits<double>::quiet_NaN()});
      run.layers.push_back(std::move(layer));
    }
    // run.layers holds them now; a copy left here would keep them alive through the
    // dominance pass, which may release them.
    finished_layers.clear();
    // Saved layers are the limited ones: a resumed run continues on them.
    unlimited_frontiers = false;
    frontier = run.layers.back();
  }

  bool complete = run.layers.back() == bddfalse;
  while (!complete) {
    if (options.max_layers >= 0 && static_cast<int>(run.layers.size()) >= options.max_layers) break;
    if (options.should_stop && options.should_stop()) {
      run.interrupted = true;
      break;
    }
    const auto layer_start = Clock::now();
    frontier = minus(predecessors(encoding, frontier, rules.metric()), visited);
    visited |= frontier;
    const bdd layer = unlimited_frontiers ? frontier & encoding.vehicle_limits() : frontier;
    session.check();
    if (layer == bddfalse) {
      complete = true;
      break;
    }
    finish_layer(layer, seconds_since(layer_start));
  }
  // The first empty layer is not recorded: layers run from 0 to the maximum index.
  if (!run.layers.empty() && run.layers.back() == bddfalse) {
    run.layers.pop_back();
    figures.layers.pop_back();
  }

  figures.complete = complete;
  // The layers are disjoint, so their counts add up to the solvable configurations.
  figures.solvable_count = 0;
  for (const LayerFigures& layer : figures.layers) figures.solvable_count += layer.count;
  figures.unsolvable_count = figures.domain_count - figures.solvable_count;
  // Dominance needs every index above: an incomplete run leaves both figures empty.
  // The frontier and the union of the layers are done with: their nodes go back to the table.
  frontier = bddfalse;
  visited = bddfalse;
  const bool reload = complete && options.dominance && options.reload_layer;
  if (reload)
    for (bdd& layer : run.layers) layer = bddfalse;
  const LayerSource layer_at = [&](int index) {
    if (!reload) return run.layers[static_cast<std::size_t>(index)];
    const bdd layer = options.reload_layer(index);
    session.check();
    return layer;
  };
  if (complete && options.dominance) compute_dominance(encoding, session, options, run, layer_at);
  take_samples(encoding, options, run, layer_at);
  if (reload) run.layers.clear();
  session.check();
  figures.seconds = seconds_since(start);
  figures.peak_rss_bytes = peak_rss_bytes();
  return run;
}

}  // namespace rushhour
