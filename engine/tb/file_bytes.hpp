// What the table files (tb_file.cpp) and the generator's part files (gen/generator.cpp) share:
// little-endian fields at byte offsets, their CRC-32, and the synced rename that makes a file
// appear only once it is whole.
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <boost/crc.hpp>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>

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

// A regular file mapped read-only for as long as the object lives. The layer files are mapped,
// not read, so that a search touches only the blocks it decodes and the processes on a machine
// share them through the page cache.
class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() { unmap(); }

  // Maps `path`; returns the reason when it cannot ("cannot open: ...", "is not a regular
  // file"), else an empty string. An empty file maps to no bytes.
  std::string open(const std::filesystem::path& path) {
    unmap();
    // O_NONBLOCK: a FIFO is opened at once (and then refused) instead of waiting for a writer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return std::string("cannot open: ") + std::strerror(errno);
    struct stat status {};
    std::string problem;
    if (::fstat(fd, &status) != 0)
      problem = std::string("cannot stat: ") + std::strerror(errno);
    else if (!S_ISREG(status.st_mode))
      problem = S_ISDIR(status.st_mode) ? "is a directory, not a file" : "is not a regular file";
    else if (status.st_size > 0) {
      void* mapping = ::mmap(nullptr, std::size_t(status.st_size), PROT_READ, MAP_SHARED, fd, 0);
      if (mapping == MAP_FAILED) {
        problem = std::string("cannot map: ") + std::strerror(errno);
      } else {
        data_ = static_cast<const std::uint8_t*>(mapping);
        size_ = std::uint64_t(status.st_size);
      }
    }
    ::close(fd);
    return problem;
  }
  const std::uint8_t* data() const { return data_; }
  std::uint64_t size() const { return size_; }

 private:
  void unmap() {
    if (data_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
    data_ = nullptr;
    size_ = 0;
  }
  const std::uint8_t* data_ = nullptr;
  std::uint64_t size_ = 0;
};

}  // namespace quixo::tb::file_bytes
