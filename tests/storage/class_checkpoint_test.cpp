// The class sweep checkpoint file: round trip, damage. (Its parameter line is the run
// layer's: tests/run_directory_test.cpp.)
#include "storage/class_checkpoint.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>

#include "board/errors.hpp"
#include "cli_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

ClassSweepState some_state() {
  ClassSweepState state;
  state.items = 7776;
  state.next_item = 1234;
  state.classes = 5678;
  state.states = 91011;
  state.seconds = 1.25;
  state.highest = 3;
  state.tallies.resize(5);
  for (VehicleTally& t : state.tallies) {
    t.count.assign(4, 0);
    t.nondominated.assign(4, 0);
    t.components.assign(4, 0);
  }
  state.tallies[2] = {100, {40, 30, 20, 10}, {5, 4, 3, 2}, {1, 1, 1, 1}};
  state.tallies[4] = {7, {1, 2, 3, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}};
  // A sweep that counts its minimal clusters under two rules.
  state.tallies[2].minimal[static_cast<std::size_t>(MinimalRule::Any)] = {0, 3, 0, 1};
  state.tallies[2].minimal[static_cast<std::size_t>(MinimalRule::Public)] = {0, 2, 0, 1};
  state.sample_keys.assign(4, {});
  // Keys of 7x7 and 8x8 boards take more than 64 bits.
  state.sample_keys[3] = {11, (SampleKey{1} << 111) + 22};
  state.sample_keys[2] = {5};
  state.refused = {17, 4000};
  return state;
}

TEST(ClassCheckpoint, KeepsItemsDoneOutOfOrder) {
  test_support::TempDir dir("class_checkpoint_later");
  const ClassCheckpoint checkpoint(dir.path(), "size=5 metric=step");
  ClassSweepState state = some_state();
  state.later_items = {{2000, 2100}, {3000, 3001}};
  checkpoint.save(state);
  const std::optional<SavedClassSweep> saved = ClassCheckpoint::read(dir.path());
  ASSERT_TRUE(saved.has_value());
  const ClassSweepState& loaded = saved->state;
  EXPECT_EQ(loaded, state);
  EXPECT_EQ(loaded.items_done(), 1234u + 100u + 1u);
  EXPECT_TRUE(loaded.holds(3000));
  EXPECT_FALSE(loaded.holds(3001));
  EXPECT_FALSE(loaded.holds(1999));
}

std::string read_checkpoint_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ClassCheckpoint, RoundTrip) {
  test_support::TempDir dir("class_checkpoint");
  const ClassCheckpoint checkpoint(dir.path(), "size=5 metric=step");
  EXPECT_EQ(checkpoint.path(), ClassCheckpoint::file_in(dir.path()));
  EXPECT_FALSE(ClassCheckpoint::read(dir.path()).has_value());
  checkpoint.save(some_state());
  const std::optional<SavedClassSweep> saved = ClassCheckpoint::read(dir.path());
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->state, some_state());
  checkpoint.clear();
  EXPECT_FALSE(std::filesystem::exists(checkpoint.path()));
}

TEST(ClassCheckpoint, DamageIsReported) {
  test_support::TempDir dir("class_checkpoint_damage");
  const ClassCheckpoint checkpoint(dir.path(), "p");
  checkpoint.save(some_state());
  const std::string text = read_checkpoint_text(checkpoint.path());

  std::string edited = text;
  edited[edited.find("40 30")] = '9';  // a figure changed, the checksum not
  std::ofstream(checkpoint.path()) << edited;
  EXPECT_THROW(ClassCheckpoint::read(dir.path()), InputError);

  std::ofstream(checkpoint.path()) << text.substr(0, text.size() / 2);  // torn
  EXPECT_THROW(ClassCheckpoint::read(dir.path()), InputError);

  std::ofstream(checkpoint.path()) << "something else\n";
  EXPECT_THROW(ClassCheckpoint::read(dir.path()), InputError);

  std::ofstream(checkpoint.path()) << text;
  EXPECT_TRUE(ClassCheckpoint::read(dir.path()).has_value());
}

TEST(ClassCheckpoint, IsReadWithoutKnowingItsParameters) {
  test_support::TempDir dir("class_checkpoint_parameters");
  EXPECT_FALSE(ClassCheckpoint::read(dir.path()).has_value());
  ClassCheckpoint(dir.path(), "size=5 metric=step").save(some_state());
  const std::optional<SavedClassSweep> saved = ClassCheckpoint::read(dir.path());
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->parameters, "size=5 metric=step");
  EXPECT_EQ(saved->state, some_state());
  std::ofstream(dir.path() / "classes-checkpoint.txt", std::ios::app) << "x";
  EXPECT_THROW(ClassCheckpoint::read(dir.path()), InputError);
}

}  // namespace
}  // namespace rushhour
