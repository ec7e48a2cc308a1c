// A run's identities, written and parsed in one place (run/run_directory.hpp): the class sweep
// identity's text, read back, compared on resume, and refused when it is not one.
#include "run/run_directory.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "board/errors.hpp"
#include "cli_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour::run {
namespace {

TEST(ClassSweepIdentity, NamesTheRulesAndReadsBack) {
  const ClassSweepIdentity six{.rules = Rules(6, 3, Metric::Move, VehicleLimits{.max_cars = 12, .max_trucks = 4})};
  EXPECT_EQ(six.text(), "size=6 exit_row=3 metric=move max_cars=12 max_trucks=4 max_vehicles=-1 samples=5 sample_indices=10");
  const ClassSweepIdentity back = ClassSweepIdentity::parse(six.text());
  EXPECT_EQ(back.rules.size(), 6);
  EXPECT_EQ(back.rules.exit_row(), 3);
  EXPECT_EQ(back.rules.metric(), Metric::Move);
  EXPECT_EQ(back.rules.limits(), six.rules.limits());
  EXPECT_EQ(back.samples_per_index, 5);
  EXPECT_EQ(back.sample_indices, 10);
  EXPECT_TRUE(back.part.whole());
  EXPECT_EQ(back.text(), six.text());
}

TEST(ClassSweepIdentity, NamesTheMirrorWhereItAppliesAndThePart) {
  const Rules seven(7, -1, Metric::Step, VehicleLimits{.max_vehicles = 8});
  const ClassSweepIdentity mirrored{.rules = seven, .samples_per_index = 3, .sample_indices = 4};
  EXPECT_EQ(mirrored.text(),
            "size=7 exit_row=3 metric=step max_cars=-1 max_trucks=-1 max_vehicles=8 samples=3 sample_indices=4 mirror=1");
  const ClassSweepIdentity unmirrored{.rules = seven, .mirror = false};
  EXPECT_EQ(unmirrored.text(),
            "size=7 exit_row=3 metric=step max_cars=-1 max_trucks=-1 max_vehicles=8 samples=5 sample_indices=10");
  EXPECT_TRUE(ClassSweepIdentity::parse(mirrored.text()).mirror);
  EXPECT_FALSE(ClassSweepIdentity::parse(unmirrored.text()).mirror);
  const ClassSweepIdentity part{.rules = seven, .part = {2, 3}};
  EXPECT_EQ(part.text(), part.whole().text() + " items=2/3");
  EXPECT_EQ(ClassSweepIdentity::parse(part.text()).part, (ItemPart{2, 3}));
  EXPECT_EQ(ClassSweepIdentity::parse(part.text()).whole().text(), part.whole().text());
}

TEST(ClassSweepIdentity, RefusesWhatIsNotOne) {
  const std::string good = "size=6 exit_row=2 metric=step max_cars=-1 max_trucks=-1 max_vehicles=-1 samples=5 sample_indices=10";
  EXPECT_NO_THROW(ClassSweepIdentity::parse(good));
  for (const std::string& bad : std::vector<std::string>{
           "size=6 metric=step", "size=six exit_row=2 metric=step max_cars=-1 max_trucks=-1 max_vehicles=-1 samples=5 sample_indices=10",
        "size=6 exit_row=2 metric=sideways max_cars=-1 max_trucks=-1 max_vehicles=-1 samples=5 sample_indices=10",
        "size=6 exit_row=9 metric=step max_cars=-1 max_trucks=-1 max_vehicles=-1 samples=5 sample_indices=10",
        good + " mirror=1",  // no mirror on an even board
        good + " colour=red", good + " items=3/2", good + " size=6", "size=06" + good.substr(6), good + " stray"})
    EXPECT_THROW(ClassSweepIdentity::parse(bad), InputError) << bad;
}

ClassSweepState state_of(std::uint64_t items, std::uint64_t next_item) {
  ClassSweepState state;
  state.items = items;
  state.next_item = next_item;
  state.tallies.resize(3);
  return state;
}

TEST(RunDirectory, ResumesOnlyAClassSweepOfTheSameIdentity) {
  test_support::TempDir dir("run_directory_resume");
  const RunDirectory directory(dir.path());
  const ClassSweepIdentity step{.rules = Rules(5, -1, Metric::Step)};
  const ClassSweepIdentity move{.rules = Rules(5, -1, Metric::Move)};
  std::string why;
  EXPECT_FALSE(directory.class_sweep_to_resume(step, &why).has_value());
  EXPECT_EQ(why, "no class sweep checkpoint");
  EXPECT_FALSE(directory.saved_class_sweep().has_value());

  directory.class_checkpoint(step).save(state_of(100, 40));
  const auto resumed = directory.class_sweep_to_resume(step, &why);
  ASSERT_TRUE(resumed.has_value()) << why;
  EXPECT_EQ(resumed->items, 100u);
  EXPECT_EQ(resumed->next_item, 40u);
  EXPECT_FALSE(directory.class_sweep_to_resume(move, &why).has_value());
  EXPECT_EQ(why, "the class sweep checkpoint belongs to other parameters (" + step.text() + ")");
  const ClassSweepIdentity fewer_samples{.rules = Rules(5, -1, Metric::Step), .samples_per_index = 2};
  EXPECT_FALSE(directory.class_sweep_to_resume(fewer_samples, &why).has_value());

  // Read without knowing the identity (queries, merges): the identity parsed back.
  const auto saved = directory.saved_class_sweep();
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->identity.text(), step.text());
  EXPECT_EQ(saved->state, *resumed);
}

TEST(RunDirectory, ACheckpointWithoutAnIdentityIsRefusedByQueries) {
  test_support::TempDir dir("run_directory_foreign");
  ClassCheckpoint(dir.path(), "size=5 metric=step").save(state_of(100, 40));
  try {
    RunDirectory(dir.path()).saved_class_sweep();
    ADD_FAILURE() << "a checkpoint without an identity was opened";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("classes-checkpoint.txt"), std::string::npos) << e.what();
  }
}

// The committed class runs still open: their parameter lines are identities.
TEST(RunDirectory, TheCommittedClassRunsOpen) {
  for (const char* run : {"results/6x6-step/classes", "results/6x6-move/classes", "results/6x6-commercial/classes",
                          "results/7x7/v6-step", "results/7x7/v7-step", "results/7x7/v8-step", "results/8x8/v5-step"}) {
    const RunDirectory directory(std::filesystem::path(RUSHHOUR_SOURCE_DIR) / run);
    const auto saved = directory.saved_class_sweep();
    ASSERT_TRUE(saved.has_value()) << run;
    std::ifstream in(ClassCheckpoint::file_in(directory.root()));
    std::string magic, line;
    std::getline(in, magic);
    std::getline(in, line);
    EXPECT_EQ("parameters " + saved->identity.text(), line) << run;
  }
}

}  // namespace
}  // namespace rushhour::run
