#include "time_control.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace quixo::arena {

namespace {

// Each number in a time control has at most this many integer digits, so that every time in
// milliseconds (hours included) stays far inside std::int64_t.
constexpr std::size_t kMaxDigits = 12;
// The canonical text writes every time as seconds, so a time written with minutes or hours must
// still have at most kMaxDigits digits of seconds, or to_string would give a text parse refuses.
constexpr std::int64_t kMaxSeconds = 1'000'000'000'000;  // 10^kMaxDigits

[[noreturn]] void fail(std::string_view text, const std::string& reason) {
  throw std::invalid_argument("invalid time control '" + std::string(text) + "': " + reason);
}

bool all_digits(std::string_view s) {
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// A run of decimal digits as a non-negative integer; `what` names it in the error.
template <typename Int>
Int parse_integer(std::string_view digits, std::string_view text, const char* what) {
  if (digits.empty()) fail(text, std::string("missing ") + what);
  if (!all_digits(digits)) {
    fail(text, std::string(what) + " '" + std::string(digits) + "' is not a whole number");
  }
  Int value{};
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) {
    fail(text, std::string(what) + " '" + std::string(digits) + "' is out of range");
  }
  return value;
}

// `S`, `S.fff`, `M:SS[.fff]` or `H:MM:SS[.fff]` in milliseconds, rounded to the nearest one.
std::int64_t parse_seconds(std::string_view part, std::string_view text, const char* what) {
  if (part.empty()) fail(text, std::string("missing ") + what);
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = part.find(':', start);
    fields.push_back(part.substr(start, colon == std::string_view::npos ? colon : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (fields.size() > 3)
    fail(text, std::string(what) + " '" + std::string(part) + "' has too many ':'");

  const auto bad = [&](const std::string& why) {
    fail(text, std::string(what) + " '" + std::string(part) + "' " + why);
  };

  // The last field holds the seconds and may have decimals.
  const std::string_view last = fields.back();
  const std::size_t dot = last.find('.');
  const std::string_view whole = last.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : last.substr(dot + 1);
  if (whole.empty() && fraction.empty()) bad("is not a number of seconds");
  if (!all_digits(whole) || !all_digits(fraction)) bad("is not a number of seconds");
  if (whole.size() > kMaxDigits) bad("is too large");

  std::int64_t seconds = 0;
  for (const char c : whole) seconds = seconds * 10 + (c - '0');
  std::int64_t millis = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    millis = millis * 10 + (i < fraction.size() ? fraction[i] - '0' : 0);
  }
  if (fraction.size() > 3 && fraction[3] >= '5') ++millis;  // round half up

  const std::int64_t seconds_ms = seconds * 1000 + millis;
  if (fields.size() > 1 && seconds_ms >= 60 * 1000) bad("has 60 or more seconds after a ':'");

  // The fields before it: minutes, or hours and minutes.
  std::vector<std::int64_t> leading;
  for (std::size_t i = 0; i + 1 < fields.size(); ++i) {
    const std::string_view field = fields[i];
    if (field.empty() || !all_digits(field)) bad("is not a time (h:mm:ss, m:ss or seconds)");
    if (field.size() > kMaxDigits) bad("is too large");
    std::int64_t value = 0;
    for (const char c : field) value = value * 10 + (c - '0');
    leading.push_back(value);
  }
  std::int64_t total_ms = seconds_ms;
  if (leading.size() == 1) total_ms += leading[0] * 60 * 1000;
  if (leading.size() == 2) {
    if (leading[1] >= 60) bad("has 60 or more minutes after a ':'");
    total_ms += (leading[0] * 60 + leading[1]) * 60 * 1000;
  }
  if (total_ms / 1000 >= kMaxSeconds) bad("is too large");
  return total_ms;
}

std::string format_seconds(std::int64_t ms) {
  std::string out = std::to_string(ms / 1000);
  std::int64_t fraction = ms % 1000;
  if (fraction != 0) {
    std::string digits = std::to_string(fraction);
    digits.insert(0, 3 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    out += '.';
    out += digits;
  }
  return out;
}

}  // namespace

TimeControl TimeControl::clock(std::int64_t base_ms, std::int64_t increment_ms,
                               int moves_per_period) {
  if (base_ms < 1) throw std::invalid_argument("time control: the base time must be at least 1 ms");
  if (increment_ms < 0) throw std::invalid_argument("time control: negative increment");
  if (moves_per_period < 0) throw std::invalid_argument("time control: negative number of moves");
  TimeControl tc;
  tc.kind_ = Kind::Clock;
  tc.base_ms_ = base_ms;
  tc.increment_ms_ = increment_ms;
  tc.moves_ = moves_per_period;
  return tc;
}

TimeControl TimeControl::fixed_time(std::int64_t move_time_ms) {
  if (move_time_ms < 1)
    throw std::invalid_argument("time control: move time must be at least 1 ms");
  TimeControl tc;
  tc.kind_ = Kind::FixedTime;
  tc.move_time_ms_ = move_time_ms;
  return tc;
}

TimeControl TimeControl::fixed_nodes(std::uint64_t nodes) {
  if (nodes < 1) throw std::invalid_argument("time control: nodes must be at least 1");
  TimeControl tc;
  tc.kind_ = Kind::FixedNodes;
  tc.nodes_ = nodes;
  return tc;
}

TimeControl TimeControl::fixed_depth(int depth) {
  if (depth < 1) throw std::invalid_argument("time control: depth must be at least 1");
  TimeControl tc;
  tc.kind_ = Kind::FixedDepth;
  tc.depth_ = depth;
  return tc;
}

TimeControl TimeControl::with_margin(std::int64_t margin_ms) const {
  if (margin_ms < 0) throw std::invalid_argument("time control: negative time margin");
  TimeControl tc = *this;
  tc.margin_ms_ = margin_ms;
  return tc;
}

TimeControl TimeControl::parse(std::string_view text) {
  if (text.empty()) fail(text, "empty");
  if (text == "inf" || text == "infinite") return infinite();

  const std::size_t equals = text.find('=');
  if (equals != std::string_view::npos) {
    const std::string_view key = text.substr(0, equals);
    const std::string_view value = text.substr(equals + 1);
    if (key == "st") {
      const std::int64_t ms = parse_seconds(value, text, "move time");
      if (ms < 1) fail(text, "the move time must be at least 1 ms");
      return fixed_time(ms);
    }
    if (key == "nodes") {
      const auto nodes = parse_integer<std::uint64_t>(value, text, "node count");
      if (nodes < 1) fail(text, "the node count must be at least 1");
      return fixed_nodes(nodes);
    }
    if (key == "depth" || key == "plies") {
      const int depth = parse_integer<int>(value, text, "depth");
      if (depth < 1) fail(text, "the depth must be at least 1");
      return fixed_depth(depth);
    }
    fail(text, "unknown kind '" + std::string(key) + "' (st=, nodes=, depth=)");
  }

  std::string_view rest = text;
  int moves = 0;
  const std::size_t slash = rest.find('/');
  if (slash != std::string_view::npos) {
    moves = parse_integer<int>(rest.substr(0, slash), text, "number of moves");
    if (moves < 1) fail(text, "the number of moves must be at least 1");
    rest.remove_prefix(slash + 1);
  }
  std::int64_t increment_ms = 0;
  const std::size_t plus = rest.find('+');
  if (plus != std::string_view::npos) {
    increment_ms = parse_seconds(rest.substr(plus + 1), text, "increment");
    rest = rest.substr(0, plus);
  }
  const std::int64_t base_ms = parse_seconds(rest, text, "time");
  if (base_ms < 1) fail(text, "the time must be at least 1 ms");
  return clock(base_ms, increment_ms, moves);
}

std::string TimeControl::to_string() const {
  switch (kind_) {
    case Kind::Infinite:
      return "inf";
    case Kind::Clock: {
      std::string out;
      if (moves_ > 0) out = std::to_string(moves_) + "/";
      out += format_seconds(base_ms_);
      if (increment_ms_ > 0) out += "+" + format_seconds(increment_ms_);
      return out;
    }
    case Kind::FixedTime:
      return "st=" + format_seconds(move_time_ms_);
    case Kind::FixedNodes:
      return "nodes=" + std::to_string(nodes_);
    case Kind::FixedDepth:
      return "depth=" + std::to_string(depth_);
  }
  return "inf";
}

Clock::Clock(const TimeControl& control) : control_(control) {
  if (control_.kind() == TimeControl::Kind::Clock) {
    remaining_ms_ = control_.base_ms();
    moves_left_ = control_.moves_per_period();
  }
}

std::optional<std::int64_t> Clock::start_move() {
  if (flagged_) throw std::logic_error("clock: start_move on a clock that has flagged");
  if (thinking_) throw std::logic_error("clock: start_move while a move is running");
  thinking_ = true;
  switch (control_.kind()) {
    case TimeControl::Kind::Clock:
      return remaining_ms_ + control_.margin_ms();
    case TimeControl::Kind::FixedTime:
      return control_.move_time_ms() + control_.margin_ms();
    default:
      return std::nullopt;
  }
}

bool Clock::stop_move(std::int64_t elapsed_ms) {
  if (!thinking_) throw std::logic_error("clock: stop_move without start_move");
  if (elapsed_ms < 0) throw std::invalid_argument("clock: negative elapsed time");
  thinking_ = false;
  switch (control_.kind()) {
    case TimeControl::Kind::Clock:
      remaining_ms_ -= elapsed_ms;
      if (remaining_ms_ < -control_.margin_ms()) {
        flagged_ = true;
        return false;
      }
      if (remaining_ms_ < 0) remaining_ms_ = 0;
      remaining_ms_ += control_.increment_ms();
      if (control_.moves_per_period() > 0 && --moves_left_ == 0) {
        remaining_ms_ += control_.base_ms();
        moves_left_ = control_.moves_per_period();
      }
      break;
    case TimeControl::Kind::FixedTime:
      if (elapsed_ms > control_.move_time_ms() + control_.margin_ms()) {
        flagged_ = true;
        return false;
      }
      break;
    default:
      break;
  }
  ++moves_made_;
  return true;
}

void Clock::restore(std::int64_t remaining_ms, int moves_to_go) {
  if (control_.kind() != TimeControl::Kind::Clock) return;
  remaining_ms_ = remaining_ms;
  if (control_.moves_per_period() > 0)
    moves_left_ = std::clamp(moves_to_go, 1, control_.moves_per_period());
  thinking_ = false;
  flagged_ = remaining_ms < -control_.margin_ms();
}

GoLimits Clock::go_limits() const {
  GoLimits limits;
  switch (control_.kind()) {
    case TimeControl::Kind::Infinite:
      limits.infinite = true;
      break;
    case TimeControl::Kind::Clock:
      limits.time_ms = remaining_ms_ < 0 ? 0 : remaining_ms_;
      limits.increment_ms = control_.increment_ms();
      if (control_.moves_per_period() > 0) limits.moves_to_go = moves_left_;
      break;
    case TimeControl::Kind::FixedTime:
      limits.move_time_ms = control_.move_time_ms();
      break;
    case TimeControl::Kind::FixedNodes:
      limits.nodes = control_.nodes();
      break;
    case TimeControl::Kind::FixedDepth:
      limits.depth = control_.depth();
      break;
  }
  return limits;
}

}  // namespace quixo::arena
