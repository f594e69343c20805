#include "game_position.hpp"

namespace quixo::arena {

GamePosition GamePosition::parse(std::string_view text) {
  if (variant_of(text) == Variant::FourPlayer) return GamePosition(parse_position4(text));
  return GamePosition(parse_position(text));
}

GamePosition GamePosition::start(Variant variant) {
  return variant == Variant::FourPlayer ? GamePosition(Position4::start())
                                        : GamePosition(Position::start());
}

Variant GamePosition::variant() const {
  return four_player() ? Variant::FourPlayer : Variant::TwoPlayer;
}

std::string GamePosition::play(std::string_view text) {
  return std::visit(
      [&](auto& position) {
        const auto move = parse_move(position, text);
        position = position.after(move);
        return to_string(move);
      },
      position_);
}

Outcome GamePosition::outcome() const {
  return std::visit([](const auto& position) { return position.outcome(); }, position_);
}

bool GamePosition::is_game_over() const {
  return std::visit([](const auto& position) { return position.is_game_over(); }, position_);
}

Color GamePosition::team_to_move() const {
  if (const Position4* four = four_player()) return four->team_to_move();
  return std::get<Position>(position_).side_to_move();
}

std::string GamePosition::text() const {
  return std::visit([](const auto& position) { return to_string(position); }, position_);
}

std::string_view variant_name(Variant variant) {
  return variant == Variant::FourPlayer ? "4p" : "2p";
}

}  // namespace quixo::arena
