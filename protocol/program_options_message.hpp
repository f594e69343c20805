// The message of a Boost.Program_options error, for quixo-engine's and quixo-arena's command
// lines and config files.
//
// Boost's own what() puts the option's name, token and value into its message template and then
// replaces each placeholder until none is left, so an argument that contains its own placeholder
// never ends: `quixo-arena --rounds %value%` or `quixo-engine --x%original_token%` looped forever,
// their memory growing (found by fuzz_arena_config). This gives Boost's message, except that
// when the user's text holds a '%' each placeholder is replaced once, in one pass.
#pragma once

#include <boost/program_options/errors.hpp>
#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>

namespace quixo {

std::string program_options_message(const boost::program_options::error& error);

// The largest config file read: far above any real one, and a bound for a file that never ends.
inline constexpr std::size_t kConfigFileMaxBytes = std::size_t{1} << 20;

// Stores the options of the config file at `path` in `vm` after what is there (so values already
// given on the command line win). On a path that is not a regular file (a directory, a device), a
// file larger than kConfigFileMaxBytes, an unreadable file or a bad option, writes
// "<program>: ..." to `err` and returns false.
bool store_config_file(const std::string& path,
                       const boost::program_options::options_description& options,
                       boost::program_options::variables_map& vm, std::string_view program,
                       std::ostream& err);

}  // namespace quixo
