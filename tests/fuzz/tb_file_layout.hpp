// The layer file's container, as engine/tb/tb_file.hpp lays it out, for the fuzz target and its
// seed maker: where the three CRC-32s sit, and how to make them match the bytes again. A
// fuzzer's mutation almost never keeps a checksum right, so without this the reader refuses every
// mutated input at the first checksum and its block decoding is never reached.
#pragma once

#include <boost/crc.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tb/tb_file.hpp"

namespace quixo::fuzz::tb_layout {

inline constexpr std::size_t kHeaderCrcOffset = tb::kHeaderBytes - 4;
inline constexpr std::size_t kBlockCountOffset = 40;
inline constexpr std::size_t kBlockTableOffset = 48;
inline constexpr std::size_t kTrailerOffset = 56;

inline std::uint64_t get_u64(const std::vector<std::uint8_t>& bytes, std::size_t at) {
  std::uint64_t value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}
inline void put_u64(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint64_t value) {
  std::memcpy(bytes.data() + at, &value, sizeof value);
}

inline std::uint32_t crc32_of(const std::uint8_t* bytes, std::size_t length) {
  boost::crc_32_type crc;
  crc.process_bytes(bytes, length);
  return crc.checksum();
}
inline void put_crc(std::vector<std::uint8_t>& bytes, std::size_t at, std::size_t covered_from,
                    std::size_t covered_to) {
  const std::uint32_t crc = crc32_of(bytes.data() + covered_from, covered_to - covered_from);
  std::memcpy(bytes.data() + at, &crc, sizeof crc);
}

// Rewrites the block table's CRC (when the header places the table inside the file), the
// header's CRC and the trailer's whole-file CRC (when the header places the trailer inside the
// file), in that order, since each later one covers the earlier. Everything else stays as given.
inline void seal(std::vector<std::uint8_t>& bytes) {
  if (bytes.size() < tb::kHeaderBytes) return;
  const std::uint64_t table = get_u64(bytes, kBlockTableOffset);
  const std::uint64_t entries = get_u64(bytes, kBlockCountOffset) + 1;
  if (entries != 0 && entries < bytes.size() / 8 && table < bytes.size() &&
      entries * 8 + 4 <= bytes.size() - table)
    put_crc(bytes, table + entries * 8, table, table + entries * 8);
  put_crc(bytes, kHeaderCrcOffset, 0, kHeaderCrcOffset);
  const std::uint64_t trailer = get_u64(bytes, kTrailerOffset);
  if (trailer <= bytes.size() && bytes.size() - trailer >= 4) put_crc(bytes, trailer, 0, trailer);
}

}  // namespace quixo::fuzz::tb_layout
