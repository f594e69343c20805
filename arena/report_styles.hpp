// The arena's reports, each found through one table here: the text styles of `--output STYLE`
// (one of them, on standard output: a run's report and a merge's) and the file reports, each
// behind its own option (`--report-html FILE`), written beside the text. The command line declares
// those options, writes their --help text, reports an unknown style and makes the sinks from these
// tables alone: a new style is its own file (listed in CMakeLists.txt) and a row in
// report_styles.cpp.
//
// The HTML page is a file report, not an --output style: it is written as well as the text, not
// instead of it, and to a file the option names, with its own history of the run.
#pragma once

#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "tournament.hpp"

namespace quixo::arena {

// A text style: `--output NAME`.
struct ReportStyle {
  const char* name;
  const char* description;  // a phrase for --help: what the style prints
  // `out` is standard output, `err` standard error; `live`: `out` is a terminal, where a style may
  // rewrite a line in place (the arena style's score line).
  std::unique_ptr<ReportSink> (*make)(std::ostream& out, std::ostream& err, bool live);
  // Games between interim rating reports when --report-interval is not given (0: only at the
  // end), as the tool the style copies has it (cutechess-cli's -ratinginterval is 0).
  int default_report_interval;
};

// Every style, the default first.
[[nodiscard]] std::span<const ReportStyle> report_styles();
[[nodiscard]] const char* default_report_style();  // "fastchess"
// The style of that name; nullptr for none.
[[nodiscard]] const ReportStyle* parse_report_style(std::string_view name);
// --output's --help text: every style's name and description, the default marked.
[[nodiscard]] std::string report_style_help();
// The sink of the style of that name. Throws std::invalid_argument for an unknown name, with a
// message that lists the styles: `--output: expected fastchess, cutechess or arena, not "x"`.
[[nodiscard]] std::unique_ptr<ReportSink> make_text_report(std::ostream& out, std::ostream& err,
                                                           std::string_view style, bool live);

// A file report: `--OPTION FILE`, any number of them at once, each beside the text style.
struct FileReport {
  const char* option;       // the option's name, without "--"
  const char* description;  // its --help text
  // Throws TournamentError when FILE cannot be written.
  std::unique_ptr<ReportSink> (*make)(const std::string& path);
};

[[nodiscard]] std::span<const FileReport> file_reports();

}  // namespace quixo::arena
