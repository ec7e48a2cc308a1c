#pragma once
// What every result file records about the run that wrote it (STYLE: effective configuration,
// tool version, BuDDy version), so that a figure can always be traced to its settings.
#include <string>

namespace rushhour {

struct RunMetadata {
  std::string tool_version;   // rushhour's version
  std::string buddy_version;  // BuDDy's version string
  std::string configuration;  // the effective options as text, one "key = value" per line

  // The running binary's versions with the given configuration text.
  static RunMetadata current(std::string configuration);

  friend bool operator==(const RunMetadata&, const RunMetadata&) = default;
};

}  // namespace rushhour
