// Fuzzes the arena's time controls (client/time_control.hpp): TimeControl::parse and a game
// clock run under the parsed control.
//
// Input: the first line is the time control text; the bytes after it are the replies' elapsed
// times (two bytes a move, up to 600 moves) and a margin. Invariants:
//   - parse either gives a control or throws std::invalid_argument;
//   - a parsed control keeps the documented ranges and parse(to_string()) gives it back;
//   - the clock, charged the elapsed times, never throws, keeps its time left at 0 or more while
//     it has not flagged, and its `go` limits match the control's kind.
#include <stdexcept>
#include <string>

#include "fuzz_support.hpp"
#include "time_control.hpp"

namespace {

using namespace quixo::arena;

std::string quote(std::string_view text) {
  return "'" + std::string(text) + "'";
}

void check_control(const TimeControl& control, std::string_view text) {
  const std::string canonical = control.to_string();
  switch (control.kind()) {
    case TimeControl::Kind::Infinite:
      break;
    case TimeControl::Kind::Clock:
      FUZZ_CHECK(
          control.base_ms() >= 1 && control.increment_ms() >= 0 && control.moves_per_period() >= 0,
          "clock out of range from " + quote(text));
      break;
    case TimeControl::Kind::FixedTime:
      FUZZ_CHECK(control.move_time_ms() >= 1, "move time below 1 ms from " + quote(text));
      break;
    case TimeControl::Kind::FixedNodes:
      FUZZ_CHECK(control.nodes() >= 1, "no nodes from " + quote(text));
      break;
    case TimeControl::Kind::FixedDepth:
      FUZZ_CHECK(control.depth() >= 1, "depth below 1 from " + quote(text));
      break;
  }
  FUZZ_CHECK(control.margin_ms() == 0, "a parsed control has a margin");
  TimeControl again;
  try {
    again = TimeControl::parse(canonical);
  } catch (const std::invalid_argument& error) {
    FUZZ_CHECK(false, "the canonical " + quote(canonical) + " of " + quote(text) +
                          " is refused: " + error.what());
  }
  FUZZ_CHECK(again == control,
             quote(text) + " -> " + quote(canonical) + " -> " + quote(again.to_string()));
  FUZZ_CHECK(again.to_string() == canonical, "to_string is not canonical for " + quote(text));
}

void run_clock(const TimeControl& control, std::string_view bytes) {
  const std::int64_t margin = bytes.empty() ? 0 : static_cast<unsigned char>(bytes[0]) * 7;
  if (!bytes.empty()) bytes.remove_prefix(1);
  Clock clock(control.with_margin(margin));
  for (std::size_t i = 0; i + 1 < bytes.size() && i < 1200; i += 2) {
    if (clock.flagged()) break;
    const std::int64_t elapsed =
        static_cast<unsigned char>(bytes[i]) * 256 + static_cast<unsigned char>(bytes[i + 1]);
    const GoLimits limits = clock.go_limits();
    switch (control.kind()) {
      case TimeControl::Kind::Clock:
        FUZZ_CHECK(limits.time_ms && *limits.time_ms >= 0 && limits.increment_ms, "clock limits");
        FUZZ_CHECK(!limits.moves_to_go || (*limits.moves_to_go >= 1 &&
                                           *limits.moves_to_go <= control.moves_per_period()),
                   "moves to go out of the period");
        break;
      case TimeControl::Kind::FixedTime:
        FUZZ_CHECK(limits.move_time_ms == control.move_time_ms(), "movetime limits");
        break;
      case TimeControl::Kind::FixedNodes:
        FUZZ_CHECK(limits.nodes == control.nodes(), "nodes limits");
        break;
      case TimeControl::Kind::FixedDepth:
        FUZZ_CHECK(limits.depth == control.depth(), "depth limits");
        break;
      case TimeControl::Kind::Infinite:
        FUZZ_CHECK(limits.infinite, "infinite limits");
        break;
    }
    const std::optional<std::int64_t> allowed = clock.start_move();
    if (allowed) FUZZ_CHECK(*allowed >= margin, "a reply may take less than the margin");
    const bool in_time = clock.stop_move(elapsed);
    FUZZ_CHECK(in_time != clock.flagged(), "stop_move and flagged disagree");
    FUZZ_CHECK(!allowed || in_time == (elapsed <= *allowed),
               "a reply of " + std::to_string(elapsed) + " ms, allowed " +
                   std::to_string(*allowed) + ", in time: " + std::to_string(in_time));
    if (!clock.flagged() && control.kind() == TimeControl::Kind::Clock)
      FUZZ_CHECK(clock.remaining_ms() >= 0, "negative time left without a flag");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = quixo::fuzz::as_text(data, size);
  const std::size_t newline = input.find('\n');
  const std::string_view text = input.substr(0, newline);
  const std::string_view rest =
      newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
  TimeControl control;
  try {
    control = TimeControl::parse(text);
  } catch (const std::invalid_argument& error) {
    FUZZ_CHECK(std::string(error.what()).size() > 0, "empty error message");
    return 0;
  }
  check_control(control, text);
  run_clock(control, rest);
  return 0;
}
