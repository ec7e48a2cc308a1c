#include "app/options.hpp"

#include <fstream>
#include <iostream>

#include "board/errors.hpp"

namespace rushhour::app {

std::optional<po::variables_map> parse_options(const std::string& usage,
                                               po::options_description options,
                                               const std::vector<std::string>& args) {
  options.add_options()("config", po::value<std::string>(), "read options from an INI file")(
      "help,h", "show this help");
  po::variables_map vm;
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
      try {
        // Values already stored from the command line are kept: the command line wins.
        po::store(po::parse_config_file(file, options, /*allow_unregistered=*/false), vm);
      } catch (const po::error& e) {
        throw InputError("config file '" + path + "': " + e.what());
      }
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(e.what());
  }
  return vm;
}

std::vector<int> parse_int_list(const std::string& text, const std::string& option_name) {
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
      for (int v = from; v <= to; ++v) values.push_back(v);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return values;
}

}  // namespace rushhour::app
