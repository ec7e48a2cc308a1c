#pragma once
// Checks of a symbolic run against the explicit engine, shared by the tests of every state
// encoding.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "bdd/session.hpp"
#include "encoding/state_encoding.hpp"
#include "explicit/explicit_engine.hpp"
#include "reference_figures.hpp"
#include "retrograde/retrograde.hpp"

namespace rushhour::test_support {

// Runs the analysis of `rules` with `encoding` and checks the layers themselves: disjoint,
// inside the domain, every minterm a board of the explicit engine's domain with that index,
// encode∘decode the identity, and as many boards as the layer's count.
inline void expect_layers_are_the_explicit_layers(const StateEncoding& encoding,
                                                  BddSession& session) {
  const Rules& rules = encoding.rules();
  const ExplicitSolution solution = ExplicitSolution::solve(rules);
  RetrogradeOptions options;
  options.dominance = false;
  const SymbolicRun run = classify_symbolic(encoding, session, options);
  bdd seen = bddfalse;
  for (std::size_t i = 0; i < run.layers.size(); ++i) {
    const bdd& layer = run.layers[i];
    EXPECT_TRUE((layer & seen) == bddfalse) << "layer " << i << " meets a lower layer";
    EXPECT_TRUE((layer & !encoding.domain().states()) == bddfalse);
    seen |= layer;
    std::uint64_t boards = 0;
    encoding.for_each_board(layer, [&](const Board& board) {
      ++boards;
      const auto state = solution.find(board);
      EXPECT_TRUE(state.has_value());
      if (state) {
        EXPECT_EQ(solution.index(*state), static_cast<int>(i));
      }
      EXPECT_TRUE((encoding.encode(board) & !layer) == bddfalse);
      EXPECT_EQ(encoding.decode_one(encoding.encode(board)), board);
      return true;
    });
    EXPECT_EQ(boards, run.figures.layers[i].count);
  }
}

}  // namespace rushhour::test_support
