#include "query/saved_run.hpp"

#include "bdd/bdd_util.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "run/run_directory.hpp"
#include "storage/bdd_file.hpp"
#include "storage/classification_file.hpp"

namespace rushhour {

SavedRun::SavedRun(BddSession& session, const std::filesystem::path& run_directory)
    : session_(session) {
  run::RunDirectory::OpenedLayers opened = run::RunDirectory(run_directory).open_layers(session);
  rules_ = std::move(opened.rules);
  encoding_ = std::move(opened.encoding);
  store_ = std::move(opened.store);
  finished_ = store_->finished_layers();

  const auto result_file = run::RunDirectory(run_directory).result_file();
  if (std::filesystem::exists(result_file)) {
    const Classification result = read_classification(result_file);
    if (!(result.rules == *rules_))
      throw InputError(result_file.string() + ": written for other rules than the layers (" +
                       result.rules.describe() + ")");
    complete_ = result.complete && result.max_index() == finished_ - 1;
  }
}

const bdd& SavedRun::layer(int index) {
  if (index < 0 || index >= finished_) throw std::out_of_range("layer index");
  auto it = loaded_.find(index);
  if (it == loaded_.end()) {
    bdd loaded = store_->load_one(index);
    session_.check();
    it = loaded_.emplace(index, std::move(loaded)).first;
  }
  return it->second;
}

bool SavedRun::layer_contains(int index, const Board& board) {
  return layer_contains(index, cube_values(encoding_->encode(board)));
}

bool SavedRun::layer_contains(int index, std::span<const signed char> values) {
  if (index < 0 || index >= finished_) throw std::out_of_range("layer index");
  auto it = probes_.find(index);
  if (it == probes_.end()) {
    BddFileProbe probe(store_->layer_path(index));
    store_->check_header(index, probe.header());
    it = probes_.emplace(index, std::move(probe)).first;
  }
  return it->second.contains(values);
}

std::optional<int> SavedRun::index_of(const Board& board) {
  const std::vector<signed char> values = cube_values(encoding_->encode(board));
  for (int i = 0; i < finished_; ++i)
    if (layer_contains(i, values)) return i;
  return std::nullopt;
}

std::vector<Board> SavedRun::solution(const Board& board, int index) {
  std::vector<Board> path = {board};
  for (int i = index; i > 0; --i) {
    bool found = false;
    for (Board& next : neighbours(rules_->metric(), path.back())) {
      if (layer_contains(i - 1, next)) {
        path.push_back(std::move(next));
        found = true;
        break;
      }
    }
    if (!found) throw std::runtime_error("layer " + std::to_string(i - 1) + " has no successor of a board of index " + std::to_string(i) + ": the saved layers are inconsistent");
  }
  return path;
}

}  // namespace rushhour
