#pragma once
// Facts about the running process, for progress lines and result files.
#include <cstdint>

namespace rushhour {

std::uint64_t current_rss_bytes();  // resident set size now (0 if unknown)
std::uint64_t peak_rss_bytes();     // high-water mark of the resident set size
// The largest high-water mark of the children waited for (worker processes).
std::uint64_t peak_child_rss_bytes();
double process_cpu_seconds();       // user + system CPU time of the process (every thread)
double thread_cpu_seconds();        // CPU time of the calling thread

}  // namespace rushhour
