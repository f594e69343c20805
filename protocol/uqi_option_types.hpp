// The two UQI messages about engine options, as plain data: the engine announces each option with
// an `option` line and a GUI sets one with `setoption`. Both sides use these types (the engine
// writes `option` and reads `setoption`, a GUI the other way round), so they sit below both.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace quixo::uqi {

// `setoption name <N...> [value <V...>]`.
struct SetOptionCommand {
  std::string name;                  // may contain spaces
  std::optional<std::string> value;  // absent for buttons
};

// `option name N type T default D min A max B var V...`, as the engine announces its options.
struct OptionLine {
  std::string name;
  std::string type;  // spin, check, combo, button, string
  std::optional<std::string> default_value;
  std::optional<std::int64_t> min;
  std::optional<std::int64_t> max;
  std::vector<std::string> vars;
};

}  // namespace quixo::uqi
