// What the table files (tb_file.cpp) and the generator's part files (gen/generator.cpp) share:
// little-endian fields at byte offsets, their CRC-32, and the synced rename that makes a file
// appear only once it is whole.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <bit>
#include <boost/crc.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>

namespace quixo::tb::file_bytes {

static_assert(std::endian::native == std::endian::little, "the files are little-endian");

template <class T>
void put(std::uint8_t* bytes, std::size_t offset, T value) {
  std::memcpy(bytes + offset, &value, sizeof(T));
}
template <class T>
T get(const std::uint8_t* bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes + offset, sizeof(T));
  return value;
}

inline std::uint32_t crc32(const void* bytes, std::size_t length) {
  boost::crc_32_type crc;
  crc.process_bytes(bytes, length);
  return crc.checksum();
}

// Syncs `temporary` to disk and renames it to `path`: a reader (or a run after a crash) finds the
// whole file or none.
inline void sync_and_rename(const std::filesystem::path& temporary,
                            const std::filesystem::path& path) {
  const int fd = ::open(temporary.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  std::filesystem::rename(temporary, path);
}

}  // namespace quixo::tb::file_bytes
