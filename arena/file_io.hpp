// The arena's records on disk: written so that a crash (kill -9, or of the machine) cannot leave
// half of one (the results file, its journal, the PGN, the final positions, the shards' counts, a
// merged run), and a PGN's recorded part read back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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
// is shorter; nullopt when it cannot be opened.
[[nodiscard]] std::optional<std::string> read_prefix(const std::string& path, std::int64_t bytes);

}  // namespace quixo::arena
