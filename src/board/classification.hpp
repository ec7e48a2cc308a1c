#pragma once
// The figures of one classification run, engine-neutral: the explicit and the symbolic
// engine fill the same structure and storage writes it (SPEC §7). Every count of
// configurations is a Count (board/count.hpp): exact at every board size.
#include <cstdint>
#include <string>
#include <vector>

#include "board/count.hpp"
#include "board/rules.hpp"

namespace rushhour {

struct LayerFigures {
  Count count = 0;              // configurations of exactly this index
  std::uint64_t bdd_nodes = 0;  // nodes of the layer's BDD (0 for the explicit engine)
  double seconds = 0;           // time to compute the layer
};

struct Sample {
  std::string board;  // one-line board string
  std::uint32_t index = 0;
  friend bool operator==(const Sample&, const Sample&) = default;
};

struct Classification {
  explicit Classification(Rules rules_in) : rules(std::move(rules_in)) {}

  Rules rules;
  std::string engine;          // "explicit" or "bdd"
  std::string encoding;        // "slot", "cell", or "none" for the explicit engine
  std::string variable_order;  // order name, or "none"
  bool complete = false;       // every layer up to the first empty one was computed
  double seconds = 0;
  std::uint64_t peak_rss_bytes = 0;
  Count domain_count = 0;
  Count winning_count = 0;
  Count solvable_count = 0;
  Count unsolvable_count = 0;
  std::vector<LayerFigures> layers;         // index 0 .. max_index
  std::vector<Count> nondominated;          // per index: configurations not dominated
  std::vector<std::int64_t> components;     // per index: components whose highest index it is; -1 = not computed
  std::vector<Sample> samples;              // sample configurations of the highest indices

  int max_index() const { return static_cast<int>(layers.size()) - 1; }
};

}  // namespace rushhour
