#include "core/game.hpp"

namespace quixo {

Game Game::parse(std::string_view text) {
  if (variant_of(text) == Variant::FourPlayer) return Game(parse_position4(text));
  return Game(parse_position(text));
}

Game Game::start(Variant variant) {
  return variant == Variant::FourPlayer ? Game(Position4::start()) : Game(Position::start());
}

Variant Game::variant() const {
  return four_player() ? Variant::FourPlayer : Variant::TwoPlayer;
}

std::string Game::play(std::string_view text) {
  return std::visit(
      [&](auto& line) {
        const auto move = parse_move(line.position, text);
        line.play(move);
        return to_string(move);
      },
      line_);
}

Outcome Game::outcome() const {
  return visit([](const auto& line) { return line.position.outcome(); });
}

bool Game::is_game_over() const {
  return visit([](const auto& line) { return line.position.is_game_over(); });
}

Color Game::team_to_move() const {
  if (const GameLine<Position4>* four = four_player()) return four->position.team_to_move();
  return two_player()->position.side_to_move();
}

std::string Game::text() const {
  return visit([](const auto& line) { return to_string(line.position); });
}

std::vector<std::string> Game::legal_move_texts() const {
  return visit([](const auto& line) {
    std::vector<std::string> texts;
    for (const auto move : line.position.legal_moves()) texts.push_back(to_string(move));
    return texts;
  });
}

int Game::repetition_count() const {
  return visit([](const auto& line) { return line.repetition_count(); });
}

std::string_view variant_name(Variant variant) {
  return variant == Variant::FourPlayer ? "4p" : "2p";
}

}  // namespace quixo
