#pragma once
// DIR/classes-checkpoint.txt: the state of a class sweep (engine "classes"), written every few
// minutes and when the sweep ends or stops, so that --resume continues after the last work
// item it holds. One text file, replaced atomically, ending in an FNV-1a checksum of
// everything before it: a torn, truncated or edited file is reported, never trusted.
#include <filesystem>
#include <optional>
#include <string>

#include "explicit/class_census.hpp"

namespace rushhour {

// A checkpoint with its parameter line.
struct SavedClassSweep {
  std::string parameters;
  ClassSweepState state;
};

class ClassCheckpoint {
 public:
  // `parameters`: one line naming everything the figures depend on, written as it is (the
  // run layer writes and parses it: ClassSweepIdentity, storage/run_identity.hpp).
  ClassCheckpoint(const std::filesystem::path& run_directory, std::string parameters);

  const std::filesystem::path& path() const { return file_; }
  void save(const ClassSweepState& state) const;
  void clear() const;
  // The checkpoint in DIR with its parameter line, or nullopt if there is none. Throws
  // InputError if the file is damaged.
  static std::optional<SavedClassSweep> read(const std::filesystem::path& run_directory);
  static std::filesystem::path file_in(const std::filesystem::path& run_directory);

 private:
  std::filesystem::path file_;
  std::string parameters_;
};

}  // namespace rushhour
