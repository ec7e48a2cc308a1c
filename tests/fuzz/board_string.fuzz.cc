// libFuzzer target: board strings under varied rules (properties: fuzz_properties.hpp,
// check_board_string). Built only with -DRUSHHOUR_FUZZ=ON and clang; run by scripts/fuzz.sh.
#include "fuzz_properties.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rushhour::fuzz::check_board_string(data, size);
  return 0;
}
