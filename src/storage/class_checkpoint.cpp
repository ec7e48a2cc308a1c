#include "storage/class_checkpoint.hpp"

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "board/errors.hpp"
#include "storage/atomic_file.hpp"

namespace rushhour {
namespace {

constexpr const char* kMagicLine = "rushhour class sweep checkpoint 1";
constexpr int kMaxIndex = 254;

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string hex(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

ClassCheckpoint::ClassCheckpoint(const std::filesystem::path& run_directory, std::string parameters)
    : file_(run_directory / "classes-checkpoint.txt"), parameters_(std::move(parameters)) {
  if (parameters_.find('\n') != std::string::npos)
    throw std::logic_error("class checkpoint parameters must be one line");
}

void ClassCheckpoint::save(const ClassSweepState& state) const {
  std::ostringstream body;
  body.precision(17);
  body << kMagicLine << "\nparameters " << parameters_ << "\nitems " << state.items << "\nnext_item "
       << state.next_item << "\nclasses " << state.classes << "\nstates " << state.states << "\nseconds "
       << state.seconds << "\nhighest " << state.highest << "\npairs " << state.tallies.size() << "\n";
  for (std::size_t v = 0; v < state.tallies.size(); ++v) {
    const VehicleTally& t = state.tallies[v];
    if (t.domain == 0) continue;
    body << "tally " << v << ' ' << t.domain << '\n';
    for (const auto* figures : {&t.count, &t.nondominated, &t.components}) {
      for (int i = 0; i <= state.highest; ++i)
        body << (i ? " " : "") << (static_cast<std::size_t>(i) < figures->size() ? (*figures)[static_cast<std::size_t>(i)] : 0);
      body << '\n';
    }
  }
  for (std::size_t i = 0; i < state.sample_keys.size(); ++i) {
    if (state.sample_keys[i].empty()) continue;
    body << "samples " << i << ' ' << state.sample_keys[i].size();
    for (std::uint64_t key : state.sample_keys[i]) body << ' ' << key;
    body << '\n';
  }
  body << "end\n";
  const std::string text = body.str();

  std::filesystem::create_directories(file_.parent_path());
  AtomicReplacement replacement(file_);
  {
    std::ofstream out(replacement.temp_path());
    out << text << "checksum " << hex(fnv1a(text)) << "\n";
    out.close();
    if (!out) throw std::system_error(errno, std::generic_category(), "cannot write " + file_.string());
  }
  replacement.commit();
}

std::optional<ClassSweepState> ClassCheckpoint::load(std::string* why) const {
  if (!std::filesystem::exists(file_)) {
    *why = "no class sweep checkpoint";
    return std::nullopt;
  }
  std::ifstream file(file_);
  std::stringstream whole;
  whole << file.rdbuf();
  const std::string text = whole.str();
  const auto damaged = [&](const std::string& what) {
    return InputError(file_.string() + ": " + what + " (not a complete class sweep checkpoint)");
  };
  if (text.rfind(std::string(kMagicLine) + "\n", 0) != 0) throw damaged("unknown first line");
  const std::size_t sum_at = text.rfind("checksum ");
  if (sum_at == std::string::npos || text.substr(sum_at) != "checksum " + hex(fnv1a(text.substr(0, sum_at))) + "\n")
    throw damaged("checksum mismatch");

  std::istringstream in(text.substr(0, sum_at));
  std::string line;
  std::getline(in, line);
  if (!std::getline(in, line) || line.rfind("parameters ", 0) != 0) throw damaged("no parameters");
  if (line.substr(11) != parameters_) {
    *why = "the class sweep checkpoint belongs to other parameters (" + line.substr(11) + ")";
    return std::nullopt;
  }
  ClassSweepState state;
  std::string key;
  std::size_t pairs = 0;
  const auto field = [&](const char* name, auto& value) {
    if (!(in >> key >> value) || key != name) throw damaged(std::string("no ") + name);
  };
  field("items", state.items);
  field("next_item", state.next_item);
  field("classes", state.classes);
  field("states", state.states);
  field("seconds", state.seconds);
  field("highest", state.highest);
  field("pairs", pairs);
  if (state.next_item > state.items || state.highest < 0 || state.highest > kMaxIndex || pairs > 4096)
    throw damaged("figures out of range");
  const auto slots = static_cast<std::size_t>(state.highest + 1);
  state.tallies.resize(pairs);
  for (VehicleTally& t : state.tallies) {
    t.count.assign(slots, 0);
    t.nondominated.assign(slots, 0);
    t.components.assign(slots, 0);
  }
  state.sample_keys.assign(slots, {});
  while (in >> key && key != "end") {
    std::size_t at = 0;
    if (!(in >> at)) throw damaged("a " + key + " line without its number");
    if (key == "tally") {
      if (at >= pairs) throw damaged("tally out of range");
      VehicleTally& t = state.tallies[at];
      if (!(in >> t.domain)) throw damaged("tally without its domain");
      for (auto* figures : {&t.count, &t.nondominated, &t.components})
        for (std::uint64_t& value : *figures)
          if (!(in >> value)) throw damaged("tally " + std::to_string(at) + " cut short");
    } else if (key == "samples") {
      std::size_t count = 0;
      if (at >= slots || !(in >> count) || count > 1000000) throw damaged("samples out of range");
      state.sample_keys[at].resize(count);
      for (std::uint64_t& sample : state.sample_keys[at])
        if (!(in >> sample)) throw damaged("samples cut short");
    } else {
      throw damaged("unknown line '" + key + "'");
    }
  }
  if (key != "end") throw damaged("no end line");
  return state;
}

void ClassCheckpoint::clear() const { std::filesystem::remove(file_); }

}  // namespace rushhour
