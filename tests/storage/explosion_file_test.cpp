#include "storage/explosion_file.hpp"

#include <gtest/gtest.h>

#include "storage/hdf5.hpp"
#include "storage_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

using test_support::ScratchDir;

std::vector<ExplosionRow> sample_rows() {
  return {
      {4, 2, 123, 150, 15, 0.001, 2 * 37 * 36, 300, 123, 40},
      {6, 5, 2153132, 2900000, 58905, 42.5, 1234567890123, 5000000, 2153132, 700},
      {6, 9, -1, -1, 1947792, 600.0, -1, 90000000, -1, -1},
  };
}

TEST(ExplosionFile, WritesParallelDatasetsOfEveryColumn) {
  ScratchDir dir;
  const auto file = dir / "explosion.h5";
  write_explosion_table(file, sample_rows(), RunMetadata::current("sizes = 4,6\ncars = 2-9\n"));
  EXPECT_FALSE(std::filesystem::exists(dir / "explosion.h5.tmp"));

  const h5::File h5 = h5::File::open_read_only(file);
  EXPECT_EQ(h5.read_attribute<std::int64_t>("format_version"), kExplosionFormatVersion);
  EXPECT_EQ(h5.read_attribute<std::string>("tool_version"), RUSHHOUR_VERSION);
  EXPECT_EQ(h5.read_attribute<std::string>("configuration"), "sizes = 4,6\ncars = 2-9\n");
  using Column = std::vector<std::int64_t>;
  EXPECT_EQ(h5.read_dataset<std::int64_t>("size"), (Column{4, 6, 6}));
  EXPECT_EQ(h5.read_dataset<std::int64_t>("cars"), (Column{2, 5, 9}));
  EXPECT_EQ(h5.read_dataset<std::int64_t>("nodes"), (Column{123, 2153132, -1}));
  EXPECT_EQ(h5.read_dataset<std::int64_t>("buddy_nodes"), (Column{150, 2900000, -1}));
  EXPECT_EQ(h5.read_dataset<std::int64_t>("lower_bound"), (Column{15, 58905, 1947792}));
  EXPECT_EQ(h5.read_dataset<double>("seconds"), (std::vector<double>{0.001, 42.5, 600.0}));
  EXPECT_EQ(h5.read_dataset<std::int64_t>("labeled_placements"),
            (Column{2 * 37 * 36, 1234567890123, -1}));
  EXPECT_EQ(h5.read_dataset<std::int64_t>("peak_nodes"), (Column{300, 5000000, 90000000}));
  EXPECT_EQ(h5.read_dataset<std::int64_t>("published"), (Column{123, 2153132, -1}));
  EXPECT_EQ(h5.read_dataset<std::int64_t>("dual_legal_nodes"), (Column{40, 700, -1}));
}

TEST(ExplosionFile, WritesAnEmptyTableAndReplacesAnOldOne) {
  ScratchDir dir;
  const auto file = dir / "explosion.h5";
  write_explosion_table(file, sample_rows());
  write_explosion_table(file, {});
  const h5::File h5 = h5::File::open_read_only(file);
  EXPECT_TRUE(h5.read_dataset<std::int64_t>("nodes").empty());
  EXPECT_TRUE(h5.read_dataset<double>("seconds").empty());
  EXPECT_FALSE(h5.read_attribute<std::string>("buddy_version").empty());
}

}  // namespace
}  // namespace rushhour
