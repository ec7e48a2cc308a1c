#pragma once
// Atomic replacement of a file. The new content goes to `<target>.tmp` in the target's
// directory; commit() fsyncs it, renames it over the target (rename(2) is atomic within one
// file system) and fsyncs the directory so the rename itself is durable. A kill or power loss
// at any moment therefore leaves either the old or the new file at `target`, never a torn one;
// at worst a stale `.tmp` stays behind, which readers never look at and the next write
// overwrites.
#include <filesystem>
#include <string>

namespace rushhour {

// Throws std::system_error for errno, saying "<action> <path>".
[[noreturn]] void throw_errno(const std::string& action, const std::filesystem::path& path);

class AtomicReplacement {
 public:
  explicit AtomicReplacement(std::filesystem::path target);
  // Removes the temporary file unless commit() succeeded (an error on the way out must not
  // leave a half-written file that looks like a result).
  ~AtomicReplacement();
  AtomicReplacement(const AtomicReplacement&) = delete;
  AtomicReplacement& operator=(const AtomicReplacement&) = delete;

  // Where the writer puts the new content; it must close the file before commit().
  const std::filesystem::path& temp_path() const { return temp_; }

  // fsync(temp), rename(temp, target), fsync(directory). Throws std::system_error.
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path temp_;
  bool committed_ = false;
};

}  // namespace rushhour
