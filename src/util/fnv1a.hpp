#pragma once
// FNV-1a, 64 bits: the checksum of the files rushhour writes (BDD files, class checkpoints).
// Not a cryptographic hash: it detects damage, not tampering.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace rushhour {

class Fnv1a64 {
 public:
  void add(const unsigned char* data, std::size_t size) {
    std::uint64_t hash = hash_;
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * 0x100000001b3ULL;
    hash_ = hash;
  }
  void add(std::string_view text) {
    add(reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  // The 8 bytes of `word`, least significant first (the same on every machine).
  void add_word(std::uint64_t word) {
    for (int b = 0; b < 8; ++b) {
      const auto byte = static_cast<unsigned char>(word >> (8 * b));
      add(&byte, 1);
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

inline std::uint64_t fnv1a(std::string_view text) {
  Fnv1a64 hash;
  hash.add(text);
  return hash.value();
}

}  // namespace rushhour
