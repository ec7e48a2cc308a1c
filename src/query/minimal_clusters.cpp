#include "query/minimal_clusters.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/key_graph.hpp"
#include "board/search.hpp"
#include "explicit/sample_keys.hpp"

namespace rushhour {

MinimalClusterFilter::MinimalClusterFilter(Rules rules, MinimalRule rule, int threads,
                                           std::function<void(const ClusterEntry&)> minimal, std::size_t batch)
    : rules_(std::move(rules)), rule_(rule), threads_(std::max(1, threads)), minimal_(std::move(minimal)),
      batch_size_(std::max<std::size_t>(1, batch)) {}

std::optional<std::string> MinimalClusterFilter::listed_board(const ClusterEntry& entry, MinimalTest& test) const {
  const Board canonical = parse_board(entry.board, rules_);
  const int index = static_cast<int>(entry.record.highest_index);
  // The canonical board is the first in the listing's order: where it is the only hardest
  // configuration, or the rule tests it alone, or it is minimal (Any), no search is needed.
  if (entry.record.hardest_count == 1 || rule_ == MinimalRule::Canonical || index == 0) {
    if (is_minimal(rules_, canonical, index)) return entry.board;
    return std::nullopt;
  }
  if (rule_ == MinimalRule::Any && is_minimal(rules_, canonical, index)) return entry.board;
  const ComponentIndices component = component_indices(rules_, canonical);
  const SampleKeys keys(rules_);
  std::vector<std::pair<SampleKey, Board>> hardest;
  for (std::size_t k = 0; k < component.keys.size(); ++k)
    if (component.index[k] == index) {
      Board board = board_of_key(component.keys[k], rules_.size());
      hardest.emplace_back(keys.key(board), std::move(board));
    }
  if (hardest.size() != entry.record.hardest_count)
    throw std::invalid_argument("the cluster of " + entry.board + " holds " + std::to_string(hardest.size()) +
                                " configurations of its highest index, its record " +
                                std::to_string(entry.record.hardest_count));
  std::sort(hardest.begin(), hardest.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<BoardKey> board_keys;
  for (const auto& [key, board] : hardest) board_keys.push_back(board.key());
  const std::optional<std::size_t> chosen = test.choose(board_keys, index, rule_);
  if (!chosen) return std::nullopt;
  return to_board_string(rules_, hardest[*chosen].second);
}

void MinimalClusterFilter::add(const ClusterEntry& entry) {
  batch_.push_back(entry);
  if (batch_.size() >= batch_size_) test_batch();
}

void MinimalClusterFilter::finish() {
  if (!batch_.empty()) test_batch();
}

void MinimalClusterFilter::test_batch() {
  std::vector<std::optional<std::string>> kept(batch_.size());
  // Rows are dealt one at a time: a row's test costs from nothing to seconds.
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&] {
    try {
      // One test per thread, carried from row to row: rows of one work item lie together.
      MinimalTest test(rules_);
      for (std::size_t k; !failed && (k = next++) < batch_.size();) {
        const ClusterEntry& e = batch_[k];
        kept[k] = listed_board(e, test);
      }
    } catch (const std::invalid_argument& e) {
      // A record whose index is not its board's: the file is damaged.
      if (!failed.exchange(true)) failure = std::make_exception_ptr(InputError(std::string("a cluster record is wrong: ") + e.what()));
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads_ && static_cast<std::size_t>(t) < batch_.size(); ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);
  tested_ += batch_.size();
  for (std::size_t k = 0; k < batch_.size(); ++k)
    if (kept[k]) {
      batch_[k].board = std::move(*kept[k]);
      minimal_(batch_[k]);
    }
  batch_.clear();
}

}  // namespace rushhour
