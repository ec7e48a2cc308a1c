#pragma once
// DIR/whole-layers.h5: the whole-domain layers of a partitioned run (--whole-layers K), kept as
// the LineDiagram every part reads them from (encoding/line_diagram.hpp), so that --resume
// reads them rather than computing them again (minutes and gigabytes on 6x6).
// HDF5 (storage/hdf5.hpp), format version 1: root attributes content ("rushhour whole
// layers"), format_version (int64), identity (string: the run's identity and K); uint32
// datasets lines, node_level, node_first_edge, node_edge_count, edge_arrangement, edge_child
// and roots, where a child or root is 0 for the true set, 1 for the empty set and k + 2 for
// node k.
#include <filesystem>
#include <optional>
#include <string>

#include "encoding/line_diagram.hpp"

namespace rushhour {

inline constexpr const char* kWholeLayersContent = "rushhour whole layers";
inline constexpr std::int64_t kWholeLayersFormatVersion = 1;

// Writes the file atomically.
void save_line_diagram(const std::filesystem::path& path, const LineDiagram& diagram, const std::string& identity);

// The diagram saved at `path` under `identity`; nullopt if there is no file or it was saved
// under another identity. Throws InputError if the file is damaged or not such a file, or if
// its diagram does not fit `lines` (the line of each level) and `arrangements` (the number of
// arrangements of a line): a diagram read is safe to give LineDiagramReader.
std::optional<LineDiagram> load_line_diagram(const std::filesystem::path& path, const std::string& identity,
                                             const std::vector<int>& lines, int arrangements);

}  // namespace rushhour
