#include "file_io.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
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
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(static_cast<std::size_t>(bytes), '\0');
  in.read(text.data(), bytes);
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

std::string special_file_kind(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0 || S_ISREG(status.st_mode)) return "";
  if (S_ISDIR(status.st_mode)) return "a folder";
  if (S_ISCHR(status.st_mode)) return "a character device";
  if (S_ISBLK(status.st_mode)) return "a block device";
  if (S_ISFIFO(status.st_mode)) return "a FIFO";
  if (S_ISSOCK(status.st_mode)) return "a socket";
  return "not a regular file";
}

std::optional<FileLock> FileLock::try_lock(const std::string& path, std::string& holder) {
  holder.clear();
  const auto fail = [&path](int fd) {
    const std::string why = system_error_text();
    if (fd >= 0) ::close(fd);
    return std::runtime_error("cannot lock " + path + ": " + why);
  };
  while (true) {
    // O_NONBLOCK: a FIFO put at the lock file's place must not block the open.
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0) throw fail(fd);
    struct stat opened {};
    if (::fstat(fd, &opened) != 0) throw fail(fd);
    if (!S_ISREG(opened.st_mode)) {
      ::close(fd);
      throw std::runtime_error("cannot lock " + path + ": it is not a regular file");
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK) throw fail(fd);
      char text[256];
      const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
      ::close(fd);
      holder.assign(text, n > 0 ? static_cast<std::size_t>(n) : 0);
      while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
      return std::nullopt;
    }
    // The holder before us may have removed the file between our open and our lock: the lock is
    // then on a file no one else will open. Lock the file that is at the path now.
    struct stat named {};
    if (::stat(path.c_str(), &named) != 0 || named.st_ino != opened.st_ino ||
        named.st_dev != opened.st_dev) {
      ::close(fd);
      continue;
    }
    char host[256] = "";
    if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
    const std::string text =
        std::to_string(::getpid()) + (host[0] != '\0' ? std::string(" ") + host : "") + "\n";
    if (::ftruncate(fd, 0) != 0 ||
        ::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()))
      throw fail(fd);
    return FileLock(path, fd);
  }
}

FileLock::FileLock(FileLock&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

FileLock::~FileLock() {
  release();
}

void FileLock::release() noexcept {
  if (fd_ < 0) return;
  // Removed while still held, so that no other run locks the file being removed.
  ::unlink(path_.c_str());
  ::close(fd_);
  fd_ = -1;
}

}  // namespace quixo::arena
