// Engines as users describe them to quixo-arena and quixo-gui, fastchess style: `key=value`
// words (name cmd args arg dir proto tc timemargin restart stderr initstr option.NAME), given after
// --engine and --each as separate words or one quoted string, on the command line or in a config
// file.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine_client.hpp"

namespace quixo::arena {

// The largest engines file read (--engines-file): far above any real one (an engine's entry is a
// few hundred bytes), and a bound for a file that never ends.
inline constexpr std::size_t kEnginesFileMaxMebibytes = 1;

// `key=value key="value with spaces" ...`. Throws std::invalid_argument on a token without '='
// or an unterminated quote.
std::vector<std::pair<std::string, std::string>> parse_key_values(std::string_view text);

// Applies the keys of an engine description to `engine`: name, cmd, args (split at blanks,
// quotes group), arg (one argument, repeatable), dir, proto (uqi|ugi), tc (a time control, the
// engine's own), timemargin (milliseconds, the engine's own), restart (on|off), stderr, initstr (a
// line sent to the engine after its handshake, repeatable), option.NAME (a `setoption`,
// repeatable; a later value for the same name replaces the earlier one). Throws
// std::invalid_argument naming an unknown key or a bad value.
// conf=NAME applies the keys of the engines file's entry NAME at that point (keys after it win);
// it needs `engines`.
using EngineKeys = std::vector<std::pair<std::string, std::string>>;
using EnginesFile = std::map<std::string, EngineKeys>;
void apply_engine_keys(EngineConfig& engine, const EngineKeys& keys,
                       const EnginesFile* engines = nullptr);

// An engines file, as cutechess's engines.json: a JSON array of objects, one per engine, with
// "name" (required, unique) and the keys above ("cmd", "args" as a string or an array, "dir",
// "proto", "tc", "timemargin", "restart", "stderr", "initstr"), "options" as an object
// {"Hash": 16} or cutechess's array [{"name": "Hash", "value": 16, ...}] (buttons skipped, a JSON
// boolean written true or false), and every key cutechess writes: "command" (a command line: the
// program, then its arguments), "workingDirectory", "protocol", "stderrFile" and "initStrings"
// are applied ("" for none; "restart": "auto" is the default); "timeoutScaleFactor", "whitepov",
// "ponder", "validateClaims", "debug" and "variants" mean nothing here and are added, once each,
// to `ignored` when given. Throws std::invalid_argument naming the file, the entry and the problem
// (not JSON, no name, a name twice, an unknown key).
[[nodiscard]] EnginesFile load_engines_file(const std::string& path,
                                            std::vector<std::string>* ignored = nullptr);

// Words split at blanks, double quotes grouping (and removed). Throws std::invalid_argument on an
// unterminated quote.
std::vector<std::string> split_words(std::string_view text);

// argv without the program name, where the key=value words that follow one of
// `grouped_options` are joined into that option's one value (`--engine name=a cmd=./e`).
std::vector<std::string> group_arguments(int argc, const char* const* argv,
                                         const std::vector<std::string_view>& grouped_options);

// Where an engine's command is found: a relative path (with a '/') is taken from the engine's
// `dir` when it has one, else from the working directory; a name without '/' is looked for in
// `dir` (when given), next to the running program (the build puts quixo-engine there), then on
// PATH when the process starts.
std::string resolve_command(const std::string& command, const std::string& directory);

// The engines of `engines` (one description each), every one with the `each` keys applied
// first; an engine without a name is named after its command's file name. Throws
// std::invalid_argument as apply_engine_keys does. `engines_file` serves conf=NAME.
std::vector<EngineConfig> make_engine_configs(const std::vector<std::string>& each,
                                              const std::vector<std::string>& engines,
                                              const EnginesFile* engines_file = nullptr);

}  // namespace quixo::arena
