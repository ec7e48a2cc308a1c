#pragma once
// What a run tells while it works: progress lines (stderr and an optional log file), the
// stop signals that end it at a safe point, and the formatting shared by every engine.
#include <csignal>
#include <cstdint>
#include <fstream>
#include <string>

#include "board/count.hpp"

namespace rushhour::run {

// Progress lines go to stderr (unless quiet) and, appended, to the log file when one is named.
class ProgressLog {
 public:
  // Throws InputError if the log file cannot be opened.
  ProgressLog(bool quiet, const std::string& file);
  void line(const std::string& text);

 private:
  bool quiet_;
  std::ofstream file_;
};

// SIGINT/SIGTERM while an instance lives: the first one asks the run to stop at its next safe
// point (between layers, between work items), after which the result is written as it is; a
// second one ends the process at once, which is safe because every file is replaced
// atomically. One instance at a time.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  // The signal received (0 = none yet).
  int received() const;
  // The same, for code that holds no reference to the instance (engines' should_stop hooks).
  static bool stop_requested();

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};

// "123 MiB".
std::string mib(std::uint64_t bytes);

// "45 s", "12.5 min", "3.2 h".
std::string duration_text(double seconds);
// The time left if the rest goes at the rate so far: `done` of `total` units took `seconds`
// ("unknown" before any unit is done).
std::string eta_text(double seconds, double done, double total);

// One progress line of a finished layer: index, count, BDD nodes, seconds, elapsed, RSS.
std::string layer_line(int index, Count count, std::uint64_t nodes, double seconds,
                       double elapsed);

}  // namespace rushhour::run
