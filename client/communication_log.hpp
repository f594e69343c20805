// --log FILE: every line to and from every engine, with the time, the engine's name and the
// game, as fastchess's and cutechess's debug logs have them; with --debug also the
// arena's own decisions (games started and finished and why, warnings). Lines are flushed as
// they are written, so a log survives a crash of the arena. On long runs the file is bounded:
// once it passes its size limit it becomes FILE.1 (replacing an older FILE.1) and a new FILE
// starts, so the log never takes more than twice the limit.
#pragma once

#include <atomic>
#include <cstdint>
#include <fstream>
#include <mutex>
#include <string>
#include <string_view>

#include "engine_client.hpp"

namespace quixo::arena {

class CommunicationLog {
 public:
  // Opens `path`, appended to or emptied first; throws std::runtime_error naming it when it
  // cannot be written. `max_bytes` >= 1 bounds the file as above.
  CommunicationLog(std::string path, std::int64_t max_bytes, bool append = true);

  // "2026-11-27 06:20:01.123 game 5 engine-name > go wtime 1000 ..." (to the engine, '<' from).
  void engine_line(std::string_view engine, int game, bool to_engine, std::string_view line);
  // "2026-11-27 06:20:01.123 arena: <text>".
  void note(std::string_view text);

 private:
  void write(const std::string& line);

  std::string path_;
  std::int64_t max_bytes_;
  std::mutex mutex_;
  std::ofstream out_;
  std::int64_t bytes_ = 0;
};

// The launcher's processes, with every line they read and write logged under `engine`'s name
// and the game that `game` holds (0 before the first; the worker sets it).
[[nodiscard]] ProcessLauncher logged_launcher(ProcessLauncher launcher, CommunicationLog& log,
                                              std::string engine, const std::atomic<int>& game);

}  // namespace quixo::arena
