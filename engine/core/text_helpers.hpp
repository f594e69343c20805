// Plain-text helpers shared by everything that reads or writes lines of text: the notation's
// position strings, the engine's UQI commands, the arena's view of engine output and its opening
// books. They sit in the rules core, the lowest library, so that every one of those can use them.
// One tokenizer and one way to echo user input, so that a line splits the same way and an error
// quotes it the same way wherever it is read. No dependencies beyond the standard library.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace quixo::text_helpers {

// ' ', '\t', '\r', '\n', '\v' and '\f': std::isspace in the "C" locale, without the locale.
bool is_space(char c);

// The whitespace-separated tokens of a line; '\r', tabs and runs of blanks are all separators.
std::vector<std::string_view> tokenize(std::string_view line);

// The tokens joined with single blanks.
std::string join(std::span<const std::string_view> tokens);

// The text of `line` from the start of `token` (a view into `line`) to the end, trailing
// whitespace removed: a multi-word field as written.
std::string rest_of_line(std::string_view line, std::string_view token);

// User text echoed in a message: quoted, shortened, non-printable characters replaced.
std::string quoted(std::string_view text);

// Lower-case ASCII copy; for case-insensitive names.
std::string to_lower(std::string_view text);

// A whole number in decimal with an optional sign. Out-of-range values are clamped to the
// int64 range (a GUI's "huge" clock stays huge); anything else that is not a number gives nullopt.
std::optional<std::int64_t> parse_integer(std::string_view text);

// An unsigned decimal number with an optional '+', read whole (engine counters such as nodes may
// exceed int64); out-of-range values are clamped to the uint64 range.
std::optional<std::uint64_t> parse_unsigned(std::string_view text);

// `value` clamped to the range of Int: a huge number in a message stays the largest one.
template <class Int>
Int clamp_to(std::int64_t value) {
  return Int(std::clamp<std::int64_t>(value, std::numeric_limits<Int>::min(),
                                      std::numeric_limits<Int>::max()));
}

// The whole text of a file a user named (a config, a book), or an error message: a directory,
// device or FIFO is refused (read as an empty file it silently drops what the user meant; a
// device may never end), and so is a file over `max_mebibytes` MiB, with the bound in the message.
struct FileText {
  std::string text;   // the file's bytes when `error` is empty
  std::string error;  // "is a directory, not a file", "is larger than 1 MiB", ...
};
FileText read_regular_file(const std::string& path, std::size_t max_mebibytes);

// One line of `in` (without its '\n') into `line`. A line longer than `max_bytes` is read to its
// end and dropped (TooLong, `line` then holds its first `max_bytes` bytes), so that no input,
// however long its lines, grows the reader's memory past the bound. End: nothing was left.
enum class LineRead { Line, TooLong, End };
LineRead read_line(std::istream& in, std::string& line, std::size_t max_bytes);

}  // namespace quixo::text_helpers
