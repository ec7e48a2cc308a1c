// The rules' text form: every field written is read back, the text of the files written so far
// is unchanged, and a damaged or missing field is refused with the field's name.
#include "board/rules_codec.hpp"

#include <gtest/gtest.h>

#include "board/errors.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

TEST(RulesCodec, EveryRulesValueComesBackFromItsText) {
  for (int size = 4; size <= 8; ++size)
    for (int exit_row : {0, size / 2, size - 1})
      for (Metric metric : {Metric::Step, Metric::Move})
        for (VehicleLimits limits : {VehicleLimits{}, VehicleLimits{12, 4, -1}, VehicleLimits{-1, -1, 8}})
          for (Domain domain : {Domain::All, Domain::Puzzle}) {
            const Rules rules(size, exit_row, metric, limits, domain);
            EXPECT_EQ(rules_from_fields(parse_text_fields(rules_text(rules)), "t"), rules) << rules_text(rules);
            EXPECT_EQ(rules_from_fields(parse_text_fields(rules_text_without_metric(rules)), metric, "t"), rules);
          }
}

TEST(RulesCodec, TheTextIsTheOneSavedFilesCarry) {
  // The identity of committed class sweep checkpoints and saved layers: a change here makes
  // every saved run unreadable.
  EXPECT_EQ(rules_text(Rules(6, -1, Metric::Move, {12, 4, -1})),
            "size=6 exit_row=2 metric=move max_cars=12 max_trucks=4 max_vehicles=-1");
  EXPECT_EQ(rules_text(Rules(5, 4, Metric::Step, {}, Domain::Puzzle)),
            "size=5 exit_row=4 metric=step max_cars=-1 max_trucks=-1 max_vehicles=-1 domain=puzzle");
  EXPECT_EQ(rules_text_without_metric(Rules(4)), "size=4 exit_row=1 max_cars=-1 max_trucks=-1 max_vehicles=-1");
}

TEST(RulesCodec, OtherFieldsAroundTheRulesAreIgnored) {
  const TextFields fields =
      parse_text_fields("encoding=slot order=interleaved size=5 exit_row=2 max_cars=-1 max_trucks=3 max_vehicles=-1 "
                        "metric=step variables=60");
  EXPECT_EQ(rules_from_fields(fields, "t"), Rules(5, 2, Metric::Step, {-1, 3, -1}));
}

TEST(RulesCodec, AMissingOrDamagedFieldIsNamed) {
  const auto refused = [](const std::string& text) -> std::string {
    try {
      rules_from_fields(parse_text_fields(text), "file x");
    } catch (const InputError& error) {
      return error.what();
    }
    return "accepted";
  };
  EXPECT_EQ(refused("size=6 exit_row=2 max_cars=-1 max_trucks=-1 max_vehicles=-1"),
            "file x: parameter 'metric' is missing");
  EXPECT_EQ(refused("size=6 exit_row=2 metric=step max_cars=-1 max_trucks=-1"),
            "file x: parameter 'max_vehicles' is missing or not a number");
  EXPECT_EQ(refused("size=6x exit_row=2 metric=step max_cars=-1 max_trucks=-1 max_vehicles=-1"),
            "file x: parameter 'size' is missing or not a number");
  EXPECT_EQ(refused("size=6 exit_row=2 metric=hop max_cars=-1 max_trucks=-1 max_vehicles=-1"),
            "file x: unknown metric 'hop' (expected step or move)");
  EXPECT_EQ(refused("size=6 exit_row=7 metric=step max_cars=-1 max_trucks=-1 max_vehicles=-1"),
            "file x: exit row 7 is outside the board (rows 0..5)");
  EXPECT_EQ(refused("size=6 exit_row=2 metric=step max_cars=-1 max_trucks=-1 max_vehicles=-1 domain=few"),
            "file x: unknown domain 'few' (expected all or puzzle)");
}

TEST(MetricDescriptor, AStepIsOneCellAndAMoveAnySlideOfACar) {
  for (int size = 2; size <= 8; ++size) {
    EXPECT_EQ(longest_slide(Metric::Step, size), 1);
    EXPECT_EQ(longest_slide(Metric::Move, size), size - 2);
  }
}

}  // namespace
}  // namespace rushhour
