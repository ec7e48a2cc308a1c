// The run digest (storage/run_digest.hpp): it changes with any figure and with the rules, not
// with what is no figure (engine, times, BDD sizes, samples); and `classify` prints the same
// digest for every engine and thread count of one job, and none for a run stopped early.
#include "storage/run_digest.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "cli_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);
RUSHHOUR_TEST_TIER_OF("RunDigestCommand.*", full);

namespace rushhour {
namespace {

Classification small_run() {
  Classification c(Rules(4));
  c.complete = true;
  c.domain_count = 100;
  c.winning_count = 40;
  c.solvable_count = 90;
  c.unsolvable_count = 10;
  c.layers = {{.count = 40, .bdd_nodes = 7, .seconds = 0.5}, {.count = 50, .bdd_nodes = 9, .seconds = 0.25}};
  c.nondominated = {30, 20};
  c.components = {5, 3};
  c.samples = {{"oooo", 1}};
  return c;
}

TEST(RunDigest, ChangesWithEveryFigureAndTheRules) {
  const Classification base = small_run();
  const std::string digest = run_digest(base);
  EXPECT_EQ(digest.size(), 16u);
  EXPECT_EQ(run_digest(small_run()), digest);
  std::set<std::string> seen{digest};
  const auto differs = [&](Classification changed, const char* what) {
    EXPECT_TRUE(seen.insert(run_digest(changed)).second) << what;
  };
  Classification c = base;
  c.layers[1].count = 51;
  differs(c, "a layer's count");
  c = base;
  c.nondominated[0] = 31;
  differs(c, "a non-dominated count");
  c = base;
  c.components[1] = -1;
  differs(c, "a component count");
  c = base;
  c.unsolvable_count = 11;
  differs(c, "the unsolvable count");
  c = base;
  c.layers.push_back({.count = 1});
  differs(c, "one more index");
  c = base;
  c.rules = Rules(4, -1, Metric::Move);
  differs(c, "the metric");
}

TEST(RunDigest, IgnoresWhatIsNoFigure) {
  const std::string digest = run_digest(small_run());
  Classification c = small_run();
  c.engine = "classes";
  c.encoding = "none";
  c.seconds = 99;
  c.peak_rss_bytes = 1 << 20;
  c.layers[0].bdd_nodes = 0;
  c.layers[1].seconds = 3;
  c.samples = {{"oxoo", 1}, {"ooox", 0}};
  EXPECT_EQ(run_digest(c), digest);
}

std::string digest_line(const std::string& out) {
  std::smatch found;
  const std::regex digest("run digest ([0-9a-f]{16}) ");
  return std::regex_search(out, found, digest) ? found[1].str() : "";
}

TEST(RunDigestCommand, EveryEngineAndThreadCountPrintsTheSameDigest) {
  std::set<std::string> digests;
  for (const std::string engine : {"--engine bdd", "--engine bdd --partition rows", "--engine explicit",
                                   "--engine classes --threads 1", "--engine classes --threads 2"}) {
    const auto run = test_support::run_rushhour("classify --size 4 --metric move -q " + engine);
    ASSERT_EQ(run.status, 0) << engine << ": " << run.err;
    const std::string digest = digest_line(run.out);
    EXPECT_FALSE(digest.empty()) << engine << ": " << run.out;
    digests.insert(digest);
  }
  EXPECT_EQ(digests.size(), 1u);
  // A run stopped early has partial figures: no digest.
  const auto stopped = test_support::run_rushhour("classify --size 4 -q --max-layers 2 --no-dominance");
  ASSERT_EQ(stopped.status, 0) << stopped.err;
  EXPECT_EQ(digest_line(stopped.out), "") << stopped.out;
}

}  // namespace
}  // namespace rushhour
