#include "storage/line_diagram_file.hpp"

#include <cstdint>
#include <vector>

#include "board/errors.hpp"
#include "storage/hdf5.hpp"

namespace rushhour {
namespace {

std::uint32_t stored_child(int child) {
  if (child == LineDiagram::kTrue) return 0;
  if (child == LineDiagram::kFalse) return 1;
  return static_cast<std::uint32_t>(child) + 2;
}

int read_child(std::uint32_t stored) {
  if (stored == 0) return LineDiagram::kTrue;
  if (stored == 1) return LineDiagram::kFalse;
  return static_cast<int>(stored - 2);
}

void write_file(const std::filesystem::path& path, const LineDiagram& diagram, const std::string& identity) {
  std::vector<std::uint32_t> lines, level, first_edge, edge_count, arrangement, child, roots;
  for (int line : diagram.lines) lines.push_back(static_cast<std::uint32_t>(line));
  for (const LineDiagram::Node& node : diagram.nodes) {
    level.push_back(static_cast<std::uint32_t>(node.level));
    first_edge.push_back(node.first_edge);
    edge_count.push_back(node.edge_count);
  }
  for (const LineDiagram::Edge& edge : diagram.edges) {
    arrangement.push_back(static_cast<std::uint32_t>(edge.arrangement));
    child.push_back(stored_child(edge.child));
  }
  for (int root : diagram.roots) roots.push_back(stored_child(root));
  h5::File file = h5::File::create(path);
  file.write_attribute<std::string>("content", kWholeLayersContent);
  file.write_attribute<std::int64_t>("format_version", kWholeLayersFormatVersion);
  file.write_attribute<std::string>("identity", identity);
  file.write_dataset("lines", lines);
  file.write_dataset("node_level", level);
  file.write_dataset("node_first_edge", first_edge);
  file.write_dataset("node_edge_count", edge_count);
  file.write_dataset("edge_arrangement", arrangement);
  file.write_dataset("edge_child", child);
  file.write_dataset("roots", roots);
  file.close();
}

// Every index the reader follows lies in range, and every child lies below its parent (the
// reader recurses from a node to its children, so a cycle would not end).
void check_structure(const LineDiagram& diagram, const std::vector<int>& lines, int arrangements) {
  if (diagram.lines != lines) throw h5::Error("its line order is not this run's");
  const auto levels = static_cast<std::uint32_t>(lines.size());
  const std::uint64_t edges = diagram.edges.size();
  for (std::size_t k = 0; k < diagram.nodes.size(); ++k) {
    const LineDiagram::Node& node = diagram.nodes[k];
    if (static_cast<std::uint32_t>(node.level) >= levels || node.edge_count == 0 ||
        std::uint64_t{node.first_edge} + node.edge_count > edges)
      throw h5::Error("node " + std::to_string(k) + " is out of range");
    for (std::uint32_t e = node.first_edge; e < node.first_edge + node.edge_count; ++e) {
      const LineDiagram::Edge& edge = diagram.edges[e];
      const bool child_below = edge.child == LineDiagram::kTrue
                                   ? static_cast<std::uint32_t>(node.level) + 1 == levels
                                   : edge.child >= 0 && static_cast<std::size_t>(edge.child) < k &&
                                         diagram.nodes[static_cast<std::size_t>(edge.child)].level > node.level;
      if (edge.arrangement < 0 || edge.arrangement >= arrangements || !child_below)
        throw h5::Error("edge " + std::to_string(e) + " of node " + std::to_string(k) + " is out of range");
    }
  }
  for (int root : diagram.roots)
    if (root >= static_cast<int>(diagram.nodes.size()) || (root < 0 && root != LineDiagram::kTrue && root != LineDiagram::kFalse))
      throw h5::Error("a root is out of range");
}

std::optional<LineDiagram> read_file(const std::filesystem::path& path, const std::string& identity,
                                     const std::vector<int>& lines, int arrangements) {
  h5::File file = h5::File::open_read_only(path);
  if (!file.has_attribute("content") || file.read_attribute<std::string>("content") != kWholeLayersContent)
    throw h5::Error("not a rushhour whole-layers file");
  const auto version = file.read_attribute<std::int64_t>("format_version");
  if (version != kWholeLayersFormatVersion)
    throw h5::Error("written by format version " + std::to_string(version) + ", this tool reads " +
                    std::to_string(kWholeLayersFormatVersion));
  if (file.read_attribute<std::string>("identity") != identity) return std::nullopt;
  const auto level = file.read_dataset<std::uint32_t>("node_level");
  const auto first_edge = file.read_dataset<std::uint32_t>("node_first_edge");
  const auto edge_count = file.read_dataset<std::uint32_t>("node_edge_count");
  const auto arrangement = file.read_dataset<std::uint32_t>("edge_arrangement");
  const auto child = file.read_dataset<std::uint32_t>("edge_child");
  if (first_edge.size() != level.size() || edge_count.size() != level.size() || child.size() != arrangement.size())
    throw h5::Error("datasets of unequal lengths");
  if (level.size() > static_cast<std::size_t>(INT32_MAX) - 2) throw h5::Error("too many nodes");
  LineDiagram diagram;
  for (std::uint32_t line : file.read_dataset<std::uint32_t>("lines"))
    diagram.lines.push_back(line > 1024 ? -1 : static_cast<int>(line));
  for (std::size_t k = 0; k < level.size(); ++k)
    diagram.nodes.push_back({level[k] > 1024 ? -1 : static_cast<int>(level[k]), first_edge[k], edge_count[k]});
  for (std::size_t e = 0; e < arrangement.size(); ++e)
    diagram.edges.push_back({arrangement[e] > INT32_MAX ? -1 : static_cast<int>(arrangement[e]),
                             child[e] > INT32_MAX ? LineDiagram::kFalse : read_child(child[e])});
  for (std::uint32_t root : file.read_dataset<std::uint32_t>("roots"))
    diagram.roots.push_back(root > INT32_MAX ? static_cast<int>(level.size()) : read_child(root));
  check_structure(diagram, lines, arrangements);
  return diagram;
}

}  // namespace

void save_line_diagram(const std::filesystem::path& path, const LineDiagram& diagram, const std::string& identity) {
  h5::write_atomically(path, [&](const std::filesystem::path& temp) { write_file(temp, diagram, identity); });
}

std::optional<LineDiagram> load_line_diagram(const std::filesystem::path& path, const std::string& identity,
                                             const std::vector<int>& lines, int arrangements) {
  if (!std::filesystem::exists(path)) return std::nullopt;
  try {
    return read_file(path, identity, lines, arrangements);
  } catch (const h5::Error& error) {
    throw InputError(path.string() + ": " + error.what() + " (remove it to compute the whole layers again)");
  }
}

}  // namespace rushhour
