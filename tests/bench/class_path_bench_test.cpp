// bench/class_path_bench: the figures it prints for one work item are the same on the explicit
// and the symbolic path (where every class goes to the BDD engine), and bad arguments get a
// one-line reason and exit status 2. Its timings are never checked.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "cli_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace {

using rushhour::test_support::CommandRun;
using rushhour::test_support::run_shell;

#ifdef RUSHHOUR_CLASS_PATH_BENCH
CommandRun bench(const std::string& args) { return run_shell(std::string(RUSHHOUR_CLASS_PATH_BENCH) + " " + args); }

// The lines starting with `prefix`.
std::string lines_with(const std::string& out, const std::string& prefix) {
  std::istringstream in(out);
  std::string line, kept;
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) kept += line + "\n";
  return kept;
}

// The item of rows c, -, c, t, c on 5x5 (exit row 2 holds the target car alone): its classes
// hold 2^5 to 2^11 states.
const std::string kItem = "5 METRIC c,-,c,t,c PATH 0";

std::string item_with(const std::string& metric, const std::string& path) {
  std::string args = kItem;
  args.replace(args.find("METRIC"), 6, metric);
  args.replace(args.find("PATH"), 4, path);
  return args;
}

TEST(ClassPathBench, BothPathsPrintTheSameFiguresOfAnItem) {
  for (const std::string metric : {"step", "move"}) {
    SCOPED_TRACE(metric);
    const CommandRun on_explicit = bench(item_with(metric, "explicit"));
    ASSERT_EQ(on_explicit.status, 0) << on_explicit.err;
    const std::string figures = lines_with(on_explicit.out, "figures ");
    ASSERT_NE(lines_with(figures, "figures index 1:"), "") << on_explicit.out;
    ASSERT_NE(lines_with(figures, "figures sample"), "") << on_explicit.out;
    EXPECT_EQ(lines_with(on_explicit.out, "symbolic "), "") << "no class above 2^32 states here";
    for (const std::string path : {"symbolic", "symbolic-explicit-components"}) {
      SCOPED_TRACE(path);
      const CommandRun on_bdds = bench(item_with(metric, path));
      ASSERT_EQ(on_bdds.status, 0) << on_bdds.err;
      EXPECT_EQ(lines_with(on_bdds.out, "figures "), figures);
      // Threshold 0: every class went the symbolic path.
      EXPECT_NE(lines_with(on_bdds.out, "symbolic "), "") << on_bdds.out;
      EXPECT_EQ(lines_with(on_bdds.out, "explicit "), "") << on_bdds.out;
    }
  }
}

TEST(ClassPathBench, RefusesBadArgumentsWithOneLine) {
  for (const std::string args : {"5 step c,-,c,t explicit 0", "5 step c,-,c,x,c explicit 0", "5 stop c,-,c,t,c explicit 0",
                                 "five step c,-,c,t,c explicit 0", "5 step c,-,c,t,c implicit 0",
                                 "5 step c,-,c,t,c symbolic -1", "5 step c,-,c,t,c explicit 0 9"}) {
    SCOPED_TRACE(args);
    const CommandRun run = bench(args);
    EXPECT_EQ(run.status, 2);
    EXPECT_EQ(run.out, "");
    EXPECT_NE(run.err, "");
    EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << run.err;
  }
}
#else
TEST(ClassPathBench, BuiltWithTheBenchmarks) {
  GTEST_SKIP() << "configured with -DRUSHHOUR_BENCH=OFF: bench/class_path_bench is not built";
}
#endif

}  // namespace
