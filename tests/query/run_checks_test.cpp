// rushhour verify (query/run_checks.hpp): every check holds on runs of each engine and on
// puzzle databases, the digest is classify's, and a figure changed in classification.h5 (or a
// database, or a missing part file) is caught by the check that covers it, which names the
// index, row or board; no finished run: exit 2.
#include "query/run_checks.hpp"

#include <gtest/gtest.h>

#include <hdf5.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <functional>
#include <regex>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "storage/classification_file.hpp"
#include "storage/item_records.hpp"
#include "test_tier.hpp"
#include "util/fnv1a.hpp"

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
                      VerifiedRun{"classes_items", "--size 5 --engine classes --max-vehicles 4 --threads 2",
                                  "items: 20 of "},
                      VerifiedRun{"explicit", "--size 4 --engine explicit --metric move", "samples:"},
                      VerifiedRun{"bdd_partitioned", "--size 4 --partition rows --dominance-by symbolic",
                                  "part classes: 20 of 128 recorded parts"},
                      VerifiedRun{"bdd_partitioned_figures", "--size 4 --partition lines:R0,R1,C2 --part-files figures",
                                  "part classes: 20 of 32 recorded parts"}),
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

TEST(VerifyParts, AMissingPartFileIsNamed) {
  TempDir dir("verify_parts");
  const std::string run = dir / "run";
  ASSERT_EQ(run_rushhour("classify -q --size 4 --partition rows --out " + run).status, 0);
  std::filesystem::path removed;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(run) / "parts"))
    if (entry.is_regular_file()) removed = entry.path();
  ASSERT_FALSE(removed.empty());
  std::filesystem::remove(removed);
  const auto verified = run_rushhour("verify --run " + run);
  EXPECT_EQ(verified.status, 1) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("FAIL  parts: 127 of 128 parts finished"), std::string::npos) << verified.out;
}

// The records of DIR/class-items.bin or DIR/part-records.bin (storage/item_records.hpp)
// rewritten by `change`, each record's check recomputed.
void rewrite_item_records(const std::filesystem::path& run,
                          const std::function<void(std::vector<std::array<std::uint64_t, 2>>&)>& change,
                          RecordedUnits units = RecordedUnits::ClassItems) {
  const std::filesystem::path file = ItemRecordLog::file_in(run, units);
  std::ifstream in(file, std::ios::binary);
  std::string header;
  std::getline(in, header);
  std::vector<std::array<std::uint64_t, 2>> records;
  std::array<std::uint64_t, 3> words{};
  while (in.read(reinterpret_cast<char*>(words.data()), sizeof words)) records.push_back({words[0], words[1]});
  in.close();
  change(records);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << header << "\n";
  for (const auto& [item, digest] : records) {
    Fnv1a64 hash;
    hash.add_word(item);
    hash.add_word(digest);
    const std::array<std::uint64_t, 3> record = {item, digest, hash.value()};
    out.write(reinterpret_cast<const char*>(record.data()), sizeof record);
  }
}

// Changes the digest of the record of the least item in a class sweep's records; returns
// that item.
std::uint64_t change_least_record(const std::filesystem::path& run) {
  std::uint64_t least = 0;
  rewrite_item_records(run, [&](auto& records) {
    ASSERT_FALSE(records.empty());
    auto first = std::min_element(records.begin(), records.end());
    least = (*first)[0];
    (*first)[1] ^= 1;
  });
  return least;
}

// A class sweep's item records: a record whose figures differ from the item solved again is
// named by its item; two differing records of one item are counted.
TEST(VerifyItems, ARecordThatDiffersIsNamed) {
  TempDir dir("verify_items");
  const std::string run = dir / "run";
  ASSERT_EQ(run_rushhour("classify -q --size 4 --engine classes --threads 2 --out " + run).status, 0);
  const std::uint64_t least = change_least_record(run);
  auto verified = run_rushhour("verify --run " + run);
  EXPECT_EQ(verified.status, 1) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("FAIL  items: work item " + std::to_string(least) + ": "), std::string::npos)
      << verified.out;
  rewrite_item_records(run, [](auto& records) { records.push_back({records.front()[0], records.front()[1] ^ 2}); });
  verified = run_rushhour("verify --run " + run);
  EXPECT_EQ(verified.status, 1) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("FAIL  items: 1 work items were solved twice with different figures"), std::string::npos)
      << verified.out;
}

// A partitioned run that keeps figures only: a part whose recorded digest differs from the
// part solved by the class engine is named, by its number and its fixed lines; the parts'
// sum in the checkpoint is checked against classification.h5.
TEST(VerifyParts, ARecordThatDiffersFromThePartSolvedByTheClassEngineIsNamed) {
  TempDir dir("verify_part_records");
  const std::string run = dir / "run";
  ASSERT_EQ(run_rushhour("classify -q --size 4 --partition rows --part-files figures --out " + run).status, 0);
  auto verified = run_rushhour("verify --run " + run + " --all --threads 2");
  EXPECT_EQ(verified.status, 0) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("ok    parts: 128 parts (the sum in parts-checkpoint.txt) add up"), std::string::npos)
      << verified.out;
  EXPECT_NE(verified.out.find("ok    part classes: 128 of 128 recorded parts (128 finished; all)"), std::string::npos)
      << verified.out;
  std::uint64_t changed = 0;
  rewrite_item_records(
      run,
      [&](auto& records) {
        ASSERT_GT(records.size(), 40u);
        changed = records[40][0];
        records[40][1] ^= 4;
      },
      RecordedUnits::Parts);
  verified = run_rushhour("verify --run " + run + " --all");
  EXPECT_EQ(verified.status, 1) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("FAIL  part classes: part " + std::to_string(changed) + " (R0="), std::string::npos)
      << verified.out;
}

// --seed chooses the sample at random, the same for the same seed; --threads does not change it.
TEST(VerifyParts, ASeededSampleIsTheSameForTheSameSeed) {
  TempDir dir("verify_seed");
  const std::string run = dir / "run";
  ASSERT_EQ(run_rushhour("classify -q --size 4 --partition rows --out " + run).status, 0);
  const auto first = run_rushhour("verify --run " + run + " --sample 5 --seed 3");
  const auto again = run_rushhour("verify --run " + run + " --sample 5 --seed 3 --threads 2");
  EXPECT_EQ(first.status, 0) << first.out << first.err;
  EXPECT_EQ(first.out, again.out);
  EXPECT_NE(first.out.find("part classes: 5 of 128 recorded parts (128 finished; chosen at random with seed 3)"),
            std::string::npos)
      << first.out;
  for (const char* bad : {" --all --seed 3", " --threads 0", " --sample 3 --all"}) {
    const auto refused = run_rushhour("verify --run " + run + bad);
    EXPECT_EQ(refused.status, 2) << bad;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  }
}

// A record torn by a kill hides the records after it; a resumed sweep cuts it off first.
TEST(VerifyItems, AResumeCutsOffATornRecord) {
  TempDir dir("verify_items_torn");
  const std::string run = dir / "run";
  const std::string classify = "classify -q --size 4 --engine classes --threads 2 --out " + run;
  ASSERT_EQ(run_rushhour(classify).status, 0);
  const std::filesystem::path file = ItemRecordLog::file_in(run);
  const auto size = std::filesystem::file_size(file);
  std::ofstream(file, std::ios::binary | std::ios::app) << "torn recor";
  ASSERT_EQ(run_rushhour(classify + " --resume").status, 0);
  EXPECT_EQ(std::filesystem::file_size(file), size);
  const auto verified = run_rushhour("verify --run " + run + " --all");
  EXPECT_EQ(verified.status, 0) << verified.out << verified.err;
  // --all: every recorded item solved again.
  std::smatch counts;
  ASSERT_TRUE(std::regex_search(verified.out, counts, std::regex("items: ([0-9]+) of ([0-9]+) recorded"))) << verified.out;
  EXPECT_EQ(counts[1].str(), counts[2].str());
}

// Adds 1 to element `row` of the 1-D uint64 dataset `name`.
void add_one_to_element(const std::filesystem::path& file, const char* name, hsize_t row) {
  const hid_t id = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(id, 0);
  const hid_t dataset = H5Dopen2(id, name, H5P_DEFAULT);
  ASSERT_GE(dataset, 0);
  const hid_t space = H5Dget_space(dataset);
  const hsize_t one = 1;
  H5Sselect_hyperslab(space, H5S_SELECT_SET, &row, nullptr, &one, nullptr);
  const hid_t memory = H5Screate_simple(1, &one, nullptr);
  std::uint64_t value = 0;
  EXPECT_GE(H5Dread(dataset, H5T_NATIVE_UINT64, memory, space, H5P_DEFAULT, &value), 0);
  ++value;
  EXPECT_GE(H5Dwrite(dataset, H5T_NATIVE_UINT64, memory, space, H5P_DEFAULT, &value), 0);
  H5Sclose(memory);
  H5Sclose(space);
  H5Dclose(dataset);
  H5Fclose(id);
}

// Puzzle databases: every row equals its cluster searched again, with both metrics and for
// minimal puzzles; a changed row is named.
TEST(VerifyDatabase, RowsEqualTheirClustersSearchedAgain) {
  TempDir dir("verify_database");
  for (const std::string options : {"--clusters-metrics both", "--metric move --minimal"}) {
    const std::string db = dir / "db.h5";
    std::filesystem::remove(db);
    ASSERT_EQ(run_rushhour("classify -q --size 4 --engine classes --domain puzzle --clusters " + db + " " + options).status,
              0);
    const auto verified = run_rushhour("verify --clusters " + db + " --records 100000");
    ASSERT_EQ(verified.status, 0) << options << "\n" << verified.out << verified.err;
    EXPECT_NE(verified.out.find("(every row) equal their clusters searched again"), std::string::npos) << verified.out;
    add_one_to_element(db, "cars", 0);
    const auto tampered = run_rushhour("verify --clusters " + db);
    EXPECT_EQ(tampered.status, 1) << tampered.out << tampered.err;
    EXPECT_NE(tampered.out.find("FAIL  clusters: row 0 ("), std::string::npos) << tampered.out;
    EXPECT_NE(tampered.out.find("its pieces are not the board's"), std::string::npos) << tampered.out;
    // A size that its histogram contradicts: the reader's check, named by cluster.
    add_one_to_element(db, "size", 1);
    const auto damaged = run_rushhour("verify --clusters " + db);
    EXPECT_EQ(damaged.status, 1) << damaged.out << damaged.err;
    EXPECT_NE(damaged.out.find("FAIL  clusters: "), std::string::npos) << damaged.out;
  }
}

// A file of another run (the same job under the other metric) in place of one of the run's:
// the check that reads it fails and names the file.
TEST(VerifyForeign, AFileOfAnotherRunFailsTheCheckThatReadsIt) {
  TempDir dir("verify_foreign");
  struct Case {
    const char* classify;
    std::function<std::filesystem::path(const std::filesystem::path& run)> file;
    const char* failure;
  };
  const auto twentieth_part = [](const std::filesystem::path& run) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(run / "parts"))
      if (entry.is_regular_file()) files.push_back(std::filesystem::relative(entry.path(), run));
    std::sort(files.begin(), files.end());
    return files.at(19);
  };
  const Case cases[] = {
      {"--size 4", [](const auto&) { return std::filesystem::path("layers/layer-0003.bdd"); },
       "FAIL  layers: "},
      {"--size 4 --partition rows", twentieth_part, "FAIL  parts: "},
      {"--size 4 --engine classes", [](const auto&) { return std::filesystem::path("classes-checkpoint.txt"); },
       "FAIL  census: "}};
  int k = 0;
  for (const Case& c : cases) {
    const std::filesystem::path step = dir / ("step" + std::to_string(k)), move = dir / ("move" + std::to_string(k++));
    ASSERT_EQ(run_rushhour(std::string("classify -q ") + c.classify + " --out " + step.string()).status, 0);
    ASSERT_EQ(run_rushhour(std::string("classify -q --metric move ") + c.classify + " --out " + move.string()).status, 0);
    const std::filesystem::path file = c.file(step);
    std::filesystem::copy_file(move / file, step / file, std::filesystem::copy_options::overwrite_existing);
    const auto verified = run_rushhour("verify --run " + step.string());
    EXPECT_EQ(verified.status, 1) << c.classify << "\n" << verified.out << verified.err;
    EXPECT_NE(verified.out.find(c.failure), std::string::npos) << c.classify << "\n" << verified.out;
    EXPECT_NE(verified.out.find(file.filename().string()), std::string::npos) << c.classify << "\n" << verified.out;
  }
}

// A finished part of a class sweep (classify --items K/N), before the merge: its census and a
// sample of its items are checked, a record that differs is named, and a part with refused
// items is no finished part (exit 2).
TEST(VerifyParts, AFinishedClassPartIsCheckedOnItsOwn) {
  TempDir dir("verify_class_part");
  const std::string part = dir / "part";
  ASSERT_EQ(run_rushhour("classify -q --size 5 --engine classes --walls 1 --threads 2 --items 2/3 --out " + part).status, 0);
  auto verified = run_rushhour("verify --run " + part + " --sample 12");
  ASSERT_EQ(verified.status, 0) << verified.out << verified.err;
  for (const char* check : {"ok    part: part 2/3 of 5x5", "ok    census:", "ok    items: 12 of "})
    EXPECT_NE(verified.out.find(check), std::string::npos) << check << "\n" << verified.out;
  EXPECT_TRUE(digest_line(verified.out).empty()) << verified.out;
  const std::uint64_t least = change_least_record(part);
  verified = run_rushhour("verify --run " + part + " --sample 12");
  EXPECT_EQ(verified.status, 1) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("FAIL  items: work item " + std::to_string(least) + ": "), std::string::npos)
      << verified.out;

  const std::string refused = dir / "refused";
  EXPECT_EQ(run_rushhour("classify -q --size 5 --metric move --engine classes --threads 2 --items 1/2 --max-memory 100K "
                         "--out " + refused).status, 1);
  verified = run_rushhour("verify --run " + refused);
  EXPECT_EQ(verified.status, 2) << verified.out;
  EXPECT_NE(verified.err.find("refused by the memory bound"), std::string::npos) << verified.err;
}

TEST(VerifyRefuses, WhatIsNoFinishedRun) {
  TempDir dir("verify_refused");
  for (const auto& [command, reason] :
       {std::pair{"verify --run " + (dir / "missing"), "no classification.h5"},
        std::pair{std::string("verify"), "verify needs --run DIR"},
        std::pair{"verify --run " + (dir / "x") + " --boards -1", "--boards must be >= 0"},
        std::pair{"verify --run " + (dir / "x") + " --records 5", "--records goes with --clusters"},
        std::pair{"verify --clusters " + (dir / "x.h5") + " --boards 5", "--seed, --all and --threads go with --run"},
        std::pair{"verify --clusters " + (dir / "x.h5") + " --all", "--seed, --all and --threads go with --run"},
        std::pair{"verify --clusters " + (dir / "x.h5") + " --seed 2", "go with --run"},
        std::pair{"verify --run " + (dir / "x") + " --all --seed 2", "--seed chooses a --sample, not --all"},
        std::pair{"verify --run " + (dir / "x") + " --threads 0", "--threads must be >= 1"},
        std::pair{"verify --run " + (dir / "x") + " --sample -2", "--sample must be >= 0"},
        std::pair{"verify --run " + (dir / "x") + " --sample 3 --all", "--sample K or --all, not both"},
        std::pair{"verify --clusters " + (dir / "x.h5") + " --run " + (dir / "x"), "not both"},
        std::pair{"verify --clusters " + (dir / "missing.h5"), "missing.h5"}}) {
    const auto result = run_rushhour(command);
    EXPECT_EQ(result.status, 2) << command;
    EXPECT_NE(result.err.find(reason), std::string::npos) << command << ": " << result.err;
  }
}

}  // namespace
}  // namespace rushhour
