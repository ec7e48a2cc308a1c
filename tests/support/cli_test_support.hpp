#pragma once
// Runs the built `rushhour` binary (RUSHHOUR_BINARY) for golden CLI tests.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rushhour::test_support {

struct CommandRun {
  int status = -1;
  std::string out;
  std::string err;
};

// Runs a shell command with no stdin, capturing both streams and its exit status.
inline CommandRun run_shell(const std::string& shell_command) {
  static int calls = 0;
  const auto err_path = std::filesystem::temp_directory_path() /
                        ("rushhour_cli_" + std::to_string(::getpid()) + "_" +
                         std::to_string(calls++) + ".err");
  const std::string command = "( " + shell_command + " ) </dev/null 2>" + err_path.string();
  CommandRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr)
    run.out += buffer.data();
  const int raw = ::pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream err(err_path);
  std::stringstream text;
  text << err.rdbuf();
  run.err = text.str();
  std::filesystem::remove(err_path);
  return run;
}

// Runs `rushhour ARGS` (ARGS shell-quoted by the caller).
inline CommandRun run_rushhour(const std::string& args) {
  return run_shell(std::string(RUSHHOUR_BINARY) + " " + args);
}

// What a classify command printed, without its time and memory line (which differs from run
// to run).
inline std::string summary_of(const std::string& out) {
  std::istringstream in(out);
  std::string line, text;
  while (std::getline(in, line))
    if (line.find(" s, peak RSS") == std::string::npos) text += line + "\n";
  return text;
}

// The whole content of a file ("" if it cannot be read).
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fresh empty directory under the system temp directory, removed on destruction.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              (name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& leaf) const { return (path_ / leaf).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace rushhour::test_support
