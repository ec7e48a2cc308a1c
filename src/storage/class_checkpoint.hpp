#pragma once
// DIR/classes-checkpoint.txt: the state of a class sweep (engine "classes"), written every few
// minutes and when the sweep ends or stops, so that --resume continues after the last work
// item it holds. One text file, replaced atomically, ending in an FNV-1a checksum of
// everything before it: a torn, truncated or edited file is reported, never trusted.
#include <filesystem>
#include <optional>
#include <string>

#include "explicit/class_engine.hpp"

namespace rushhour {

class ClassCheckpoint {
 public:
  // `parameters`: one line naming everything the figures depend on (rules, sample options).
  ClassCheckpoint(const std::filesystem::path& run_directory, std::string parameters);

  const std::filesystem::path& path() const { return file_; }
  void save(const ClassSweepState& state) const;
  // The saved state, or nullopt with the reason in *why if there is none or it belongs to
  // other parameters. Throws InputError if the file is damaged.
  std::optional<ClassSweepState> load(std::string* why) const;
  void clear() const;

 private:
  std::filesystem::path file_;
  std::string parameters_;
};

}  // namespace rushhour
