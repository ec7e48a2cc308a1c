#include "bdd/node_graph.hpp"

#include <utility>

namespace rushhour {

NodeGraph::NodeGraph(const bdd& f) {
  const int root = f.id();
  if (root < 2) return;
  // Twice the node count, rounded up to a power of two: probes stay short.
  std::size_t slots = 2;
  while (slots < 2 * static_cast<std::size_t>(bdd_nodecount(f))) slots *= 2;
  keys_.assign(slots, -1);
  positions_.assign(slots, -1);
  mask_ = slots - 1;
  nodes_.reserve(static_cast<std::size_t>(bdd_nodecount(f)));
  // Iterative post-order: a node is emitted after both children. A node enters the table
  // when it is first pushed (position -1 until emitted), so it is pushed once.
  std::vector<std::pair<int, int>> stack{{root, 0}};
  insert(root, -1);
  while (!stack.empty()) {
    auto& [node, state] = stack.back();
    if (state < 2) {
      const int child = state == 0 ? ::bdd_low(node) : ::bdd_high(node);
      ++state;
      if (child >= 2 && insert(child, -1)) stack.emplace_back(child, 0);
      continue;
    }
    for (std::size_t slot = hash(node);; slot = (slot + 1) & mask_)
      if (keys_[slot] == node) {
        positions_[slot] = static_cast<int>(nodes_.size());
        break;
      }
    nodes_.push_back(node);
    stack.pop_back();
  }
}

bool NodeGraph::insert(int node, int position) {
  for (std::size_t slot = hash(node);; slot = (slot + 1) & mask_) {
    if (keys_[slot] == node) return false;
    if (keys_[slot] == -1) {
      keys_[slot] = node;
      positions_[slot] = position;
      return true;
    }
  }
}

}  // namespace rushhour
