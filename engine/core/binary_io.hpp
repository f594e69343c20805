// The pieces of the project's small binary files (evaluation weights, training data): integers
// written and read little-endian byte by byte, so the files are the same on every machine, and
// the FNV-1a checksum that guards them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <string>
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

// The whole of `file`, or nullopt when it cannot be opened or read.
inline std::optional<std::vector<std::byte>> read_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  std::vector<std::byte> bytes(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i) bytes[i] = std::byte(chars[i]);
  return bytes;
}

// Writes `bytes` as the whole of `file`; false when that fails.
inline bool write_file(const std::string& file, std::span<const std::byte> bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  out.close();
  return bool(out);
}

}  // namespace quixo::binary_io
