// Fuzzes the arena's engine descriptions (client/engine_spec.hpp): the `key=value` words
// of --engine and --each, and their application to an engine.
//
// Input: the text of one --engine value. Invariants:
//   - parse_key_values either gives pairs or throws std::invalid_argument; its keys are not
//     empty and hold no '='; the pairs, each written as one quoted word, read back the same;
//   - apply_engine_keys either applies them or throws std::invalid_argument; applied, an engine
//     has at most one value per option name and its time control when a `tc` key was given.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine_spec.hpp"
#include "fuzz_support.hpp"

namespace {

using namespace quixo::arena;

std::string quote(std::string_view text) {
  return "'" + std::string(text) + "'";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = quixo::fuzz::as_text(data, size);
  std::vector<std::pair<std::string, std::string>> keys;
  try {
    keys = parse_key_values(text);
  } catch (const std::invalid_argument& error) {
    FUZZ_CHECK(std::string_view(error.what()).size() > 0, "empty error message");
    return 0;
  }
  std::string written;
  for (const auto& [key, value] : keys) {
    FUZZ_CHECK(!key.empty() && key.find('=') == std::string::npos,
               "bad key " + quote(key) + " from " + quote(text));
    FUZZ_CHECK(key.find('"') == std::string::npos && value.find('"') == std::string::npos,
               "a quote survived in " + quote(key + "=" + value));
    if (!written.empty()) written += ' ';
    written += '"' + key + '=' + value + '"';
  }
  try {
    FUZZ_CHECK(parse_key_values(written) == keys, "round trip through " + quote(written));
  } catch (const std::invalid_argument& error) {
    FUZZ_CHECK(false, quote(written) + " is refused: " + error.what());
  }

  EngineConfig engine;
  try {
    apply_engine_keys(engine, keys);
  } catch (const std::invalid_argument& error) {
    FUZZ_CHECK(std::string_view(error.what()).size() > 0, "empty error message");
    return 0;
  }
  for (std::size_t i = 0; i < engine.options.size(); ++i)
    for (std::size_t j = i + 1; j < engine.options.size(); ++j)
      FUZZ_CHECK(engine.options[i].first != engine.options[j].first,
                 "option " + quote(engine.options[i].first) + " twice");
  const bool has_tc =
      std::any_of(keys.begin(), keys.end(), [](const auto& key) { return key.first == "tc"; });
  FUZZ_CHECK(has_tc == engine.time_control.has_value(), "tc key and time control disagree");
  return 0;
}
