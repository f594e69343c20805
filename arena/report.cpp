#include "report.hpp"

#include "report_arena.hpp"
#include "report_cutechess.hpp"
#include "report_fastchess.hpp"

namespace quixo::arena {

std::optional<ReportStyle> parse_report_style(std::string_view name) {
  if (name == "fastchess") return ReportStyle::Fastchess;
  if (name == "cutechess") return ReportStyle::Cutechess;
  if (name == "arena") return ReportStyle::Arena;
  return std::nullopt;
}

std::unique_ptr<ReportSink> make_text_report(std::ostream& out, std::ostream& err,
                                             ReportStyle style, bool live) {
  switch (style) {
    case ReportStyle::Cutechess:
      return make_cutechess_report(out, err);
    case ReportStyle::Fastchess:
      return make_fastchess_report(out);
    case ReportStyle::Arena:
      break;
  }
  return make_arena_report(out, live);
}

}  // namespace quixo::arena
