#include "storage/checked_text_file.hpp"

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <system_error>

#include "board/errors.hpp"
#include "storage/atomic_file.hpp"
#include "util/fnv1a.hpp"

namespace rushhour {
namespace {

std::string checksum_line(const std::string& text) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
  return std::string("checksum ") + hex + "\n";
}

}  // namespace

void write_checked_text(const std::filesystem::path& path, const std::string& first_line,
                        const std::string& body) {
  const std::string text = first_line + "\n" + body;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  AtomicReplacement replacement(path);
  {
    std::ofstream out(replacement.temp_path());
    out << text << checksum_line(text);
    out.close();
    if (!out)
      throw std::system_error(errno, std::generic_category(), "cannot write " + path.string());
  }
  replacement.commit();
}

std::optional<std::string> read_checked_text(const std::filesystem::path& path,
                                             const std::string& first_line,
                                             const std::string& kind) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string text = whole.str();
  const auto damaged = [&](const std::string& what) {
    return InputError(path.string() + ": " + what + " (not a complete " + kind + ")");
  };
  if (text.rfind(first_line + "\n", 0) != 0) throw damaged("unknown first line");
  const std::size_t sum_at = text.rfind("checksum ");
  if (sum_at == std::string::npos || text.substr(sum_at) != checksum_line(text.substr(0, sum_at)))
    throw damaged("checksum mismatch");
  return text.substr(first_line.size() + 1, sum_at - first_line.size() - 1);
}

}  // namespace rushhour
