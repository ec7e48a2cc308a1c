#include "encoding/line_diagram.hpp"

#include <stdexcept>
#include <unordered_map>

namespace rushhour {

namespace {

// Calls visit(assignment, cofactor) for each assignment of the bits `variables` (the first
// most significant) under which f is not false, walking f's nodes: every function met at a
// line's level depends only on that line's bits and those below.
template <class Visit>
void for_each_cofactor(const bdd& f, const std::vector<int>& variables, std::size_t bit, std::uint64_t assignment,
                       const Visit& visit) {
  if (f == bddfalse) return;
  if (bit == variables.size()) {
    visit(assignment, f);
    return;
  }
  const bool tests_bit = f != bddtrue && bdd_var(f) == variables[bit];
  for_each_cofactor(tests_bit ? bdd_low(f) : f, variables, bit + 1, assignment << 1, visit);
  for_each_cofactor(tests_bit ? bdd_high(f) : f, variables, bit + 1, assignment << 1 | 1, visit);
}

}  // namespace

LineDiagram to_line_diagram(const SlotEncoding& encoding, const std::vector<bdd>& sets) {
  LineDiagram diagram;
  diagram.lines = encoding.lines_in_order();
  const int levels = static_cast<int>(diagram.lines.size());
  // (BuDDy node, level) -> diagram node. Every cofactor is a node of the sets; they are held
  // all the same, so that no id is collected and reused while it is a key.
  std::unordered_map<std::uint64_t, int> made;
  std::vector<bdd> held;
  const auto visit = [&](const auto& self, const bdd& f, int level) -> int {
    if (f == bddfalse) return LineDiagram::kFalse;
    if (level == levels) {
      if (f != bddtrue) throw std::logic_error("to_line_diagram: a set depends on variables past the lines");
      return LineDiagram::kTrue;
    }
    const std::uint64_t key = static_cast<std::uint64_t>(f.id()) << 8 | static_cast<std::uint64_t>(level);
    if (const auto found = made.find(key); found != made.end()) return found->second;
    const int line = diagram.lines[static_cast<std::size_t>(level)];
    const DomainVariable& variable = encoding.line_variable(line);
    std::vector<LineDiagram::Edge> out;
    for_each_cofactor(f, variable.current(), 0, 0, [&](std::uint64_t assignment, const bdd& cofactor) {
      // The encoding's sets hold valid codes only; an invalid one codes no configuration.
      const int value = variable.code().decode(assignment);
      if (value < 0) return;
      const int child = self(self, cofactor, level + 1);
      if (child != LineDiagram::kFalse)
        out.push_back({encoding.arrangements(line)[static_cast<std::size_t>(value)], child});
    });
    int node = LineDiagram::kFalse;
    if (!out.empty()) {
      node = static_cast<int>(diagram.nodes.size());
      diagram.nodes.push_back({level, static_cast<std::uint32_t>(diagram.edges.size()),
                               static_cast<std::uint32_t>(out.size())});
      diagram.edges.insert(diagram.edges.end(), out.begin(), out.end());
    }
    made.emplace(key, node);
    held.push_back(f);
    return node;
  };
  for (const bdd& set : sets) diagram.roots.push_back(visit(visit, set, 0));
  return diagram;
}

LineDiagramReader::LineDiagramReader(const SlotEncoding& encoding, const LineDiagram& diagram)
    : encoding_(encoding), diagram_(diagram) {
  if (diagram.lines != encoding.lines_in_order())
    throw std::logic_error("a line diagram read into an encoding of another line order");
}

bdd LineDiagramReader::set(std::size_t root) const {
  const int node = diagram_.roots.at(root);
  if (node == LineDiagram::kFalse) return bddfalse;
  if (node == LineDiagram::kTrue) return bddtrue;
  return this->node(node);
}

namespace {

struct Branch {
  const DomainCode::Cube* code;
  bdd child;
};

// The function that is branches[k].child under code k of the line's bits from `bit` on (the
// codes disjoint), built top-down one bit at a time: each node made directly over children
// that lie below it, where a disjunction of the codes' cubes would go through the growing
// union again for every branch.
bdd decide(const std::vector<int>& variables, std::size_t bit, const std::vector<Branch>& branches) {
  if (branches.empty()) return bddfalse;
  if (bit == variables.size()) {
    bdd result = bddfalse;
    for (const Branch& branch : branches) result |= branch.child;
    return result;
  }
  std::vector<Branch> low, high;
  for (const Branch& branch : branches) {
    const signed char value = (*branch.code)[bit];
    if (value != 1) low.push_back(branch);   // 0, or free
    if (value != 0) high.push_back(branch);  // 1, or free
  }
  const bdd on_low = decide(variables, bit + 1, low);
  const bdd on_high = decide(variables, bit + 1, high);
  return on_low == on_high ? on_low : bdd_ite(bdd_ithvar(variables[bit]), on_high, on_low);
}

}  // namespace

bdd LineDiagramReader::node(int index) const {
  if (const auto found = read_.find(index); found != read_.end()) return found->second;
  const LineDiagram::Node& node = diagram_.nodes[static_cast<std::size_t>(index)];
  const int line = diagram_.lines[static_cast<std::size_t>(node.level)];
  const DomainVariable& variable = encoding_.line_variable(line);
  std::vector<Branch> branches;
  for (std::uint32_t e = node.first_edge; e < node.first_edge + node.edge_count; ++e) {
    const LineDiagram::Edge& edge = diagram_.edges[e];
    const int value = encoding_.value_of(line, edge.arrangement);
    if (value < 0) continue;  // an arrangement outside the part
    bdd child = edge.child == LineDiagram::kTrue ? bddtrue : this->node(edge.child);
    if (child == bddfalse) continue;
    for (const DomainCode::Cube& code : variable.code().cubes(value)) branches.push_back({&code, child});
  }
  bdd result = decide(variable.current(), 0, branches);
  read_.emplace(index, result);
  return result;
}

}  // namespace rushhour
