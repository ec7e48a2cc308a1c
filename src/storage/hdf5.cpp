#include "storage/hdf5.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <mutex>

#include "storage/atomic_file.hpp"

namespace rushhour::h5 {
namespace {

// Chunks hold at most this many elements; our datasets are far smaller, so in practice each
// is one chunk, indexed inside the (checksummed) object header.
constexpr hsize_t kMaxChunkElements = 1 << 16;
constexpr char kSignature[] = "\x89HDF\r\n\x1a\n";
constexpr std::size_t kSignatureSize = 8;
// The smallest superblock (version 2 or 3 with 8-byte addresses, as we write): a file with
// our signature that is shorter than this was cut off.
constexpr std::uintmax_t kMinimumSuperblockSize = 48;

void silence_error_printing() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

// The most specific message on HDF5's error stack (empty if none), and the stack cleared.
std::string innermost_reason() {
  std::string reason;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* error, void* data) -> herr_t {
        if (n == 0 && error->desc != nullptr) *static_cast<std::string*>(data) = error->desc;
        return 0;
      },
      &reason);
  H5Eclear2(H5E_DEFAULT);
  return reason;
}

[[noreturn]] void fail(const std::string& what) {
  const std::string reason = innermost_reason();
  throw Error(reason.empty() ? what : what + " (HDF5: " + reason + ")");
}

hid_t checked(hid_t id, const std::string& what) {
  if (id < 0) fail(what);
  return id;
}

void checked_status(herr_t status, const std::string& what) {
  if (status < 0) fail(what);
}

Handle property_list(hid_t list_class) {
  return {checked(H5Pcreate(list_class), "cannot create a property list"), H5Pclose};
}

Handle fixed_string_type(std::size_t size) {
  Handle type(checked(H5Tcopy(H5T_C_S1), "cannot create a string type"), H5Tclose);
  checked_status(H5Tset_size(type.get(), std::max<std::size_t>(size, 1)),
                 "cannot size a string type");
  checked_status(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "cannot pad a string type");
  checked_status(H5Tset_cset(type.get(), H5T_CSET_UTF8), "cannot set a string encoding");
  return type;
}

// How a number type is stored in the file and held in memory.
template <Number T>
struct NumberType;
template <>
struct NumberType<std::int64_t> {
  static hid_t file() { return H5T_STD_I64LE; }
  static hid_t memory() { return H5T_NATIVE_INT64; }
  static constexpr H5T_class_t type_class = H5T_INTEGER;
  static constexpr H5T_sign_t sign = H5T_SGN_2;
  static constexpr const char* name = "a signed integer";
};
template <>
struct NumberType<std::uint64_t> {
  static hid_t file() { return H5T_STD_U64LE; }
  static hid_t memory() { return H5T_NATIVE_UINT64; }
  static constexpr H5T_class_t type_class = H5T_INTEGER;
  static constexpr H5T_sign_t sign = H5T_SGN_NONE;
  static constexpr const char* name = "an unsigned integer";
};
template <>
struct NumberType<std::uint32_t> {
  static hid_t file() { return H5T_STD_U32LE; }
  static hid_t memory() { return H5T_NATIVE_UINT32; }
  static constexpr H5T_class_t type_class = H5T_INTEGER;
  static constexpr H5T_sign_t sign = H5T_SGN_NONE;
  static constexpr const char* name = "an unsigned integer";
};
template <>
struct NumberType<double> {
  static hid_t file() { return H5T_IEEE_F64LE; }
  static hid_t memory() { return H5T_NATIVE_DOUBLE; }
  static constexpr H5T_class_t type_class = H5T_FLOAT;
  static constexpr H5T_sign_t sign = H5T_SGN_ERROR;  // not asked for floats
  static constexpr const char* name = "a float";
};

std::string describe_type(hid_t type) {
  const std::string bytes = std::to_string(H5Tget_size(type)) + "-byte ";
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return bytes + (H5Tget_sign(type) == H5T_SGN_NONE ? "unsigned" : "signed") + " integer";
    case H5T_FLOAT:
      return bytes + "float";
    case H5T_STRING:
      return H5Tis_variable_str(type) > 0 ? "variable-length string" : "fixed-length string";
    case H5T_COMPOUND:
      return "compound";
    case H5T_ARRAY:
      return "array";
    case H5T_ENUM:
      return "enum";
    default:
      return "unsupported type";
  }
}

// Throws unless the stored type `type` can be read into a T without loss of kind. For
// numbers a stored type no wider than T is accepted (HDF5 widens it on reading).
template <Value T>
void check_type(hid_t type, const std::string& what) {
  bool ok = false;
  const char* expected = "a fixed-length string";
  if constexpr (std::same_as<T, std::string>) {
    ok = H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) == 0;
  } else {
    using Traits = NumberType<T>;
    expected = Traits::name;
    ok = H5Tget_class(type) == Traits::type_class && H5Tget_size(type) <= sizeof(T) &&
         (Traits::type_class != H5T_INTEGER || H5Tget_sign(type) == Traits::sign);
  }
  if (!ok) throw Error(what + " is " + describe_type(type) + ", expected " + expected);
}

// Fixed-length, NUL-padded strings: strip the padding.
std::string unpad(const char* data, std::size_t size) {
  return std::string(data, strnlen(data, size));
}

}  // namespace

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = other.id_;
    closer_ = other.closer_;
    other.id_ = H5I_INVALID_HID;
  }
  return *this;
}

bool Handle::reset() {
  if (id_ < 0) return true;
  const herr_t status = closer_(id_);
  id_ = H5I_INVALID_HID;
  return status >= 0;
}

std::string Location::child_path(const std::string& name) const {
  return path_ == "/" ? "/" + name : path_ + "/" + name;
}

Group Location::create_group(const std::string& name) const {
  Handle gcpl = property_list(H5P_GROUP_CREATE);
  checked_status(H5Pset_obj_track_times(gcpl.get(), false), "cannot configure a group");
  const std::string path = child_path(name);
  return Group(
      Handle(checked(H5Gcreate2(handle_.get(), name.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT),
                     "cannot create group '" + path + "'"),
             H5Gclose),
      path);
}

Group Location::open_group(const std::string& name) const {
  const std::string path = child_path(name);
  const htri_t exists = H5Lexists(handle_.get(), name.c_str(), H5P_DEFAULT);
  if (exists < 0) fail("cannot look up group '" + path + "'");
  if (exists == 0) throw Error("missing group '" + path + "'");
  Handle group(checked(H5Gopen2(handle_.get(), name.c_str(), H5P_DEFAULT),
                       "'" + path + "' is not a readable group"),
               H5Gclose);
  return Group(std::move(group), path);
}

bool Location::has_attribute(const std::string& name) const {
  const htri_t exists = H5Aexists(handle_.get(), name.c_str());
  if (exists < 0) fail("cannot look up attribute '" + name + "'");
  return exists > 0;
}

template <Value T>
void Location::write_attribute(const std::string& name, const T& value) const {
  const std::string what = "cannot write attribute '" + name + "'";
  Handle space(checked(H5Screate(H5S_SCALAR), what), H5Sclose);
  if constexpr (std::same_as<T, std::string>) {
    Handle type = fixed_string_type(value.size());
    Handle attribute(checked(H5Acreate2(handle_.get(), name.c_str(), type.get(), space.get(),
                                        H5P_DEFAULT, H5P_DEFAULT),
                             what),
                     H5Aclose);
    std::string padded = value;
    padded.resize(std::max<std::size_t>(value.size(), 1), '\0');
    checked_status(H5Awrite(attribute.get(), type.get(), padded.data()), what);
  } else {
    Handle attribute(checked(H5Acreate2(handle_.get(), name.c_str(), NumberType<T>::file(),
                                        space.get(), H5P_DEFAULT, H5P_DEFAULT),
                             what),
                     H5Aclose);
    checked_status(H5Awrite(attribute.get(), NumberType<T>::memory(), &value), what);
  }
}

template <Value T>
T Location::read_attribute(const std::string& name) const {
  const std::string what = "attribute '" + name + "'";
  if (!has_attribute(name)) throw Error("missing " + what);
  Handle attribute(
      checked(H5Aopen(handle_.get(), name.c_str(), H5P_DEFAULT), "cannot open " + what), H5Aclose);
  Handle space(checked(H5Aget_space(attribute.get()), "cannot read " + what), H5Sclose);
  if (H5Sget_simple_extent_type(space.get()) != H5S_SCALAR) throw Error(what + " is not a scalar");
  Handle type(checked(H5Aget_type(attribute.get()), "cannot read " + what), H5Tclose);
  check_type<T>(type.get(), what);
  T value{};
  if constexpr (std::same_as<T, std::string>) {
    std::vector<char> buffer(H5Tget_size(type.get()));
    checked_status(H5Aread(attribute.get(), type.get(), buffer.data()), "cannot read " + what);
    value = unpad(buffer.data(), buffer.size());
  } else {
    checked_status(H5Aread(attribute.get(), NumberType<T>::memory(), &value),
                   "cannot read " + what);
  }
  return value;
}

template <Value T>
void Location::write_dataset(const std::string& name, std::span<const T> values) const {
  const std::string what = "cannot write dataset '" + child_path(name) + "'";
  const hsize_t length = values.size();
  Handle space(checked(H5Screate_simple(1, &length, nullptr), what), H5Sclose);
  Handle dcpl = property_list(H5P_DATASET_CREATE);
  checked_status(H5Pset_obj_track_times(dcpl.get(), false), what);
  if (length > 0) {
    const hsize_t chunk = std::min(length, kMaxChunkElements);
    checked_status(H5Pset_chunk(dcpl.get(), 1, &chunk), what);
    checked_status(H5Pset_fletcher32(dcpl.get()), what);
  }

  Handle string_type;
  std::vector<char> packed;  // strings laid out as fixed-length records
  hid_t file_type = H5I_INVALID_HID;
  hid_t memory_type = H5I_INVALID_HID;
  const void* data = values.data();
  if constexpr (std::same_as<T, std::string>) {
    std::size_t width = 1;
    for (const std::string& value : values) width = std::max(width, value.size());
    string_type = fixed_string_type(width);
    file_type = memory_type = string_type.get();
    packed.assign(width * values.size(), '\0');
    for (std::size_t i = 0; i < values.size(); ++i)
      std::memcpy(packed.data() + i * width, values[i].data(), values[i].size());
    data = packed.data();
  } else {
    file_type = NumberType<T>::file();
    memory_type = NumberType<T>::memory();
  }

  Handle dataset(checked(H5Dcreate2(handle_.get(), name.c_str(), file_type, space.get(),
                                    H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                         what),
                 H5Dclose);
  if (length > 0)
    checked_status(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), what);
}

template <Value T>
std::vector<T> Location::read_dataset(const std::string& name) const {
  const std::string what = "dataset '" + child_path(name) + "'";
  const htri_t exists = H5Lexists(handle_.get(), name.c_str(), H5P_DEFAULT);
  if (exists < 0) fail("cannot look up " + what);
  if (exists == 0) throw Error("missing " + what);
  Handle dataset(checked(H5Dopen2(handle_.get(), name.c_str(), H5P_DEFAULT),
                         what + " is not a readable dataset"),
                 H5Dclose);
  Handle space(checked(H5Dget_space(dataset.get()), "cannot read " + what), H5Sclose);
  if (H5Sget_simple_extent_ndims(space.get()) != 1) throw Error(what + " is not one-dimensional");
  hsize_t length = 0;
  checked_status(H5Sget_simple_extent_dims(space.get(), &length, nullptr), "cannot read " + what);
  Handle type(checked(H5Dget_type(dataset.get()), "cannot read " + what), H5Tclose);
  check_type<T>(type.get(), what);

  // Everything we write is stored in full; a dataset claiming more elements than its storage
  // holds is damaged, and must not make us allocate for the claim.
  const std::size_t element_size = H5Tget_size(type.get());
  if (length > 0 && H5Dget_storage_size(dataset.get()) / element_size < length)
    throw Error(what + " is incomplete (" + std::to_string(length) + " elements declared, " +
                std::to_string(H5Dget_storage_size(dataset.get())) + " bytes stored)");

  std::vector<T> values;
  if (length == 0) return values;
  if constexpr (std::same_as<T, std::string>) {
    std::vector<char> packed(element_size * length);
    checked_status(H5Dread(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()),
                   "cannot read " + what);
    values.reserve(length);
    for (hsize_t i = 0; i < length; ++i)
      values.push_back(unpad(packed.data() + i * element_size, element_size));
  } else {
    values.resize(length);
    checked_status(H5Dread(dataset.get(), NumberType<T>::memory(), H5S_ALL, H5S_ALL, H5P_DEFAULT,
                           values.data()),
                   "cannot read " + what);
  }
  return values;
}

template <Value T>
AppendedDataset<T> Location::create_appended(const std::string& name, std::size_t chunk_elements,
                                             std::size_t string_width) const {
  const std::string path = child_path(name);
  const std::string what = "cannot create dataset '" + path + "'";
  const hsize_t length = 0, unlimited = H5S_UNLIMITED, chunk = std::max<std::size_t>(chunk_elements, 1);
  Handle space(checked(H5Screate_simple(1, &length, &unlimited), what), H5Sclose);
  Handle dcpl = property_list(H5P_DATASET_CREATE);
  checked_status(H5Pset_obj_track_times(dcpl.get(), false), what);
  checked_status(H5Pset_chunk(dcpl.get(), 1, &chunk), what);
  checked_status(H5Pset_shuffle(dcpl.get()), what);
  checked_status(H5Pset_deflate(dcpl.get(), 1), what);
  checked_status(H5Pset_fletcher32(dcpl.get()), what);
  Handle string_type;
  hid_t file_type = H5I_INVALID_HID;
  if constexpr (std::same_as<T, std::string>) {
    string_type = fixed_string_type(string_width);
    file_type = string_type.get();
  } else {
    file_type = NumberType<T>::file();
  }
  Handle dataset(checked(H5Dcreate2(handle_.get(), name.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(),
                                    H5P_DEFAULT),
                         what),
                 H5Dclose);
  return AppendedDataset<T>(std::move(dataset), path, std::max<std::size_t>(string_width, 1));
}

template <Value T>
void AppendedDataset<T>::append(std::span<const T> values) {
  if (values.empty()) return;
  const std::string what = "cannot append to dataset '" + path_ + "'";
  const hsize_t start = size_, count = values.size(), grown = size_ + values.size();
  checked_status(H5Dset_extent(dataset_.get(), &grown), what);
  Handle file_space(checked(H5Dget_space(dataset_.get()), what), H5Sclose);
  checked_status(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr), what);
  Handle memory_space(checked(H5Screate_simple(1, &count, nullptr), what), H5Sclose);
  if constexpr (std::same_as<T, std::string>) {
    std::vector<char> packed(string_width_ * values.size(), '\0');
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i].size() > string_width_) throw Error(what + ": a string longer than " + std::to_string(string_width_));
      std::memcpy(packed.data() + i * string_width_, values[i].data(), values[i].size());
    }
    Handle type = fixed_string_type(string_width_);
    checked_status(H5Dwrite(dataset_.get(), type.get(), memory_space.get(), file_space.get(), H5P_DEFAULT, packed.data()),
                   what);
  } else {
    checked_status(H5Dwrite(dataset_.get(), NumberType<T>::memory(), memory_space.get(), file_space.get(), H5P_DEFAULT,
                            values.data()),
                   what);
  }
  size_ = grown;
}

std::uint64_t Location::dataset_length(const std::string& name) const {
  const std::string what = "dataset '" + child_path(name) + "'";
  const htri_t exists = H5Lexists(handle_.get(), name.c_str(), H5P_DEFAULT);
  if (exists < 0) fail("cannot look up " + what);
  if (exists == 0) throw Error("missing " + what);
  Handle dataset(checked(H5Dopen2(handle_.get(), name.c_str(), H5P_DEFAULT), what + " is not a readable dataset"),
                 H5Dclose);
  Handle space(checked(H5Dget_space(dataset.get()), "cannot read " + what), H5Sclose);
  if (H5Sget_simple_extent_ndims(space.get()) != 1) throw Error(what + " is not one-dimensional");
  hsize_t length = 0;
  checked_status(H5Sget_simple_extent_dims(space.get(), &length, nullptr), "cannot read " + what);
  return length;
}

template <Value T>
std::vector<T> Location::read_dataset_slice(const std::string& name, std::uint64_t offset, std::uint64_t count) const {
  const std::string what = "dataset '" + child_path(name) + "'";
  const std::uint64_t length = dataset_length(name);
  if (offset > length || count > length - offset)
    throw Error(what + " holds " + std::to_string(length) + " elements, not " + std::to_string(offset + count));
  Handle dataset(checked(H5Dopen2(handle_.get(), name.c_str(), H5P_DEFAULT), what + " is not a readable dataset"),
                 H5Dclose);
  Handle type(checked(H5Dget_type(dataset.get()), "cannot read " + what), H5Tclose);
  check_type<T>(type.get(), what);
  std::vector<T> values;
  if (count == 0) return values;
  Handle file_space(checked(H5Dget_space(dataset.get()), "cannot read " + what), H5Sclose);
  const hsize_t start = offset, size = count;
  checked_status(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &size, nullptr),
                 "cannot read " + what);
  Handle memory_space(checked(H5Screate_simple(1, &size, nullptr), "cannot read " + what), H5Sclose);
  if constexpr (std::same_as<T, std::string>) {
    const std::size_t element_size = H5Tget_size(type.get());
    std::vector<char> packed(element_size * count);
    checked_status(H5Dread(dataset.get(), type.get(), memory_space.get(), file_space.get(), H5P_DEFAULT, packed.data()),
                   "cannot read " + what);
    values.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) values.push_back(unpad(packed.data() + i * element_size, element_size));
  } else {
    values.resize(count);
    checked_status(H5Dread(dataset.get(), NumberType<T>::memory(), memory_space.get(), file_space.get(), H5P_DEFAULT,
                           values.data()),
                   "cannot read " + what);
  }
  return values;
}

File File::create(const std::filesystem::path& path) {
  silence_error_printing();
  const std::string what = "cannot create HDF5 file " + path.string();
  Handle fapl = property_list(H5P_FILE_ACCESS);
  checked_status(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V110, H5F_LIBVER_V110), what);
  // Closing with groups or datasets still open is a bug here: fail instead of deferring the
  // flush past our fsync.
  checked_status(H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_SEMI), what);
  Handle file(checked(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), what),
              H5Fclose);
  return File(std::move(file), "/");
}

File File::open_read_only(const std::filesystem::path& path) {
  silence_error_printing();
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) throw Error("no such file");
  if (!std::filesystem::is_regular_file(status)) throw Error("not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw Error("cannot read (" + error.message() + ")");
  if (size == 0) throw Error("empty file");

  const htri_t is_hdf5 = H5Fis_hdf5(path.c_str());
  if (is_hdf5 <= 0) {
    H5Eclear2(H5E_DEFAULT);
    char head[kSignatureSize] = {};
    std::ifstream(path, std::ios::binary).read(head, kSignatureSize);
    const std::size_t present = std::min<std::uintmax_t>(size, kSignatureSize);
    if (std::memcmp(head, kSignature, present) == 0)
      throw Error("truncated (" + std::to_string(size) + " bytes)");
    throw Error("not an HDF5 file");
  }

  Handle fapl = property_list(H5P_FILE_ACCESS);
  checked_status(H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_SEMI), "cannot open");
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get());
  if (id < 0) {
    const std::string reason = innermost_reason();
    if (size < kMinimumSuperblockSize || reason.find("truncated") != std::string::npos)
      throw Error("truncated (" + std::to_string(size) + " bytes" +
                  (reason.empty() ? "" : "; HDF5: " + reason) + ")");
    throw Error("damaged HDF5 file" + (reason.empty() ? "" : " (HDF5: " + reason + ")"));
  }
  return File(Handle(id, H5Fclose), "/");
}

void File::close() {
  if (!handle_.reset()) fail("cannot close the HDF5 file (flush failed or objects still open)");
}

#define RUSHHOUR_H5_INSTANTIATE(T)                                                        \
  template void Location::write_attribute<T>(const std::string&, const T&) const;         \
  template T Location::read_attribute<T>(const std::string&) const;                       \
  template void Location::write_dataset<T>(const std::string&, std::span<const T>) const; \
  template std::vector<T> Location::read_dataset<T>(const std::string&) const;            \
  template AppendedDataset<T> Location::create_appended<T>(const std::string&, std::size_t, std::size_t) const; \
  template std::vector<T> Location::read_dataset_slice<T>(const std::string&, std::uint64_t, std::uint64_t) const; \
  template class AppendedDataset<T>;
RUSHHOUR_H5_INSTANTIATE(std::int64_t)
RUSHHOUR_H5_INSTANTIATE(std::uint64_t)
RUSHHOUR_H5_INSTANTIATE(std::uint32_t)
RUSHHOUR_H5_INSTANTIATE(double)
RUSHHOUR_H5_INSTANTIATE(std::string)
#undef RUSHHOUR_H5_INSTANTIATE

void write_atomically(const std::filesystem::path& target,
                      const std::function<void(const std::filesystem::path&)>& write) {
  AtomicReplacement replacement(target);
  try {
    write(replacement.temp_path());
  } catch (const Error& error) {
    throw std::runtime_error(target.string() + ": " + error.what());
  }
  replacement.commit();
}

}  // namespace rushhour::h5
