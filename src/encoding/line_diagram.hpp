#pragma once
// Sets of configurations carried from one BuDDy node table to another: from the whole
// domain's slot encoding to the encoding of a part (encoding/line_partition.hpp), whose fixed
// lines code their arrangements differently and which has a BddSession (often a process) of
// its own.
//
// A LineDiagram is a multi-valued decision diagram over the lines, in the encoding's variable
// order: a node at level k decides line lines[k] by its arrangement (its index in LineTable),
// one edge per arrangement the set admits there, each to a node of a deeper level or to
// kTrue. Sets given together share their nodes. It holds no BuDDy node, so it outlives the
// BddSession it was read from and can be read by forked workers.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "bdd/session.hpp"
#include "encoding/slot_encoding.hpp"

namespace rushhour {

struct LineDiagram {
  static constexpr int kFalse = -1;
  static constexpr int kTrue = -2;
  struct Edge {
    int arrangement;
    int child;  // a node, or kTrue
  };
  struct Node {
    int level;
    std::uint32_t first_edge;
    std::uint32_t edge_count;
  };

  std::vector<int> lines;    // line of each level (0..n-1 rows, n..2n-1 columns)
  std::vector<Node> nodes;   // children before their parents
  std::vector<Edge> edges;
  std::vector<int> roots;    // one per set: a node, kFalse or kTrue
};

// `sets` (of `encoding`, usually the whole domain's) as one diagram, roots in the same order.
LineDiagram to_line_diagram(const SlotEncoding& encoding, const std::vector<bdd>& sets);

// Reads the sets of a diagram into another encoding of the same board and variable order
// (usually a part's): each set restricted to the configurations the encoding codes. Nodes
// already read are kept for the next set.
class LineDiagramReader {
 public:
  // Throws std::logic_error if the diagram's line order is not the encoding's.
  LineDiagramReader(const SlotEncoding& encoding, const LineDiagram& diagram);
  bdd set(std::size_t root) const;

 private:
  bdd node(int index) const;

  const SlotEncoding& encoding_;
  const LineDiagram& diagram_;
  // Diagram node -> its set in the encoding, once read. A part reads a small share of the
  // whole domain's nodes: a table per node would cost more to clear than the reading.
  mutable std::unordered_map<int, bdd> read_;
};

}  // namespace rushhour
