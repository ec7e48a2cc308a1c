// Golden runs of the built `rushhour explode` binary: the table on stdout, n/a cells, the
// HDF5 file, and the one-line refusals of bad ranges.
#include <gtest/gtest.h>

#include "cli_test_support.hpp"
#include <hdf5.h>

#include <filesystem>
#include <string>
#include <vector>
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace {

using rushhour::test_support::CommandRun;

// Runs `rushhour explode ARGS` (ARGS shell-quoted by the caller).
CommandRun explode(const std::string& args) { return rushhour::test_support::run_rushhour("explode " + args); }

std::vector<std::int64_t> read_int64_dataset(const std::filesystem::path& path, const char* name) {
  std::vector<std::int64_t> values;
  const hid_t file = H5Fopen(path.string().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return values;
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  if (dataset >= 0) {
    const hid_t space = H5Dget_space(dataset);
    values.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    H5Dread(dataset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    H5Sclose(space);
    H5Dclose(dataset);
  }
  H5Fclose(file);
  return values;
}

TEST(ExplodeCommand, PrintsThePublishedFigureBesideOurs) {
  const CommandRun run = explode("--sizes 4,5 --cars 2-3");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("| 4 | 2 | 123 | 123 | yes | 128 | 16 | 448 |"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("| 4 | 3 | 1 237 | 1 237 | yes |"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("| 5 | 2 | 233 | 233 | yes |"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("| 5 | 3 | 3 918 | 3 918 | yes |"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("dual legal nodes"), std::string::npos);  // hook for the dual encoding
  EXPECT_NE(run.out.find("Trans nodes"), std::string::npos);
  // One progress line when a cell starts and one when it ends, on stderr only.
  EXPECT_NE(run.err.find("explode n=5 m=3: 3 918 nodes"), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("explode n="), std::string::npos);
}

TEST(ExplodeCommand, OtherEncodingsHaveNoMatchVerdict) {
  const CommandRun run = explode("--sizes 5 --cars 2 --code binary --no-relations");
  ASSERT_EQ(run.status, 0) << run.err;
  // 1 372 labeled placements whatever the code; the published figure is shown, not judged.
  EXPECT_NE(run.out.find("| 233 | — |"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("| 1 372 |"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("Trans nodes"), std::string::npos);
}

TEST(ExplodeCommand, ACellOverTheNodeLimitIsNotAvailableAndTheRunGoesOn) {
  const std::filesystem::path out =
      std::filesystem::temp_directory_path() /
      ("rushhour_explode_test_" + std::to_string(::getpid()) + ".h5");
  // 5x5 with 5 cars peaks near 900 000 nodes; 2 cars needs a few thousand.
  const CommandRun run = explode("--sizes 5 --cars 5,2 --node-limit 20000 --no-relations --out " +
                          out.string());
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("| 5 | 5 | n/a (node limit) | 321 114 |"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("| 5 | 2 | 233 | 233 | yes |"), std::string::npos) << run.out;
  EXPECT_EQ(read_int64_dataset(out, "nodes"), (std::vector<std::int64_t>{-1, 233}));
  EXPECT_EQ(read_int64_dataset(out, "published"), (std::vector<std::int64_t>{321114, 233}));
  EXPECT_EQ(read_int64_dataset(out, "labeled_placements"), (std::vector<std::int64_t>{-1, 1372}));
  EXPECT_EQ(read_int64_dataset(out, "dual_legal_nodes"), (std::vector<std::int64_t>{-1, -1}));
  std::filesystem::remove(out);
}

TEST(ExplodeCommand, ACellOverTheTimeLimitIsNotAvailable) {
  const CommandRun run = explode("--sizes 4 --cars 6 --time-limit 0.000001 --no-relations");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("| 4 | 6 | n/a (time limit) | 44 209 |"), std::string::npos) << run.out;
}

TEST(ExplodeCommand, BadRangesExitWithStatusTwoAndOneLine) {
  for (const std::string args : {"--cars 9-2", "--sizes 1", "--sizes 9", "--sizes 4,x",
                                 "--cars 0", "--cars -1", "--cars 2-", "--node-limit -5",
                                 "--schedule sideways", "--time-limit -1",
                                 // Refused before the range is expanded: no 8 GB list.
                                 "--cars 1-2000000000", "--cars 2147483647-2147483647",
                                 "--sizes 2147483600-2147483647"}) {
    const CommandRun run = explode(args);
    EXPECT_EQ(run.status, 2) << args;
    EXPECT_TRUE(run.out.empty()) << args;
    ASSERT_FALSE(run.err.empty()) << args;
    EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << args << ": " << run.err;
  }
}

}  // namespace
