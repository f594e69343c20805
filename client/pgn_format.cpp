#include "pgn_format.hpp"

#include <cctype>
#include <charconv>
#include <system_error>

#include "core/game.hpp"
#include "core/notation.hpp"

namespace quixo::arena::pgn_format {

std::string_view standard_termination(Termination termination) {
  switch (termination) {
    case Termination::Line:
    case Termination::Repetition:
      return "normal";
    case Termination::PlyCap:
    case Termination::ResignAdjudication:
    case Termination::DrawAdjudication:
    case Termination::Tablebase:  // as cutechess-cli writes its tablebase adjudication
      return "adjudication";
    case Termination::TimeForfeit:
      return "time forfeit";
    case Termination::IllegalMove:
      return "rules infraction";
    case Termination::Crash:
    case Termination::Stall:
      return "abandoned";
    case Termination::Unterminated:
      return "unterminated";
  }
  return "unterminated";
}

bool o_moves_first(std::string_view start_position) {
  try {
    return Game::parse(start_position).team_to_move() == Color::O;
  } catch (const NotationError&) {
    return false;  // an unreadable FEN: parse_pgn reports it, the writer just numbers from X
  }
}

// The full-move number of the FEN's first ply: the position string's move number
// (docs/spec.md §3.3) when it has one, else 1. A book line "x4/5/5/5/o4 x 12 moves ..." numbers
// its moves from 12.
std::size_t first_move_number(std::string_view start_position) {
  // The notation's blanks (std::isspace), so that the number read is the one the position has:
  // with '\r' or '\v' as a separator, the writer numbered from 1 and the reader, after the tag
  // turned them into spaces, expected the FEN's number (found by fuzz_pgn).
  const auto blank = [&](std::size_t at) {
    return std::isspace(static_cast<unsigned char>(start_position[at])) != 0;
  };
  std::size_t field = 0;
  std::size_t i = 0;
  while (i < start_position.size()) {
    while (i < start_position.size() && blank(i)) ++i;
    const std::size_t start = i;
    while (i < start_position.size() && !blank(i)) ++i;
    if (i == start) break;
    if (++field != 3) continue;
    std::size_t number = 0;
    const std::string_view text = start_position.substr(start, i - start);
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    return error == std::errc() && end == text.data() + text.size() && number > 0 ? number : 1;
  }
  return 1;
}

}  // namespace quixo::arena::pgn_format
