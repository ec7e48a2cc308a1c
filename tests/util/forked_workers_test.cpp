// Jobs in forked worker processes (util/forked_workers.hpp): every result comes back, from
// processes other than this one; a job's exception and a worker's death reach the parent as
// errors.
#include "util/forked_workers.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <set>
#include <stdexcept>
#include <string>
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

TEST(ForkedWorkers, RunsEveryJobInAWorkerProcess) {
  std::set<long> squares;
  std::set<long> workers;
  ForkedWorkers pool(
      3, [](const std::string& job) {
        const long n = std::stol(job);
        return std::to_string(n * n) + " " + std::to_string(::getpid());
      },
      [&](int, const std::string& result) {
        const auto space = result.find(' ');
        squares.insert(std::stol(result.substr(0, space)));
        workers.insert(std::stol(result.substr(space + 1)));
      });
  for (long n = 1; n <= 200; ++n) pool.submit(std::to_string(n));
  pool.finish();
  ASSERT_EQ(squares.size(), 200u);
  for (long n = 1; n <= 200; ++n) EXPECT_TRUE(squares.count(n * n)) << n;
  EXPECT_FALSE(workers.count(::getpid()));
  EXPECT_GE(workers.size(), 1u);
  EXPECT_LE(workers.size(), 3u);
}

TEST(ForkedWorkers, AJobsExceptionReachesTheParent) {
  int results = 0;
  ForkedWorkers pool(
      2, [](const std::string& job) -> std::string {
        if (job == "7") throw std::runtime_error("no sevens");
        return job;
      },
      [&](int, const std::string&) { ++results; });
  try {
    for (int n = 1; n <= 20; ++n) pool.submit(std::to_string(n));
    pool.finish();
    FAIL() << "the job's exception was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "no sevens");
  }
  EXPECT_LT(results, 20);
}

TEST(ForkedWorkers, AWorkersDeathIsAnError) {
  ForkedWorkers pool(
      1, [](const std::string&) -> std::string {
        std::raise(SIGKILL);
        return "";
      },
      [](int, const std::string&) {});
  pool.submit("1");
  try {
    pool.finish();
    FAIL() << "the worker's death went unnoticed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("killed by signal 9"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rushhour
