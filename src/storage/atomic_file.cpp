#include "storage/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>

namespace rushhour {

void throw_errno(const std::string& action, const std::filesystem::path& path) {
  throw std::system_error(errno, std::generic_category(), action + " " + path.string());
}

namespace {

// fsync on a path (a regular file or a directory).
void sync_path(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_errno("cannot open", path);
  if (::fsync(fd) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    throw_errno("cannot fsync", path);
  }
  ::close(fd);
}

}  // namespace

AtomicReplacement::AtomicReplacement(std::filesystem::path target)
    : target_(std::move(target)), temp_(target_.string() + ".tmp") {}

AtomicReplacement::~AtomicReplacement() {
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove(temp_, ignored);
  }
}

void AtomicReplacement::commit() {
  sync_path(temp_);
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) throw_errno("cannot rename onto", target_);
  committed_ = true;
  const std::filesystem::path directory = target_.parent_path();
  sync_path(directory.empty() ? std::filesystem::path(".") : directory);
}

}  // namespace rushhour
