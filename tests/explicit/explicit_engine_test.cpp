#include "explicit/explicit_engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <utility>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "explicit/counting.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("SmallBoards/ExplicitEngine.*/5x5_*", long);
RUSHHOUR_TEST_TIER_OF("SmallBoards/ExplicitEngine.DomainWinningSetAndLayersAreRight/5x5_step", full);

namespace rushhour {
namespace {

// Full solutions are shared by all tests: n = 5 takes seconds per metric.
const ExplicitSolution& solved(int size, Metric metric) {
  static std::map<std::pair<int, Metric>, ExplicitSolution> cache;
  const auto key = std::make_pair(size, metric);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, ExplicitSolution::solve(Rules(size, -1, metric))).first;
  return it->second;
}

const Classification& summary(int size, Metric metric) {
  static std::map<std::pair<int, Metric>, Classification> cache;
  const auto key = std::make_pair(size, metric);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, solved(size, metric).summarize({})).first;
  return it->second;
}

// Every `stride`-th state, so that the n = 5 checks stay within seconds.
std::vector<std::size_t> some_states(const ExplicitSolution& solution, std::size_t stride) {
  std::vector<std::size_t> states;
  for (std::size_t s = 0; s < solution.domain_size(); s += stride) states.push_back(s);
  return states;
}

class ExplicitEngine : public ::testing::TestWithParam<std::tuple<int, Metric>> {
 protected:
  int size() const { return std::get<0>(GetParam()); }
  Metric metric() const { return std::get<1>(GetParam()); }
  const ExplicitSolution& solution() const { return solved(size(), metric()); }
  const Classification& classification() const { return summary(size(), metric()); }
  // All states on 4x4, every 97th on 5x5.
  std::size_t stride() const { return size() == 4 ? 1 : 97; }
};

INSTANTIATE_TEST_SUITE_P(SmallBoards, ExplicitEngine,
                         ::testing::Combine(::testing::Values(4, 5),
                                          ::testing::Values(Metric::Step, Metric::Move)),
                         [](const ::testing::TestParamInfo<std::tuple<int, Metric>>& param) {
                           const int n = std::get<0>(param.param);
                           return std::to_string(n) + "x" + std::to_string(n) + "_" +
                                  to_string(std::get<1>(param.param));
                         });

TEST_P(ExplicitEngine, DomainWinningSetAndLayersAreRight) {
  const std::map<int, std::pair<std::uint64_t, std::uint64_t>> spec = {
      {4, {13'146, 4'592}}, {5, {10'492'784, 3'008'028}}};
  const auto [domain, winning] = spec.at(size());
  ASSERT_EQ(solution().domain_size(), domain);
  EXPECT_EQ(solution().layers().front().count, winning);

  const std::vector<LayerFigures>& layers = solution().layers();
  std::vector<std::uint64_t> recount(layers.size(), 0);
  std::uint64_t unsolvable = 0;
  for (std::size_t s = 0; s < solution().domain_size(); ++s) {
    const auto index = solution().index(s);
    index ? ++recount[static_cast<std::size_t>(*index)] : ++unsolvable;
  }
  for (std::size_t i = 0; i < recount.size(); ++i) {
    EXPECT_GT(layers[i].count, 0u);
    EXPECT_EQ(recount[i], layers[i].count);
  }
  EXPECT_EQ(unsolvable, solution().unsolvable_count());

  // Winning exactly at index 0, by the board model's own test.
  for (std::size_t s : some_states(solution(), size() == 4 ? 1 : 3)) {
    const Board board = solution().board(s);
    ASSERT_EQ(is_winning(solution().rules(), board), solution().index(s) == 0)
        << to_board_string(solution().rules(), board);
  }
}

TEST_P(ExplicitEngine, EachIndexHasANeighbourOneLowerAndNoneLower) {
  for (std::size_t s = 0; s < solution().domain_size(); ++s) {
    const auto index = solution().index(s);
    if (!index || *index == 0) continue;
    int lowest = *index;
    for (std::size_t t : solution().neighbours(s, metric()))
      lowest = std::min(lowest, solution().index(t).value_or(lowest));
    ASSERT_EQ(lowest, *index - 1) << to_board_string(solution().rules(), solution().board(s));
  }
}

TEST_P(ExplicitEngine, UnsolvableStatesOnlyNeighbourUnsolvableOnes) {
  for (std::size_t s : some_states(solution(), size() == 4 ? 1 : 7)) {
    if (solution().index(s)) continue;
    for (std::size_t t : solution().neighbours(s, metric()))
      ASSERT_FALSE(solution().index(t)) << to_board_string(solution().rules(), solution().board(s));
  }
}

TEST_P(ExplicitEngine, NeighbourRelationIsSymmetric) {
  for (std::size_t s : some_states(solution(), stride())) {
    for (std::size_t t : solution().neighbours(s, metric())) {
      const std::vector<std::size_t> back = solution().neighbours(t, metric());
      ASSERT_NE(std::find(back.begin(), back.end(), s), back.end());
    }
  }
}

TEST_P(ExplicitEngine, NeighboursAreThoseOfTheBoardModel) {
  const Rules& rules = solution().rules();
  for (std::size_t s : some_states(solution(), stride())) {
    const Board board = solution().board(s);
    ASSERT_EQ(solution().find(board), s);
    std::multiset<Board> from_engine, from_model;
    for (std::size_t t : solution().neighbours(s, metric()))
      from_engine.insert(solution().board(t));
    for (const Board& b : neighbours(metric(), board)) from_model.insert(b);
    ASSERT_EQ(from_engine, from_model) << to_board_string(rules, board);
  }
}

// The summary of a run, in one test so that ctest (one process per test) summarizes
// each 5x5 solution only once.
TEST_P(ExplicitEngine, SummaryIsConsistent) {
  const Classification& c = classification();
  const Rules& rules = solution().rules();
  EXPECT_EQ(c.domain_count, solution().domain_size());
  EXPECT_EQ(c.winning_count, solution().layers().front().count);
  EXPECT_EQ(c.unsolvable_count, solution().unsolvable_count());
  EXPECT_EQ(c.solvable_count + c.unsolvable_count, c.domain_count);
  ASSERT_EQ(c.layers.size(), solution().layers().size());
  for (std::size_t i = 0; i < c.layers.size(); ++i) {
    EXPECT_EQ(c.layers[i].count, solution().layers()[i].count);
    EXPECT_EQ(c.layers[i].bdd_nodes, 0u);
  }

  // Samples: legal boards of their index, highest index first, at most K per index.
  ASSERT_FALSE(c.samples.empty());
  EXPECT_EQ(c.samples.front().index, static_cast<std::uint32_t>(c.max_index()));
  std::map<std::uint32_t, int> per_index;
  for (std::size_t k = 0; k < c.samples.size(); ++k) {
    const Sample& sample = c.samples[k];
    const auto state = solution().find(parse_board(sample.board, rules));
    ASSERT_TRUE(state) << sample.board;
    EXPECT_EQ(solution().index(*state), static_cast<int>(sample.index)) << sample.board;
    EXPECT_LE(++per_index[sample.index], ExplicitOptions{}.samples_per_index);
    if (k > 0) {
      EXPECT_LE(sample.index, c.samples[k - 1].index) << "highest index first";
    }
  }
  EXPECT_LE(per_index.size(), static_cast<std::size_t>(ExplicitOptions{}.sample_indices));

  // Dominance: a component's top states are non-dominated, so each counted component
  // brings at least one; nothing dominates the hardest states.
  ASSERT_EQ(c.nondominated.size(), c.layers.size());
  ASSERT_EQ(c.components.size(), c.layers.size());
  for (std::size_t i = 0; i < c.layers.size(); ++i) {
    EXPECT_LE(c.nondominated[i], c.layers[i].count);
    EXPECT_GE(c.components[i], 0);
    EXPECT_LE(static_cast<std::uint64_t>(c.components[i]), c.nondominated[i]);
  }
  EXPECT_EQ(c.nondominated.back(), c.layers.back().count);
}

TEST(ExplicitEngineMetrics, MoveAndStepAgreeOnSolvabilityAndMovesNeverTakeLonger) {
  for (int size : {4, 5}) {
    const ExplicitSolution& step = solved(size, Metric::Step);
    const ExplicitSolution& move = solved(size, Metric::Move);
    ASSERT_EQ(step.domain_size(), move.domain_size());
    for (std::size_t s = 0; s < step.domain_size(); ++s) {
      const auto by_step = step.index(s);
      const auto by_move = move.index(s);
      ASSERT_EQ(by_step.has_value(), by_move.has_value());
      if (by_step) {
        ASSERT_LE(*by_move, *by_step);
      }
    }
  }
}

TEST(ExplicitEngineMetrics, ComponentsDoNotDependOnTheMetric) {
  const auto total = [](const std::vector<std::int64_t>& v) {
    std::int64_t sum = 0;
    for (std::int64_t x : v) sum += x;
    return sum;
  };
  EXPECT_EQ(total(summary(4, Metric::Step).components), total(summary(4, Metric::Move).components));
}

// An independent classification of 4x4 with the board model only: plain BFS over Board
// values for the indices, then plain BFS for the components.
TEST(ExplicitEngineDominance, MatchesBruteForceOnFourByFour) {
  for (Metric metric : {Metric::Step, Metric::Move}) {
    const ExplicitSolution& solution = solved(4, metric);
    const Rules& rules = solution.rules();
    std::vector<Board> domain;
    for (std::size_t s = 0; s < solution.domain_size(); ++s) domain.push_back(solution.board(s));

    std::map<Board, int> index;
    std::deque<Board> queue;
    for (const Board& b : domain)
      if (is_winning(rules, b)) {
        index[b] = 0;
        queue.push_back(b);
      }
    for (; !queue.empty(); queue.pop_front())
      for (const Board& next : neighbours(metric, queue.front()))
        if (index.try_emplace(next, index.at(queue.front()) + 1).second) queue.push_back(next);

    const int max_index = std::max_element(index.begin(), index.end(), [](auto& a, auto& b) {
                            return a.second < b.second;
                          })->second;
    std::vector<Count> nondominated(static_cast<std::size_t>(max_index) + 1, 0);
    std::vector<std::int64_t> components(nondominated.size(), 0);
    std::set<Board> seen;
    for (const Board& root : domain) {
      if (!seen.insert(root).second || !index.contains(root)) continue;
      std::vector<Board> members{root};
      for (std::size_t k = 0; k < members.size(); ++k)
        for (const Board& next : neighbours(Metric::Step, members[k]))
          if (seen.insert(next).second) members.push_back(next);
      int top = 0;
      for (const Board& b : members) top = std::max(top, index.at(b));
      for (const Board& b : members)
        nondominated[static_cast<std::size_t>(top)] += index.at(b) == top;
      components[static_cast<std::size_t>(top)] += 1;
    }

    for (std::size_t s = 0; s < domain.size(); ++s) {
      const auto it = index.find(domain[s]);
      ASSERT_EQ(solution.index(s), it == index.end() ? std::nullopt : std::optional(it->second));
    }
    const Classification& c = summary(4, metric);
    EXPECT_EQ(c.nondominated, nondominated);
    EXPECT_EQ(c.components, components);
    EXPECT_EQ(c.unsolvable_count, domain.size() - index.size());
  }
}

TEST(ExplicitEngineLimits, CountsEqualTheCounterOnFiveByFive) {
  const VehicleLimits limits[] = {{-1, -1, 4}, {3, -1, -1}, {-1, 1, -1}, {4, 2, 5}, {-1, 0, -1}};
  for (const VehicleLimits& limit : limits) {
    const Rules rules(5, -1, Metric::Step, limit);
    const PlacementCounts counts = count_placements(rules);
    const ExplicitSolution solution = ExplicitSolution::solve(rules);
    EXPECT_EQ(solution.domain_size(), counts.domain) << rules.describe();
    EXPECT_EQ(solution.layers().front().count, counts.winning) << rules.describe();
  }
}

TEST(ExplicitEngineLimits, EveryStateRespectsTheLimits) {
  const Rules rules(5, -1, Metric::Move, VehicleLimits{3, 1, -1});
  const ExplicitSolution solution = ExplicitSolution::solve(rules);
  for (std::size_t s = 0; s < solution.domain_size(); ++s)
    ASSERT_TRUE(in_domain(rules, solution.board(s)));
}

TEST(ExplicitEngineQueries, FindRejectsBoardsOutsideTheDomain) {
  const ExplicitSolution& solution = solved(4, Metric::Step);
  // The exit row's rightmost horizontal vehicle is a truck.
  const Board truck_target(4, {{1, 1, Orientation::Horizontal, kTruck}});
  EXPECT_EQ(solution.find(truck_target), std::nullopt);
  const Board wrong_size(5, {{2, 0, Orientation::Horizontal, kCar}});
  EXPECT_EQ(solution.find(wrong_size), std::nullopt);
  const Board board = parse_board(
      "oooo"
      "AAoB"
      "oooB"
      "oooo",
      solution.rules());
  const auto state = solution.find(board);
  ASSERT_TRUE(state);
  EXPECT_EQ(solution.board(*state), board);
  EXPECT_EQ(solution.index(*state), 3);  // B down one, A right two
}

TEST(ExplicitEngineQueries, LimitedSolutionDoesNotFindBoardsBeyondItsLimits) {
  const ExplicitSolution solution =
      ExplicitSolution::solve(Rules(4, -1, Metric::Step, VehicleLimits{-1, -1, 2}));
  const Board three = parse_board(
      "BBoo"
      "AAoC"
      "oooC"
      "oooo",
      Rules(4));
  EXPECT_EQ(solution.find(three), std::nullopt);
}

TEST(ExplicitEngineRun, ReportsEachLayerOnceAndFillsTheRecord) {
  std::vector<int> reported;
  std::vector<std::uint64_t> counts;
  const Classification c = classify_explicit(Rules(4, -1, Metric::Move), ExplicitOptions{2, 3},
                                             [&](int index, const LayerFigures& figures) {
                                               reported.push_back(index);
                                               counts.push_back(to_uint64(figures.count));
                                             });
  ASSERT_EQ(reported.size(), c.layers.size());
  for (std::size_t i = 0; i < reported.size(); ++i) {
    EXPECT_EQ(reported[i], static_cast<int>(i));
    EXPECT_EQ(counts[i], c.layers[i].count);
  }
  EXPECT_EQ(c.engine, "explicit");
  EXPECT_EQ(c.encoding, "none");
  EXPECT_EQ(c.variable_order, "none");
  EXPECT_TRUE(c.complete);
  EXPECT_GT(c.peak_rss_bytes, 0u);
  EXPECT_GE(c.seconds, 0.0);
  // Two samples of each of the three highest indices (7, 6 and 5 hold 3, 17 and 64 boards).
  std::vector<std::uint32_t> sampled;
  for (const Sample& sample : c.samples) sampled.push_back(sample.index);
  EXPECT_EQ(sampled, (std::vector<std::uint32_t>{7, 7, 6, 6, 5, 5}));
  EXPECT_EQ(c.rules, Rules(4, -1, Metric::Move));
}

TEST(ExplicitEngineRun, SamplesAreTheFirstInKeyOrder) {
  const ExplicitSolution& solution = solved(4, Metric::Step);
  const Classification c = solution.summarize(ExplicitOptions{1, 1});
  ASSERT_EQ(c.samples.size(), 1u);
  std::size_t first = 0;
  while (solution.index(first) != c.max_index()) ++first;
  EXPECT_EQ(c.samples[0].board, to_board_string(solution.rules(), solution.board(first)));
}

TEST(ExplicitEngineRun, RejectsBoardsLargerThanSix) {
  try {
    ExplicitSolution::solve(Rules(7));
    FAIL() << "7x7 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("supports sizes up to 6"), std::string::npos);
  }
}

}  // namespace
}  // namespace rushhour
