#include "query/saved_parts.hpp"

#include <algorithm>
#include <map>

#include "bdd/session.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "run/part_run.hpp"
#include "run/run_directory.hpp"
#include "storage/classification_file.hpp"

namespace rushhour {

struct SavedParts::OpenPart {
  // Declared first, destroyed last: every BDD below lives in it.
  std::unique_ptr<BddSession> session;
  std::unique_ptr<SlotEncoding> encoding;
  PartStore::Loaded loaded;
  std::map<int, bdd> layers;
  std::uint64_t number = 0;
};

namespace {

PartitionedRunIdentity identity_of(const std::string& identity, const std::filesystem::path& run_directory) {
  return parse_partitioned_run_identity(identity, (run_directory / "parts").string());
}

}  // namespace

std::unique_ptr<SavedParts> SavedParts::open(const std::filesystem::path& run_directory) {
  const std::optional<std::string> identity = PartStore::saved_identity(run_directory);
  if (!identity) return nullptr;
  return std::unique_ptr<SavedParts>(new SavedParts(run_directory, *identity));
}

SavedParts::SavedParts(const std::filesystem::path& run_directory, const std::string& identity)
    : rules_(identity_of(identity, run_directory).layers.rules),
      slot_(identity_of(identity, run_directory).layers.slot),
      partition_(parse_partition(identity_of(identity, run_directory).partition, rules_)),
      numbering_(std::make_unique<PartNumbering>(partition_, rules_)),
      store_(std::make_unique<PartStore>(run::RunDirectory(run_directory).parts(identity))) {
  const auto result_file = run::RunDirectory(run_directory).result_file();
  if (std::filesystem::exists(result_file)) {
    const Classification result = read_classification(result_file);
    if (!(result.rules == rules_))
      throw InputError(result_file.string() + ": written for other rules than the parts (" +
                       result.rules.describe() + ")");
    complete_ = result.complete;
    highest_ = result.max_index();
  }
}

SavedParts::~SavedParts() = default;

SavedParts::OpenPart* SavedParts::open_part(std::uint64_t number) {
  if (open_ && open_->number == number) return open_.get();
  open_.reset();  // one BuDDy session at a time
  const std::optional<PartFigures> figures = store_->figures(number);
  if (!figures) return nullptr;
  auto part = std::make_unique<OpenPart>();
  part->number = number;
  BddSettings settings;
  settings.initial_nodes = run::kPartInitialNodes;
  settings.cache_size = run::kPartInitialNodes / 4;
  part->session = std::make_unique<BddSession>(0, settings);
  part->encoding = std::make_unique<SlotEncoding>(*part->session, rules_, slot_, numbering_->part(number));
  part->session->ensure_variables(figures->index_variable + figures->index_bits);
  part->loaded = store_->load(number, layer_identity(*part->encoding, rules_.metric()));
  part->session->check();
  open_ = std::move(part);
  return open_.get();
}

bdd SavedParts::layer(OpenPart& part, int index) {
  auto it = part.layers.find(index);
  if (it == part.layers.end()) it = part.layers.emplace(index, PartStore::layer(part.loaded, index)).first;
  return it->second;
}

SavedParts::BoardIndex SavedParts::index_of(const Board& board) {
  BoardIndex answer;
  const DomainPart domain_part = part_of(partition_, board);
  answer.part = domain_part.name(rules_.size());
  OpenPart* part = open_part(numbering_->number(domain_part));
  if (part == nullptr) return answer;
  answer.part_finished = true;
  answer.part_complete = part->loaded.figures.complete;
  answer.part_layers = static_cast<int>(part->loaded.figures.layers.size());
  const bdd minterm = part->encoding->encode(board);
  for (int i = 0; i < answer.part_layers; ++i)
    if ((layer(*part, i) & minterm) != bddfalse) {
      answer.index = i;
      break;
    }
  return answer;
}

std::vector<Board> SavedParts::solution(const Board& board, int index) {
  OpenPart* part = open_part(numbering_->number(part_of(partition_, board)));
  if (part == nullptr) throw std::logic_error("solution: the board's part is not finished");
  std::vector<Board> path = {board};
  // Every successor on a shortest path lies in the same part.
  for (int i = index; i > 0; --i) {
    bool found = false;
    for (Board& next : neighbours(rules_.metric(), path.back())) {
      if ((layer(*part, i - 1) & part->encoding->encode(next)) != bddfalse) {
        path.push_back(std::move(next));
        found = true;
        break;
      }
    }
    if (!found)
      throw std::runtime_error("part " + std::to_string(part->number) + ": layer " + std::to_string(i - 1) +
                               " has no successor of a board of index " + std::to_string(i) +
                               ": the saved layers are inconsistent");
  }
  return path;
}

void SavedParts::for_each_finished_part(const std::function<void(const PartFigures&)>& visit) const {
  for_each_part(partition_, rules_, [&](const DomainPart& part) {
    if (const std::optional<PartFigures> figures = store_->figures(numbering_->number(part))) visit(*figures);
    return true;
  });
}

SavedParts::PartSums SavedParts::sums() const {
  PartSums sums;
  sums.parts = count_parts(partition_, rules_);
  for_each_finished_part([&](const PartFigures& figures) {
    ++sums.finished;
    sums.digests.emplace_back(figures.number, part_digest(figures));
    sums.domain += figures.domain;
    sums.winning += figures.winning;
    sums.solvable += figures.solvable;
    sums.unsolvable += figures.unsolvable;
    if (sums.per_index.size() < figures.layers.size()) sums.per_index.resize(figures.layers.size(), 0);
    for (std::size_t i = 0; i < figures.layers.size(); ++i) sums.per_index[i] += figures.layers[i].count;
  });
  return sums;
}

Count SavedParts::count(int index, const VehicleFilter& filter) {
  Count total = 0;
  // A complete run's vehicle totals answer a filtered count from one file.
  if (filter && complete_)
    if (const std::optional<PartStore::VehicleTotals> totals = store_->vehicle_totals()) {
      for (const auto& [key, count] : *totals)
        if (std::get<0>(key) == index && filter(std::get<1>(key), std::get<2>(key))) total += count;
      return total;
    }
  std::vector<std::uint64_t> holding;
  for_each_finished_part([&](const PartFigures& figures) {
    if (index < 0 || index >= static_cast<int>(figures.layers.size())) return;
    const Count count = figures.layers[static_cast<std::size_t>(index)].count;
    if (!filter) total += count;
    else if (count > 0) holding.push_back(figures.number);
  });
  for (std::uint64_t number : holding) {
    OpenPart* part = open_part(number);
    const bdd states = layer(*part, index) & part->encoding->vehicle_counts_where(filter);
    total += part->encoding->state_set(states).count();
  }
  return total;
}

std::vector<Board> SavedParts::first_boards(int index, const VehicleFilter& filter, int limit) {
  if (limit <= 0) return {};
  std::vector<std::uint64_t> holding;
  for_each_finished_part([&](const PartFigures& figures) {
    if (index < 0 || index >= static_cast<int>(figures.layers.size()) ||
        figures.layers[static_cast<std::size_t>(index)].count == 0)
      return;
    // The part's vehicle counts (in its header) say whether it holds any board the filter
    // accepts, so that only those parts are opened.
    if (filter && figures.has_vehicle_counts &&
        std::none_of(figures.vehicle_counts.begin(), figures.vehicle_counts.end(), [&](const PartFigures::VehicleCount& v) {
          return static_cast<int>(v.index) == index && filter(v.cars, v.trucks);
        }))
      return;
    holding.push_back(figures.number);
  });
  const EnumerationOrder order(rules_.size(), slot_);
  std::vector<std::pair<std::vector<int>, Board>> first;
  for (std::uint64_t number : holding) {
    OpenPart* part = open_part(number);
    bdd states = layer(*part, index);
    if (filter) states &= part->encoding->vehicle_counts_where(filter);
    int taken = 0;
    part->encoding->for_each_board(states, [&](const Board& board) {
      first.emplace_back(order.key(board), board);
      return ++taken < limit;
    });
    // Only the least `limit` keys so far can be among the first boards.
    std::sort(first.begin(), first.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (static_cast<int>(first.size()) > limit) first.erase(first.begin() + limit, first.end());
  }
  std::vector<Board> boards;
  for (auto& [key, board] : first) boards.push_back(std::move(board));
  return boards;
}

}  // namespace rushhour
