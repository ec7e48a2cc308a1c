#include "storage/run_digest.hpp"

#include <cstdio>

#include "board/rules_codec.hpp"
#include "util/fnv1a.hpp"

namespace rushhour {

void add_index_lines(Fnv1a64& hash, const std::vector<LayerFigures>& layers, const std::vector<Count>& nondominated,
                     const std::vector<std::int64_t>& components) {
  for (std::size_t i = 0; i < layers.size(); ++i) {
    // Appended piece by piece: `text += " " + s` trips a GCC 12 -Wrestrict false positive.
    std::string text = std::to_string(i);
    text += ' ';
    text += to_string(layers[i].count);
    if (i < nondominated.size()) {
      text += ' ';
      text += to_string(nondominated[i]);
    }
    if (i < components.size()) {
      text += ' ';
      text += std::to_string(components[i]);
    }
    text += '\n';
    hash.add(text);
  }
}

std::string run_digest(const Classification& c) {
  Fnv1a64 hash;
  const auto line = [&hash](const std::string& text) {
    hash.add(text);
    hash.add("\n");
  };
  line("rushhour run digest 1");
  line(rules_text(c.rules));
  line(to_string(c.domain_count) + " " + to_string(c.winning_count) + " " + to_string(c.solvable_count) + " " +
       to_string(c.unsolvable_count));
  add_index_lines(hash, c.layers, c.nondominated, c.components);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash.value()));
  return text;
}

}  // namespace rushhour
