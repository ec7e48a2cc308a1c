#include "app/options.hpp"

#include <cctype>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string_view>

#include "board/errors.hpp"

namespace rushhour::app {
namespace {

// Boost.Program_options 1.74 builds an error message by replacing each placeholder (%value%,
// %option%, %invalid_line%, ...) with the offending text until none is left, so a token that
// contains its own placeholder makes what() loop forever, growing the message without bound
// (found by fuzzing: `--samples '1%value%'` or a config line `a%original_token% = 1` hung the
// process). Any "%name%" is therefore rejected before Boost sees it.
void reject_placeholders(std::string_view text, const std::string& source) {
  for (std::size_t open = text.find('%'); open != std::string_view::npos;) {
    std::size_t end = open + 1;
    while (end < text.size() && (std::isalpha(static_cast<unsigned char>(text[end])) || text[end] == '_'))
      ++end;
    if (end < text.size() && text[end] == '%' && end > open + 1)
      throw InputError(source + ": '" + std::string(text.substr(open, end + 1 - open)) +
                       "' may not appear in options (a %name% placeholder)");
    open = text.find('%', open + 1);
  }
}

}  // namespace

std::optional<po::variables_map> parse_options(const std::string& usage,
                                               po::options_description options,
                                               const std::vector<std::string>& args) {
  options.add_options()("config", po::value<std::string>(), "read options from an INI file")(
      "help,h", "show this help");
  po::variables_map vm;
  for (const std::string& arg : args) reject_placeholders(arg, "command line");
  try {
    po::store(po::command_line_parser(args).options(options).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n\n" << options << "\n";
      return std::nullopt;
    }
    if (vm.count("config")) {
      const std::string path = vm["config"].as<std::string>();
      std::ifstream file(path);
      if (!file) throw InputError("cannot read config file '" + path + "'");
      store_config(file, options, "config file '" + path + "'", vm);
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(e.what());
  }
  return vm;
}

void store_config(std::istream& text, const po::options_description& options,
                  const std::string& source, po::variables_map& vm) {
  const std::string content((std::istreambuf_iterator<char>(text)), std::istreambuf_iterator<char>());
  reject_placeholders(content, source);
  std::istringstream checked(content);
  try {
    // Values already stored from the command line are kept: the command line wins.
    po::store(po::parse_config_file(checked, options, /*allow_unregistered=*/false), vm);
  } catch (const po::error& e) {
    throw InputError(source + ": " + e.what());
  }
}

std::vector<int> parse_int_list(const std::string& text, const std::string& option_name,
                                int lowest, int highest,
                                const std::function<std::string(int)>& describe) {
  auto number = [&](const std::string& part) {
    std::size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (part.empty() || used != part.size())
      throw InputError("--" + option_name + ": '" + part + "' is not a number");
    if (value < lowest || value > highest)
      throw InputError("--" + option_name + ": " + describe(value) + " is outside " +
                       std::to_string(lowest) + ".." + std::to_string(highest));
    return value;
  };
  std::vector<int> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t dash = part.find('-', 1);
    if (dash == std::string::npos) {
      values.push_back(number(part));
    } else {
      const int from = number(part.substr(0, dash));
      const int to = number(part.substr(dash + 1));
      if (from > to)
        throw InputError("--" + option_name + ": range '" + part + "' is empty (" +
                         std::to_string(from) + " > " + std::to_string(to) + ")");
      // Stops at `to` itself: v <= to would step past INT_MAX.
      for (int v = from;; ++v) {
        values.push_back(v);
        if (v == to) break;
      }
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return values;
}

}  // namespace rushhour::app
