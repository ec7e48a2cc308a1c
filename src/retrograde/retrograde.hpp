#pragma once
// Symbolic retrograde analysis over any StateEncoding (SPEC §4) and the dominance figures.
//
//   C_0 = Win,  C_i = Pre(C_{i-1}) \ (C_0 ∪ ... ∪ C_{i-1}),  stop at the first empty C_i;
//   unsolvable = domain \ ∪ C_i.
// Pre is the union over the encoding's transition parts P of ∃x'_P. R_P ∧ S[x_P ↦ x'_P]
// (see state_encoding.hpp), merged pairwise. Every count is exact, over the current-state
// variables only.
//
// Dominance (SPEC §2), from the top index down, with A_i = closure of ∪_{j>i} C_j under all
// moves (a union of whole components, hence closed):
//   nondominated_i = C_i \ A_{i+1},   A_i = A_{i+1} ∪ closure(nondominated_i);
// components_i = the number of components met by nondominated_i, each explored explicitly
// from a seed (or by one closure each: symbolic_components), within a budget (-1 where it
// stopped).
//
// A closure is a fixpoint of Pre under the move metric (moves are reversible), chained: each
// round applies the transition parts one after the other, each to the new states found so far
// in the round, the previous parts' included. One round follows a move sequence through the
// lines in order, so far fewer rounds are needed than with the whole relation per round on a
// graph whose shortest paths alternate between lines (results/perf-log.md §5).
#include <bdd.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "bdd/session.hpp"
#include "board/classification.hpp"
#include "encoding/state_encoding.hpp"

namespace rushhour {

struct LayerProgress {
  int index = 0;
  Count count = 0;
  std::uint64_t frontier_nodes = 0;  // nodes of C_i
  std::uint64_t visited_nodes = 0;   // nodes of C_0 ∪ ... ∪ C_i
  double seconds = 0;                // for this layer
  double elapsed = 0;                // since the analysis started
  std::int64_t table_nodes = 0;      // BuDDy node table size
};

// With vehicle limits, where the frontiers live (the layers are the same either way):
// Limited applies the limits to the frontiers; Unlimited runs the frontiers on the board
// without limits and restricts each layer to them, which avoids the counting constraints in
// every BDD but explores configurations outside the limits; Auto picks Unlimited when the
// limits keep at least half of the winning configurations, Limited otherwise.
enum class Frontiers { Auto, Limited, Unlimited };

// A dominance pass after index `lowest`: the figures of indices >= lowest are final, and
// above = A_lowest, the components of every configuration of index >= lowest (over the
// current-state variables). lowest = 0 means the pass is complete (above is then unused).
struct DominanceProgress {
  int lowest = 0;
  bdd above;
  std::vector<Count> nondominated;          // one per index; entries below `lowest` are 0
  std::vector<std::int64_t> components;     // one per index; -1 below `lowest`
  std::int64_t closures_left = -1;          // what is left of dominance_components
};

struct RetrogradeOptions {
  int samples_per_index = 5;           // boards sampled per index ...
  int sample_indices = 10;             // ... for this many highest indices
  bool dominance = true;               // compute the dominance figures at all
  int dominance_indices = -1;          // count components for this many highest indices; -1 = all
  std::int64_t dominance_components = -1;  // at most this many component closures; -1 = no limit
  // Count components only for indices >= this one (-1 below it). Unlike dominance_indices it
  // does not depend on the highest index, so every part of a partitioned run applies the same.
  int components_from = 0;
  // Count the components by one symbolic closure each instead of exploring each explicitly
  // (which holds 32 bytes per seed, the index's non-dominated configurations, and a hash set
  // entry, 32–64 bytes, per configuration of the components met in one class): slower with
  // many small components, but bounded by the node table alone.
  bool symbolic_components = false;
  int max_layers = -1;                 // stop after this many layers (incomplete run); -1 = all
  // End the dominance pass once index dominance_stop is done, as a stop at a safe point
  // does (on_dominance has its progress, the figures are left empty): a slice of the pass,
  // to benchmark it or to spread it over several runs. -1 (or 0) = down to index 0.
  int dominance_stop = -1;
  Frontiers frontiers = Frontiers::Auto;
  // Called with every finished layer and what computing it took, before the next one starts
  // (e.g. to save it).
  std::function<void(int index, const bdd& layer, double seconds)> on_layer;
  std::function<void(const LayerProgress&)> on_progress;
  std::function<void(const std::string&)> on_note;  // dominance and sampling progress
  // Inside a dominance index, a note on the closure (round, frontier and reached nodes) after
  // the first round that ends this many seconds after the index began or after the last such
  // note: on 6x6 one index takes up to half an hour. < 0 = never.
  double closure_note_seconds = 60;
  // Polled between layers and between dominance indices: true ends the run at that safe
  // point (layers computed so far are kept; an interrupted dominance pass leaves both
  // dominance figures empty, and only on_dominance has seen its progress).
  std::function<bool()> should_stop;
  // Loads layer C_i again (e.g. from its saved file). When given, the dominance pass releases
  // every layer before it starts and loads each one when it needs it, so that the node table
  // serves the closures (on 6x6 the layers hold ~50 M nodes); SymbolicRun::layers is then
  // left empty.
  std::function<bdd(int index)> reload_layer;
  // Called after every dominance index, e.g. to checkpoint the pass.
  std::function<void(const DominanceProgress&)> on_dominance;
  // Continue the dominance pass from this state (from on_dominance of an earlier run with the
  // same layers and dominance options) instead of starting at the top index.
  std::optional<DominanceProgress> resume_dominance;
};

struct SymbolicRun {
  explicit SymbolicRun(const Rules& rules) : figures(rules) {}
  Classification figures;
  std::vector<bdd> layers;  // C_0 .. C_max (empty after a dominance pass with reload_layer)
  bool interrupted = false;  // should_stop ended the run early
};

// Pre(S) for S ⊆ domain, with the metric's transition parts.
bdd predecessors(const StateEncoding& encoding, const bdd& states, Metric metric);

// Called after each round of a closure with the round's number (from 1), the states it
// found (the next round's frontier) and everything reached so far.
using ClosureRoundHook = std::function<void(int round, const bdd& found, const bdd& reached)>;

// The union of the components (under all moves) that meet `states`. Adds the number of
// rounds (fixpoint iterations) to *rounds when given.
bdd component_closure(const StateEncoding& encoding, BddSession& session, const bdd& states,
                      int* rounds = nullptr,
                      const ClosureRoundHook& after_round = nullptr);

// Runs the analysis. `finished_layers` (from a resumed run) are taken as C_0..C_k without
// recomputation; `finished_seconds[i]` is what C_i took when it was computed, reported as
// its seconds (NaN, the figure for a layer whose time was not kept, where it is missing).
// Throws BddFailure if BuDDy runs out of nodes (finished layers have been passed to on_layer
// by then).
SymbolicRun classify_symbolic(const StateEncoding& encoding, BddSession& session,
                              const RetrogradeOptions& options,
                              std::vector<bdd> finished_layers = {},
                              const std::vector<double>& finished_seconds = {});

}  // namespace rushhour
