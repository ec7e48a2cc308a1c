// The fuzzers' properties (tests/fuzz/fuzz_properties.hpp) in the normal test suite: every seed
// of tests/fuzz/corpus/ is replayed, and each input a fuzzer found failing is kept here as a
// regression test with the behaviour it must have now.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "cli_test_support.hpp"
#include "fuzz/fuzz_properties.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

namespace fs = std::filesystem;

using Check = void (*)(const std::uint8_t*, std::size_t);

void check_text(Check check, const std::string& input) {
  try {
    check(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  } catch (const fuzz::PropertyViolation& e) {
    ADD_FAILURE() << "property violated: " << e.what();
  }
}

int replay_corpus(const std::string& target, Check check) {
  const fs::path dir = fs::path(RUSHHOUR_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / target;
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string input((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    SCOPED_TRACE(entry.path().string());
    check_text(check, input);
    ++files;
  }
  return files;
}

// Header bytes of the board_string target: size, exit row, limits on cars, trucks, vehicles.
std::string board_input(int size, std::uint8_t exit_byte, const std::string& text,
                        std::uint8_t cars = 0x80, std::uint8_t trucks = 0x80,
                        std::uint8_t vehicles = 0x80) {
  return std::string{static_cast<char>(size - kMinSize), static_cast<char>(exit_byte),
                     static_cast<char>(cars), static_cast<char>(trucks),
                     static_cast<char>(vehicles)} +
         text;
}

TEST(FuzzRegression, BoardStringCorpusHoldsTheProperties) {
  EXPECT_GT(replay_corpus("board_string", fuzz::check_board_string), 0);
}

TEST(FuzzRegression, ConfigFileCorpusHoldsTheProperties) {
  EXPECT_GT(replay_corpus("config_file", fuzz::check_config_file), 0);
}

TEST(FuzzRegression, BoardInputsHoldTheProperties) {
  check_text(fuzz::check_board_string, board_input(4, 0x80, "ooBCAABCooDDooEE"));
  check_text(fuzz::check_board_string, board_input(4, 0x80, "ooBC\nAABC <exit\nooDD\nooEE\n"));
  check_text(fuzz::check_board_string, board_input(2, 0, "AAoo"));
}

// Found by fuzz_config_file: Boost.Program_options formats an error by replacing a placeholder
// such as %value% with the offending text until none is left, so a value or option name that
// contains its own placeholder made what() loop forever (the process hung, its memory grew
// without bound). app/options.cpp now rejects such text with a one-line InputError.
TEST(FuzzRegression, PlaceholderInConfigTextIsRejectedNotAHang) {
  for (const std::string text :
       {"a%original_token% = 1\n", "size = 4\nsamples = 1%value%\n",
        "size = 4%\nengine = explicithe commc eiarsle) and 4 trucks.\nsize = 6\n"
        "me%original_token%cars = 12c = move\n",
        "%option% = 3\n", "size = 5\nmetric = %prefix%\n", "[%canonical_option%]\nx = 1\n",
        "a%invalid_line%", "size = 4\norder = %valual_option%\n", "size = 4\nlog = runs/%any_name%\n"}) {
    SCOPED_TRACE(text);
    EXPECT_THROW(app::classify_configuration(text), InputError);
    check_text(fuzz::check_config_file, text);
  }
}

// A --max-memory of "nan", "inf" or beyond 2^64 bytes was cast from double to uint64_t:
// undefined behaviour (UBSan: "nan is outside the range of representable values").
TEST(FuzzRegression, MaxMemoryThatIsNoByteCountIsRejected) {
  for (const char* value : {"nan", "NAN", "inf", "-inf", "infG", "1e30", "16E", "20000000000G", "21474836437512M"}) {
    const std::string text = std::string("size = 4\nmax-memory = ") + value + "\n";
    SCOPED_TRACE(text);
    EXPECT_THROW(app::classify_configuration(text), InputError);
    check_text(fuzz::check_config_file, text);
  }
  EXPECT_NE(app::classify_configuration("size = 4\nmax-memory = 8G\n").find("max-memory = 8G"),
            std::string::npos);
}

TEST(FuzzRegression, PlaceholderOnTheCommandLineIsRejectedNotAHang) {
  const auto value = test_support::run_rushhour("classify --size 4 --samples '1%value%'");
  EXPECT_EQ(value.status, 2);
  EXPECT_NE(value.err.find("'%value%' may not appear"), std::string::npos) << value.err;
  const auto name = test_support::run_rushhour("query '--%original_token%'");
  EXPECT_EQ(name.status, 2);
  EXPECT_NE(name.err.find("'%original_token%' may not appear"), std::string::npos) << name.err;
}

}  // namespace
}  // namespace rushhour
