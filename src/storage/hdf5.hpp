#pragma once
// A thin RAII layer over the HDF5 C API: the only file in rushhour that calls H5* functions
// for writing or reading our result files.
//
// What every file written through it looks like (so h5py and h5dump read it, and damage is
// detected rather than trusted):
// - file format bounds 1.10 .. 1.10: superblock v3 and v2 object headers, all checksummed;
// - numbers are stored little-endian (int64, uint64, uint32, float64) whatever the host;
// - strings are fixed-length, NUL-padded UTF-8 (no global heap, which has no checksum; an
//   empty string is stored as one NUL byte);
// - attributes are scalars; datasets are one-dimensional, chunked as a single chunk with the
//   Fletcher-32 checksum filter (empty datasets are contiguous: nothing to checksum); datasets
//   written in pieces (create_appended) have many chunks, each also shuffled and deflated;
// - no object modification times, so equal content gives an equal file.
// HDF5's automatic printing of its error stack is switched off; every failure becomes an
// h5::Error whose message names the object and, where HDF5 gave one, its innermost reason.
#include <hdf5.h>

#include <concepts>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rushhour::h5 {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// The value types an attribute or dataset element may have.
template <typename T>
concept Number = std::same_as<T, std::int64_t> || std::same_as<T, std::uint64_t> ||
    std::same_as<T, std::uint32_t> || std::same_as<T, double>;
template <typename T>
concept Value = Number<T> || std::same_as<T, std::string>;

// Owns one HDF5 identifier and releases it with the matching H5*close function.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) {
    other.id_ = H5I_INVALID_HID;
  }
  Handle& operator=(Handle&& other) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  hid_t get() const { return id_; }
  // Closes now; returns false if HDF5 reported a failure (e.g. a flush that did not complete).
  bool reset();

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

class Group;
template <Value T>
class AppendedDataset;

// A file's root group or a group in it: where attributes and datasets live. Names of
// attributes and datasets are relative to it; messages name them by their full path.
class Location {
 public:
  Group create_group(const std::string& name) const;
  Group open_group(const std::string& name) const;  // Error "missing group '/name'"

  bool has_attribute(const std::string& name) const;
  template <Value T>
  void write_attribute(const std::string& name, const T& value) const;
  // Error if missing, not a scalar, or not of T's kind (signed/unsigned integer, float,
  // fixed-length string); a narrower stored integer or float is widened.
  template <Value T>
  T read_attribute(const std::string& name) const;

  template <Value T>
  void write_dataset(const std::string& name, std::span<const T> values) const;
  template <Value T>
  void write_dataset(const std::string& name, const std::vector<T>& values) const {
    write_dataset(name, std::span<const T>(values));
  }
  // Error if missing, not one-dimensional, of another kind, or failing its checksum.
  template <Value T>
  std::vector<T> read_dataset(const std::string& name) const;

  // A one-dimensional dataset written in pieces (a database too large to hold): chunks of
  // `chunk_elements`, each shuffled, deflated and Fletcher-32 checksummed; strings of
  // `string_width` bytes (longer ones are refused).
  template <Value T>
  AppendedDataset<T> create_appended(const std::string& name, std::size_t chunk_elements,
                                     std::size_t string_width = 0) const;
  // The length of a one-dimensional dataset, and `count` of its elements from `offset`
  // (Error if they are not all there, or a chunk fails its checksum).
  std::uint64_t dataset_length(const std::string& name) const;
  template <Value T>
  std::vector<T> read_dataset_slice(const std::string& name, std::uint64_t offset, std::uint64_t count) const;

 protected:
  Location(Handle handle, std::string path) : handle_(std::move(handle)), path_(std::move(path)) {}
  std::string child_path(const std::string& name) const;

  Handle handle_;
  std::string path_;  // "/" or "/group"
};

template <Value T>
class AppendedDataset {
 public:
  AppendedDataset(Handle dataset, std::string path, std::size_t string_width)
      : dataset_(std::move(dataset)), path_(std::move(path)), string_width_(string_width) {}
  void append(std::span<const T> values);
  std::uint64_t size() const { return size_; }

 private:
  Handle dataset_;
  std::string path_;
  std::size_t string_width_;
  std::uint64_t size_ = 0;
};

class Group : public Location {
  friend class Location;
  using Location::Location;
};

class File : public Location {
 public:
  // Creates (or truncates) `path`.
  static File create(const std::filesystem::path& path);
  // Opens an existing file read-only. Before asking HDF5, tells apart the cases a user needs
  // to hear about: "no such file", "empty file", "not an HDF5 file", "truncated (...)".
  static File open_read_only(const std::filesystem::path& path);

  // Flushes and closes; every group and dataset handle must be gone by then. Throws on
  // failure, which the destructor could only swallow.
  void close();

 private:
  using Location::Location;
};

// Writes `target` atomically (storage/atomic_file.hpp): `write` creates and fills the file
// at the path it is given, and `target` is replaced only once that file is complete. An
// h5::Error on the way becomes a std::runtime_error naming `target` (a runtime failure).
void write_atomically(const std::filesystem::path& target,
                      const std::function<void(const std::filesystem::path&)>& write);

}  // namespace rushhour::h5
