#pragma once
// The MPI transport of the job scheduler (run/job_scheduler.hpp). Rank 0 keeps the units to
// run and hands out batches on request (ItemDealer: guided self-scheduling, a quarter of the
// remaining units per rank, at most kMaxBatch, at least what the asking rank takes at once),
// so a rank that meets costly units simply asks less often. Every rank, rank 0 too, runs its
// units on threads of its own; only the main thread calls MPI (MPI_THREAD_FUNNELED). A rank
// sends the results of its finished units to rank 0 at least every second, as 64-bit words
// whose meaning is the caller's, and with none to send, its CPU seconds every
// kHeartbeatSeconds: rank 0 counts a rank silent for longer as lost. A stop (a signal) on rank 0 tells every rank to stop; the
// ranks finish or interrupt their running units, send what they have and end.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "explicit/class_census.hpp"

namespace rushhour::run {

inline constexpr std::uint64_t kMaxBatch = 256;
// A rank with no finished unit to send still tells rank 0 it is there this often (its CPU
// seconds), so that a silent rank is a lost one (SchedulerSettings::lost_rank_seconds).
inline constexpr double kHeartbeatSeconds = 2;

// The items to run (ranges in the order they are dealt), one at a time (this process) or in
// batches (ranks).
class ItemDealer {
 public:
  explicit ItemDealer(std::vector<ItemRange> ranges);
  std::uint64_t remaining() const { return remaining_; }
  std::optional<std::uint64_t> next();
  // Guided self-scheduling: a quarter of the remaining items per rank, within [want, kMaxBatch].
  std::vector<ItemRange> batch(std::uint64_t want, int ranks);

 private:
  std::vector<ItemRange> ranges_;
  std::size_t range_ = 0;
  std::uint64_t at_ = 0;
  std::uint64_t remaining_;
};

// A rank's items as rank 0 deals them: next() waits for an item and returns nullopt once rank
// 0 has no more or the rank stops.
class ItemQueue {
 public:
  std::optional<std::uint64_t> next();
  bool stopped() const { return stop_; }
  // Rank 0's batch (ranges as begin, end words; none: no more).
  void add(const std::vector<std::uint64_t>& ranges);
  void stop();
  // Whether to ask for the next batch: it holds at most `want` items and more may come.
  bool wants_more(std::uint64_t want);

 private:
  std::mutex mutex_;
  std::condition_variable more_;
  std::deque<std::uint64_t> items_;
  bool no_more_ = false;
  std::atomic<bool> stop_{false};
};

// Rank 0's side of the dealing.
struct RankServer {
  int ranks = 1;
  // The next batch for a rank that takes `want` items at once (empty: no more).
  std::function<std::vector<ItemRange>(std::uint64_t want)> batch;
  // Results of `rank`'s finished items (cpu: its process's CPU seconds so far).
  std::function<void(int rank, double cpu, std::span<const std::uint64_t> words)> results;
  // `rank` has ended (its process's CPU seconds).
  std::function<void(int rank, double cpu)> done;
  std::function<bool()> local_finished;  // rank 0's own items
  std::function<bool()> should_stop;     // a stop signal arrived
  std::function<void()> on_stop;         // once, when it first did (before the ranks are told)
  std::function<void()> tick;            // often: checkpoints, progress lines
};

// Another rank's side.
struct RankClient {
  std::uint64_t want = 1;  // items it takes at once (it asks one batch ahead)
  // The results of the items finished since the last call, as words (empty: none).
  std::function<std::vector<std::uint64_t>()> take_results;
  std::function<bool()> local_finished;
  std::function<bool()> should_stop;
};

#ifdef RUSHHOUR_WITH_MPI
// Rank 0: deals and gathers until every other rank has ended and local_finished() holds.
void serve_ranks(const RankServer& server);
// Another rank: fills `queue` from rank 0 and sends the results until local_finished() holds,
// then its last results and its end.
void serve_rank0(ItemQueue& queue, const RankClient& client);
// Whether the job starts (rank 0 says, after its checks; every rank learns it).
bool job_starts(bool starts);
// Initialises MPI (threads funnelled), runs `job(rank, ranks)` and finalises MPI.
void with_mpi(const std::function<void(int rank, int ranks)>& job);
// Ends every rank of the job after a failure on this one (its finished items are kept).
[[noreturn]] void abort_job(const std::string& why, int rank);
#endif

// A double as a 64-bit word (its bits) and back.
std::uint64_t word_of_double(double value);
double double_of_word(std::uint64_t word);

// Text as 64-bit words (its length, then its bytes) and back, for results that are text.
void append_text(std::vector<std::uint64_t>& words, const std::string& text);
// Reads a text at `at` (advanced past it); throws std::runtime_error if the words are cut short.
std::string read_text(const std::vector<std::uint64_t>& words, std::size_t& at);

}  // namespace rushhour::run
