#pragma once
// DIR/parts-checkpoint.txt: what a partitioned run that keeps no part files (--part-files
// figures) has finished: which parts, and their figures summed. Replaced atomically as parts
// finish, with a checksum (storage/checked_text_file.hpp): a torn, truncated or edited file is
// reported, never trusted. After the first line:
//   identity <the run's identity, as in its part files>
//   finished <parts> <ranges a-b of part numbers, b exclusive, ascending>
//   <PartFigures::text of the sum: number 0, the least sample keys of every index>
// A few kilobytes whatever the number of parts, so a run can move to another machine (or
// wait in a repository) as this one file.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "storage/part_store.hpp"

namespace rushhour {

class PartsCheckpoint {
 public:
  // `identity`: the run's identity, one line.
  PartsCheckpoint(const std::filesystem::path& run_directory, std::string identity);

  const std::filesystem::path& path() const { return file_; }

  struct Saved {
    std::vector<std::uint64_t> finished;  // part numbers, ascending
    PartFigures sum;
  };
  // Throws std::system_error if the file cannot be written.
  void save(const Saved& saved) const;
  // nullopt if there is no checkpoint. Throws InputError if it is damaged or of another run.
  std::optional<Saved> load() const;
  void clear() const;

  static std::filesystem::path file_in(const std::filesystem::path& run_directory);
  // The identity of the run whose checkpoint DIR holds, nullopt if none. Throws InputError if
  // the file is damaged.
  static std::optional<std::string> saved_identity(const std::filesystem::path& run_directory);

 private:
  std::filesystem::path file_;
  std::string identity_;
};

}  // namespace rushhour
