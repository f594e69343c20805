#include "report_styles.hpp"

#include <array>
#include <stdexcept>

#include "html_report.hpp"
#include "report_arena.hpp"
#include "report_cutechess.hpp"
#include "report_fastchess.hpp"

namespace quixo::arena {
namespace {

// The default first.
constexpr std::array kStyles = {
    ReportStyle{"fastchess", "fastchess's lines, character for character",
                [](std::ostream& out, std::ostream&, bool) { return make_fastchess_report(out); },
                10},
    ReportStyle{
        "cutechess", "cutechess-cli's lines, character for character",
        [](std::ostream& out, std::ostream& err, bool) { return make_cutechess_report(out, err); },
        0},
    ReportStyle{
        "arena",
        "the arena's own report: a live score line, pentanomial and trinomial Elo, the "
        "ranking, the incidents",
        [](std::ostream& out, std::ostream&, bool live) { return make_arena_report(out, live); },
        10},
};

constexpr std::array kFileReports = {
    FileReport{"report-html",
               "also write the tournament as one HTML page (ratings, crosstable, charts over the "
               "games), rewritten as the games finish",
               [](const std::string& path) { return make_html_report(path); }},
};

// "a", "a or b", "a, b or c".
template <typename Text>
std::string one_of(std::span<const ReportStyle> styles, Text item) {
  std::string text;
  for (std::size_t i = 0; i < styles.size(); ++i)
    text += (i == 0 ? "" : i + 1 == styles.size() ? " or " : ", ") + item(styles[i]);
  return text;
}

}  // namespace

std::span<const ReportStyle> report_styles() {
  return kStyles;
}

const char* default_report_style() {
  return kStyles.front().name;
}

const ReportStyle* parse_report_style(std::string_view name) {
  for (const ReportStyle& style : kStyles)
    if (name == style.name) return &style;
  return nullptr;
}

std::string report_style_help() {
  return "report style: " + one_of(kStyles, [](const ReportStyle& style) {
           return std::string(style.name) + " (" +
                  (&style == &kStyles.front() ? "the default: " : "") + style.description + ")";
         });
}

std::unique_ptr<ReportSink> make_text_report(std::ostream& out, std::ostream& err,
                                             std::string_view style, bool live) {
  if (const ReportStyle* found = parse_report_style(style)) return found->make(out, err, live);
  throw std::invalid_argument(
      "--output: expected " +
      one_of(kStyles, [](const ReportStyle& known) { return std::string(known.name); }) +
      ", not \"" + std::string(style) + "\"");
}

std::span<const FileReport> file_reports() {
  return kFileReports;
}

}  // namespace quixo::arena
