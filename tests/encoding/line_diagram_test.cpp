// Sets carried from the whole domain's encoding to a part's through a LineDiagram, across
// BuDDy sessions: each part reads exactly its share.
#include "encoding/line_diagram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "bdd/state_set.hpp"
#include "board/errors.hpp"
#include "bdd_test_support.hpp"
#include "encoding/line_partition.hpp"
#include "retrograde/retrograde.hpp"
#include "storage/line_diagram_file.hpp"
#include "storage_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

struct WholeSets {
  LineDiagram diagram;
  std::vector<Count> counts;
};

// The domain, the winning set, C_1, C_2 and the empty set of the whole domain.
WholeSets whole_sets(const Rules& rules) {
  BddSession session(0, test_support::tiny_table());
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
      BddSession session(0, test_support::tiny_table());
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
                         [](const auto& param) {
                           std::string name = param.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(LineDiagram, RefusesAnEncodingOfAnotherLineOrder) {
  const Rules rules(4, -1, Metric::Step);
  const WholeSets whole = whole_sets(rules);
  BddSession session(0, test_support::tiny_table());
  const SlotEncoding encoding(session, rules, SlotEncodingOptions{.order = "rows-columns"});
  EXPECT_THROW(LineDiagramReader(encoding, whole.diagram), std::logic_error);
}

bool operator==(const LineDiagram& a, const LineDiagram& b) {
  const auto same_nodes = [](const LineDiagram::Node& x, const LineDiagram::Node& y) {
    return x.level == y.level && x.first_edge == y.first_edge && x.edge_count == y.edge_count;
  };
  const auto same_edges = [](const LineDiagram::Edge& x, const LineDiagram::Edge& y) {
    return x.arrangement == y.arrangement && x.child == y.child;
  };
  return a.lines == b.lines && a.roots == b.roots &&
         std::equal(a.nodes.begin(), a.nodes.end(), b.nodes.begin(), b.nodes.end(), same_nodes) &&
         std::equal(a.edges.begin(), a.edges.end(), b.edges.begin(), b.edges.end(), same_edges);
}

// DIR/whole-layers.h5: what is saved is read back, under its identity only; a damaged file,
// another kind of file or a diagram whose indices would lead the reader astray is refused.
TEST(LineDiagramFile, ReadsBackWhatWasSavedUnderItsIdentityOnly) {
  const Rules rules(5, -1, Metric::Move, {.max_vehicles = 4});
  const WholeSets whole = whole_sets(rules);
  const test_support::ScratchDir dir;
  const auto path = dir / "whole-layers.h5";
  const std::vector<int> lines = line_sequence("interleaved", 5);
  const int arrangements = LineTable(5).size();
  EXPECT_FALSE(load_line_diagram(path, "run A", lines, arrangements));
  save_line_diagram(path, whole.diagram, "run A");
  const std::optional<LineDiagram> read = load_line_diagram(path, "run A", lines, arrangements);
  ASSERT_TRUE(read);
  EXPECT_TRUE(*read == whole.diagram);
  EXPECT_FALSE(load_line_diagram(path, "run B", lines, arrangements));
  EXPECT_THROW(load_line_diagram(path, "run A", line_sequence("rows-columns", 5), arrangements), InputError);

  const std::string bytes = test_support::read_bytes(path);
  test_support::write_bytes(path, bytes.substr(0, bytes.size() / 2));
  EXPECT_THROW(load_line_diagram(path, "run A", lines, arrangements), InputError);
  test_support::write_bytes(path, "not a diagram\n");
  EXPECT_THROW(load_line_diagram(path, "run A", lines, arrangements), InputError);

  for (const auto& damage : std::vector<std::function<void(LineDiagram&)>>{
           [](LineDiagram& d) { d.edges.back().child = static_cast<int>(d.nodes.size()); },  // a parent as child
           [](LineDiagram& d) { d.edges.front().arrangement = 1 << 20; },
           [](LineDiagram& d) { d.nodes.back().edge_count += 1; },
           [](LineDiagram& d) { d.nodes.front().level = 99; },
           [](LineDiagram& d) { d.roots.front() = static_cast<int>(d.nodes.size()); }}) {
    LineDiagram damaged = whole.diagram;
    damage(damaged);
    save_line_diagram(path, damaged, "run A");
    EXPECT_THROW(load_line_diagram(path, "run A", lines, arrangements), InputError);
  }
}

}  // namespace
}  // namespace rushhour
