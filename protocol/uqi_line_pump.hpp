// Drives a UqiSession on a host without threads (core/host_yield.hpp), where a `go` searches on
// the thread that reads the input. The host hands each line to line(). Between commands a line is
// handled at once. During a search the lines reach the pump through the search's turns (the
// host's input handler calls line() again): stop, ponderhit and isready are handled then, as a
// session with threads handles them while it searches; every other line waits, in order, until
// the search has returned, when it is handled as if it had come then.
#pragma once

#include <deque>
#include <string>
#include <string_view>

namespace quixo {

class UqiSession;

class UqiLinePump {
 public:
  explicit UqiLinePump(UqiSession& session) : session_(session) {}

  // Returns false once `quit` has been handled: the host then ends (later lines are ignored).
  bool line(std::string_view text);
  [[nodiscard]] bool quit() const { return quit_; }

 private:
  void handle(std::string_view text);

  UqiSession& session_;
  bool busy_ = false;  // a command (a search) is running on the stack below
  bool quit_ = false;
  std::deque<std::string> waiting_;
};

}  // namespace quixo
