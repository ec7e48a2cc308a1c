#include "util/forked_workers.hpp"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace rushhour {
namespace {

// A message: one kind byte, the payload's size (8 bytes, host order: both ends are this
// program on this machine), the payload.
constexpr char kJob = 'J';
constexpr char kResult = 'R';
constexpr char kError = 'E';

bool write_all(int fd, const void* data, std::size_t size) {
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t written = ::write(fd, bytes, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

// Returns the bytes read: `size` or fewer at the end of the stream.
std::size_t read_all(int fd, void* data, std::size_t size) {
  char* bytes = static_cast<char*>(data);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = ::read(fd, bytes + done, size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    done += static_cast<std::size_t>(got);
  }
  return done;
}

bool write_message(int fd, char kind, const std::string& payload) {
  const std::uint64_t size = payload.size();
  return write_all(fd, &kind, 1) && write_all(fd, &size, sizeof size) &&
         write_all(fd, payload.data(), payload.size());
}

// False at the end of the stream (or a message cut short: the writer died).
bool read_message(int fd, char& kind, std::string& payload) {
  std::uint64_t size = 0;
  if (read_all(fd, &kind, 1) != 1 || read_all(fd, &size, sizeof size) != sizeof size) return false;
  payload.resize(size);
  return read_all(fd, payload.data(), size) == size;
}

[[noreturn]] void child_loop(int jobs, int results, const ForkedWorkers::Work& work) {
  char kind = 0;
  std::string job;
  while (read_message(jobs, kind, job)) {
    std::string reply;
    char reply_kind = kResult;
    try {
      reply = work(job);
    } catch (const std::exception& e) {
      reply_kind = kError;
      reply = e.what();
    } catch (...) {
      reply_kind = kError;
      reply = "unknown exception";
    }
    if (!write_message(results, reply_kind, reply)) ::_exit(1);
  }
  // _exit: the parent's atexit handlers and static destructors are the parent's business.
  ::_exit(0);
}

std::string exit_description(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "status " + std::to_string(status);
}

}  // namespace

ForkedWorkers::ForkedWorkers(int workers, Work work, Done done, std::function<void()> while_waiting)
    : done_(std::move(done)), while_waiting_(std::move(while_waiting)) {
  // A child that died must show as a failed write, not end the parent by SIGPIPE.
  previous_sigpipe_ = std::signal(SIGPIPE, SIG_IGN);
  const pid_t parent = ::getpid();
  for (int w = 0; w < workers; ++w) {
    int jobs[2], results[2];
    if (::pipe(jobs) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
    if (::pipe(results) != 0) {
      ::close(jobs[0]);
      ::close(jobs[1]);
      throw std::system_error(errno, std::generic_category(), "pipe");
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
      for (int fd : {jobs[0], jobs[1], results[0], results[1]}) ::close(fd);
      throw std::system_error(errno, std::generic_category(), "fork");
    }
    if (pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(1);  // the parent died before prctl
      // A process group of its own: a signal to the parent's group (Ctrl-C at a terminal)
      // reaches the parent alone, which passes one SIGTERM on (interrupt()); a worker that got
      // both would take the second as "end at once" and die without its result.
      ::setpgid(0, 0);
      std::signal(SIGPIPE, SIG_DFL);
      for (const Child& other : children_) {
        ::close(other.jobs);
        ::close(other.results);
      }
      ::close(jobs[1]);
      ::close(results[0]);
      child_loop(jobs[0], results[1], work);
    }
    ::close(jobs[0]);
    ::close(results[1]);
    children_.push_back({pid, jobs[1], results[0], false});
  }
}

ForkedWorkers::~ForkedWorkers() {
  end_children(true);
  std::signal(SIGPIPE, previous_sigpipe_);
}

void ForkedWorkers::submit(const std::string& job) {
  while (true) {
    for (Child& child : children_) {
      if (child.busy) continue;
      if (!write_message(child.jobs, kJob, job))
        throw std::runtime_error("a worker process could not take a job (" + std::string(std::strerror(errno)) + ")");
      child.busy = true;
      return;
    }
    collect();
  }
}

void ForkedWorkers::finish() {
  while (true) {
    bool busy = false;
    for (const Child& child : children_) busy = busy || child.busy;
    if (!busy) break;
    collect();
  }
  end_children(false);
}

void ForkedWorkers::interrupt() {
  if (interrupted_) return;
  interrupted_ = true;
  for (const Child& child : children_) ::kill(child.pid, SIGTERM);
}

void ForkedWorkers::collect() {
  std::vector<pollfd> waiting;
  std::vector<std::size_t> whose;
  for (std::size_t c = 0; c < children_.size(); ++c)
    if (children_[c].busy) {
      waiting.push_back({children_[c].results, POLLIN, 0});
      whose.push_back(c);
    }
  if (waiting.empty()) throw std::logic_error("ForkedWorkers::collect with no job out");
  while (true) {
    // A timeout, so that the caller can check for a stop while every child is busy.
    const int ready = ::poll(waiting.data(), waiting.size(), 200);
    if (while_waiting_) while_waiting_();
    if (ready < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "poll");
    if (ready <= 0) continue;
    for (std::size_t k = 0; k < waiting.size(); ++k) {
      if (waiting[k].revents == 0) continue;
      Child& child = children_[whose[k]];
      char kind = 0;
      std::string payload;
      if (!read_message(child.results, kind, payload)) {
        int status = 0;
        ::waitpid(child.pid, &status, 0);
        child.pid = -1;
        throw std::runtime_error("a worker process ended without its result (" + exit_description(status) + ")");
      }
      child.busy = false;
      if (kind == kError) throw std::runtime_error(payload);
      done_(static_cast<int>(whose[k]), payload);
      return;
    }
  }
}

void ForkedWorkers::end_children(bool kill_them) {
  for (Child& child : children_) {
    if (child.pid > 0 && kill_them) ::kill(child.pid, SIGKILL);
    if (child.jobs >= 0) ::close(child.jobs);
    if (child.results >= 0) ::close(child.results);
    child.jobs = child.results = -1;
  }
  std::string failure;
  for (Child& child : children_) {
    if (child.pid <= 0) continue;
    int status = 0;
    while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!kill_them && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
      failure = "a worker process failed at its end (" + exit_description(status) + ")";
    child.pid = -1;
  }
  children_.clear();
  if (!failure.empty()) throw std::runtime_error(failure);
}

}  // namespace rushhour
