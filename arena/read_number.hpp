#pragma once

// Numbers in the arena's command-line values (`--sprt elo0=5`, `--param X=1,0,2,0.5`): the
// whole text read as one number, each caller saying in its own words what was wrong.

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace quixo::arena {

// `text` read whole as a Number: an integer in range, or a finite real (from_chars' general
// format; "nan" and "inf" are refused, as no option of the arena means them). nullopt otherwise,
// also for an empty text or one with spaces around the number.
template <typename Number>
std::optional<Number> read_number(std::string_view text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if constexpr (std::is_floating_point_v<Number>)
    if (!std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace quixo::arena
