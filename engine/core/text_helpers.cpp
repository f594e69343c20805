#include "text_helpers.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <system_error>
#include <utility>

namespace quixo::text_helpers {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

std::vector<std::string_view> tokenize(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

std::string join(std::span<const std::string_view> tokens) {
  std::string out;
  for (const std::string_view token : tokens) {
    if (!out.empty()) out += ' ';
    out += token;
  }
  return out;
}

std::string rest_of_line(std::string_view line, std::string_view token) {
  std::string_view rest = line.substr(std::size_t(token.data() - line.data()));
  while (!rest.empty() && is_space(rest.back())) rest.remove_suffix(1);
  return std::string(rest);
}

std::string quoted(std::string_view text) {
  constexpr std::size_t kMaxEcho = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < kMaxEcho; ++i) {
    const char c = text[i];
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  if (text.size() > kMaxEcho) out += "...";
  return out + "'";
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  for (const char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  std::uint64_t magnitude = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), magnitude);
  const bool overflow = error == std::errc::result_out_of_range;
  if (!overflow && (error != std::errc() || end != text.data() + text.size())) return std::nullopt;
  constexpr std::uint64_t kMax = std::uint64_t(std::numeric_limits<std::int64_t>::max());
  if (negative)
    return overflow || magnitude > kMax ? std::numeric_limits<std::int64_t>::min()
                                        : -std::int64_t(magnitude);
  return overflow || magnitude > kMax ? std::numeric_limits<std::int64_t>::max()
                                      : std::int64_t(magnitude);
}

std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  if (text.empty() || text[0] < '0' || text[0] > '9') return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (end != text.data() + text.size()) return std::nullopt;
  if (error == std::errc::result_out_of_range) return std::numeric_limits<std::uint64_t>::max();
  if (error != std::errc()) return std::nullopt;
  return value;
}

LineRead read_line(std::istream& in, std::string& line, std::size_t max_bytes) {
  line.clear();
  std::streambuf* const buffer = in.rdbuf();
  bool read_any = false;
  bool too_long = false;
  while (true) {
    const std::streambuf::int_type c =
        buffer ? buffer->sbumpc() : std::streambuf::traits_type::eof();
    if (std::streambuf::traits_type::eq_int_type(c, std::streambuf::traits_type::eof())) {
      in.setstate(read_any ? std::ios::eofbit : std::ios::eofbit | std::ios::failbit);
      if (!read_any) return LineRead::End;
      break;
    }
    read_any = true;
    const char ch = std::streambuf::traits_type::to_char_type(c);
    if (ch == '\n') break;
    if (line.size() < max_bytes)
      line.push_back(ch);
    else
      too_long = true;
  }
  return too_long ? LineRead::TooLong : LineRead::Line;
}

FileText read_regular_file(const std::string& path, std::size_t max_mebibytes) {
  const std::size_t max_bytes = max_mebibytes << 20;
  std::error_code error_code;
  const auto status = std::filesystem::status(path, error_code);
  if (std::filesystem::is_directory(status)) return {{}, "is a directory, not a file"};
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    return {{}, "is not a regular file"};
  std::ifstream file(path, std::ios::binary);
  if (!file) return {{}, "cannot be read"};
  // Read in chunks, so a small file costs a small buffer; one byte past the bound is enough to
  // tell a file at the bound from a larger one.
  std::string text;
  char chunk[1 << 16];
  while (text.size() <= max_bytes && file.read(chunk, sizeof chunk).gcount() > 0)
    text.append(chunk, std::size_t(file.gcount()));
  if (file.bad()) return {{}, "cannot be read"};
  if (text.size() > max_bytes)
    return {{}, "is larger than " + std::to_string(max_mebibytes) + " MiB"};
  return {std::move(text), {}};
}

}  // namespace quixo::text_helpers
