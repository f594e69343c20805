#include "file_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace quixo::arena {
namespace {

std::string system_error_text() {
  return std::strerror(errno);
}

}  // namespace

void write_durably(const std::string& path, std::string_view text, bool append) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + system_error_text());
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = system_error_text();
      ::close(fd);
      throw std::runtime_error("cannot write " + path + ": " + why);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0)
    throw std::runtime_error("cannot write " + path + ": " + system_error_text());
}

void replace_file(const std::string& path, std::string_view text) {
  const std::string temporary = path + ".tmp";
  write_durably(temporary, text, false);
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot replace " + path + ": " + system_error_text());
}

bool create_file_once(const std::string& path, std::string_view text) {
  // Its own temporary file, also for threads of one process (the tests' shards).
  static std::atomic<unsigned> serial{0};
  const std::string temporary =
      path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
  write_durably(temporary, text, false);
  const bool created = ::link(temporary.c_str(), path.c_str()) == 0;
  const int why = errno;
  ::unlink(temporary.c_str());
  if (!created && why != EEXIST)
    throw std::runtime_error("cannot create " + path + ": " + std::strerror(why));
  return created;
}

std::optional<std::string> read_prefix(const std::string& path, std::int64_t bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(static_cast<std::size_t>(bytes), '\0');
  in.read(text.data(), bytes);
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

}  // namespace quixo::arena
