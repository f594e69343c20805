// The text report styles of `--output STYLE` by name. Each style is in its own file:
// report_fastchess (the default: fastchess's lines, character for character), report_cutechess
// (cutechess-cli's lines, character for character) and report_arena (the arena's own report);
// what they share is in report_text.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string_view>

#include "tournament.hpp"

namespace quixo::arena {

enum class ReportStyle { Fastchess, Cutechess, Arena };
// "fastchess", "cutechess" or "arena"; nullopt otherwise.
std::optional<ReportStyle> parse_report_style(std::string_view name);

// `out` is standard output, `err` standard error (cutechess's warnings). `live` (the arena style
// only) rewrites the score line in place with '\r' for a terminal; otherwise each update is a new
// line.
std::unique_ptr<ReportSink> make_text_report(std::ostream& out, std::ostream& err,
                                             ReportStyle style, bool live);

}  // namespace quixo::arena
