#pragma once
// The breadth-first search of one numbered class (ClassNumbering) from its winning states,
// under one metric: every state's index and, in the same pass, the components of the solvable
// states, by union-find on the edges the search meets (roots are states). After run():
// queued(q) for q below the returned count are the solvable states by ascending index, layer
// after layer; index(s) is state s's index (kUnreached: unsolvable); root(s) the root of a
// solvable state's component; top(r) the highest index in root r's component. run_indices()
// searches again under another metric for the indices alone, the components kept. Internal to
// src/explicit/class_*.cpp.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "explicit/class_lines.hpp"
#include "explicit/class_numbering.hpp"

namespace rushhour::class_engine {

template <class Numbering>
class ClassSearch {
 public:
  // Searches the `states` states `numbering` numbers; calls on_layer(index, first, end) once
  // each layer, queued(first..end-1), is complete. Returns the solvable states. Throws
  // std::runtime_error above index 254.
  template <class OnLayer>
  std::size_t run(const ClassNumbering<Numbering>& numbering, std::size_t states, Metric metric, OnLayer&& on_layer) {
    index_.assign(states, IndexByte{kUnreached});
    parent_.resize(states);
    queue_.resize(states);
    std::size_t tail = queue_winning_states(numbering);
    for (std::size_t q = 0; q < tail; ++q) parent_[queue_[q].state] = queue_[q].state;
    // The queue holds the layers one after another: layer `index` is queue_[begin, end).
    for (std::size_t begin = 0, index = 0; begin < tail; ++index) {
      const std::size_t end = tail;
      on_layer(static_cast<int>(index), begin, end);
      const int next = static_cast<int>(index) + 1;
      // A winning state's neighbours are winning (index 0, only a union to do), except where
      // the target car leaves the exit: each edge between two winning states off the exit
      // row is enumerated from one end only, the end where it leads to a higher arrangement.
      // A third of the solvable states are winning (SPEC), so this saves a sixth of the work.
      const Slides slides = index == 0 ? Slides::WinningOnce : Slides::All;
      for (std::size_t head = begin; head < end; ++head) {
        const Item item = queue_[head];
        const std::uint32_t root = find(item.state);
        numbering.for_each_neighbour(item, metric, slides, [&](const Item& to) {
          if (index_[to.state] == IndexByte{kUnreached}) {
            index_[to.state] = IndexByte(next);
            parent_[to.state] = root;
            queue_[tail++] = to;
          } else if (static_cast<int>(index_[to.state]) < next && parent_[to.state] != root) {
            // An edge to a higher index is met again from its other end, once that end is
            // dequeued; most ends found here hang right under `root` already.
            if (const std::uint32_t other = find(to.state); other != root) parent_[other] = root;
          }
        });
      }
      if (tail > end && next > kMaxStoredIndex) throw std::runtime_error("an index exceeds 254");
      begin = end;
    }
    // Unsolvable states were never queued; the queue holds exactly the solvable ones.
    top_.assign(states, 0);
    for (std::size_t q = 0; q < tail; ++q) {
      const std::uint32_t s = queue_[q].state;
      const std::uint32_t r = find(s);
      parent_[s] = r;
      top_[r] = std::max(top_[r], static_cast<std::uint8_t>(index_[s]));
    }
    return tail;
  }

  // The indices under `metric` after run() (the components and top() kept): the same search
  // without unions. Returns the states it reached.
  std::size_t run_indices(const ClassNumbering<Numbering>& numbering, Metric metric) {
    std::fill(index_.begin(), index_.end(), IndexByte{kUnreached});
    std::size_t tail = queue_winning_states(numbering);
    for (std::size_t begin = 0, index = 0; begin < tail; ++index) {
      const std::size_t end = tail;
      const int next = static_cast<int>(index) + 1;
      // Without unions to do, a winning state's slides that keep it winning are not needed.
      const Slides slides = index == 0 ? Slides::ExitRow : Slides::All;
      for (std::size_t head = begin; head < end; ++head)
        numbering.for_each_neighbour(queue_[head], metric, slides, [&](const Item& to) {
          if (index_[to.state] != IndexByte{kUnreached}) return;
          index_[to.state] = IndexByte(next);
          queue_[tail++] = to;
        });
      if (tail > end && next > kMaxStoredIndex) throw std::runtime_error("an index exceeds 254");
      begin = end;
    }
    return tail;
  }

  const Item& queued(std::size_t q) const { return queue_[q]; }
  std::uint8_t index(std::uint32_t state) const { return static_cast<std::uint8_t>(index_[state]); }
  std::uint32_t root(std::uint32_t state) const { return parent_[state]; }
  std::uint8_t top(std::uint32_t root) const { return top_[root]; }

  // Gives the arrays' memory back (while a class goes to a solver outside the engine).
  void release() {
    std::vector<IndexByte>().swap(index_);
    std::vector<std::uint8_t>().swap(top_);
    std::vector<std::uint32_t>().swap(parent_);
    std::vector<Item>().swap(queue_);
  }

 private:
  // Queues the class's winning states (index 0) at the front of queue_; returns how many.
  std::size_t queue_winning_states(const ClassNumbering<Numbering>& numbering) {
    std::size_t tail = 0;
    numbering.for_each_winning_state([&](const Item& item) {
      index_[item.state] = IndexByte{0};
      queue_[tail++] = item;
    });
    return tail;
  }

  std::uint32_t find(std::uint32_t s) {
    while (parent_[s] != s) {
      parent_[s] = parent_[parent_[s]];  // path halving
      s = parent_[s];
    }
    return s;
  }

  // A state's index in a byte that is not a character type: a store to a character may alias
  // any object, so each store to the indices would make the compiler load the numbering's
  // tables again in the neighbour search around it.
  enum class IndexByte : std::uint8_t {};
  std::vector<IndexByte> index_;
  std::vector<std::uint8_t> top_;
  std::vector<std::uint32_t> parent_;
  std::vector<Item> queue_;
};

}  // namespace rushhour::class_engine
