// DIR/parts-checkpoint.txt: the finished parts (as ranges) and their summed figures read back
// as written; a damaged file, one of another run or of another kind is refused.
#include "storage/parts_checkpoint.hpp"

#include <gtest/gtest.h>

#include "board/errors.hpp"
#include "storage_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

PartsCheckpoint::Saved some_parts() {
  PartsCheckpoint::Saved saved;
  saved.finished = {0, 1, 2, 7, 9, 10, 4000000};
  saved.sum.complete = true;
  saved.sum.domain = 1000;
  saved.sum.winning = 300;
  saved.sum.solvable = 900;
  saved.sum.unsolvable = 100;
  saved.sum.layers = {{300, 12, 0.25}, {500, 40, 1.0 / 3}, {100, 9, 0.5}};
  saved.sum.nondominated = {20, 10, 100};
  saved.sum.components = {-1, 4, 60};
  saved.sum.samples = {{2, 17, "oooooooooAABCooo"}, {2, 19, "ooooooooAABoCooo"}};
  saved.sum.table_nodes = 16384;
  return saved;
}

TEST(PartsCheckpoint, ReadsBackWhatWasSaved) {
  test_support::ScratchDir dir;
  const PartsCheckpoint checkpoint(dir.path(), "size=4 partition=rows");
  EXPECT_FALSE(checkpoint.load().has_value());
  const PartsCheckpoint::Saved saved = some_parts();
  checkpoint.save(saved);
  const std::optional<PartsCheckpoint::Saved> read = checkpoint.load();
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->finished, saved.finished);
  EXPECT_EQ(read->sum, saved.sum);
  EXPECT_NE(
      test_support::read_bytes(checkpoint.path()).find("finished 7 0-3 7-8 9-11 4000000-4000001\n"),
      std::string::npos);
  checkpoint.save({});
  EXPECT_TRUE(checkpoint.load()->finished.empty());
  checkpoint.clear();
  EXPECT_FALSE(checkpoint.load().has_value());
}

TEST(PartsCheckpoint, RefusesADamagedForeignOrOtherFile) {
  test_support::ScratchDir dir;
  const PartsCheckpoint checkpoint(dir.path(), "size=4 partition=rows");
  checkpoint.save(some_parts());
  const std::string bytes = test_support::read_bytes(checkpoint.path());
  for (std::size_t at = 0; at < bytes.size(); at += 7) {
    test_support::flip_byte(checkpoint.path(), at);
    EXPECT_THROW(checkpoint.load(), InputError) << "byte " << at;
    test_support::flip_byte(checkpoint.path(), at);
  }
  test_support::write_bytes(checkpoint.path(), bytes.substr(0, bytes.size() - 1));
  EXPECT_THROW(checkpoint.load(), InputError);
  test_support::write_bytes(checkpoint.path(), bytes);
  try {
    PartsCheckpoint(dir.path(), "size=5 partition=rows").load();
    ADD_FAILURE() << "a checkpoint of other parameters was read";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("a run with other parameters"), std::string::npos)
        << error.what();
  }
  test_support::write_bytes(checkpoint.path(), "rushhour class sweep checkpoint 1\nchecksum 0\n");
  EXPECT_THROW(checkpoint.load(), InputError);
}

}  // namespace
}  // namespace rushhour
