#pragma once
// The internal nodes of one BDD in post-order, for walks that compute a figure per node
// (exact counts, node counts under other conventions).
//
// Node indices are BuDDy's own. The caller holds f, so none of f's nodes can be collected,
// and the walk creates no node: the indices stay valid while the graph is used and never
// leave the function that built it.
#include <bdd.h>

#include <cstdint>
#include <vector>

namespace rushhour {

class NodeGraph {
 public:
  explicit NodeGraph(const bdd& f);

  // Internal nodes of f, children before parents.
  const std::vector<int>& nodes() const { return nodes_; }
  // Position of internal node `node` of f in nodes().
  int index(int node) const {
    for (std::size_t slot = hash(node);; slot = (slot + 1) & mask_)
      if (keys_[slot] == node) return positions_[slot];
  }

 private:
  std::size_t hash(int node) const {
    return static_cast<std::size_t>(static_cast<std::uint32_t>(node) * 0x9E3779B1u) & mask_;
  }
  // Inserts node at `position` unless present; returns whether it was absent.
  bool insert(int node, int position);

  std::vector<int> nodes_;
  // Open addressing, linear probing: node -> position; key -1 = empty slot.
  std::vector<int> keys_;
  std::vector<int> positions_;
  std::size_t mask_ = 0;
};

}  // namespace rushhour
