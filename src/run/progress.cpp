#include "run/progress.hpp"

#include <cstdio>
#include <iostream>

#include "board/errors.hpp"
#include "util/process.hpp"

namespace rushhour::run {
namespace {

volatile std::sig_atomic_t stop_signal = 0;

extern "C" void on_stop_signal(int signal_number) {
  if (stop_signal != 0) {
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
    return;
  }
  stop_signal = signal_number;
}

}  // namespace

ProgressLog::ProgressLog(bool quiet, const std::string& file) : quiet_(quiet) {
  if (!file.empty()) {
    file_.open(file, std::ios::app);
    if (!file_) throw InputError("cannot open log file '" + file + "'");
  }
}

void ProgressLog::line(const std::string& text) {
  if (!quiet_) std::cerr << text << std::endl;
  if (file_.is_open()) file_ << text << std::endl;
}

StopSignals::StopSignals() {
  stop_signal = 0;
  previous_int_ = std::signal(SIGINT, on_stop_signal);
  previous_term_ = std::signal(SIGTERM, on_stop_signal);
}

StopSignals::~StopSignals() {
  std::signal(SIGINT, previous_int_);
  std::signal(SIGTERM, previous_term_);
}

int StopSignals::received() const { return stop_signal; }

bool StopSignals::stop_requested() { return stop_signal != 0; }

std::string mib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

std::string duration_text(double seconds) {
  char text[40];
  if (seconds < 120) std::snprintf(text, sizeof text, "%.0f s", seconds);
  else if (seconds < 7200) std::snprintf(text, sizeof text, "%.1f min", seconds / 60);
  else std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
  return text;
}

std::string eta_text(double seconds, double done, double total) {
  if (done >= total) return "0 s";
  if (!(done > 0)) return "unknown";
  return duration_text(seconds / done * (total - done));
}

std::string layer_line(int index, Count count, std::uint64_t nodes, double seconds,
                       double elapsed) {
  char text[240];
  std::snprintf(text, sizeof text,
                "layer %3d: %14s configurations, %10llu nodes, %8.2f s, elapsed %9.1f s, RSS %s",
                index, rushhour::to_string(count).c_str(),
                static_cast<unsigned long long>(nodes), seconds, elapsed,
                mib(current_rss_bytes()).c_str());
  return text;
}

}  // namespace rushhour::run
