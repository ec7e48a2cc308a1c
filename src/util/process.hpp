#pragma once
// Facts about the running process, for progress lines and result files.
#include <cstdint>

namespace rushhour {

std::uint64_t current_rss_bytes();  // resident set size now (0 if unknown)
std::uint64_t peak_rss_bytes();     // high-water mark of the resident set size

}  // namespace rushhour
