#include "util/process.hpp"

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

}  // namespace rushhour
