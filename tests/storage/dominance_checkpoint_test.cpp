#include "storage/dominance_checkpoint.hpp"

#include <gtest/gtest.h>

#include "bdd/session.hpp"
#include "board/errors.hpp"
#include "storage/bdd_file.hpp"
#include "storage_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

using test_support::ScratchDir;
using test_support::read_bytes;
using test_support::write_bytes;

constexpr const char* kParameters = "encoding=slot size=4 metric=step dominance_indices=-1";

DominanceProgress progress_at(int lowest) {
  DominanceProgress progress;
  progress.lowest = lowest;
  progress.above = bdd_ithvar(lowest) | bdd_ithvar(7);
  progress.nondominated.assign(8, 0);
  progress.components.assign(8, -1);
  for (int i = lowest; i < 8; ++i) {
    progress.nondominated[i] = 100u * static_cast<unsigned>(i) + 1;
    progress.components[i] = i;
  }
  progress.closures_left = 42 - lowest;
  return progress;
}

void expect_same_checkpoint(const DominanceProgress& a, const DominanceProgress& b) {
  EXPECT_EQ(a.lowest, b.lowest);
  EXPECT_TRUE(a.above == b.above);
  EXPECT_EQ(a.nondominated, b.nondominated);
  EXPECT_EQ(a.components, b.components);
  EXPECT_EQ(a.closures_left, b.closures_left);
}

TEST(DominanceCheckpoint, KeepsTheLatestIndexOnly) {
  ScratchDir dir;
  BddSession session(10, BddSettings{});
  const DominanceCheckpoint checkpoint(dir.path(), kParameters);
  std::string why;
  EXPECT_FALSE(checkpoint.load(8, &why));
  EXPECT_EQ(why, "no dominance checkpoint");
  for (int lowest = 7; lowest >= 3; --lowest) checkpoint.save(progress_at(lowest));
  const auto loaded = checkpoint.load(8, &why);
  ASSERT_TRUE(loaded);
  expect_same_checkpoint(*loaded, progress_at(3));
  EXPECT_FALSE(std::filesystem::exists(dir / "dominance/above-0004.bdd"));
  EXPECT_TRUE(std::filesystem::exists(dir / "dominance/above-0003.bdd"));
}

// A kill after the next BDD file but before progress.txt: the previous index is still whole.
TEST(DominanceCheckpoint, AKillBetweenTheTwoFilesLeavesThePreviousIndex) {
  ScratchDir dir;
  BddSession session(10, BddSettings{});
  const DominanceCheckpoint checkpoint(dir.path(), kParameters);
  checkpoint.save(progress_at(5));
  save_bdd(dir / "dominance/above-0004.bdd", bdd_ithvar(2),
           {.parameters = kParameters, .kind = "dominance-above", .index = 4});
  std::string why;
  const auto loaded = checkpoint.load(8, &why);
  ASSERT_TRUE(loaded);
  expect_same_checkpoint(*loaded, progress_at(5));
}

TEST(DominanceCheckpoint, IgnoresOtherParametersAndLayerCounts) {
  ScratchDir dir;
  BddSession session(10, BddSettings{});
  DominanceCheckpoint(dir.path(), kParameters).save(progress_at(6));
  std::string why;
  EXPECT_FALSE(DominanceCheckpoint(dir.path(), "encoding=cell").load(8, &why));
  EXPECT_NE(why.find("belongs to other parameters"), std::string::npos) << why;
  EXPECT_FALSE(DominanceCheckpoint(dir.path(), kParameters).load(9, &why));
  EXPECT_EQ(why, "the dominance checkpoint is for 8 layers, the run has 9");
}

TEST(DominanceCheckpoint, ReportsDamagedFiles) {
  ScratchDir dir;
  BddSession session(10, BddSettings{});
  const DominanceCheckpoint checkpoint(dir.path(), kParameters);
  checkpoint.save(progress_at(6));
  const auto progress_file = dir / "dominance/progress.txt";
  const std::string text = read_bytes(progress_file);
  std::string why;
  for (std::size_t cut : {std::size_t{0}, std::size_t{20}, text.size() - 10, text.size() - 4}) {
    write_bytes(progress_file, text.substr(0, cut));
    EXPECT_THROW(checkpoint.load(8, &why), InputError) << "cut at " << cut;
  }
  write_bytes(progress_file, text);
  const auto above = dir / "dominance/above-0006.bdd";
  const std::string bdd_bytes = read_bytes(above);
  write_bytes(above, bdd_bytes.substr(0, bdd_bytes.size() - 3));
  EXPECT_THROW(checkpoint.load(8, &why), InputError);
  std::filesystem::remove(above);
  EXPECT_THROW(checkpoint.load(8, &why), InputError);
}

TEST(DominanceCheckpoint, ClearRemovesEveryFile) {
  ScratchDir dir;
  BddSession session(10, BddSettings{});
  const DominanceCheckpoint checkpoint(dir.path(), kParameters);
  checkpoint.save(progress_at(2));
  checkpoint.clear();
  std::string why;
  EXPECT_FALSE(checkpoint.load(8, &why));
  EXPECT_TRUE(std::filesystem::is_empty(dir / "dominance"));
}

}  // namespace
}  // namespace rushhour
