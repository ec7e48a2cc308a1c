// libFuzzer target: `rushhour classify` config files (properties: fuzz_properties.hpp,
// check_config_file). Built only with -DRUSHHOUR_FUZZ=ON and clang; run by scripts/fuzz.sh.
#include "fuzz_properties.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rushhour::fuzz::check_config_file(data, size);
  return 0;
}
