// Sets carried from the whole domain's encoding to a part's through a LineDiagram, across
// BuDDy sessions: each part reads exactly its share.
#include "encoding/line_diagram.hpp"

#include <gtest/gtest.h>

#include "bdd/state_set.hpp"
#include "bdd_test_support.hpp"
#include "encoding/line_partition.hpp"
#include "retrograde/retrograde.hpp"

namespace rushhour {
namespace {

struct WholeSets {
  LineDiagram diagram;
  std::vector<Count> counts;
};

// The domain, the winning set, C_1, C_2 and the empty set of the whole domain.
WholeSets whole_sets(const Rules& rules) {
  BddSession session(0, testing::tiny_table());
  const SlotEncoding encoding(session, rules, SlotEncodingOptions{});
  RetrogradeOptions options;
  options.dominance = false;
  options.samples_per_index = 0;
  options.max_layers = 3;
  const SymbolicRun run = classify_symbolic(encoding, session, options);
  const std::vector<bdd> sets = {encoding.domain().states(), run.layers[0], run.layers[1], run.layers[2],
                                 bddfalse};
  WholeSets whole{to_line_diagram(encoding, sets), {}};
  for (const bdd& set : sets) whole.counts.push_back(encoding.state_set(set).count());
  return whole;
}

class LineDiagramTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LineDiagramTest, EveryPartReadsItsShareOfTheWholeSets) {
  for (const Rules& rules : {Rules(4, -1, Metric::Step), Rules(4, 0, Metric::Move),
                             Rules(5, -1, Metric::Move, {.max_vehicles = 4})}) {
    const WholeSets whole = whole_sets(rules);
    std::vector<Count> summed(whole.counts.size(), 0);
    for (const DomainPart& part : parts_of(parse_partition(GetParam(), rules), rules)) {
      BddSession session(0, testing::tiny_table());
      const SlotEncoding encoding(session, rules, SlotEncodingOptions{}, part);
      const LineDiagramReader reader(encoding, whole.diagram);
      std::vector<bdd> read;
      for (std::size_t i = 0; i < whole.counts.size(); ++i) read.push_back(reader.set(i));
      EXPECT_EQ(read[0], encoding.domain().states()) << part.name(rules.size());
      EXPECT_EQ(read[1], encoding.winning().states()) << part.name(rules.size());
      EXPECT_EQ(read[4], bddfalse);
      for (std::size_t i = 0; i < read.size(); ++i) summed[i] += encoding.state_set(read[i]).count();
    }
    EXPECT_EQ(summed, whole.counts) << rules.describe();
    EXPECT_GT(whole.counts[3], 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Partitions, LineDiagramTest, ::testing::Values("none", "exit-row", "rows", "lines:R0,C1"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(LineDiagram, RefusesAnEncodingOfAnotherLineOrder) {
  const Rules rules(4, -1, Metric::Step);
  const WholeSets whole = whole_sets(rules);
  BddSession session(0, testing::tiny_table());
  const SlotEncoding encoding(session, rules, SlotEncodingOptions{.order = "rows-columns"});
  EXPECT_THROW(LineDiagramReader(encoding, whole.diagram), std::logic_error);
}

}  // namespace
}  // namespace rushhour
