// The symbolic engine against the explicit one, count by count: per-index counts, the
// unsolvable count and both dominance figures, for every variable order and line code, both
// metrics, with and without vehicle limits.
#include "retrograde/retrograde.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "bdd_test_support.hpp"
#include "symbolic_check_support.hpp"


#include "encoding/slot_encoding.hpp"
#include "explicit/explicit_engine.hpp"
#include "board/board_string.hpp"
#include "board/game.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("SymbolicDominance.ReloadedLayersGiveTheSameFigures", long);
RUSHHOUR_TEST_TIER_OF("FiveByFive/SymbolicMatchesExplicit.*", long);
RUSHHOUR_TEST_TIER_OF("FiveByFive/SymbolicMatchesExplicit.*/5x*_rows_columns_slot", full);
RUSHHOUR_TEST_TIER_OF("FiveByFive/SymbolicMatchesExplicit.*/5x*_columns_rows_slot", full);

namespace rushhour {
namespace {

using test_support::expect_same_figures;
using test_support::explicit_figures;
using test_support::tiny_table;

struct RetrogradeCase {
  Rules rules;
  SlotEncodingOptions slot;
  bool dominance;
  Frontiers frontiers = Frontiers::Auto;
};

std::string retrograde_case_name(const ::testing::TestParamInfo<RetrogradeCase>& info) {
  const RetrogradeCase& c = info.param;
  std::string name = std::to_string(c.rules.size()) + "x" + to_string(c.rules.metric()) + "_" +
                     c.slot.order + "_" + c.slot.line_code;
  if (c.rules.exit_row() != (c.rules.size() - 1) / 2) name += "_exit" + std::to_string(c.rules.exit_row());
  if (c.rules.limits().max_vehicles >= 0) name += "_v" + std::to_string(c.rules.limits().max_vehicles);
  if (c.rules.limits().max_cars >= 0) name += "_c" + std::to_string(c.rules.limits().max_cars);
  if (c.rules.limits().max_trucks >= 0) name += "_t" + std::to_string(c.rules.limits().max_trucks);
  if (c.frontiers == Frontiers::Limited) name += "_limited_frontiers";
  if (c.frontiers == Frontiers::Unlimited) name += "_unlimited_frontiers";
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

class SymbolicMatchesExplicit : public ::testing::TestWithParam<RetrogradeCase> {};

TEST_P(SymbolicMatchesExplicit, EveryFigure) {
  const RetrogradeCase& c = GetParam();
  // 4x4 runs in a tiny node table so that garbage collection and growth happen all the
  // time; larger boards would take minutes that way.
  BddSession session(0, c.rules.size() == 4 ? tiny_table() : BddSettings{});
  SlotEncoding encoding(session, c.rules, c.slot);
  RetrogradeOptions options;
  options.dominance = c.dominance;
  options.frontiers = c.frontiers;
  const SymbolicRun run = classify_symbolic(encoding, session, options);
  expect_same_figures(run.figures, explicit_figures(c.rules), {.dominance = c.dominance});
}

// The default layout runs in the engine suite (tests/engine_test.cpp) with every engine; here
// every other variable order, line code and frontier choice.
bool default_layout(const RetrogradeCase& c) {
  return c.slot.order == SlotEncodingOptions{}.order && c.slot.line_code == SlotEncodingOptions{}.line_code &&
         c.frontiers == Frontiers::Auto;
}

std::vector<RetrogradeCase> small_cases() {
  std::vector<RetrogradeCase> cases;
  const std::vector<VehicleLimits> limits = {{}, {.max_vehicles = 4}, {.max_cars = 3, .max_trucks = 1}};
  for (Metric metric : {Metric::Step, Metric::Move})
    for (const auto& order : SlotEncodingOptions::orders())
      for (const auto& code : SlotEncodingOptions::line_codes())
        for (const auto& limit : limits)
          cases.push_back({Rules(4, -1, metric, limit), {order, code}, true});
  for (Metric metric : {Metric::Step, Metric::Move})
    for (const auto& limit : limits)
      if (!limit.unlimited())
        for (Frontiers frontiers : {Frontiers::Limited, Frontiers::Unlimited})
          cases.push_back({Rules(4, -1, metric, limit), {}, true, frontiers});
  std::erase_if(cases, default_layout);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(FourByFour, SymbolicMatchesExplicit, ::testing::ValuesIn(small_cases()),
                         retrograde_case_name);

std::vector<RetrogradeCase> five_by_five_cases() {
  std::vector<RetrogradeCase> cases;
  for (Metric metric : {Metric::Step, Metric::Move}) {
    // Every figure for the paper's layout (interleaved slots) with every line code; the layers
    // for the other orders, whose dominance pass alone costs over a minute each.
    for (const auto& order : SlotEncodingOptions::orders())
      for (const auto& code : SlotEncodingOptions::line_codes())
        cases.push_back({Rules(5, -1, metric), {order, code},
                         code == SlotEncodingOptions{}.line_code || order == "interleaved"});
  }
  std::erase_if(cases, default_layout);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(FiveByFive, SymbolicMatchesExplicit,
                         ::testing::ValuesIn(five_by_five_cases()), retrograde_case_name);

// Properties of the layers themselves on 4x4: every minterm decodes to a legal board of
// that index, encode∘decode is the identity, layers are disjoint and ⊆ domain.
TEST(SymbolicLayers, EveryMintermIsALegalBoardOfItsIndex) {
  for (Metric metric : {Metric::Step, Metric::Move}) {
    BddSession session(0, tiny_table());
    SlotEncoding encoding(session, Rules(4, -1, metric), SlotEncodingOptions{});
    test_support::expect_layers_are_the_explicit_layers(encoding, session);
  }
}

// A dominance pass stopped after a few indices and continued from the progress it reported
// gives the figures of an uninterrupted pass.
TEST(SymbolicDominance, ResumesFromReportedProgress) {
  for (Metric metric : {Metric::Step, Metric::Move}) {
    BddSession session(0, tiny_table());
    SlotEncoding encoding(session, Rules(4, -1, metric), SlotEncodingOptions{});
    const SymbolicRun whole = classify_symbolic(encoding, session, RetrogradeOptions{});

    RetrogradeOptions stopping;
    std::optional<DominanceProgress> saved;
    stopping.on_dominance = [&](const DominanceProgress& progress) { saved = progress; };
    stopping.should_stop = [&] { return saved && saved->lowest <= 5; };
    const SymbolicRun stopped = classify_symbolic(encoding, session, stopping);
    ASSERT_TRUE(stopped.interrupted);
    EXPECT_TRUE(stopped.figures.nondominated.empty());
    ASSERT_TRUE(saved);
    EXPECT_EQ(saved->lowest, 5);

    RetrogradeOptions resuming;
    resuming.resume_dominance = saved;
    std::vector<int> computed;
    resuming.on_dominance = [&](const DominanceProgress& progress) {
      computed.push_back(progress.lowest);
    };
    const SymbolicRun resumed =
        classify_symbolic(encoding, session, resuming, stopped.layers, {1.5, 2.5});
    EXPECT_EQ(computed, (std::vector<int>{4, 3, 2, 1, 0}));
    // Finished layers report the seconds they were given, NaN where none were.
    ASSERT_GT(resumed.figures.layers.size(), 2u);
    EXPECT_EQ(resumed.figures.layers[0].seconds, 1.5);
    EXPECT_EQ(resumed.figures.layers[1].seconds, 2.5);
    for (std::size_t i = 2; i < resumed.figures.layers.size(); ++i)
      EXPECT_TRUE(std::isnan(resumed.figures.layers[i].seconds)) << "layer " << i;
    EXPECT_EQ(resumed.figures.nondominated, whole.figures.nondominated);
    EXPECT_EQ(resumed.figures.components, whole.figures.components);
  }
}

// With reload_layer the dominance pass and the samples read each layer back when they need
// it (the layers held by the run are released first) and reach the same figures.
TEST(SymbolicDominance, ReloadedLayersGiveTheSameFigures) {
  // 4x4 in a tiny table, so that released layers are collected while the pass runs.
  for (const Rules& rules : {Rules(4, -1, Metric::Step), Rules(4, -1, Metric::Move),
                             Rules(5, -1, Metric::Move)}) {
    BddSession session(0, rules.size() == 4 ? tiny_table() : BddSettings{});
    SlotEncoding encoding(session, rules, SlotEncodingOptions{});
    const SymbolicRun whole = classify_symbolic(encoding, session, RetrogradeOptions{});

    RetrogradeOptions reloading;
    std::vector<int> reloads(whole.layers.size(), 0);
    reloading.reload_layer = [&](int index) {
      ++reloads.at(static_cast<std::size_t>(index));
      return whole.layers[static_cast<std::size_t>(index)];
    };
    const SymbolicRun run = classify_symbolic(encoding, session, reloading);
    EXPECT_TRUE(run.layers.empty());
    EXPECT_EQ(std::count(reloads.begin(), reloads.end(), 0), 0) << "every index is read back";
    expect_same_figures(run.figures, explicit_figures(rules));
    EXPECT_EQ(run.figures.samples, whole.figures.samples);
  }
}

TEST(SymbolicLayers, PreOfTheDomainStaysInTheDomain) {
  BddSession session(0, tiny_table());
  SlotEncoding encoding(session, Rules(5, -1, Metric::Step, {.max_trucks = 1}), SlotEncodingOptions{});
  for (Metric metric : {Metric::Step, Metric::Move})
    EXPECT_TRUE((predecessors(encoding, encoding.domain().states(), metric) & !encoding.domain().states()) == bddfalse);
}

TEST(SymbolicLayers, GarbageCollectionReturnsToTheBaseline) {
  BddSession session(0, tiny_table());
  // BuDDy keeps the nodes of every declared variable for good: the baseline is taken once
  // the encoding's variables exist.
  { SlotEncoding declare_variables(session, Rules(4), SlotEncodingOptions{}); }
  bdd_gbc();
  const std::int64_t baseline = session.live_nodes();
  {
    SlotEncoding encoding(session, Rules(4), SlotEncodingOptions{});
    bdd_gbc();
    const std::int64_t with_encoding = session.live_nodes();
    EXPECT_GT(with_encoding, baseline);
    {
      RetrogradeOptions options;
      const SymbolicRun run = classify_symbolic(encoding, session, options);
      EXPECT_EQ(run.layers.size(), 11u);  // indices 0 to 10
    }
    bdd_gbc();
    EXPECT_EQ(session.live_nodes(), with_encoding);
  }
  bdd_gbc();
  EXPECT_EQ(session.live_nodes(), baseline);
}

TEST(SymbolicLayers, NodeTableExhaustionStopsTheRun) {
  BddSettings settings = tiny_table();
  settings.max_nodes = 3000;
  BddSession session(0, settings);
  EXPECT_THROW(
      {
        SlotEncoding encoding(session, Rules(5), SlotEncodingOptions{});
        RetrogradeOptions options;
        classify_symbolic(encoding, session, options);
      },
      BddFailure);
}

// The closure of one board is its component, found by a breadth-first search over the
// boards; the round hook sees rounds 1, 2, ... whose found sets are disjoint and add up to it.
TEST(SymbolicDominance, ClosureRoundsAddUpToTheComponent) {
  const Rules rules(5, -1, Metric::Move);
  const Board start = parse_board("BBCoo" "ooCDD" "AAoEo" "ooFEo" "ooFoo", rules);
  std::set<std::string> component{to_board_string(rules, start)};
  std::vector<Board> stack{start};
  while (!stack.empty()) {
    const Board board = stack.back();
    stack.pop_back();
    for (const Board& next : neighbours(Metric::Move, board))
      if (component.insert(to_board_string(rules, next)).second) stack.push_back(next);
  }
  ASSERT_GT(component.size(), 20u);

  {
    BddSession session(0, tiny_table());
    SlotEncoding encoding(session, rules, SlotEncodingOptions{});
    const bdd seed = encoding.encode(start);
    std::vector<int> seen_rounds;
    bdd found_so_far = seed;
    bdd last_reached = seed;
    bool disjoint = true;
    int rounds = 0;
    const bdd closure_set = component_closure(
        encoding, session, seed, &rounds,
        [&](int round, const bdd& found, const bdd& reached) {
          seen_rounds.push_back(round);
          disjoint = disjoint && (found & found_so_far) == bddfalse;
          found_so_far |= found;
          last_reached = reached;
        });
    EXPECT_TRUE(disjoint);
    EXPECT_EQ(seen_rounds.size(), static_cast<std::size_t>(rounds));
    for (std::size_t k = 0; k < seen_rounds.size(); ++k)
      EXPECT_EQ(seen_rounds[k], static_cast<int>(k) + 1);
    EXPECT_TRUE(found_so_far == closure_set);
    EXPECT_TRUE(last_reached == closure_set);
    EXPECT_EQ(encoding.state_set(closure_set).count(), component.size());
    std::set<std::string> decoded;
    encoding.for_each_board(closure_set, [&](const Board& board) {
      decoded.insert(to_board_string(rules, board));
      return true;
    });
    EXPECT_EQ(decoded, component);
  }
}

// With closure_note_seconds = 0 every closure round of the dominance pass is reported, so
// the round notes of each index add up to the rounds its summary line gives.
TEST(SymbolicDominance, ClosureNotesCoverEveryRound) {
  BddSession session(0, tiny_table());
  SlotEncoding encoding(session, Rules(4, -1, Metric::Move), SlotEncodingOptions{});
  RetrogradeOptions options;
  options.closure_note_seconds = 0;
  std::map<int, int> round_notes;
  std::map<int, int> summary_rounds;
  options.on_note = [&](const std::string& note) {
    int index = 0;
    int rounds = 0;
    if (std::sscanf(note.c_str(), "dominance index %d: closure round %d", &index, &rounds) == 2) {
      EXPECT_EQ(rounds, round_notes[index] + 1) << note;
      ++round_notes[index];
    } else if (const auto at = note.find("closure "); at != std::string::npos &&
               std::sscanf(note.c_str(), "dominance index %d", &index) == 1 &&
               std::sscanf(note.c_str() + at, "closure %d rounds", &rounds) == 1) {
      summary_rounds[index] = rounds;
    }
  };
  const SymbolicRun run = classify_symbolic(encoding, session, options);
  expect_same_figures(run.figures, explicit_figures(Rules(4, -1, Metric::Move)));
  ASSERT_FALSE(summary_rounds.empty());
  // Indices whose closure took no round (index 0) have no round notes.
  std::erase_if(summary_rounds, [](const auto& entry) { return entry.second == 0; });
  EXPECT_EQ(round_notes, summary_rounds);
}

}  // namespace
}  // namespace rushhour
