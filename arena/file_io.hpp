// The arena's records on disk: written so that a crash (kill -9, or of the machine) cannot leave
// half of one (the results file, its journal, the PGN, the final positions, the shards' counts, a
// merged run), a PGN's recorded part read back, and the advisory locks that keep two runs off
// the same files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace quixo::arena {

// Writes all of `text` to `path` (appended, or replacing what was there) and flushes it to the
// disk before it returns. Throws std::runtime_error ("cannot write PATH: why") on failure.
void write_durably(const std::string& path, std::string_view text, bool append);

// Replaces `path` by `text` whole or not at all: written durably beside it (PATH.tmp), then
// renamed over it, so that a reader sees the old file or the new one and never a part. Throws
// std::runtime_error ("cannot write PATH.tmp: why", "cannot replace PATH: why") on failure.
void replace_file(const std::string& path, std::string_view text);

// Creates `path` with `text`, whole, unless it exists: written durably beside it
// (PATH.tmp-<process id>-<serial>), then hard-linked to `path`, which fails when `path` exists
// (also on a network file system, where O_EXCL may not hold), and the temporary file removed.
// Returns false when `path` existed (and leaves it as it was). Throws std::runtime_error on other
// failures.
bool create_file_once(const std::string& path, std::string_view text);

// The first `bytes` of `path` (a PGN's part that the results file records), fewer when the file
// is shorter; nullopt when it cannot be opened or is not a regular file (a FIFO would block).
[[nodiscard]] std::optional<std::string> read_prefix(const std::string& path, std::int64_t bytes);

// What kind of thing is at `path` when it is there and is not a regular file (symbolic links
// followed): "a folder", "a character device", "a block device", "a FIFO", "a socket"; empty for
// a regular file or nothing.
[[nodiscard]] std::string special_file_kind(const std::string& path);

// An advisory lock on a lock file (flock, exclusive), held for the object's life: the file holds
// the holder's process id and host ("1234 node17"). The kernel drops the lock when the process
// ends however it ends, so a file left by a crashed run (kill -9) is taken over, never waited
// for. On release the file is removed.
class FileLock {
 public:
  // Takes the lock on `path`, creating the file. nullopt when another open file holds it; then
  // `holder` gets what the file says of its holder ("1234 node17", empty when it says nothing
  // yet). Throws std::runtime_error ("cannot lock PATH: why") when the file cannot be used.
  [[nodiscard]] static std::optional<FileLock> try_lock(const std::string& path,
                                                        std::string& holder);
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  FileLock(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  void release() noexcept;

  std::string path_;
  int fd_ = -1;
};

}  // namespace quixo::arena
