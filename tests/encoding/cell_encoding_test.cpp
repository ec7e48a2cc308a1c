// The cell encoding: its sets against the SPEC figures, encode/decode, and every figure of
// the symbolic analysis against the explicit engine, over its orders, both metrics and
// vehicle limits.
#include "encoding/cell_encoding.hpp"

#include <gtest/gtest.h>

#include <map>

#include "bdd_test_support.hpp"
#include "symbolic_check_support.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "encoding/slot_encoding.hpp"
#include "explicit/explicit_engine.hpp"
#include "retrograde/retrograde.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("FiveByFive/CellMatchesExplicit.*", long);

namespace rushhour {
namespace {

using test_support::tiny_table;

struct SanityCase {
  int size;
  std::uint64_t legal;  // all valid placements
  std::uint64_t domain;
  std::uint64_t winning;
};

class CellEncodingSanity
    : public ::testing::TestWithParam<std::tuple<SanityCase, std::string>> {};

TEST_P(CellEncodingSanity, CountsMatchTheSpec) {
  const auto& [expected, order] = GetParam();
  BddSession session(0, expected.size == 4 ? tiny_table() : BddSettings{});
  CellEncoding encoding(session, Rules(expected.size), {.order = order});
  EXPECT_EQ(encoding.legal().count(), expected.legal);
  EXPECT_EQ(encoding.domain().count(), expected.domain);
  EXPECT_EQ(encoding.winning().count(), expected.winning);
}

INSTANTIATE_TEST_SUITE_P(AllOrders, CellEncodingSanity,
                         ::testing::Combine(::testing::Values(SanityCase{4, 37594, 13146, 4592},
                                                              SanityCase{5, 26186015, 10492784,
                                                                         3008028}),
                                            ::testing::ValuesIn(CellEncodingOptions::orders())));

INSTANTIATE_TEST_SUITE_P(SixBySix, CellEncodingSanity,
                         ::testing::Combine(::testing::Values(SanityCase{6, 85850614839,
                                                                         40148868698, 10275383941}),
                                            ::testing::Values(CellEncodingOptions{}.order)));

// Every legal 4x4 configuration, target or not, decodes to a board that encodes back to it.
TEST(CellEncoding, EveryLegalMintermRoundTrips) {
  BddSession session(0, tiny_table());
  {
    const Rules rules(4);
    CellEncoding encoding(session, rules, {.order = "anti-diagonal"});
    std::uint64_t boards = 0;
    std::uint64_t in_domain_count = 0;
    encoding.for_each_board(encoding.legal().states(), [&](const Board& board) {
      ++boards;
      const bdd minterm = encoding.encode(board);
      EXPECT_TRUE((minterm & !encoding.legal().states()) == bddfalse);
      EXPECT_EQ(encoding.decode_one(minterm), board);
      const bool domain = (minterm & encoding.domain().states()) != bddfalse;
      EXPECT_EQ(domain, in_domain(rules, board));
      in_domain_count += domain;
      return true;
    });
    EXPECT_EQ(boards, 37594u);
    EXPECT_EQ(in_domain_count, 13146u);
  }
}

TEST(CellEncoding, VehicleCountsMatchTheBoards) {
  BddSession session(0, tiny_table());
  CellEncoding encoding(session, Rules(4), {.order = "column-major"});
  std::map<std::pair<int, int>, std::uint64_t> boards;
  encoding.for_each_board(encoding.legal().states(), [&](const Board& board) {
    ++boards[{board.cars(), board.trucks()}];
    return true;
  });
  for (const auto& [counts, expected] : boards) {
    const bdd selected =
        encoding.legal().states() & encoding.vehicle_counts_where([&](int cars, int trucks) {
          return cars == counts.first && trucks == counts.second;
        });
    EXPECT_EQ(encoding.state_set(selected).count(), expected)
        << counts.first << " cars, " << counts.second << " trucks";
  }
}

TEST(CellEncoding, UnknownOptionsAreInputErrors) {
  EXPECT_THROW(CellEncodingOptions{.order = "spiral"}.check(), InputError);
  EXPECT_NO_THROW(CellEncodingOptions{}.check());
}

TEST(CellEncoding, LayoutDescriptionNamesEveryParameter) {
  BddSession session(0, tiny_table());
  CellEncoding encoding(session, Rules(5, 1, Metric::Move, {.max_cars = 3}),
                        {.order = "column-major"});
  EXPECT_EQ(encoding.layout_description(),
            "encoding=cell coding=sequential order=column-major size=5 exit_row=1 max_cars=3 "
            "max_trucks=-1 max_vehicles=-1 variables=150");
}

TEST(CellEncoding, PreOfTheDomainStaysInTheDomain) {
  BddSession session(0, tiny_table());
  CellEncoding encoding(session, Rules(5, -1, Metric::Step, {.max_trucks = 1}), {});
  for (Metric metric : {Metric::Step, Metric::Move})
    EXPECT_TRUE((predecessors(encoding, encoding.domain().states(), metric) & !encoding.domain().states()) ==
                bddfalse);
}

// Every minterm of every 4x4 layer is a board of the explicit engine's domain with that
// index; layers are disjoint.
TEST(CellEncoding, EveryLayerMintermIsALegalBoardOfItsIndex) {
  for (Metric metric : {Metric::Step, Metric::Move}) {
    BddSession session(0, tiny_table());
    CellEncoding encoding(session, Rules(4, -1, metric), CellEncodingOptions{});
    test_support::expect_layers_are_the_explicit_layers(encoding, session);
  }
}

// --- Every figure against the explicit engine ---------------------------------------------

struct CellCase {
  Rules rules;
  CellEncodingOptions cell;
  bool dominance;
};

std::string cell_case_name(const ::testing::TestParamInfo<CellCase>& info) {
  const CellCase& c = info.param;
  std::string name = std::to_string(c.rules.size()) + "x" + to_string(c.rules.metric()) + "_" +
                     c.cell.order;
  if (c.rules.exit_row() != (c.rules.size() - 1) / 2)
    name += "_exit" + std::to_string(c.rules.exit_row());
  if (c.rules.limits().max_vehicles >= 0)
    name += "_v" + std::to_string(c.rules.limits().max_vehicles);
  if (c.rules.limits().max_cars >= 0) name += "_c" + std::to_string(c.rules.limits().max_cars);
  if (c.rules.limits().max_trucks >= 0) name += "_t" + std::to_string(c.rules.limits().max_trucks);
  if (!c.dominance) name += "_nodominance";
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

class CellMatchesExplicit : public ::testing::TestWithParam<CellCase> {};

TEST_P(CellMatchesExplicit, EveryFigure) {
  const CellCase& c = GetParam();
  BddSession session(0, c.rules.size() == 4 ? tiny_table() : BddSettings{});
  CellEncoding encoding(session, c.rules, c.cell);
  RetrogradeOptions options;
  options.dominance = c.dominance;
  test_support::expect_same_figures(classify_symbolic(encoding, session, options).figures,
                               test_support::explicit_figures(c.rules), {.dominance = c.dominance});
}

// The default order runs in the engine suite (tests/engine_test.cpp) with every engine; here
// the other orders.
std::vector<CellCase> four_by_four_cases() {
  std::vector<CellCase> cases;
  const std::vector<VehicleLimits> limits = {
      {}, {.max_vehicles = 4}, {.max_cars = 3, .max_trucks = 1}};
  for (Metric metric : {Metric::Step, Metric::Move}) {
    for (const auto& order : CellEncodingOptions::orders())
      if (order != CellEncodingOptions{}.order)
        for (const auto& limit : limits)
          cases.push_back({Rules(4, -1, metric, limit), {.order = order}, true});
  }
  cases.push_back({Rules(4, 0, Metric::Move), {.order = "column-major"}, true});  // a non-default exit row
  return cases;
}

INSTANTIATE_TEST_SUITE_P(FourByFour, CellMatchesExplicit, ::testing::ValuesIn(four_by_four_cases()),
                         cell_case_name);

std::vector<CellCase> five_by_five_cell_cases() {
  std::vector<CellCase> cases;
  for (Metric metric : {Metric::Step, Metric::Move})
    for (const auto& order : CellEncodingOptions::orders())
      if (order != CellEncodingOptions{}.order)
        cases.push_back({Rules(5, -1, metric), {.order = order}, false});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(FiveByFive, CellMatchesExplicit, ::testing::ValuesIn(five_by_five_cell_cases()),
                         cell_case_name);

}  // namespace
}  // namespace rushhour
