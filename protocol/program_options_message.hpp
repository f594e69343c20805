// What every program's command line (quixo-engine, quixo-arena, quixo-gui and the tools) shares on
// top of Boost.Program_options: the message of an error, the reading of a config file, and
// unsigned option values that refuse a sign.
//
// Boost's own what() puts the option's name, token and value into its message template and then
// replaces each placeholder until none is left, so an argument that contains its own placeholder
// never ends: `quixo-arena --rounds %value%` or `quixo-engine --x%original_token%` looped forever,
// their memory growing (found by fuzz_arena_config). This gives Boost's message, except that
// when the user's text holds a '%' each placeholder is replaced once, in one pass.
#pragma once

#include <boost/program_options/errors.hpp>
#include <boost/program_options/options_description.hpp>
#include <boost/program_options/value_semantic.hpp>
#include <boost/program_options/variables_map.hpp>
#include <charconv>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace quixo {

std::string program_options_message(const boost::program_options::error& error);

// The largest config file read: far above any real one, and a bound for a file that never ends.
inline constexpr std::size_t kConfigFileMaxMebibytes = 1;

// Stores the options of the config file at `path` in `vm` after what is there (so values already
// given on the command line win). On a path that is not a regular file (a directory, a device), a
// file larger than kConfigFileMaxMebibytes, an unreadable file or a bad option, writes
// "<program>: ..." to `err` and returns false.
bool store_config_file(const std::string& path,
                       const boost::program_options::options_description& options,
                       boost::program_options::variables_map& vm, std::string_view program,
                       std::ostream& err);

// An unsigned option's value. Boost reads "-1" into an unsigned type as its largest value (the
// conversion wraps), so `--openings-offset -1` started at the 18-quintillionth opening; this type
// takes digits only and refuses anything else as an invalid argument. (text_helpers::parse_unsigned
// takes a '+' and clamps to the uint64 range, right for an engine's counters, not for an option
// whose value must fit T exactly.)
template <class T>
struct Unsigned {
  T value{};
};

// Boost.Program_options finds this by argument-dependent lookup to read an Unsigned<T>.
template <class T>
void validate(boost::any& result, const std::vector<std::string>& tokens, Unsigned<T>*, int) {
  namespace po = boost::program_options;
  po::validators::check_first_occurrence(result);
  const std::string& text = po::validators::get_single_string(tokens);
  T parsed{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    throw po::invalid_option_value(text);
  result = Unsigned<T>{parsed};
}

// The value semantic of an unsigned option with its default, and the value read.
template <class T>
boost::program_options::typed_value<Unsigned<T>>* unsigned_value(T default_value) {
  return boost::program_options::value<Unsigned<T>>()->default_value(Unsigned<T>{default_value},
                                                                     std::to_string(default_value));
}
template <class T>
T unsigned_option(const boost::program_options::variables_map& vm, const std::string& name) {
  return vm[name].as<Unsigned<T>>().value;
}

}  // namespace quixo
