#pragma once
// DIR/classes-checkpoint.txt: the state of a class sweep (engine "classes"), written every few
// minutes and when the sweep ends or stops, so that --resume continues after the last work
// item it holds. One text file, replaced atomically, ending in an FNV-1a checksum of
// everything before it: a torn, truncated or edited file is reported, never trusted.
#include <filesystem>
#include <optional>
#include <string>

#include "board/rules.hpp"
#include "explicit/class_engine.hpp"

namespace rushhour {

// The parameter line of a class sweep: its rules and sample options, e.g. "size=6 exit_row=2
// metric=move max_cars=-1 max_trucks=-1 max_vehicles=-1 samples=5 sample_indices=10", with
// " mirror=1" where the sweep solves one class of each mirror pair (its checkpoints count the
// mirror items of the items before next_item).
std::string class_sweep_parameters(const Rules& rules, int samples_per_index, int sample_indices, bool mirror);
// The rules of such a line. Throws InputError if it is not one.
Rules rules_of_class_sweep(const std::string& parameters);

// A checkpoint read without knowing its parameters (e.g. by a query).
struct SavedClassSweep {
  std::string parameters;
  ClassSweepState state;
};

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
  // The checkpoint in DIR with its parameter line, or nullopt if there is none. Throws
  // InputError if the file is damaged.
  static std::optional<SavedClassSweep> read(const std::filesystem::path& run_directory);

 private:
  std::filesystem::path file_;
  std::string parameters_;
};

}  // namespace rushhour
