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
#include "board/search.hpp"

namespace rushhour {

MinimalClusterFilter::MinimalClusterFilter(Rules rules, int threads, std::function<void(const ClusterEntry&)> minimal,
                                           std::size_t batch)
    : rules_(std::move(rules)), threads_(std::max(1, threads)), minimal_(std::move(minimal)), batch_size_(std::max<std::size_t>(1, batch)) {}

void MinimalClusterFilter::add(const ClusterEntry& entry) {
  batch_.push_back(entry);
  if (batch_.size() >= batch_size_) test_batch();
}

void MinimalClusterFilter::finish() {
  if (!batch_.empty()) test_batch();
}

void MinimalClusterFilter::test_batch() {
  std::vector<char> kept(batch_.size(), 0);
  // Rows are dealt one at a time: a row's test costs from nothing to seconds.
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&] {
    try {
      for (std::size_t k; !failed && (k = next++) < batch_.size();) {
        const ClusterEntry& e = batch_[k];
        kept[k] = is_minimal(rules_, parse_board(e.board, rules_), static_cast<int>(e.record.highest_index)) ? 1 : 0;
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
    if (kept[k]) minimal_(batch_[k]);
  batch_.clear();
}

}  // namespace rushhour
