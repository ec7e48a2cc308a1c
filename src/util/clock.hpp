#pragma once
// Elapsed wall-clock time, for progress lines and the seconds a result records.
#include <chrono>

namespace rushhour {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace rushhour
