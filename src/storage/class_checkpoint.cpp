#include "storage/class_checkpoint.hpp"

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "board/count.hpp"
#include "board/errors.hpp"
#include "storage/checked_text_file.hpp"

namespace rushhour {
namespace {

constexpr const char* kSweepMagicLine = "rushhour class sweep checkpoint 1";
constexpr int kMaxIndex = 254;

constexpr const char* kFileName = "classes-checkpoint.txt";

InputError damaged(const std::filesystem::path& file, const std::string& what) {
  return InputError(file.string() + ": " + what + " (not a complete class sweep checkpoint)");
}

// The file's text before its checksum line, after checking the first line and the checksum.
std::string verified_body(const std::filesystem::path& file) {
  const std::optional<std::string> body = read_checked_text(file, kSweepMagicLine, "class sweep checkpoint");
  if (!body) throw damaged(file, "cannot be read");
  return std::string(kSweepMagicLine) + "\n" + *body;
}

// The parameter line of a verified body.
std::string parameters_of(const std::filesystem::path& file, const std::string& body) {
  const std::size_t first_end = body.find('\n');
  const std::size_t second_end = body.find('\n', first_end + 1);
  const std::string line = body.substr(first_end + 1, second_end == std::string::npos ? std::string::npos : second_end - first_end - 1);
  if (line.rfind("parameters ", 0) != 0) throw damaged(file, "no parameters");
  return line.substr(11);
}

// Tally figures are written as decimal digits and read back into whatever type the tally
// holds (uint64 or Count), refusing a value that does not fit it.
template <typename T>
std::string figure_text(T value) {
  return rushhour::to_string(Count(value));
}

template <typename T>
bool read_figure(std::istream& in, T& value) {
  Count read = 0;
  if (!read_count(in, read) || read > Count(std::numeric_limits<T>::max())) return false;
  value = static_cast<T>(read);
  return true;
}

// The sweep state of a verified body.
ClassSweepState state_of_body(const std::filesystem::path& file, const std::string& body) {
  const auto damaged = [&](const std::string& what) { return rushhour::damaged(file, what); };
  std::istringstream in(body);
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
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
  if (state.next_item > state.items || state.highest < 0 || state.highest > kMaxIndex || pairs > 65536)
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
      if (!read_figure(in, t.domain)) throw damaged("tally without its domain");
      for (auto* figures : {&t.count, &t.nondominated, &t.components})
        for (auto& value : *figures)
          if (!read_figure(in, value)) throw damaged("tally " + std::to_string(at) + " cut short");
    } else if (key == "minimal") {
      std::string rule;
      if (at >= pairs || !(in >> rule)) throw damaged("minimal out of range");
      MinimalRule parsed{};
      try {
        parsed = parse_minimal_rule(rule);
      } catch (const InputError&) {
        throw damaged("minimal counts of an unknown rule '" + rule + "'");
      }
      std::vector<std::uint64_t>& minimal = state.tallies[at].minimal[static_cast<std::size_t>(parsed)];
      minimal.assign(slots, 0);
      for (auto& value : minimal)
        if (!read_figure(in, value)) throw damaged("minimal " + std::to_string(at) + " cut short");
    } else if (key == "samples") {
      std::size_t count = 0;
      if (at >= slots || !(in >> count) || count > 1000000) throw damaged("samples out of range");
      state.sample_keys[at].resize(count);
      for (SampleKey& sample : state.sample_keys[at]) {
        std::string text;
        if (!(in >> text)) throw damaged("samples cut short");
        try {
          sample = parse_count(text);
        } catch (const InputError&) {
          throw damaged("sample key '" + text + "' is not a number");
        }
      }
    } else if (key == "later_items") {
      if (at > 100000000) throw damaged("later_items out of range");
      state.later_items.resize(at);
      std::uint64_t after = state.next_item;
      for (ItemRange& r : state.later_items) {
        if (!(in >> r.begin >> r.end)) throw damaged("later_items cut short");
        if (r.begin <= after || r.end <= r.begin || r.end > state.items) throw damaged("later_items out of order");
        after = r.end;
      }
    } else if (key == "refused") {
      if (at > 100000000) throw damaged("refused out of range");
      state.refused.resize(at);
      for (std::uint64_t& item : state.refused)
        if (!(in >> item) || item >= state.items) throw damaged("refused items cut short or out of range");
    } else {
      throw damaged("unknown line '" + key + "'");
    }
  }
  if (key != "end") throw damaged("no end line");
  return state;
}

}  // namespace

ClassCheckpoint::ClassCheckpoint(const std::filesystem::path& run_directory, std::string parameters)
    : file_(run_directory / kFileName), parameters_(std::move(parameters)) {
  if (parameters_.find('\n') != std::string::npos)
    throw std::logic_error("class checkpoint parameters must be one line");
}

void ClassCheckpoint::save(const ClassSweepState& state) const {
  std::ostringstream body;
  body.precision(17);
  body << "parameters " << parameters_ << "\nitems " << state.items << "\nnext_item "
       << state.next_item << "\nclasses " << state.classes << "\nstates " << state.states << "\nseconds "
       << state.seconds << "\nhighest " << state.highest << "\npairs " << state.tallies.size() << "\n";
  for (std::size_t v = 0; v < state.tallies.size(); ++v) {
    const VehicleTally& t = state.tallies[v];
    if (t.domain == 0) continue;
    // One figure per index 0..highest (0 past the figures' end), space-separated.
    const auto write_per_index = [&](const std::vector<std::uint64_t>& figures) {
      for (int i = 0; i <= state.highest; ++i) {
        const auto at = static_cast<std::size_t>(i);
        body << (i ? " " : "") << (at < figures.size() ? figure_text(figures[at]) : "0");
      }
      body << '\n';
    };
    body << "tally " << v << ' ' << figure_text(t.domain) << '\n';
    for (const auto* figures : {&t.count, &t.nondominated, &t.components}) write_per_index(*figures);
    for (std::size_t rule = 0; rule < kMinimalRules; ++rule) {
      if (t.minimal[rule].empty()) continue;
      body << "minimal " << v << ' ' << to_string(static_cast<MinimalRule>(rule)) << ' ';
      write_per_index(t.minimal[rule]);
    }
  }
  if (!state.later_items.empty()) {
    body << "later_items " << state.later_items.size();
    for (const ItemRange& r : state.later_items) body << ' ' << r.begin << ' ' << r.end;
    body << '\n';
  }
  for (std::size_t i = 0; i < state.sample_keys.size(); ++i) {
    if (state.sample_keys[i].empty()) continue;
    body << "samples " << i << ' ' << state.sample_keys[i].size();
    for (const SampleKey key : state.sample_keys[i]) body << ' ' << to_string(key);
    body << '\n';
  }
  if (!state.refused.empty()) {
    body << "refused " << state.refused.size();
    for (const std::uint64_t item : state.refused) body << ' ' << item;
    body << '\n';
  }
  body << "end\n";
  write_checked_text(file_, kSweepMagicLine, body.str());
}

void ClassCheckpoint::clear() const { std::filesystem::remove(file_); }

std::filesystem::path ClassCheckpoint::file_in(const std::filesystem::path& run_directory) {
  return run_directory / kFileName;
}

std::optional<SavedClassSweep> ClassCheckpoint::read(const std::filesystem::path& run_directory) {
  const std::filesystem::path file = file_in(run_directory);
  if (!std::filesystem::exists(file)) return std::nullopt;
  const std::string body = verified_body(file);
  return SavedClassSweep{parameters_of(file, body), state_of_body(file, body)};
}

}  // namespace rushhour
