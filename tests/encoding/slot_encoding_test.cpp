#include "encoding/slot_encoding.hpp"
#include "encoding/naive_encoding.hpp"

#include <gtest/gtest.h>

#include "bdd_test_support.hpp"

#include "retrograde/retrograde.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

using test_support::tiny_table;

struct SlotSanityCase {
  int size;
  std::uint64_t domain;
  std::uint64_t winning;
};

class SlotEncodingSanity
    : public ::testing::TestWithParam<std::tuple<SlotSanityCase, std::string, std::string>> {};

TEST_P(SlotEncodingSanity, DomainAndWinningCountsMatchTheSpec) {
  const auto& [expected, order, line_code] = GetParam();
  BddSession session(0, tiny_table());
  SlotEncoding encoding(session, Rules(expected.size),
                        {.order = order, .line_code = line_code});
  EXPECT_EQ(encoding.domain().count(), expected.domain);
  EXPECT_EQ(encoding.winning().count(), expected.winning);
}

INSTANTIATE_TEST_SUITE_P(
    AllOrders, SlotEncodingSanity,
    ::testing::Combine(::testing::Values(SlotSanityCase{4, 13146, 4592},
                                         SlotSanityCase{5, 10492784, 3008028}),
                       ::testing::ValuesIn(SlotEncodingOptions::orders()),
                       ::testing::ValuesIn(SlotEncodingOptions::line_codes())));

// On 6x6 only the interleaved order builds the legal set in seconds (rows-columns needs
// ~21 M nodes and about a minute; see results/ for the order table).
INSTANTIATE_TEST_SUITE_P(
    Interleaved6x6, SlotEncodingSanity,
    ::testing::Combine(::testing::Values(SlotSanityCase{6, 40148868698, 10275383941}),
                       ::testing::Values("interleaved"),
                       ::testing::ValuesIn(SlotEncodingOptions::line_codes())));

}  // namespace
}  // namespace rushhour

namespace rushhour {
namespace {

// The dual encoding's configurations of exactly m cars are the naive encoding's labeled
// placements with the labels forgotten: m! labelings each.
TEST(SlotEncoding, ExactCarCountsMatchTheNaiveEncodingsPlacements) {
  for (int size : {4, 5}) {
    for (int cars = 1; cars <= 4; ++cars) {
      std::uint64_t unlabeled = 0;
      {
        BddSession session(0, tiny_table());
        SlotEncoding encoding(session, Rules(size), SlotEncodingOptions{});
        unlabeled = to_uint64(
            encoding.state_set(encoding.legal().states() & encoding.vehicle_count_is(cars, 0)).count());
      }
      NaiveOptions options;
      options.size = size;
      options.cars = cars;
      BddSession session(NaiveEncoding::variable_count(options), tiny_table());
      const NaiveEncoding naive(options);
      const std::int64_t labeled = labeled_placements(naive, naive.invariant(InvarSchedule::CarByCar));
      std::uint64_t factorial = 1;
      for (int k = 2; k <= cars; ++k) factorial *= static_cast<std::uint64_t>(k);
      EXPECT_EQ(unlabeled * factorial, static_cast<std::uint64_t>(labeled))
          << size << "x" << size << ", " << cars << " cars";
    }
  }
}

}  // namespace
}  // namespace rushhour
