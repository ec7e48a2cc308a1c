#include "util/process.hpp"

#include <sys/resource.h>
#include <time.h>

#include <fstream>
#include <string>

namespace rushhour {
namespace {

// Reads a "Key:   123 kB" line of /proc/self/status.
std::uint64_t status_kib(const std::string& key) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(key + ":", 0) == 0) return std::stoull(line.substr(key.size() + 1));
  return 0;
}

}  // namespace

std::uint64_t current_rss_bytes() { return status_kib("VmRSS") * 1024; }
std::uint64_t peak_rss_bytes() { return status_kib("VmHWM") * 1024; }

std::uint64_t peak_child_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // KiB on Linux
}

double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace rushhour
