// The settings are a function of the options and the environment alone: the core count for
// --threads 0 and --part-workers 0, and what an MPI launch allows and silences, come from the
// Environment value they are given.
#include "run/settings.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "board/errors.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

run::RunSettings settings_of(const std::vector<std::string>& args, const run::Environment& environment) {
  namespace po = boost::program_options;
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(run::classify_options()).run(), vm);
  po::notify(vm);
  return run::settings_from(vm, environment);
}

// Every option that --help marks with its engines ("[bdd]", "[classes]", "[bdd and classes]")
// is refused, naming itself, when set for any other engine: the mark and the refusal come from
// one table.
TEST(Settings, AnOptionMarkedForSomeEnginesIsRefusedForTheOthers) {
  int marked = 0;
  const auto options = run::classify_options();
  for (const auto& option : options.options()) {
    const std::string help = option->description();
    if (help.empty() || help[0] != '[') continue;
    const std::string engines = help.substr(1, help.find(']') - 1);
    ++marked;
    for (const std::string engine : {"bdd", "explicit", "classes"}) {
      const bool uses = engines == engine || engines.rfind(engine + " and", 0) == 0 ||
                        engines.find("and " + engine) != std::string::npos;
      if (uses) continue;
      std::vector<std::string> args = {"--size", "4", "--engine", engine, "--" + option->long_name()};
      if (option->semantic()->max_tokens() > 0) args.push_back("7");
      try {
        settings_of(args, run::Environment{});
        ADD_FAILURE() << "--" << option->long_name() << " was taken by the " << engine << " engine";
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("--" + option->long_name() + " applies to"), std::string::npos)
            << engine << ": " << e.what();
      }
    }
  }
  EXPECT_GE(marked, 30);
}

TEST(Settings, ZeroThreadsAndWorkersAreTheEnvironmentsCores) {
  const run::Environment three_cores{.cores = 3};
  EXPECT_EQ(settings_of({"--size", "4", "--engine", "classes", "--threads", "0"}, three_cores).sweep.threads, 3);
  EXPECT_EQ(settings_of({"--size", "4", "--engine", "classes", "--threads", "2"}, three_cores).sweep.threads, 2);
  EXPECT_EQ(settings_of({"--size", "4", "--partition", "rows", "--part-workers", "0"}, three_cores).symbolic.part_workers, 3);
  EXPECT_EQ(settings_of({"--size", "4", "--engine", "classes", "--threads", "0"}, run::Environment{.cores = 7}).sweep.threads, 7);
  EXPECT_EQ(run::Environment{.cores = 5}.threads_for(0), 5);
  EXPECT_EQ(run::Environment{.cores = 5}.threads_for(1), 1);
}

TEST(Settings, AnMpiLaunchIsTakenFromTheEnvironment) {
  const std::vector<std::string> classes = {"--size", "4", "--engine", "classes"};
  EXPECT_FALSE(settings_of(classes, run::Environment{}).common.quiet);
  if (!run::mpi_built_in()) {
    // Every rank would run the whole job.
    EXPECT_THROW(settings_of(classes, run::Environment{.mpi_launcher = true}), InputError);
    return;
  }
  // Ranks other than 0 print nothing; rank 0 reports for the job.
  const run::RunSettings rank3 = settings_of(classes, run::Environment{.cores = 2, .mpi_launcher = true, .rank = 3});
  EXPECT_TRUE(rank3.common.quiet);
  EXPECT_TRUE(rank3.environment.mpi_launcher);
  EXPECT_FALSE(rank3.environment.reports());
  EXPECT_FALSE(settings_of(classes, run::Environment{.mpi_launcher = true, .rank = 0}).common.quiet);
  // What one process can do and a launch cannot is refused only under a launch.
  EXPECT_NO_THROW(settings_of({"--size", "4"}, run::Environment{}));
  EXPECT_THROW(settings_of({"--size", "4"}, run::Environment{.mpi_launcher = true}), InputError);
}

// --bit-search-above auto asks twice the states a row combination under moves: a move's row
// slides are more to table. A number takes every class of that many states, whatever the metric.
TEST(Settings, TheBitSetsAutoRuleFollowsTheMetric) {
  run::ClassSweepSettings sweep;  // bit_search unset: auto
  const auto rule = [&](Metric metric) {
    const ClassEngineOptions options = sweep.engine_options(run::CommonSettings{.rules = Rules(7, -1, metric)});
    return std::pair{options.bit_search_above, options.bit_search_per_combination};
  };
  EXPECT_EQ(rule(Metric::Step), (std::pair<std::uint64_t, std::uint64_t>{16384, 32}));
  EXPECT_EQ(rule(Metric::Move), (std::pair<std::uint64_t, std::uint64_t>{16384, 64}));
  EXPECT_EQ(run::parse_bit_search_above("auto"), std::nullopt);
  sweep.bit_search = run::parse_bit_search_above("1000");
  EXPECT_EQ(rule(Metric::Move), (std::pair<std::uint64_t, std::uint64_t>{1000, 0}));
  sweep.bit_search = run::parse_bit_search_above("never");
  EXPECT_EQ(rule(Metric::Step).first, std::numeric_limits<std::uint64_t>::max());
}

}  // namespace
}  // namespace rushhour
