#include "tournament_types.hpp"

namespace quixo::arena {

std::string_view end_name(TournamentEnd end) {
  switch (end) {
    case TournamentEnd::Completed:
      return "completed";
    case TournamentEnd::SprtAcceptedH0:
      return "H0 accepted";
    case TournamentEnd::SprtAcceptedH1:
      return "H1 accepted";
    case TournamentEnd::SprtUndecided:
      return "SPRT undecided";
    case TournamentEnd::Interrupted:
      break;
  }
  return "interrupted";
}

std::string_view format_name(TournamentFormat format) {
  return format == TournamentFormat::Gauntlet ? "gauntlet" : "round-robin";
}

}  // namespace quixo::arena
