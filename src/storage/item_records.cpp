#include "storage/item_records.hpp"

#include <unistd.h>

#include <array>
#include <fstream>
#include <functional>
#include <stdexcept>

#include "board/errors.hpp"
#include "util/fnv1a.hpp"

namespace rushhour {
namespace {

std::string header_of(RecordedUnits units) {
  return units == RecordedUnits::Parts ? "rushhour part records 1 " : "rushhour class item records 1 ";
}

std::uint64_t record_check(std::uint64_t item, std::uint64_t digest) {
  Fnv1a64 hash;
  hash.add_word(item);
  hash.add_word(digest);
  return hash.value();
}

// The parameter line of the log at `file`, or nullopt if it has none or another first line.
std::optional<std::string> log_parameters(const std::filesystem::path& file, const std::string& header) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  if (!std::getline(in, line) || line.rfind(header, 0) != 0) return std::nullopt;
  return line.substr(header.size());
}

// Reads the records of `in` (past its first line) until the first torn or damaged one;
// returns the bytes of the valid ones.
std::uint64_t read_records(std::istream& in, const std::function<void(std::uint64_t item, std::uint64_t digest)>& visit) {
  std::array<unsigned char, 24> bytes{};
  std::uint64_t valid = 0;
  while (in.read(reinterpret_cast<char*>(bytes.data()), bytes.size())) {
    std::uint64_t words[3] = {0, 0, 0};
    for (int w = 0; w < 3; ++w)
      for (int b = 7; b >= 0; --b) words[w] = words[w] << 8 | bytes[static_cast<std::size_t>(8 * w + b)];
    if (words[2] != record_check(words[0], words[1])) break;
    visit(words[0], words[1]);
    valid += bytes.size();
  }
  return valid;
}

}  // namespace

std::filesystem::path ItemRecordLog::file_in(const std::filesystem::path& run_directory, RecordedUnits units) {
  return run_directory / (units == RecordedUnits::Parts ? "part-records.bin" : "class-items.bin");
}

ItemRecordLog::ItemRecordLog(const std::filesystem::path& run_directory, const std::string& parameters, bool fresh,
                             RecordedUnits units)
    : header_(header_of(units)), file_(file_in(run_directory, units)) {
  const bool keep = !fresh && std::filesystem::exists(file_) && log_parameters(file_, header_) == parameters;
  if (keep) {
    // A record torn by a kill would hide every record appended after it: cut it off.
    std::ifstream in(file_, std::ios::binary);
    std::string line;
    std::getline(in, line);
    const std::uint64_t valid = line.size() + 1 + read_records(in, [](std::uint64_t, std::uint64_t) {});
    in.close();
    std::filesystem::resize_file(file_, valid);
  }
  out_ = std::fopen(file_.c_str(), keep ? "ab" : "wb");
  if (out_ == nullptr) throw std::runtime_error("cannot write " + file_.string());
  if (!keep) {
    const std::string header = header_ + parameters + "\n";
    std::fwrite(header.data(), 1, header.size(), out_);
    flush();
  }
}

ItemRecordLog::~ItemRecordLog() {
  if (out_ != nullptr) std::fclose(out_);
}

void ItemRecordLog::append(std::uint64_t item, std::uint64_t digest) {
  std::array<unsigned char, 24> bytes{};
  const std::uint64_t words[] = {item, digest, record_check(item, digest)};
  for (int w = 0; w < 3; ++w)
    for (int b = 0; b < 8; ++b) bytes[static_cast<std::size_t>(8 * w + b)] = static_cast<unsigned char>(words[w] >> (8 * b));
  if (std::fwrite(bytes.data(), 1, bytes.size(), out_) != bytes.size())
    throw std::runtime_error("cannot write " + file_.string());
}

void ItemRecordLog::flush() {
  if (std::fflush(out_) != 0 || ::fsync(::fileno(out_)) != 0) throw std::runtime_error("cannot write " + file_.string());
}

std::optional<ItemRecordLog::Records> ItemRecordLog::read(const std::filesystem::path& run_directory,
                                                           RecordedUnits units) {
  const std::filesystem::path file = file_in(run_directory, units);
  if (!std::filesystem::exists(file)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  std::string line;
  const std::string header = header_of(units);
  if (!std::getline(in, line) || line.rfind(header, 0) != 0)
    throw InputError(file.string() +
                     (units == RecordedUnits::Parts ? ": not a part record log" : ": not a class item record log"));
  Records records;
  records.parameters = line.substr(header.size());
  read_records(in, [&records](std::uint64_t item, std::uint64_t digest) {
    const auto [at, inserted] = records.digest_of.try_emplace(item, digest);
    if (!inserted && at->second != digest) {
      ++records.conflicting;
      at->second = digest;
    }
  });
  return records;
}

}  // namespace rushhour
