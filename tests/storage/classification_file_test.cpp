#include "storage/classification_file.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdlib>
#include <vector>

#include "board/errors.hpp"
#include "storage/explosion_file.hpp"
#include "storage/hdf5.hpp"
#include "storage_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);
RUSHHOUR_TEST_TIER_OF("ClassificationFile.NeverTrustsAFlippedByte", full);
RUSHHOUR_TEST_TIER_OF("ClassificationFile.PassesTheIndependentPythonCheck", full);

namespace rushhour {
namespace {

using test_support::flip_byte;
using test_support::read_bytes;
using test_support::ScratchDir;
using test_support::write_bytes;

// 4x4, exit row 1. Index 2:        Index 1:
//   B o o o                          o o o C
//   B A A o  <exit                   A A o C  <exit
//   o o o o                          o o o C
//   o o o o                          o o o o
Classification sample_classification() {
  Classification result(Rules(4, -1, Metric::Move, VehicleLimits{5, 2, -1}));
  result.engine = "bdd";
  result.encoding = "slot";
  result.variable_order = "interleaved";
  result.complete = true;
  result.seconds = 12.5;
  result.peak_rss_bytes = 123456789;
  result.layers = {{100, 17, 0.5}, {250, 40, 0.25}, {0, 0, 0.125}, {40, 9, 1.0}};
  result.domain_count = 1000;
  result.winning_count = 100;
  result.solvable_count = 390;
  result.unsolvable_count = 610;
  result.nondominated = {0, 3, 0, 40};
  result.components = {-1, -1, 0, 12};
  result.samples = {{"BoooBAAooooooooo", 3}, {"oooCAAoCoooCoooo", 1}};
  return result;
}

Classification empty_classification() {
  Classification result{Rules(5)};
  result.engine = "explicit";
  result.encoding = "none";
  result.variable_order = "none";
  result.domain_count = 10492784;
  result.unsolvable_count = 10492784;
  return result;
}

RunMetadata sample_metadata() {
  return RunMetadata::current("size = 4\nmetric = move\nmax-cars = 5\norder = interleaved\n");
}

void expect_same(const Classification& expected, const Classification& actual) {
  EXPECT_EQ(expected.rules, actual.rules);
  EXPECT_EQ(expected.engine, actual.engine);
  EXPECT_EQ(expected.encoding, actual.encoding);
  EXPECT_EQ(expected.variable_order, actual.variable_order);
  EXPECT_EQ(expected.complete, actual.complete);
  EXPECT_EQ(expected.seconds, actual.seconds);
  EXPECT_EQ(expected.peak_rss_bytes, actual.peak_rss_bytes);
  EXPECT_EQ(expected.domain_count, actual.domain_count);
  EXPECT_EQ(expected.winning_count, actual.winning_count);
  EXPECT_EQ(expected.solvable_count, actual.solvable_count);
  EXPECT_EQ(expected.unsolvable_count, actual.unsolvable_count);
  ASSERT_EQ(expected.layers.size(), actual.layers.size());
  for (std::size_t i = 0; i < expected.layers.size(); ++i) {
    EXPECT_EQ(expected.layers[i].count, actual.layers[i].count) << "index " << i;
    EXPECT_EQ(expected.layers[i].bdd_nodes, actual.layers[i].bdd_nodes) << "index " << i;
    EXPECT_EQ(expected.layers[i].seconds, actual.layers[i].seconds) << "index " << i;
  }
  EXPECT_EQ(expected.nondominated, actual.nondominated);
  EXPECT_EQ(expected.components, actual.components);
  EXPECT_EQ(expected.samples, actual.samples);
}

// The InputError message of reading `file`, or "" if it was read.
std::string read_error(const std::filesystem::path& file) {
  try {
    read_classification(file);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

// Edits a written file through the raw C API, the way another tool might.
class RawEdit {
 public:
  explicit RawEdit(const std::filesystem::path& file)
      : id_(H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)) {
    EXPECT_GE(id_, 0);
  }
  ~RawEdit() { H5Fclose(id_); }
  RawEdit(const RawEdit&) = delete;
  RawEdit& operator=(const RawEdit&) = delete;

  void delete_attribute(const char* name) { EXPECT_GE(H5Adelete(id_, name), 0); }
  template <typename T>
  void set_attribute(const char* name, T value, hid_t file_type, hid_t memory_type) {
    if (H5Aexists(id_, name) > 0) delete_attribute(name);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(id_, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(H5Awrite(attribute, memory_type, &value), 0);
    H5Aclose(attribute);
    H5Sclose(space);
  }
  void delete_link(const char* path) { EXPECT_GE(H5Ldelete(id_, path, H5P_DEFAULT), 0); }
  void replace_dataset(const char* path, const std::vector<std::uint64_t>& values) {
    delete_link(path);
    const hsize_t length = values.size();
    const hid_t space = H5Screate_simple(1, &length, nullptr);
    const hid_t dataset =
        H5Dcreate2(id_, path, H5T_STD_U64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(H5Dwrite(dataset, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
              0);
    H5Dclose(dataset);
    H5Sclose(space);
  }

 private:
  hid_t id_;
};

TEST(ClassificationFile, RoundTripsEveryField) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  write_classification(file, sample_classification(), sample_metadata());
  RunMetadata metadata;
  const Classification read = read_classification(file, &metadata);
  expect_same(sample_classification(), read);
  EXPECT_EQ(sample_metadata(), metadata);
  EXPECT_EQ(metadata.tool_version, RUSHHOUR_VERSION);
  EXPECT_FALSE(metadata.buddy_version.empty());
}

TEST(ClassificationFile, RoundTripsARunWithoutLayersSamplesOrDominance) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  write_classification(file, empty_classification(), RunMetadata{});
  RunMetadata metadata{"x", "y", "z"};
  const Classification read = read_classification(file, &metadata);
  expect_same(empty_classification(), read);
  EXPECT_EQ(read.max_index(), -1);
  EXPECT_EQ(RunMetadata{}, metadata);
}

// Counts beyond 64 bits (8x8): index 1 alone exceeds 2^64.
Classification huge_classification() {
  Classification result(Rules(8));
  result.engine = "classes";
  result.encoding = "none";
  result.variable_order = "none";
  result.complete = false;
  const Count two_to_64 = kUint64Limit;
  result.layers = {{parse_count("11544568547943978009"), 0, 1.0}, {two_to_64 + 5, 0, 2.0}};
  result.winning_count = result.layers[0].count;
  result.solvable_count = result.layers[0].count + result.layers[1].count;
  result.domain_count = parse_count("52282990070597671149");
  result.unsolvable_count = result.domain_count - result.solvable_count;
  result.nondominated = {0, two_to_64 + 1};
  result.components = {0, 3};
  return result;
}

TEST(ClassificationFile, RoundTripsCountsBeyondSixtyFourBitsAsDecimalStrings) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  write_classification(file, huge_classification(), sample_metadata());
  expect_same(huge_classification(), read_classification(file));
  const h5::File h5 = h5::File::open_read_only(file);
  EXPECT_EQ(h5.read_attribute<std::int64_t>("format_version"), kClassificationDecimalFormatVersion);
  EXPECT_EQ(h5.read_attribute<std::string>("count_encoding"), "decimal");
  EXPECT_EQ(h5.read_attribute<std::string>("domain_count"), "52282990070597671149");
  EXPECT_EQ(h5.open_group("layers").read_dataset<std::string>("count"),
            (std::vector<std::string>{"11544568547943978009", "18446744073709551621"}));
  EXPECT_EQ(h5.open_group("dominance").read_dataset<std::string>("nondominated"),
            (std::vector<std::string>{"0", "18446744073709551617"}));
}

TEST(ClassificationFile, CountsThatFitSixtyFourBitsKeepFormatVersionOne) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  write_classification(file, sample_classification(), sample_metadata());
  const h5::File h5 = h5::File::open_read_only(file);
  EXPECT_EQ(h5.read_attribute<std::int64_t>("format_version"), 1);
  EXPECT_FALSE(h5.has_attribute("count_encoding"));
  EXPECT_EQ(h5.open_group("layers").read_dataset<std::uint64_t>("count"),
            (std::vector<std::uint64_t>{100, 250, 0, 40}));
}

TEST(ClassificationFile, ReportsMalformedDecimalCounts) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  const auto expect_error = [&](const std::string& expected, auto edit) {
    write_classification(file, huge_classification(), sample_metadata());
    {
      const h5::File h5 = h5::File::open_read_only(file);  // checks the file is readable first
    }
    edit(file);
    EXPECT_EQ(read_error(file), file.string() + ": " + expected);
  };
  const auto set_string = [](const std::filesystem::path& path, const char* name,
                             const std::string& text) {
    const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(id, 0);
    H5Adelete(id, name);
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, text.size() + 1);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(id, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(H5Awrite(attribute, type, text.c_str()), 0);
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
    H5Fclose(id);
  };
  expect_error("attribute 'domain_count': count '5e19' is not a decimal integer",
               [&](const auto& path) { set_string(path, "domain_count", "5e19"); });
  expect_error("unknown count_encoding 'hex' (this tool reads 'decimal')",
               [&](const auto& path) { set_string(path, "count_encoding", "hex"); });
  expect_error("attribute 'winning_count': count '340282366920938463463374607431768211456' "
               "exceeds 2^128 - 1",
               [&](const auto& path) {
                 set_string(path, "winning_count", "340282366920938463463374607431768211456");
               });
}

TEST(ClassificationFile, StoresTheSchemaTypesOfTheSpec) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  write_classification(file, sample_classification(), sample_metadata());
  const h5::File h5 = h5::File::open_read_only(file);
  EXPECT_EQ(h5.read_attribute<std::int64_t>("max_vehicles"), -1);
  EXPECT_EQ(h5.read_attribute<std::int64_t>("max_index"), 3);
  EXPECT_EQ(h5.read_attribute<std::string>("metric"), "move");
  EXPECT_EQ(h5.read_attribute<std::uint64_t>("domain_count"), 1000u);
  EXPECT_EQ(h5.open_group("samples").read_dataset<std::uint32_t>("index"),
            (std::vector<std::uint32_t>{3, 1}));
  EXPECT_THROW(h5.read_attribute<std::uint64_t>("size"), h5::Error);  // stored signed
}

TEST(ClassificationFile, RefusesToWriteInconsistentFigures) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  Classification result = sample_classification();
  result.solvable_count += 1;
  EXPECT_THROW(write_classification(file, result, {}), std::logic_error);
  result = sample_classification();
  result.components.pop_back();
  EXPECT_THROW(write_classification(file, result, {}), std::logic_error);
  result = sample_classification();
  result.samples.push_back({"oooooooooooooooo", 0});  // no target car
  EXPECT_THROW(write_classification(file, result, {}), std::logic_error);
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_FALSE(std::filesystem::exists(dir / "classification.h5.tmp"));
}

TEST(ClassificationFile, ReplacesTheTargetWholeAndLeavesNoTemporary) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  Classification big = sample_classification();
  for (int i = 0; i < 500; ++i) big.samples.push_back({"BoooBAAooooooooo", 2});
  write_classification(file, big, sample_metadata());
  write_classification(file, empty_classification(), RunMetadata{});
  write_classification(dir / "fresh.h5", empty_classification(), RunMetadata{});
  EXPECT_EQ(read_bytes(file), read_bytes(dir / "fresh.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir / "classification.h5.tmp"));
  expect_same(empty_classification(), read_classification(file));
}

TEST(ClassificationFile, ALeftoverTemporaryIsIgnoredAndOverwritten) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  write_classification(file, sample_classification(), sample_metadata());
  // What a kill in the middle of the next write leaves behind.
  write_bytes(dir / "classification.h5.tmp", read_bytes(file).substr(0, 700));
  expect_same(sample_classification(), read_classification(file));
  write_classification(file, empty_classification(), RunMetadata{});
  expect_same(empty_classification(), read_classification(file));
  EXPECT_FALSE(std::filesystem::exists(dir / "classification.h5.tmp"));
}

TEST(ClassificationFile, AFailedWriteLeavesNothing) {
  ScratchDir dir;
  EXPECT_THROW(write_classification(dir / "missing" / "classification.h5", sample_classification(),
                                    sample_metadata()),
               std::runtime_error);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(ClassificationFile, ReportsMissingEmptyAndForeignFiles) {
  ScratchDir dir;
  EXPECT_EQ(read_error(dir / "none.h5"), (dir / "none.h5").string() + ": no such file");
  write_bytes(dir / "empty.h5", "");
  EXPECT_EQ(read_error(dir / "empty.h5"), (dir / "empty.h5").string() + ": empty file");
  write_bytes(dir / "text.h5", "size,count\n4,13146\n");
  EXPECT_EQ(read_error(dir / "text.h5"), (dir / "text.h5").string() + ": not an HDF5 file");
  EXPECT_EQ(read_error(dir.path()), dir.path().string() + ": not a regular file");

  write_explosion_table(dir / "explosion.h5", {});
  EXPECT_EQ(read_error(dir / "explosion.h5"),
            (dir / "explosion.h5").string() +
                ": not a rushhour classification file (content 'rushhour explosion table')");
  {
    const h5::File other = h5::File::create(dir / "other.h5");
    other.write_dataset<double>("x", {1.0, 2.0});
  }
  EXPECT_EQ(read_error(dir / "other.h5"),
            (dir / "other.h5").string() +
                ": not a rushhour classification file (no attribute 'content')");
}

TEST(ClassificationFile, ReportsTruncationAtEveryLength) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  write_classification(file, sample_classification(), sample_metadata());
  const std::string bytes = read_bytes(file);
  for (std::size_t length :
       {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{40}, std::size_t{100},
        std::size_t{512}, bytes.size() / 2, bytes.size() - 100, bytes.size() - 1}) {
    write_bytes(dir / "cut.h5", bytes.substr(0, length));
    const std::string error = read_error(dir / "cut.h5");
    EXPECT_NE(error.find((dir / "cut.h5").string() + ": truncated ("), std::string::npos)
        << "cut at " << length << ": " << error;
  }
}

// Every single flipped byte is either reported or in a part of the file that holds nothing
// (then the content read is the original one); nothing damaged is ever returned.
TEST(ClassificationFile, NeverTrustsAFlippedByte) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  write_classification(file, sample_classification(), sample_metadata());
  const std::size_t size = std::filesystem::file_size(file);
  std::size_t reported = 0;
  for (std::size_t offset = 0; offset < size; ++offset) {
    flip_byte(file, offset);
    try {
      expect_same(sample_classification(), read_classification(file));
    } catch (const InputError&) {
      ++reported;
    }
    flip_byte(file, offset);
    if (::testing::Test::HasFailure()) FAIL() << "flipped byte at " << offset << " was trusted";
  }
  // Most bytes carry content; each of those is covered by a checksum.
  EXPECT_GT(reported, size / 2);
}

TEST(ClassificationFile, ReportsAFlippedDataByteAsAChecksumFailure) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  Classification result = sample_classification();
  result.layers[1].bdd_nodes = 0x0123456789abcdefULL;
  write_classification(file, result, sample_metadata());
  std::string bytes = read_bytes(file);
  const std::string needle = "\xef\xcd\xab\x89\x67\x45\x23\x01";
  const auto at = bytes.find(needle);
  ASSERT_NE(at, std::string::npos);
  bytes[at] = '\0';
  write_bytes(dir / "damaged.h5", bytes);
  const std::string error = read_error(dir / "damaged.h5");
  EXPECT_NE(error.find("dataset '/layers/bdd_nodes'"), std::string::npos) << error;
  EXPECT_NE(error.find("Fletcher32"), std::string::npos) << error;
}

TEST(ClassificationFile, ReportsMissingAndMistypedContent) {
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  const auto expect_error = [&](const std::string& expected, auto edit) {
    write_classification(file, sample_classification(), sample_metadata());
    {
      RawEdit raw(file);
      edit(raw);
    }
    EXPECT_EQ(read_error(file), file.string() + ": " + expected);
  };
  expect_error("missing attribute 'size'", [](RawEdit& raw) { raw.delete_attribute("size"); });
  expect_error("written by format version 7, this tool reads 1 and 2", [](RawEdit& raw) {
    raw.set_attribute<std::int64_t>("format_version", 7, H5T_STD_I64LE, H5T_NATIVE_INT64);
  });
  expect_error("attribute 'size' is 8-byte float, expected a signed integer", [](RawEdit& raw) {
    raw.set_attribute<double>("size", 4.0, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE);
  });
  expect_error("invalid game parameters: board size 99 is outside 2..8", [](RawEdit& raw) {
    raw.set_attribute<std::int64_t>("size", 99, H5T_STD_I64LE, H5T_NATIVE_INT64);
  });
  expect_error("attribute 'complete' is 2, expected 0 or 1", [](RawEdit& raw) {
    raw.set_attribute<std::int64_t>("complete", 2, H5T_STD_I64LE, H5T_NATIVE_INT64);
  });
  expect_error("missing dataset '/samples/index'",
               [](RawEdit& raw) { raw.delete_link("/samples/index"); });
  expect_error("missing group '/dominance'", [](RawEdit& raw) { raw.delete_link("/dominance"); });
  expect_error("/layers/bdd_nodes has 2 entries, expected 4", [](RawEdit& raw) {
    raw.replace_dataset("/layers/bdd_nodes", {1, 2});
  });
  expect_error("max_index is 3 but /layers/count has 3 entries", [](RawEdit& raw) {
    raw.replace_dataset("/layers/count", {100, 250, 40});
  });
  expect_error("inconsistent content: layer counts add up to 391, but solvable_count is 390",
               [](RawEdit& raw) {
                 raw.replace_dataset("/layers/count", {100, 251, 0, 40});
               });
  expect_error(
      "inconsistent content: solvable_count + unsolvable_count differs from "
      "domain_count 1001",
      [](RawEdit& raw) {
        raw.set_attribute<std::uint64_t>("domain_count", 1001, H5T_STD_U64LE, H5T_NATIVE_UINT64);
      });
  expect_error(
      "dataset '/dominance/components' is 8-byte unsigned integer, expected a signed "
      "integer",
      [](RawEdit& raw) {
        raw.replace_dataset("/dominance/components", {0, 0, 0, 1});
      });
}

TEST(ClassificationFile, PassesTheIndependentPythonCheck) {
  if (std::system("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 with h5py is not available";
  ScratchDir dir;
  const auto file = dir / "classification.h5";
  const std::string check = "/usr/bin/python3 " RUSHHOUR_SOURCE_DIR "/scripts/check_h5.py --quiet ";
  write_classification(file, sample_classification(), sample_metadata());
  EXPECT_EQ(std::system((check + file.string()).c_str()), 0);
  write_classification(file, empty_classification(), RunMetadata{});
  EXPECT_EQ(std::system((check + file.string()).c_str()), 0);
  write_classification(file, huge_classification(), RunMetadata{});
  EXPECT_EQ(std::system((check + file.string()).c_str()), 0);
  {
    RawEdit raw(file);
    raw.delete_attribute("max_index");
  }
  EXPECT_NE(std::system((check + file.string() + " 2>/dev/null").c_str()), 0);
}

}  // namespace
}  // namespace rushhour
