// rushhour verify (query/run_checks.hpp): every check holds on runs of each engine, the digest
// is classify's, and a figure changed in classification.h5 is caught by the check that covers
// it, which names the index or board; no finished run: exit 2.
#include "query/run_checks.hpp"

#include <gtest/gtest.h>

#include <hdf5.h>

#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "storage/classification_file.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);

namespace rushhour {
namespace {

using test_support::run_rushhour;
using test_support::TempDir;

// The "run digest ..." line of a command's output.
std::string digest_line(const std::string& out) {
  const auto at = out.find("run digest ");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

struct VerifiedRun {
  const char* name;
  const char* classify;  // classify's options, without --out
  const char* last_check;
};

class VerifyRun : public ::testing::TestWithParam<VerifiedRun> {};

TEST_P(VerifyRun, EveryCheckHoldsAndTheDigestIsClassifys) {
  TempDir dir("verify_run");
  const std::string run = dir / "run";
  const auto made = run_rushhour(std::string("classify -q ") + GetParam().classify + " --out " + run);
  ASSERT_EQ(made.status, 0) << made.err;
  const auto verified = run_rushhour("verify --run " + run);
  ASSERT_EQ(verified.status, 0) << verified.out << verified.err;
  for (const char* check : {"ok    result:", "ok    exact counts:", "ok    indices:", "ok    samples:"})
    EXPECT_NE(verified.out.find(check), std::string::npos) << check << "\n" << verified.out;
  EXPECT_NE(verified.out.find(std::string("ok    ") + GetParam().last_check), std::string::npos) << verified.out;
  EXPECT_EQ(verified.out.find("FAIL"), std::string::npos) << verified.out;
  EXPECT_EQ(digest_line(verified.out), digest_line(made.out));
  EXPECT_FALSE(digest_line(made.out).empty()) << made.out;
}

INSTANTIATE_TEST_SUITE_P(
    Engines, VerifyRun,
    ::testing::Values(VerifiedRun{"bdd", "--size 4 --engine bdd", "layers:"},
                      VerifiedRun{"bdd_walls_cell", "--size 4 --engine bdd --encoding cell --walls 1 --metric move", "layers:"},
                      VerifiedRun{"classes_walls", "--size 4 --engine classes --walls 1-2 --threads 2", "census:"},
                      VerifiedRun{"explicit", "--size 4 --engine explicit --metric move", "samples:"}),
    [](const ::testing::TestParamInfo<VerifiedRun>& run) { return std::string(run.param.name); });

// A figure changed in classification.h5: the check that covers it fails and names the spot.
// Figures that keep the file consistent are rewritten through storage; others (which storage
// refuses to write) through the raw C API, as another tool might.
struct Tampering {
  const char* name;
  const char* engine;
  void (*change)(Classification&);  // or nullptr
  std::vector<const char*> attributes;  // with change == nullptr: these count attributes gain 1
  const char* failure;
};

void add_one_to_attribute(const std::filesystem::path& file, const char* name) {
  const hid_t id = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(id, 0);
  const hid_t attribute = H5Aopen(id, name, H5P_DEFAULT);
  ASSERT_GE(attribute, 0);
  std::uint64_t value = 0;
  EXPECT_GE(H5Aread(attribute, H5T_NATIVE_UINT64, &value), 0);
  ++value;
  EXPECT_GE(H5Awrite(attribute, H5T_NATIVE_UINT64, &value), 0);
  H5Aclose(attribute);
  H5Fclose(id);
}

class VerifyTampered : public ::testing::TestWithParam<Tampering> {};

TEST_P(VerifyTampered, IsCaughtAndNamed) {
  TempDir dir("verify_tampered");
  const std::string run = dir / "run";
  const std::string engine = GetParam().engine;
  ASSERT_EQ(run_rushhour("classify -q --size 4 --engine " + engine + (engine == "classes" ? " --threads 2" : "") +
                         " --out " + run)
                .status,
            0);
  const auto file = std::filesystem::path(run) / "classification.h5";
  if (GetParam().change != nullptr) {
    RunMetadata metadata;
    Classification figures = read_classification(file, &metadata);
    GetParam().change(figures);
    write_classification(file, figures, metadata);
  } else {
    for (const char* attribute : GetParam().attributes) add_one_to_attribute(file, attribute);
  }
  const auto verified = run_rushhour("verify --run " + run);
  EXPECT_EQ(verified.status, 1) << verified.out << verified.err;
  EXPECT_NE(verified.out.find(GetParam().failure), std::string::npos) << verified.out << verified.err;
}

// Index 3 gains a configuration that the unsolvable count loses: the sums still hold.
void move_one_into_index_3(Classification& c) {
  c.layers[3].count += 1;
  c.solvable_count += 1;
  c.unsolvable_count -= 1;
}

// Index 2 loses its configurations to the unsolvable ones: the sums still hold.
void empty_index_2(Classification& c) {
  c.solvable_count -= c.layers[2].count;
  c.unsolvable_count += c.layers[2].count;
  c.layers[2].count = 0;
  c.nondominated[2] = 0;
  c.components[2] = 0;
}

INSTANTIATE_TEST_SUITE_P(
    Figures, VerifyTampered,
    ::testing::Values(
        Tampering{"domain", "bdd", nullptr, {"domain_count", "unsolvable_count"},
                  "FAIL  exact counts: domain_count 13147, the exact counter's 13146"},
        Tampering{"sums", "classes", nullptr, {"unsolvable_count"},
                  "classification.h5: inconsistent content: solvable_count + unsolvable_count differs"},
        Tampering{"empty_index", "explicit", empty_index_2, {}, "FAIL  indices: index 2: no configuration"},
        Tampering{"components", "explicit", [](Classification& c) { c.components[2] = 0; }, {},
                  "FAIL  indices: index 2: 0 components"},
        Tampering{"layer_file", "bdd", move_one_into_index_3, {}, "FAIL  layers: layer file 3 holds"},
        Tampering{"census", "classes", move_one_into_index_3, {}, "FAIL  census: index 3: "},
        Tampering{"sample", "classes", [](Classification& c) { c.samples.front().index -= 1; }, {},
                  "FAIL  samples: sample "}),
    [](const ::testing::TestParamInfo<Tampering>& tampering) { return std::string(tampering.param.name); });

TEST(VerifyRefuses, WhatIsNoFinishedRun) {
  TempDir dir("verify_refused");
  for (const auto& [command, reason] :
       {std::pair{"verify --run " + (dir / "missing"), "no classification.h5"},
        std::pair{std::string("verify"), "verify needs --run DIR"},
        std::pair{"verify --run " + (dir / "x") + " --boards -1", "--boards must be >= 0"}}) {
    const auto result = run_rushhour(command);
    EXPECT_EQ(result.status, 2) << command;
    EXPECT_NE(result.err.find(reason), std::string::npos) << command << ": " << result.err;
  }
}

}  // namespace
}  // namespace rushhour
