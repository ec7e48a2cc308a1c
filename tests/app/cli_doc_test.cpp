// docs/cli.md holds each command's --help output verbatim (a `<!-- help: rushhour [COMMAND]
// --help -->` line, then a ```text block). These tests fail when the doc and the binary
// disagree: a changed option, a command the doc lacks, a block of a command that is gone.
// `/usr/bin/python3 scripts/update_cli_doc.py` rewrites the blocks from the built binary.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace {

using rushhour::test_support::run_rushhour;

constexpr const char* kFix = "; run /usr/bin/python3 scripts/update_cli_doc.py";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Command ("" for the top level) -> the text of its block, each line ending in '\n'.
std::map<std::string, std::string> documented_help() {
  std::ifstream in(std::string(RUSHHOUR_SOURCE_DIR) + "/docs/cli.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::vector<std::string> lines = lines_of(text.str());
  const std::string open = "<!-- help: rushhour";
  const std::string close = " --help -->";
  std::map<std::string, std::string> blocks;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.rfind(open, 0) != 0 || line.size() < open.size() + close.size() ||
        line.compare(line.size() - close.size(), close.size(), close) != 0)
      continue;
    std::string command = line.substr(open.size(), line.size() - open.size() - close.size());
    if (!command.empty() && command[0] == ' ') command.erase(0, 1);
    EXPECT_TRUE(i + 1 < lines.size() && lines[i + 1] == "```text")
        << "docs/cli.md line " << i + 1 << ": no ```text block after the marker";
    std::string body;
    std::size_t end = i + 2;
    for (; end < lines.size() && lines[end] != "```"; ++end) body += lines[end] + "\n";
    EXPECT_LT(end, lines.size()) << "docs/cli.md: unclosed block of '" << command << "'";
    EXPECT_EQ(blocks.count(command), 0u) << "docs/cli.md: two blocks of '" << command << "'";
    blocks[command] = body;
    i = end;
  }
  return blocks;
}

// The subcommands under "commands:" in `rushhour --help`.
std::set<std::string> listed_commands(const std::string& top_help) {
  std::set<std::string> commands;
  bool inside = false;
  for (const std::string& line : lines_of(top_help)) {
    if (line == "commands:") {
      inside = true;
    } else if (inside && line.find_first_not_of(' ') == std::string::npos) {
      break;
    } else if (inside) {
      std::istringstream words(line);
      std::string word;
      words >> word;
      commands.insert(word);
    }
  }
  return commands;
}

TEST(CliDoc, DocumentsExactlyTheCommandsTheBinaryLists) {
  const auto top = run_rushhour("--help");
  ASSERT_EQ(top.status, 0) << top.err;
  std::set<std::string> expected = listed_commands(top.out);
  ASSERT_GE(expected.size(), 3u) << top.out;  // classify, explode, query at least
  expected.insert("");
  std::set<std::string> documented;
  for (const auto& [command, body] : documented_help()) documented.insert(command);
  EXPECT_EQ(documented, expected) << "docs/cli.md and `rushhour --help` name other commands"
                                  << kFix;
}

TEST(CliDoc, EveryBlockEqualsTheHelpOutput) {
  const auto blocks = documented_help();
  ASSERT_FALSE(blocks.empty()) << "docs/cli.md has no help block";
  for (const auto& [command, body] : blocks) {
    const auto run = run_rushhour(command.empty() ? "--help" : command + " --help");
    ASSERT_EQ(run.status, 0) << "rushhour " << command << " --help: " << run.err;
    EXPECT_EQ(body, run.out) << "docs/cli.md: the block of 'rushhour " << command
                             << " --help' differs from the binary's output" << kFix;
  }
}

}  // namespace
