#include "encoding/naive_encoding.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "bdd/session.hpp"
#include "bdd/state_set.hpp"
#include "board/errors.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);

namespace rushhour {
namespace {

// A deliberately small table: garbage collection and growth run all the time.
BddSettings small_table() {
  BddSettings settings;
  settings.initial_nodes = 10000;
  settings.cache_size = 1000;
  return settings;
}

NaiveOptions published(int size, int cars, bool next_state = false) {
  NaiveOptions options;
  options.size = size;
  options.cars = cars;
  options.next_state = next_state;
  return options;
}

// ---- direct (explicit) model, independent of the BDD code ----

bool fits(const NaivePlacement& p, int n, VerticalDirection vertical) {
  for (auto [x, y] : covered_cells(p, vertical))
    if (x < 1 || x > n || y < 1 || y > n) return false;
  return true;
}

std::vector<NaivePlacement> all_anchors(int n) {  // every (x, y, h), on the board or not
  std::vector<NaivePlacement> all;
  for (int x = 1; x <= n; ++x)
    for (int y = 1; y <= n; ++y)
      for (bool h : {true, false}) all.push_back({x, y, h});
  return all;
}

std::uint64_t cell_mask(const NaivePlacement& p, int n, VerticalDirection vertical) {
  std::uint64_t mask = 0;
  for (auto [x, y] : covered_cells(p, vertical)) mask |= std::uint64_t{1} << ((y - 1) * n + (x - 1));
  return mask;
}

bool legal(const std::vector<NaivePlacement>& cars, int n, VerticalDirection vertical) {
  std::uint64_t used = 0;
  for (const auto& p : cars) {
    if (!fits(p, n, vertical)) return false;
    const std::uint64_t mask = cell_mask(p, n, vertical);
    if (used & mask) return false;
    used |= mask;
  }
  return true;
}

// Ordered tuples of m pairwise disjoint on-board cars, memoised on the used cells.
std::int64_t direct_placements(int n, int m, VerticalDirection vertical) {
  std::vector<std::uint64_t> masks;
  for (const auto& p : all_anchors(n))
    if (fits(p, n, vertical)) masks.push_back(cell_mask(p, n, vertical));
  std::map<std::pair<std::uint64_t, int>, std::int64_t> memo;
  std::function<std::int64_t(std::uint64_t, int)> count = [&](std::uint64_t used, int left) {
    if (left == 0) return std::int64_t{1};
    const auto key = std::pair{used, left};
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    std::int64_t total = 0;
    for (std::uint64_t mask : masks)
      if (!(used & mask)) total += count(used | mask, left - 1);
    return memo[key] = total;
  };
  return count(0, m);
}

// ---- scalar codes ----

TEST(NaiveScalarCode, FourValuesAreBinaryWithTheLeastSignificantBitOnTop) {
  BddSession session(NaiveEncoding::variable_count(published(4, 1)), small_table());
  const NaiveEncoding encoding(published(4, 1));
  for (int v = 1; v <= 4; ++v) {
    const auto codes = encoding.codes(v);
    ASSERT_EQ(codes.size(), 1u);
    EXPECT_EQ(codes[0], (std::vector<int>{(v - 1) & 1, ((v - 1) >> 1) & 1})) << "value " << v;
  }
}

TEST(NaiveScalarCode, FiveAndSixValuesShareEveryCodeWithNoInvalidOne) {
  for (int n : {3, 5, 6, 7}) {
    BddSession session(NaiveEncoding::variable_count(published(n, 1)), small_table());
    const NaiveEncoding encoding(published(n, 1));
    const int bits = NaiveEncoding::bits_per_coordinate(n);
    // Every full code decodes to exactly one value.
    for (int code = 0; code < (1 << bits); ++code) {
      int owners = 0;
      for (int v = 1; v <= n; ++v)
        for (const auto& cube : encoding.codes(v)) {
          bool match = true;
          for (int bit = 0; bit < bits; ++bit)
            if (cube[bit] >= 0 && cube[bit] != ((code >> bit) & 1)) match = false;
          owners += match ? 1 : 0;
        }
      EXPECT_EQ(owners, 1) << "n=" << n << " code " << code;
    }
  }
  // n = 5: the top bit splits 1,3,5 | 2,4; then 1,5 | 3 and 2 | 4.
  BddSession session(NaiveEncoding::variable_count(published(5, 1)), small_table());
  const NaiveEncoding encoding(published(5, 1));
  EXPECT_EQ(encoding.codes(1), (std::vector<std::vector<int>>{{0, 0, 0}}));
  EXPECT_EQ(encoding.codes(5), (std::vector<std::vector<int>>{{0, 0, 1}}));
  EXPECT_EQ(encoding.codes(3), (std::vector<std::vector<int>>{{0, 1, -1}}));
  EXPECT_EQ(encoding.codes(2), (std::vector<std::vector<int>>{{1, 0, -1}}));
  EXPECT_EQ(encoding.codes(4), (std::vector<std::vector<int>>{{1, 1, -1}}));
}

// ---- node counts ----

// Brute force over truth tables: the nodes of a reduced OBDD are its distinct non-constant
// cofactors by prefixes of the order; CUDD merges a cofactor with its negation.
struct BruteCounts {
  std::int64_t buddy;
  std::int64_t cudd;
};
BruteCounts brute_counts(const std::vector<int>& table, int vars) {
  std::set<std::vector<int>> nodes;
  for (int fixed = 0; fixed <= vars; ++fixed) {
    for (int prefix = 0; prefix < (1 << fixed); ++prefix) {
      // As a table over all variables (var k = bit k of the index), so that one function
      // reached through prefixes of different lengths is one entry.
      std::vector<int> cofactor;
      for (int a = 0; a < (1 << vars); ++a)
        cofactor.push_back(table[(a & ~((1 << fixed) - 1)) | prefix]);
      if (std::set<int>(cofactor.begin(), cofactor.end()).size() == 2) nodes.insert(cofactor);
    }
  }
  std::set<std::vector<int>> classes;
  for (auto f : nodes) {
    auto negation = f;
    for (int& bit : negation) bit ^= 1;
    classes.insert(std::min(f, negation));
  }
  return {static_cast<std::int64_t>(nodes.size()), static_cast<std::int64_t>(classes.size()) + 1};
}

TEST(ComplementEdgeNodeCount, MatchesTheDefinitionOnRandomFunctions) {
  constexpr int kVars = 5;
  BddSession session(kVars, small_table());
  std::mt19937 random(7);
  EXPECT_EQ(complement_edge_node_count(bddtrue), 1);
  EXPECT_EQ(complement_edge_node_count(bddfalse), 1);
  EXPECT_EQ(complement_edge_node_count(bdd_ithvar(0)), 2);
  EXPECT_EQ(complement_edge_node_count(bdd_ithvar(0) ^ bdd_ithvar(1) ^ bdd_ithvar(2)), 4);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<int> table(1 << kVars);
    bdd f = bddfalse;
    for (int a = 0; a < (1 << kVars); ++a) {
      table[a] = static_cast<int>(random() % 2);
      if (!table[a]) continue;
      bdd minterm = bddtrue;
      for (int k = 0; k < kVars; ++k) minterm &= ((a >> k) & 1) ? bdd_ithvar(k) : bdd_nithvar(k);
      f |= minterm;
    }
    const BruteCounts expected = brute_counts(table, kVars);
    EXPECT_EQ(bdd_nodecount(f), expected.buddy);
    EXPECT_EQ(complement_edge_node_count(f), expected.cudd);
    EXPECT_EQ(exact_count(f, bdd_makeset(std::vector<int>{0, 1, 2, 3, 4}.data(), kVars)),
              static_cast<Count>(bdd_satcount(f)));
  }
  session.check();
}

// ---- Invar against the direct model ----

TEST(NaiveInvariant, AcceptsExactlyTheLegalPlacementsOfTwoAndThreeCars) {
  for (VerticalDirection vertical : {VerticalDirection::Up, VerticalDirection::Down}) {
    for (ScalarCode code : {ScalarCode::NuSmv, ScalarCode::Binary}) {
      for (auto [n, m] : {std::pair{4, 2}, std::pair{5, 2}, std::pair{4, 3}}) {
        NaiveOptions options = published(n, m);
        options.code = code;
        options.vertical = vertical;
        BddSession session(NaiveEncoding::variable_count(options), small_table());
        const NaiveEncoding encoding(options);
        const bdd invar = encoding.invariant(InvarSchedule::CarByCar);
        const auto anchors = all_anchors(n);
        std::vector<NaivePlacement> cars(m);
        std::function<void(int)> each = [&](int car) {
          if (car == m) {
            const bool member = (invar & encoding.placement_cube(cars)) != bddfalse;
            ASSERT_EQ(member, legal(cars, n, vertical)) << "n=" << n << " m=" << m;
            return;
          }
          for (const auto& p : anchors) {
            cars[car] = p;
            each(car + 1);
          }
        };
        each(0);
        session.check();
      }
    }
  }
}

TEST(NaiveInvariant, LabeledPlacementsMatchADirectCount) {
  for (auto [n, max_m] : {std::pair{4, 6}, std::pair{5, 4}, std::pair{6, 3}}) {
    for (int m = 1; m <= max_m; ++m) {
      for (ScalarCode code : {ScalarCode::NuSmv, ScalarCode::Binary}) {
        NaiveOptions options = published(n, m);
        options.code = code;
        BddSession session(NaiveEncoding::variable_count(options), small_table());
        const NaiveEncoding encoding(options);
        const bdd invar = encoding.invariant(InvarSchedule::CarByCar);
        EXPECT_EQ(labeled_placements(encoding, invar), direct_placements(n, m, VerticalDirection::Up))
            << "n=" << n << " m=" << m << " code " << to_string(code);
        session.check();
      }
    }
  }
  EXPECT_EQ(direct_placements(4, 2, VerticalDirection::Up), 448);
}

TEST(NaiveInvariant, EveryScheduleAndOrderGivesTheSameFunction) {
  for (VariableOrder order : {VariableOrder::CarBlocks, VariableOrder::CarBlocksOrientationFirst,
                              VariableOrder::BitInterleaved}) {
    NaiveOptions options = published(5, 4);
    options.order = order;
    BddSession session(NaiveEncoding::variable_count(options), small_table());
    const NaiveEncoding encoding(options);
    const bdd reference = encoding.invariant(InvarSchedule::CarByCar);
    for (const auto& name : invar_schedule_names())
      EXPECT_EQ(encoding.invariant(parse_invar_schedule(name)), reference) << name;
    EXPECT_EQ(labeled_placements(encoding, reference), direct_placements(5, 4, VerticalDirection::Up));
    session.check();
  }
}

// ---- the published table (SPEC §3), cells that build in a few seconds ----

TEST(NaiveInvariant, ReproducesThePublishedFiguresOfTheSmallCells) {
  const std::map<std::pair<int, int>, std::int64_t> published_nodes = {
      {{4, 2}, 123},   {{4, 3}, 1237},   {{4, 4}, 7334},  {{4, 5}, 24227},   {{4, 6}, 44209},
      {{4, 7}, 50081}, {{4, 8}, 30762},  {{4, 9}, 1},     {{5, 2}, 233},     {{5, 3}, 3918},
      {{5, 4}, 44209}, {{5, 5}, 321114}, {{6, 2}, 368},   {{6, 3}, 9490},    {{6, 4}, 172583}};
  for (const auto& [cell, expected] : published_nodes) {
    const NaiveOptions options = published(cell.first, cell.second);
    BddSession session(NaiveEncoding::variable_count(options), BddSettings{});
    const NaiveEncoding encoding(options);
    const bdd invar = encoding.invariant(InvarSchedule::CarByCar);
    session.check();
    EXPECT_EQ(complement_edge_node_count(invar), expected)
        << cell.first << "x" << cell.first << ", " << cell.second << " cars";
    EXPECT_GE(bdd_nodecount(invar), complement_edge_node_count(invar) - 1);
    if (cell.first == 4) {
      EXPECT_EQ(labeled_placements(encoding, invar),
                direct_placements(4, cell.second, VerticalDirection::Up));
    }
  }
}

TEST(NaiveInvariant, LowerBoundIsTheBinomial) {
  EXPECT_EQ(naive_lower_bound(4, 2), 16);
  EXPECT_EQ(naive_lower_bound(6, 5), 58905);
  EXPECT_EQ(naive_lower_bound(6, 9), 30260340);
  EXPECT_EQ(naive_lower_bound(4, 1), 1);
}

// ---- winning set and transition relation ----

TEST(NaiveModel, StepRelationBetweenLegalStatesIsOneCarOneCellIntoAFreeCell) {
  for (int n : {4, 5}) {
    const int m = 2;
    const NaiveOptions options = published(n, m, /*next_state=*/true);
    BddSession session(NaiveEncoding::variable_count(options), small_table());
    const NaiveEncoding encoding(options);
    const bdd invar = encoding.invariant(InvarSchedule::CarByCar);
    const bdd canonical = encoding.canonical_codes();
    const bdd steps = invar & canonical & encoding.transition_step() &
                      encoding.prime(invar & canonical);
    const bdd all_vars = encoding.current_variable_set() & encoding.next_variable_set();
    // Direct: every legal state, every car, both directions along its axis.
    std::int64_t expected = 0;
    const auto anchors = all_anchors(n);
    for (const auto& a : anchors)
      for (const auto& b : anchors) {
        if (!legal({a, b}, n, VerticalDirection::Up)) continue;
        for (int car = 0; car < m; ++car)
          for (int delta : {-1, 1}) {
            std::vector<NaivePlacement> next{a, b};
            NaivePlacement& moved = next[car];
            (moved.horizontal ? moved.x : moved.y) += delta;
            expected += legal(next, n, VerticalDirection::Up) ? 1 : 0;
          }
      }
    EXPECT_EQ(exact_count(steps, all_vars), static_cast<Count>(expected)) << "n=" << n;
    // Win: car 1 horizontal at x = n-1 in the exit row, counted from the top (n-1)/2.
    const int exit_y = n - (n - 1) / 2;
    std::int64_t winning = 0;
    for (const auto& b : anchors)
      winning += legal({{n - 1, exit_y, true}, b}, n, VerticalDirection::Up) ? 1 : 0;
    EXPECT_EQ(labeled_placements(encoding, invar & encoding.winning()), winning);
    session.check();
  }
}

TEST(NaiveModel, RejectsBadOptions) {
  NaiveOptions options = published(9, 2);
  EXPECT_THROW(options.check(), InputError);
  options = published(4, 0);
  EXPECT_THROW(options.check(), InputError);
  EXPECT_THROW(parse_invar_schedule("sideways"), InputError);
  EXPECT_THROW(parse_scalar_code("gray"), InputError);
}

}  // namespace
}  // namespace rushhour
