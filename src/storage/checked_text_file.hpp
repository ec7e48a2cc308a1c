#pragma once
// A text file that ends in an FNV-1a checksum of everything before it, replaced atomically:
//   <first line>\n <body> checksum <16 hex digits>\n
// A torn, truncated or edited file fails the check; a file of another kind fails on its first
// line. The checkpoints of class sweeps and of partitioned runs are such files.
#include <filesystem>
#include <optional>
#include <string>

namespace rushhour {

// Writes `first_line` + "\n" + `body` and the checksum line to `path`, atomically
// (storage/atomic_file.hpp). Throws std::system_error if it cannot.
void write_checked_text(const std::filesystem::path& path, const std::string& first_line,
                        const std::string& body);

// The body of the file at `path` (the text between the first line and the checksum line),
// nullopt if there is no such file. Throws InputError "PATH: WHAT (not a complete KIND)" if
// the first line is not `first_line` or the checksum does not match.
std::optional<std::string> read_checked_text(const std::filesystem::path& path,
                                             const std::string& first_line,
                                             const std::string& kind);

}  // namespace rushhour
