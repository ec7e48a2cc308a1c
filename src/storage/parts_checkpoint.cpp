#include "storage/parts_checkpoint.hpp"

#include <sstream>
#include <stdexcept>

#include "board/errors.hpp"
#include "storage/checked_text_file.hpp"

namespace rushhour {
namespace {

constexpr const char* kFileName = "parts-checkpoint.txt";
constexpr const char* kFirstLine = "rushhour partitioned run checkpoint 1";
constexpr const char* kKind = "partitioned run checkpoint";

}  // namespace

PartsCheckpoint::PartsCheckpoint(const std::filesystem::path& run_directory, std::string identity)
    : file_(file_in(run_directory)), identity_(std::move(identity)) {
  if (identity_.find('\n') != std::string::npos)
    throw std::logic_error("a run identity of several lines");
}

std::filesystem::path PartsCheckpoint::file_in(const std::filesystem::path& run_directory) {
  return run_directory / kFileName;
}

void PartsCheckpoint::save(const Saved& saved) const {
  std::ostringstream body;
  body << "identity " << identity_ << "\nfinished " << saved.finished.size();
  for (std::size_t i = 0; i < saved.finished.size();) {
    std::size_t end = i + 1;
    while (end < saved.finished.size() && saved.finished[end] == saved.finished[end - 1] + 1) ++end;
    body << ' ' << saved.finished[i] << '-' << saved.finished[end - 1] + 1;
    i = end;
  }
  body << '\n' << saved.sum.text();
  write_checked_text(file_, kFirstLine, body.str());
}

std::optional<PartsCheckpoint::Saved> PartsCheckpoint::load() const {
  const std::optional<std::string> body = read_checked_text(file_, kFirstLine, kKind);
  if (!body) return std::nullopt;
  const std::string where = file_.string();
  const auto damaged = [&](const std::string& what) {
    return InputError(where + ": " + what + " (not a complete " + kKind + ")");
  };
  std::istringstream in(*body);
  std::string line;
  if (!std::getline(in, line) || line.rfind("identity ", 0) != 0) throw damaged("no identity");
  if (line.substr(9) != identity_)
    throw InputError(where + ": the checkpoint of a run with other parameters (" + line.substr(9) +
                     "; this run: " + identity_ + ")");
  if (!std::getline(in, line) || line.rfind("finished ", 0) != 0)
    throw damaged("no finished parts");
  Saved saved;
  {
    std::istringstream words(line.substr(9));
    std::uint64_t count = 0;
    if (!(words >> count)) throw damaged("no count of finished parts");
    std::string range;
    while (words >> range) {
      std::istringstream bounds(range);
      std::uint64_t begin = 0, end = 0;
      char dash = 0;
      if (!(bounds >> begin >> dash >> end) || dash != '-' || end <= begin ||
          (!saved.finished.empty() && begin <= saved.finished.back()) || end - begin > count)
        throw damaged("finished parts '" + range + "' out of order");
      for (std::uint64_t number = begin; number < end; ++number) saved.finished.push_back(number);
    }
    if (saved.finished.size() != count) throw damaged("finished parts miscounted");
  }
  const std::streamoff figures_at = in.tellg();
  if (figures_at < 0) throw damaged("no figures");
  saved.sum = PartFigures::parse(body->substr(static_cast<std::size_t>(figures_at)), where);
  return saved;
}

void PartsCheckpoint::clear() const { std::filesystem::remove(file_); }

std::optional<std::string> PartsCheckpoint::saved_identity(const std::filesystem::path& run_directory) {
  const std::filesystem::path file = file_in(run_directory);
  const std::optional<std::string> body = read_checked_text(file, kFirstLine, kKind);
  if (!body) return std::nullopt;
  std::istringstream in(*body);
  std::string line;
  if (!std::getline(in, line) || line.rfind("identity ", 0) != 0)
    throw InputError(file.string() + ": no identity (not a complete " + kKind + ")");
  return line.substr(9);
}

}  // namespace rushhour
