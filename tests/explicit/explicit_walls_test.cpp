// The explicit engine with walls, against an oracle that knows nothing of line tables: every
// board of the domain built cell by cell, its index by breadth-first search over the board
// moves of board/game, its components by the steps. Every figure is compared.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>

#include "board/board_string.hpp"
#include "board/game.hpp"
#include "board/search.hpp"
#include "explicit/counting.hpp"
#include "explicit/explicit_engine.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);

namespace rushhour {
namespace {

// Every configuration of `rules` (vehicles and walls), each cell in turn empty, a wall, or the
// first cell of a car or truck in either orientation.
std::vector<Board> every_board(const Rules& rules) {
  const int n = rules.size();
  std::vector<Board> boards;
  std::vector<Vehicle> vehicles;
  auto place = [&](auto& self, int cell, std::uint64_t covered, std::uint64_t walls) -> void {
    if (cell == n * n) {
      const Board board(n, vehicles, walls);
      if (in_domain(rules, board)) boards.push_back(board);
      return;
    }
    const auto bit = [](int c) { return std::uint64_t{1} << c; };
    if (covered & bit(cell)) return self(self, cell + 1, covered, walls);
    self(self, cell + 1, covered, walls);
    if (std::popcount(walls) < rules.walls().max) self(self, cell + 1, covered | bit(cell), walls | bit(cell));
    const int row = cell / n, col = cell % n;
    for (const Orientation orientation : {Orientation::Horizontal, Orientation::Vertical})
      for (const int length : {kCar, kTruck}) {
        const Vehicle v{row, col, orientation, length};
        if ((orientation == Orientation::Horizontal ? col : row) + length > n) continue;
        if (v.mask(n) & covered) continue;
        vehicles.push_back(v);
        self(self, cell + 1, covered | v.mask(n), walls);
        vehicles.pop_back();
      }
  };
  place(place, 0, 0, 0);
  return boards;
}

struct OracleFigures {
  std::vector<Count> counts, nondominated;
  std::vector<std::int64_t> components;
  std::uint64_t unsolvable = 0;
};

OracleFigures oracle(const Rules& rules) {
  const std::vector<Board> boards = every_board(rules);
  std::map<Board, std::size_t> position;
  for (std::size_t k = 0; k < boards.size(); ++k) position.emplace(boards[k], k);
  constexpr int kUnsolved = -1;
  std::vector<int> index(boards.size(), kUnsolved);
  std::deque<std::size_t> queue;
  for (std::size_t k = 0; k < boards.size(); ++k)
    if (is_winning(rules, boards[k])) {
      index[k] = 0;
      queue.push_back(k);
    }
  while (!queue.empty()) {
    const std::size_t k = queue.front();
    queue.pop_front();
    for (const Board& next : neighbours(rules.metric(), boards[k])) {
      const std::size_t t = position.at(next);
      if (index[t] == kUnsolved) {
        index[t] = index[k] + 1;
        queue.push_back(t);
      }
    }
  }
  OracleFigures figures;
  const int highest = *std::max_element(index.begin(), index.end());
  figures.counts.assign(static_cast<std::size_t>(highest + 1), 0);
  figures.nondominated = figures.counts;
  figures.components.assign(figures.counts.size(), 0);
  std::vector<bool> seen(boards.size(), false);
  for (std::size_t k = 0; k < boards.size(); ++k) {
    if (index[k] == kUnsolved) ++figures.unsolvable;
    else ++figures.counts[static_cast<std::size_t>(index[k])];
    if (seen[k]) continue;
    std::vector<std::size_t> component{k};
    seen[k] = true;
    for (std::size_t head = 0; head < component.size(); ++head)
      for (const Board& next : neighbours(Metric::Step, boards[component[head]])) {
        const std::size_t t = position.at(next);
        if (!seen[t]) {
          seen[t] = true;
          component.push_back(t);
        }
      }
    int top = kUnsolved;
    for (std::size_t t : component) top = std::max(top, index[t]);
    if (top == kUnsolved) continue;
    ++figures.components[static_cast<std::size_t>(top)];
    for (std::size_t t : component) figures.nondominated[static_cast<std::size_t>(top)] += index[t] == top;
  }
  return figures;
}

void expect_engine_equals_oracle(const Rules& rules) {
  SCOPED_TRACE(rules.describe());
  const OracleFigures want = oracle(rules);
  const Classification got = ExplicitSolution::solve(rules).summarize({});
  std::vector<Count> counts;
  for (const LayerFigures& layer : got.layers) counts.push_back(layer.count);
  EXPECT_EQ(counts, want.counts);
  EXPECT_EQ(got.nondominated, want.nondominated);
  EXPECT_EQ(got.components, want.components);
  EXPECT_EQ(got.unsolvable_count, want.unsolvable);
  // Samples are boards of the domain at their index.
  for (const Sample& sample : got.samples) EXPECT_TRUE(in_domain(rules, parse_board(sample.board, rules)));
}

TEST(ExplicitWalls, FourByFourUpToOneWallEqualsTheOracle) {
  for (const Metric metric : {Metric::Step, Metric::Move})
    expect_engine_equals_oracle(Rules(4, -1, metric, {}, Domain::All, {0, 1}));
}

TEST(ExplicitWalls, FourByFourVariantsEqualTheOracle) {
  expect_engine_equals_oracle(Rules(4, -1, Metric::Step, {}, Domain::All, {2, 2}));
  expect_engine_equals_oracle(Rules(4, 0, Metric::Move, {.max_vehicles = 4}, Domain::All, {1, 2}));
  expect_engine_equals_oracle(Rules(4, -1, Metric::Step, {}, Domain::Puzzle, {0, 2}));
  expect_engine_equals_oracle(Rules(4, 3, Metric::Move, {}, Domain::Puzzle, {0, 2}));
}

// Walls add configurations: with at most one wall the domain is the wall-free domain plus, for
// each cell, the configurations that leave it free with a wall on it.
TEST(ExplicitWalls, WallsZeroIsTheDomainWithoutWalls) {
  const ExplicitSolution without = ExplicitSolution::solve(Rules(4));
  const ExplicitSolution zero = ExplicitSolution::solve(Rules(4, -1, Metric::Step, {}, Domain::All, {0, 0}));
  EXPECT_EQ(zero.domain_size(), without.domain_size());
  const ExplicitSolution one = ExplicitSolution::solve(Rules(4, -1, Metric::Step, {}, Domain::All, {1, 1}));
  std::uint64_t free_cells = 0;
  for (std::size_t s = 0; s < without.domain_size(); ++s)
    free_cells += 16 - static_cast<std::uint64_t>(std::popcount(without.board(s).occupied()));
  EXPECT_EQ(one.domain_size(), free_cells);
}

// The exact counter with walls (no enumeration) equals the explicit engine's domain and
// winning set, and the oracle's domain.
TEST(ExplicitWalls, ExactCountsEqualTheEnumeration) {
  for (const Rules& rules : {Rules(4, -1, Metric::Step, {}, Domain::All, {0, 1}),
                             Rules(4, -1, Metric::Step, {}, Domain::All, {1, 2}),
                             Rules(4, 0, Metric::Step, {.max_cars = 3, .max_trucks = 1}, Domain::All, {2, 3}),
                             Rules(5, -1, Metric::Step, {.max_vehicles = 4}, Domain::All, {0, 2}),
                             Rules(5, 4, Metric::Step, {.max_trucks = 1, .max_vehicles = 5}, Domain::All, {1, 1})}) {
    SCOPED_TRACE(rules.describe());
    const PlacementCounts counts = count_placements(rules);
    const ExplicitSolution engine = ExplicitSolution::solve(rules);
    EXPECT_EQ(counts.domain, engine.domain_size());
    EXPECT_EQ(counts.winning, engine.summarize({}).layers.front().count);
    if (rules.size() == 4) {
      EXPECT_EQ(counts.domain, every_board(rules).size());
    }
  }
}

// The exact counter in the puzzle domain (a bit per row for "a cell neither a horizontal vehicle
// nor a wall covers", columns not filled, walls left of the target) equals the explicit
// engine's puzzle domain and winning set and the oracle's; placements stay all of them.
TEST(ExplicitWalls, PuzzleDomainCountsEqualTheEnumeration) {
  for (const Rules& rules : {Rules(4, -1, Metric::Step, {}, Domain::Puzzle),
                             Rules(4, -1, Metric::Step, {}, Domain::Puzzle, {0, 2}),
                             Rules(4, 0, Metric::Step, {}, Domain::Puzzle, {1, 3}),
                             Rules(4, 3, Metric::Step, {.max_cars = 3, .max_trucks = 1}, Domain::Puzzle, {0, 2}),
                             Rules(5, 4, Metric::Step, {.max_trucks = 1, .max_vehicles = 5}, Domain::Puzzle, {1, 1})}) {
    SCOPED_TRACE(rules.describe());
    std::vector<PlacementCounts> by_walls;
    const PlacementCounts counts = count_placements(rules, &by_walls);
    const ExplicitSolution engine = ExplicitSolution::solve(rules);
    EXPECT_EQ(counts.domain, engine.domain_size());
    EXPECT_EQ(counts.winning, engine.summarize({}).layers.front().count);
    const Rules all(rules.size(), rules.exit_row(), rules.metric(), rules.limits(), Domain::All, rules.walls());
    EXPECT_EQ(counts.placements, count_placements(all).placements);
    EXPECT_LT(counts.domain, count_placements(all).domain);
    if (rules.size() == 4) {
      EXPECT_EQ(counts.domain, every_board(rules).size());
    }
  }
}

// Each state's board reads back to the state, and the board-level search (query's) gives each
// sampled walled board the engine's index with a solution that avoids the walls.
TEST(ExplicitWalls, BoardsRoundTripAndTheSearchAgrees) {
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    const Rules rules(4, -1, metric, {}, Domain::All, {0, 2});
    const ExplicitSolution engine = ExplicitSolution::solve(rules);
    std::size_t walled = 0;
    for (std::size_t s = 0; s < engine.domain_size(); s += 97) {
      const Board board = engine.board(s);
      ASSERT_EQ(engine.find(board), s);
      ASSERT_EQ(parse_board(to_board_string(rules, board), rules), board);
      walled += board.walls() != 0;
      const auto path = shortest_solution(rules, board);
      ASSERT_EQ(path.has_value(), engine.index(s).has_value()) << to_board_string(rules, board);
      if (!path) continue;
      ASSERT_EQ(static_cast<int>(path->size()) - 1, *engine.index(s)) << to_board_string(rules, board);
      for (const Board& step : *path) ASSERT_EQ(step.walls(), board.walls());
      ASSERT_LE(index_lower_bound(rules, board.key()), *engine.index(s));
    }
    EXPECT_GT(walled, 0u);
  }
}

}  // namespace
}  // namespace rushhour
