#include "board_display.hpp"

namespace quixo::uqi {

std::vector<std::string> draw_game(const Game& game) {
  const auto cell = [&game](Square square) -> char {
    if (const auto* two = game.two_player()) {
      if (two->position.cubes(Color::X) & square_bb(square)) return 'x';
      if (two->position.cubes(Color::O) & square_bb(square)) return 'o';
      return '.';
    }
    const Position4& position = game.four_player()->position;
    for (Seat seat = 0; seat < kSeatCount; ++seat)
      if (position.cubes_pointing_to(seat) & square_bb(square)) return cube_letter(seat);
    return '.';
  };
  std::vector<std::string> lines;
  const std::string border = "  +---+---+---+---+---+";
  lines.push_back(border);
  for (int rank = kBoardSize - 1; rank >= 0; --rank) {
    std::string row = std::string(1, char('1' + rank)) + " |";
    for (int file = 0; file < kBoardSize; ++file) {
      row += ' ';
      row += cell(make_square(file, rank));
      row += " |";
    }
    lines.push_back(row);
    lines.push_back(border);
  }
  lines.push_back("    a   b   c   d   e");
  lines.push_back("");
  lines.push_back("Position: " + game.text());
  if (const auto* two = game.two_player()) {
    lines.push_back(std::string("Side to move: ") +
                    (two->position.side_to_move() == Color::X ? "x" : "o"));
    lines.push_back("Key: " + std::to_string(two->position.key()));
  } else {
    const Seat seat = game.four_player()->position.seat_to_move();
    lines.push_back("Seat to move: " + std::to_string(seat + 1) + " (team " +
                    (team_of(seat) == Color::X ? "X" : "O") + ", places '" + cube_letter(seat) +
                    "' or '" + cube_letter(partner_of(seat)) + "')");
    lines.push_back("Cubes: x = X to seat 1, o = O to seat 2, X = X to seat 3, O = O to seat 4");
  }
  const std::vector<std::string> moves = game.legal_move_texts();
  lines.push_back("Legal moves: " + std::to_string(moves.size()));
  const Outcome outcome = game.outcome();
  lines.push_back("Outcome: " + to_string(outcome));
  const int repetitions = game.repetition_count();
  if (repetitions > 1) lines.push_back("Repetitions: " + std::to_string(repetitions));
  return lines;
}

}  // namespace quixo::uqi
