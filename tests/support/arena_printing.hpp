// How Boost.Test prints the arena's enums in a failed check: by their stable names. Only the
// tests print them, so the printers live here rather than in the arena's headers.
#pragma once

#include <ostream>

#include "game_record.hpp"
#include "tournament_types.hpp"

namespace quixo::arena {

inline std::ostream& operator<<(std::ostream& out, GameResult result) {
  return out << result_text(result);
}

inline std::ostream& operator<<(std::ostream& out, Termination termination) {
  return out << termination_name(termination);
}

inline std::ostream& operator<<(std::ostream& out, Seating seating) {
  return out << seating_name(seating);
}

inline std::ostream& operator<<(std::ostream& out, TournamentEnd end) {
  return out << end_name(end);
}

}  // namespace quixo::arena
