// The bytes of the table files as the tests damage them: read, written, and a header field
// changed with the header's CRC-32 (its last four bytes, in the layer files and the win/draw/loss
// files alike) made right again, so that the check for that field, not the checksum, has to
// refuse the file.
#pragma once

#include <boost/crc.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

#include "tb/tb_file.hpp"

namespace quixo::testing {

using Bytes = std::vector<std::uint8_t>;

inline Bytes read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

inline void write_bytes(const std::filesystem::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

inline Bytes with_header_field(Bytes bytes, std::size_t offset, std::uint32_t value) {
  std::memcpy(bytes.data() + offset, &value, 4);
  boost::crc_32_type crc;
  crc.process_bytes(bytes.data(), tb::kHeaderBytes - 4);
  const std::uint32_t checksum = crc.checksum();
  std::memcpy(bytes.data() + tb::kHeaderBytes - 4, &checksum, 4);
  return bytes;
}

// A layer file's header field changed as a writer would have written it: the header's CRC and the
// whole file's (its trailer, at the offset the header's bytes 56-63 hold) both made right, so
// that even `quixo-tb verify` takes the file as written.
inline Bytes with_layer_header_field(Bytes bytes, std::size_t offset, std::uint32_t value) {
  bytes = with_header_field(std::move(bytes), offset, value);
  std::uint64_t trailer = 0;
  std::memcpy(&trailer, bytes.data() + 56, 8);
  boost::crc_32_type crc;
  crc.process_bytes(bytes.data(), trailer);
  const std::uint32_t checksum = crc.checksum();
  std::memcpy(bytes.data() + trailer, &checksum, 4);
  return bytes;
}

}  // namespace quixo::testing
