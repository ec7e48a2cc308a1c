// The puzzle domain (--domain puzzle): the explicit engine's figures equal those of the whole
// domain restricted to the boards the puzzle rules accept (the puzzle domain is a union of
// components, so every index stays), the class engine's equal the explicit engine's figure by
// figure (counts, non-dominated, components, samples), cluster records included, and so do the
// bdd engine's (slot encoding; its layers record the domain, queries answer from them); boards
// outside it are refused with a reason; runs record it.
#include <gtest/gtest.h>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "cli_test_support.hpp"
#include "explicit/class_engine.hpp"
#include "explicit/explicit_engine.hpp"
#include "reference_figures.hpp"
#include "storage/run_identity.hpp"
#include "storage/classification_file.hpp"
#include "test_tier.hpp"
#include "run/class_sweep.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("PuzzleDomain.FiveByFiveClassesEqualExplicit", long);

namespace rushhour {

using run::classify_by_classes;
namespace {

using test_support::run_rushhour;
using test_support::TempDir;

Rules puzzle(const Rules& rules) {
  return Rules(rules.size(), rules.exit_row(), rules.metric(), rules.limits(), Domain::Puzzle);
}

void expect_explicit_equals_the_restricted_whole_domain(const Rules& whole) {
  SCOPED_TRACE(whole.describe());
  const Rules rules = puzzle(whole);
  const ExplicitSolution all = ExplicitSolution::solve(whole);
  std::vector<std::uint64_t> count;
  std::uint64_t domain = 0, unsolvable = 0;
  for (std::size_t s = 0; s < all.domain_size(); ++s) {
    if (!domain_violation(rules, all.board(s)).empty()) continue;
    ++domain;
    const auto index = all.index(s);
    if (!index) {
      ++unsolvable;
      continue;
    }
    count.resize(std::max(count.size(), static_cast<std::size_t>(*index) + 1), 0);
    ++count[static_cast<std::size_t>(*index)];
  }
  ASSERT_GT(domain, 0u);
  EXPECT_LT(domain, all.domain_size());
  const ExplicitSolution restricted = ExplicitSolution::solve(rules);
  EXPECT_EQ(restricted.domain_size(), domain);
  EXPECT_EQ(restricted.unsolvable_count(), unsolvable);
  ASSERT_EQ(restricted.layers().size(), count.size());
  for (std::size_t i = 0; i < count.size(); ++i) EXPECT_EQ(restricted.layers()[i].count, count[i]) << "index " << i;
}

TEST(PuzzleDomain, ExplicitEqualsTheWholeDomainRestricted) {
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    expect_explicit_equals_the_restricted_whole_domain(Rules(4, -1, metric));
    expect_explicit_equals_the_restricted_whole_domain(Rules(4, 0, metric));
    expect_explicit_equals_the_restricted_whole_domain(Rules(5, -1, metric, VehicleLimits{3, 1, -1}));
  }
}

void expect_classes_equal_explicit(const Rules& rules, bool mirror = true) {
  SCOPED_TRACE(rules.describe() + (mirror ? "" : ", no mirror"));
  ClassEngineOptions options;
  options.threads = 2;
  options.mirror = mirror;
  const ClassCensus census = classify_by_classes(rules, options);
  ASSERT_TRUE(census.complete);
  test_support::expect_same_figures(census.classification(), test_support::explicit_figures(rules),
                               {.samples = true});
}

TEST(PuzzleDomain, ClassesEqualExplicit) {
  for (const Metric metric : {Metric::Step, Metric::Move}) {
    expect_classes_equal_explicit(puzzle(Rules(4, -1, metric)));
    expect_classes_equal_explicit(puzzle(Rules(4, 2, metric)));
    expect_classes_equal_explicit(puzzle(Rules(4, -1, metric, VehicleLimits{3, 1, -1})));
    expect_classes_equal_explicit(puzzle(Rules(5, -1, metric, VehicleLimits{4, 2, -1})));
    expect_classes_equal_explicit(puzzle(Rules(5, -1, metric, VehicleLimits{4, 2, -1})), false);
  }
}

TEST(PuzzleDomain, FiveByFiveClassesEqualExplicit) {
  for (const Metric metric : {Metric::Step, Metric::Move}) expect_classes_equal_explicit(puzzle(Rules(5, -1, metric)));
}

TEST(PuzzleDomain, BoardsOutsideItAreRefusedWithAReason) {
  const Rules rules = puzzle(Rules(4));
  EXPECT_NO_THROW(parse_board("ooBC"
                              "AABC"
                              "ooDD"
                              "ooEE",
                              rules));
  const auto reason = [&](const std::string& board) {
    try {
      parse_board(board, rules);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  // Another horizontal vehicle in the exit row; a row filled by two cars; a column filled by two cars.
  EXPECT_NE(reason("ooooBBAAoooooooo").find("exit row"), std::string::npos);
  EXPECT_NE(reason("BBCCAAoooooooooo").find("row 0 is filled"), std::string::npos);
  EXPECT_NE(reason("Booo"
                   "BAAo"
                   "Cooo"
                   "Cooo")
                .find("column 0 is filled"),
            std::string::npos);
  EXPECT_EQ(parse_board("BBCCAAoooooooooo", Rules(4)).vehicles().size(), 3u);  // in the whole domain
}

TEST(PuzzleDomain, TheClassSweepIdentityNamesIt) {
  const ClassSweepIdentity identity{.rules = puzzle(Rules(5, -1, Metric::Move))};
  EXPECT_NE(identity.text().find(" domain=puzzle "), std::string::npos) << identity.text();
  EXPECT_EQ(ClassSweepIdentity::parse(identity.text()).rules, identity.rules);
  EXPECT_EQ(ClassSweepIdentity{.rules = Rules(5)}.text().find("domain"), std::string::npos);
}

TEST(PuzzleDomain, BddEqualsExplicit) {
  for (const std::string& args : {std::string("--size 4"), std::string("--size 4 --metric move --exit-row 2"),
                                  std::string("--size 5 --max-cars 3 --max-trucks 1 --metric move"),
                                  std::string("--size 5 --max-vehicles 4 --order rows-columns")}) {
    SCOPED_TRACE(args);
    TempDir dir("puzzle_bdd");
    const auto run = run_rushhour("classify --engine bdd --domain puzzle -q " + args + " --out " + (dir / "run"));
    ASSERT_EQ(run.status, 0) << run.err;
    const Classification stored = read_classification(dir / "run/classification.h5");
    EXPECT_EQ(stored.rules.domain(), Domain::Puzzle);
    test_support::expect_same_figures(stored, test_support::explicit_figures(stored.rules));
    // The bdd engine's samples are its own (encoding order): boards of the puzzle domain with
    // the explicit engine's index.
    const ExplicitSolution solution = ExplicitSolution::solve(stored.rules);
    EXPECT_FALSE(stored.samples.empty());
    for (const Sample& sample : stored.samples) {
      const auto state = solution.find(parse_board(sample.board, stored.rules));
      ASSERT_TRUE(state.has_value()) << sample.board;
      EXPECT_EQ(solution.index(*state), static_cast<int>(sample.index)) << sample.board;
    }
    // The saved layers know their domain: queries answer from them.
    const auto query = run_rushhour("query --run " + (dir / "run") + " --index 2 --count --sample 0");
    EXPECT_EQ(query.status, 0) << query.err;
  }
  EXPECT_EQ(run_rushhour("classify --size 4 --domain puzzle --encoding cell -q").status, 2);
  EXPECT_EQ(run_rushhour("classify --size 4 --domain puzzle --partition rows -q").status, 2);
}

TEST(PuzzleDomain, RunsRecordIt) {
  TempDir dir("puzzle_domain");
  const auto run = run_rushhour("classify --size 4 --engine classes --domain puzzle -q --out " + (dir / "run") +
                                " --clusters " + (dir / "db.h5"));
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("puzzle domain"), std::string::npos) << run.out;
  const Classification stored = read_classification(dir / "run/classification.h5");
  EXPECT_EQ(stored.rules.domain(), Domain::Puzzle);
  test_support::expect_same_figures(stored, test_support::explicit_figures(puzzle(Rules(4))), {.samples = true});
  // The run answers for its domain only; a resume with the whole domain is another sweep.
  const auto outside = run_rushhour("query --run " + (dir / "run") + " --board BBCCAAoooooooooo");
  EXPECT_EQ(outside.status, 2) << outside.out;
  const auto other = run_rushhour("classify --size 4 --engine classes -q --resume --out " + (dir / "run"));
  EXPECT_EQ(other.status, 2) << other.err;
  EXPECT_EQ(run_rushhour("classify --size 4 --engine explicit --domain puzzles -q").status, 2);
}

}  // namespace
}  // namespace rushhour
