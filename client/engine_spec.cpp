// The engine descriptions of quixo-arena and quixo-gui: key=value words, grouped command-line
// words, and where an engine's command is found.
#include "engine_spec.hpp"

#include <unistd.h>

#include <algorithm>
#include <boost/json.hpp>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/text_helpers.hpp"

namespace quixo::arena {
namespace {

// The keys of an engine description besides option.NAME (apply_engine_keys).
constexpr std::string_view kEngineKeys[] = {"conf",   "name",    "cmd",        "args",
                                            "arg",    "dir",     "proto",      "tc",
                                            "stderr", "restart", "timemargin", "initstr"};

bool is_engine_key(std::string_view key) {
  if (key.starts_with("option.") && key.size() > 7) return true;
  return std::find(std::begin(kEngineKeys), std::end(kEngineKeys), key) != std::end(kEngineKeys);
}

// One command-line word with a blank after a grouped option is either several key=value words
// in one quoted string (`--engine "name=b cmd=/path/e"`), kept as it is, or one key whose value
// holds blanks (`"args=--config engine.ini"`), which becomes `args="--config engine.ini"` so that
// joining the words keeps the value whole. It is the former when each of its blank-separated
// parts is key=value with a key of an engine description; the other grouped options (--sprt,
// --resign, --draw) have no values with blanks, so for them it always is.
std::string requote(std::string_view option, std::string_view word) {
  const auto equals = word.find('=');
  if (equals == std::string_view::npos || word.find(' ') == std::string_view::npos ||
      word.find('"') != std::string_view::npos)
    return std::string(word);
  if (option != "--engine" && option != "--each") return std::string(word);
  const std::vector<std::string> parts = split_words(word);
  const bool several_keys = std::all_of(parts.begin(), parts.end(), [](const std::string& part) {
    const auto part_equals = part.find('=');
    return part_equals != std::string::npos && is_engine_key(part.substr(0, part_equals));
  });
  if (several_keys) return std::string(word);
  return std::string(word.substr(0, equals + 1)) + '"' + std::string(word.substr(equals + 1)) + '"';
}

}  // namespace

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool quoted = false;
  bool any = false;
  for (const char c : text) {
    if (c == '"') {
      quoted = !quoted;
      any = true;
    } else if (c == ' ' && !quoted) {
      if (any) words.push_back(word);
      word.clear();
      any = false;
    } else {
      word += c;
      any = true;
    }
  }
  if (quoted) throw std::invalid_argument("unterminated quote in \"" + std::string(text) + "\"");
  if (any) words.push_back(word);
  return words;
}

std::vector<std::string> group_arguments(int argc, const char* const* argv,
                                         const std::vector<std::string_view>& grouped_options) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    args.push_back(arg);
    if (std::find(grouped_options.begin(), grouped_options.end(), arg) == grouped_options.end())
      continue;
    std::string joined;
    while (i + 1 < argc) {
      const std::string_view next = argv[i + 1];
      if (next.empty() || next.front() == '-' || next.find('=') == std::string_view::npos) break;
      if (!joined.empty()) joined += ' ';
      joined += requote(arg, next);
      ++i;
    }
    if (!joined.empty()) args.push_back(joined);
  }
  return args;
}

// A path found from `dir` is made absolute, since the engine starts in `dir` and a relative
// path would then be taken from there a second time.
std::string resolve_command(const std::string& command, const std::string& directory) {
  if (command.empty() || command.front() == '/') return command;
  std::error_code error;
  if (!directory.empty()) {
    const std::filesystem::path in_directory = std::filesystem::path(directory) / command;
    const bool has_slash = command.find('/') != std::string::npos;
    if (has_slash || (::access(in_directory.c_str(), X_OK) == 0 &&
                      !std::filesystem::is_directory(in_directory, error))) {
      const std::filesystem::path absolute = std::filesystem::absolute(in_directory, error);
      return (error ? in_directory : absolute).lexically_normal().string();
    }
  }
  if (command.find('/') != std::string::npos) return command;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return command;
  const auto sibling = self.parent_path() / command;
  if (::access(sibling.c_str(), X_OK) == 0) return sibling.string();
  return command;
}

std::vector<std::pair<std::string, std::string>> parse_key_values(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> keys;
  for (const std::string& word : split_words(text)) {
    const auto equals = word.find('=');
    if (equals == std::string::npos || equals == 0)
      throw std::invalid_argument("expected key=value, not \"" + word + "\"");
    keys.emplace_back(word.substr(0, equals), word.substr(equals + 1));
  }
  return keys;
}

void apply_engine_keys(EngineConfig& engine, const EngineKeys& keys, const EnginesFile* engines) {
  for (const auto& [key, value] : keys) {
    if (key == "conf") {
      if (engines == nullptr)
        throw std::invalid_argument("conf=" + value + " needs an engines file (--engines-file)");
      const auto entry = engines->find(value);
      if (entry == engines->end())
        throw std::invalid_argument("conf=" + value + ": the engines file has no engine named \"" +
                                    value + "\"");
      apply_engine_keys(engine, entry->second);  // an entry has no conf of its own
    } else if (key == "name") {
      engine.name = value;
    } else if (key == "cmd") {
      engine.process.command = value;
    } else if (key == "args") {
      engine.process.args = split_words(value);
    } else if (key == "arg") {
      engine.process.args.push_back(value);
    } else if (key == "dir") {
      engine.process.working_directory = value;
    } else if (key == "stderr") {
      engine.process.stderr_path = value;
    } else if (key == "proto") {
      if (value == "uqi")
        engine.protocol = Protocol::Uqi;
      else if (value == "ugi")
        engine.protocol = Protocol::Ugi;
      else
        throw std::invalid_argument("proto must be uqi or ugi, not \"" + value + "\"");
    } else if (key == "tc") {
      engine.time_control = TimeControl::parse(value);
    } else if (key == "timemargin") {
      std::int64_t margin = -1;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), margin);
      if (error != std::errc() || end != value.data() + value.size() || margin < 0)
        throw std::invalid_argument("timemargin must be milliseconds >= 0, not \"" + value + "\"");
      engine.time_margin_ms = margin;
    } else if (key == "initstr") {
      engine.init_strings.push_back(value);
    } else if (key == "restart") {
      if (value == "on" || value == "true")
        engine.restart = true;
      else if (value == "off" || value == "false")
        engine.restart = false;
      else
        throw std::invalid_argument("restart must be on or off, not \"" + value + "\"");
    } else if (key.starts_with("option.") && key.size() > 7) {
      const std::string name = key.substr(7);
      auto& options = engine.options;
      std::erase_if(options, [&](const auto& option) { return option.first == name; });
      options.emplace_back(name, value);
    } else {
      throw std::invalid_argument(
          "unknown engine key \"" + key +
          "\" (known: name cmd args arg dir proto tc timemargin restart stderr initstr option.NAME "
          "conf)");
    }
  }
}

std::vector<EngineConfig> make_engine_configs(const std::vector<std::string>& each,
                                              const std::vector<std::string>& engines,
                                              const EnginesFile* engines_file) {
  EngineConfig shared;
  for (const std::string& keys : each)
    apply_engine_keys(shared, parse_key_values(keys), engines_file);
  std::vector<EngineConfig> configs;
  for (const std::string& keys : engines) {
    EngineConfig engine = shared;
    apply_engine_keys(engine, parse_key_values(keys), engines_file);
    if (engine.name.empty()) engine.name = std::filesystem::path(engine.process.command).stem();
    engine.process.command =
        resolve_command(engine.process.command, engine.process.working_directory);
    configs.push_back(std::move(engine));
  }
  return configs;
}

EnginesFile load_engines_file(const std::string& path, std::vector<std::string>* ignored) {
  namespace json = boost::json;
  // A regular file within its bound: a directory read as empty, a device for ever.
  const text_helpers::FileText text =
      text_helpers::read_regular_file(path, kEnginesFileMaxMebibytes);
  if (!text.error.empty()) throw std::invalid_argument("--engines-file " + path + " " + text.error);
  boost::system::error_code error;
  const json::value file = json::parse(text.text, error);
  if (error)
    throw std::invalid_argument("--engines-file " + path + " is not valid JSON (" +
                                error.message() + ")");
  if (!file.is_array())
    throw std::invalid_argument("--engines-file " + path +
                                ": expected an array of engines, [{\"name\": ..., ...}, ...]");
  // A JSON value as the text of a key's value: strings as they are, booleans as a check option
  // takes them (true, false), numbers written.
  const auto text_of = [](const json::value& value) -> std::string {
    if (value.is_string()) return std::string(value.get_string());
    if (value.is_bool()) return value.get_bool() ? "true" : "false";
    return json::serialize(value);
  };
  // cutechess's names for our keys.
  static const std::map<std::string, std::string> kAliases = {{"command", "cmd"},
                                                              {"workingDirectory", "dir"},
                                                              {"protocol", "proto"},
                                                              {"stderrFile", "stderr"},
                                                              {"initStrings", "initstr"}};
  // Keys that cutechess writes and that mean nothing here: a timeout scale (the arena has
  // --timeout-style settings of its own), scores from White's point of view, pondering (the
  // arena's games do not ponder), claim validation, its debug output and chess variants.
  static const std::set<std::string> kIgnored = {"timeoutScaleFactor", "whitepov", "ponder",
                                                 "validateClaims",     "debug",    "variants"};
  EnginesFile engines;
  std::size_t number = 0;
  for (const json::value& entry : file.as_array()) {
    ++number;
    const std::string where = "--engines-file " + path + ", engine " + std::to_string(number);
    if (!entry.is_object()) throw std::invalid_argument(where + ": not an object");
    const json::object& object = entry.as_object();
    const json::value* name = object.if_contains("name");
    if (name == nullptr || !name->is_string() || name->get_string().empty())
      throw std::invalid_argument(where + ": no \"name\"");
    const std::string named = where + " (" + std::string(name->get_string()) + ")";
    EngineKeys keys;
    for (const auto& [json_key, value] : object) {
      const std::string key(json_key);
      if (kIgnored.contains(key)) {
        if (ignored && std::find(ignored->begin(), ignored->end(), key) == ignored->end())
          ignored->push_back(key);
        continue;
      }
      const auto alias = kAliases.find(key);
      const std::string our_key = alias != kAliases.end() ? alias->second : key;
      if (our_key == "options") {
        if (value.is_object()) {
          for (const auto& [option, option_value] : value.get_object())
            keys.emplace_back("option." + std::string(option), text_of(option_value));
        } else if (value.is_array()) {
          // cutechess writes every option it knows with its type, default and limits; only the
          // name and value are ours to use. A button is an action, not a setting: none is pressed.
          for (const json::value& option : value.get_array()) {
            const json::object* pair = option.if_object();
            if (pair && pair->contains("name") && pair->contains("type") &&
                pair->at("type") == json::value("button"))
              continue;
            if (!pair || !pair->contains("name") || !pair->contains("value"))
              throw std::invalid_argument(named +
                                          ": options must be {\"name\": ..., \"value\": ...}");
            keys.emplace_back("option." + text_of(pair->at("name")), text_of(pair->at("value")));
          }
        } else {
          throw std::invalid_argument(named + ": \"options\" must be an object or an array");
        }
      } else if ((our_key == "args" || our_key == "initstr") && value.is_array()) {
        for (const json::value& item : value.get_array())
          keys.emplace_back(our_key == "args" ? "arg" : "initstr", text_of(item));
      } else if (key == "command") {
        // cutechess's command is a command line: the program, then its arguments.
        const std::vector<std::string> words = split_words(text_of(value));
        if (words.empty()) throw std::invalid_argument(named + ": \"command\" is empty");
        keys.emplace_back("cmd", words.front());
        for (std::size_t i = 1; i < words.size(); ++i) keys.emplace_back("arg", words[i]);
      } else if ((our_key == "dir" || our_key == "stderr") && text_of(value).empty()) {
        // cutechess writes "" for "none".
      } else if (our_key == "restart" && text_of(value) == "auto") {
        // cutechess's default: the engine is restarted when it must be, as here without restart.
      } else if (our_key == "conf" || !is_engine_key(our_key) || our_key.starts_with("option.")) {
        throw std::invalid_argument(named + ": unknown key \"" + key + "\"");
      } else {
        keys.emplace_back(our_key, text_of(value));
      }
    }
    if (!engines.emplace(std::string(name->get_string()), std::move(keys)).second)
      throw std::invalid_argument("--engines-file " + path + ": two engines are named \"" +
                                  std::string(name->get_string()) + "\"");
  }
  return engines;
}

}  // namespace quixo::arena
