#include "run/rank_dealing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "util/clock.hpp"
#include "util/process.hpp"

#ifdef RUSHHOUR_WITH_MPI
#include <mpi.h>
#endif

namespace rushhour::run {

ItemDealer::ItemDealer(std::vector<ItemRange> ranges) : ranges_(std::move(ranges)), remaining_(count_of(ranges_)) {
  if (!ranges_.empty()) at_ = ranges_.front().begin;
}

std::optional<std::uint64_t> ItemDealer::next() {
  if (remaining_ == 0) return std::nullopt;
  while (at_ >= ranges_[range_].end) at_ = ranges_[++range_].begin;
  --remaining_;
  return at_++;
}

std::vector<ItemRange> ItemDealer::batch(std::uint64_t want, int ranks) {
  std::uint64_t size = std::clamp<std::uint64_t>(remaining_ / (4 * static_cast<std::uint64_t>(ranks)),
                                                 std::max<std::uint64_t>(want, 1), std::max(want, kMaxBatch));
  std::vector<ItemRange> batch;
  while (size > 0 && remaining_ > 0) {
    while (at_ >= ranges_[range_].end) at_ = ranges_[++range_].begin;
    const std::uint64_t end = std::min(ranges_[range_].end, at_ + size);
    batch.push_back({at_, end});
    size -= end - at_;
    remaining_ -= end - at_;
    at_ = end;
  }
  return batch;
}

std::optional<std::uint64_t> ItemQueue::next() {
  std::unique_lock lock(mutex_);
  more_.wait(lock, [&] { return !items_.empty() || no_more_ || stop_; });
  if (items_.empty() || stop_) return std::nullopt;
  const std::uint64_t item = items_.front();
  items_.pop_front();
  return item;
}

void ItemQueue::add(const std::vector<std::uint64_t>& ranges) {
  {
    const std::lock_guard lock(mutex_);
    if (ranges.empty()) no_more_ = true;
    for (std::size_t k = 0; k + 1 < ranges.size(); k += 2)
      for (std::uint64_t item = ranges[k]; item < ranges[k + 1]; ++item) items_.push_back(item);
  }
  more_.notify_all();
}

void ItemQueue::stop() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  more_.notify_all();
}

bool ItemQueue::wants_more(std::uint64_t want) {
  const std::lock_guard lock(mutex_);
  return !no_more_ && !stop_ && items_.size() <= want;
}

std::uint64_t word_of_double(double value) {
  std::uint64_t word = 0;
  std::memcpy(&word, &value, sizeof word);
  return word;
}

double double_of_word(std::uint64_t word) {
  double value = 0;
  std::memcpy(&value, &word, sizeof value);
  return value;
}

void append_text(std::vector<std::uint64_t>& words, const std::string& text) {
  words.push_back(text.size());
  const std::size_t at = words.size();
  words.resize(at + (text.size() + 7) / 8, 0);
  std::memcpy(words.data() + at, text.data(), text.size());
}

std::string read_text(const std::vector<std::uint64_t>& words, std::size_t& at) {
  if (at >= words.size()) throw std::runtime_error("a text message is cut short");
  const std::uint64_t length = words[at++];
  if (length > (words.size() - at) * 8) throw std::runtime_error("a text message is cut short");
  std::string text(static_cast<std::size_t>(length), '\0');
  std::memcpy(text.data(), words.data() + at, text.size());
  at += (text.size() + 7) / 8;
  return text;
}

#ifdef RUSHHOUR_WITH_MPI
namespace {

enum Tag : int { kRequest = 1, kWork, kResults, kDone, kStop };

void send_words(const std::vector<std::uint64_t>& words, int to, int tag) {
  MPI_Send(words.data(), static_cast<int>(words.size()), MPI_UINT64_T, to, tag, MPI_COMM_WORLD);
}

std::vector<std::uint64_t> receive_words(const MPI_Status& probed) {
  int count = 0;
  MPI_Get_count(&probed, MPI_UINT64_T, &count);
  std::vector<std::uint64_t> words(static_cast<std::size_t>(count));
  MPI_Recv(words.data(), count, MPI_UINT64_T, probed.MPI_SOURCE, probed.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return words;
}

// The probed message into `buffer`, which keeps its memory from one message to the next: rank 0
// receives a message from every rank every second or so, up to megabytes each, and a fresh
// vector per message cost it more in zeroing and page faults than adding the results
// (results/cluster.md, "Rank 0 at scale").
std::span<const std::uint64_t> receive_into(std::vector<std::uint64_t>& buffer, const MPI_Status& probed) {
  int count = 0;
  MPI_Get_count(&probed, MPI_UINT64_T, &count);
  if (buffer.size() < static_cast<std::size_t>(count)) buffer.resize(static_cast<std::size_t>(count));
  MPI_Recv(buffer.data(), count, MPI_UINT64_T, probed.MPI_SOURCE, probed.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return {buffer.data(), static_cast<std::size_t>(count)};
}

std::uint64_t cpu_word() { return word_of_double(process_cpu_seconds()); }

double cpu_of(std::uint64_t word) { return double_of_word(word); }

}  // namespace

void serve_ranks(const RankServer& server) {
  int active = server.ranks - 1;
  bool stopped = false;
  std::vector<std::uint64_t> buffer;
  while (active > 0 || !server.local_finished()) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
    if (flag) {
      const std::span<const std::uint64_t> words = receive_into(buffer, status);
      if (status.MPI_TAG == kRequest) {
        std::vector<std::uint64_t> batch;
        for (const ItemRange& r : server.batch(words.empty() ? 1 : words[0])) batch.insert(batch.end(), {r.begin, r.end});
        send_words(batch, status.MPI_SOURCE, kWork);
      } else if (status.MPI_TAG == kResults) {  // the rank's CPU seconds, then its results
        if (words.empty()) throw std::runtime_error("an empty results message");
        server.results(status.MPI_SOURCE, cpu_of(words[0]), words.subspan(1));
      } else if (status.MPI_TAG == kDone) {  // with the rank's final CPU seconds
        if (words.size() == 1) server.done(status.MPI_SOURCE, cpu_of(words[0]));
        --active;
      }
      continue;
    }
    if (!stopped && server.should_stop()) {
      stopped = true;
      server.on_stop();
      for (int r = 1; r < server.ranks; ++r) send_words({}, r, kStop);
    }
    server.tick();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void serve_rank0(ItemQueue& queue, const RankClient& client) {
  bool requested = false;
  auto last_look = Clock::now(), last_message = Clock::now();
  for (;;) {
    const bool done = client.local_finished();
    if (seconds_since(last_look) >= 1.0 || done) {
      std::vector<std::uint64_t> words = client.take_results();
      if (!words.empty() || seconds_since(last_message) >= kHeartbeatSeconds) {
        words.insert(words.begin(), cpu_word());
        send_words(words, 0, kResults);
        last_message = Clock::now();
      }
      last_look = Clock::now();
    }
    if (done) break;
    if (client.should_stop()) queue.stop();
    if (!requested && queue.wants_more(client.want)) {  // one batch ahead
      send_words({client.want}, 0, kRequest);
      requested = true;
    }
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
    if (!flag) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    const std::vector<std::uint64_t> words = receive_words(status);
    if (status.MPI_TAG == kWork) {
      requested = false;
      queue.add(words);
    } else if (status.MPI_TAG == kStop) {
      queue.stop();
    }
  }
  send_words({cpu_word()}, 0, kDone);
  // A request answered after the stop is left unread: finalising does not wait on it.
}

bool job_starts(bool starts) {
  int flag = starts ? 1 : 0;
  MPI_Bcast(&flag, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return flag != 0;
}

void with_mpi(const std::function<void(int rank, int ranks)>& job) {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  try {
    job(rank, ranks);
  } catch (...) {
    MPI_Finalize();
    throw;
  }
  MPI_Finalize();
}

[[noreturn]] void abort_job(const std::string& why, int rank) {
  std::fprintf(stderr, "rushhour: rank %d: %s; ending the job (finished items are kept)\n", rank, why.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}
#endif

}  // namespace rushhour::run
