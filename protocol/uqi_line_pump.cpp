#include "uqi_line_pump.hpp"

#include "core/text_helpers.hpp"
#include "uqi_session.hpp"

namespace quixo {

namespace {

// What a session with threads answers while it searches, without waiting for the search.
bool answered_during_search(std::string_view text) {
  const std::vector<std::string_view> tokens = text_helpers::tokenize(text);
  return !tokens.empty() &&
         (tokens[0] == "stop" || tokens[0] == "ponderhit" || tokens[0] == "isready");
}

}  // namespace

bool UqiLinePump::line(std::string_view text) {
  if (quit_) return false;
  if (busy_) {
    if (answered_during_search(text)) {
      session_.handle_line(text);
    } else {
      // `quit` ends the search at once, as it does with threads, and then waits its turn.
      if (text_helpers::tokenize(text) == std::vector<std::string_view>{"quit"})
        session_.handle_line("stop");
      waiting_.emplace_back(text);
    }
    return true;
  }
  handle(text);
  while (!quit_ && !waiting_.empty()) {
    const std::string next = std::move(waiting_.front());
    waiting_.pop_front();
    handle(next);
  }
  return !quit_;
}

void UqiLinePump::handle(std::string_view text) {
  busy_ = true;
  quit_ = !session_.handle_line(text);
  busy_ = false;
}

}  // namespace quixo
