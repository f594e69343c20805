// The pieces of the project's small binary files (evaluation weights, training data): integers
// written and read little-endian byte by byte, so the files are the same on every machine, and
// the FNV-1a checksum that guards them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace quixo::binary_io {

inline std::uint64_t fnv1a(std::span<const std::byte> bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const std::byte byte : bytes) hash = (hash ^ std::uint64_t(byte)) * 0x100000001b3ull;
  return hash;
}

// Appends the low `bytes` bytes of `value`, the lowest first.
inline void put(std::vector<std::byte>& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(std::byte((value >> (8 * i)) & 0xff));
}

// The `count`-byte little-endian integer at `at`; the caller checks that it is inside `bytes`.
inline std::uint64_t get(std::span<const std::byte> bytes, std::size_t at, int count) {
  std::uint64_t value = 0;
  for (int i = 0; i < count; ++i) value |= std::uint64_t(bytes[at + i]) << (8 * i);
  return value;
}

}  // namespace quixo::binary_io
