#include "uqi_game.hpp"

#include <algorithm>

namespace quixo::uqi {

Variant variant_of(const Game& game) {
  return std::holds_alternative<TwoPlayerGame>(game) ? Variant::TwoPlayer : Variant::FourPlayer;
}

std::string position_text(const Game& game) {
  return std::visit([](const auto& g) { return to_string(g.position); }, game);
}

std::vector<std::string> legal_move_texts(const Game& game) {
  return std::visit(
      [](const auto& g) {
        std::vector<std::string> texts;
        for (const auto move : g.position.legal_moves()) texts.push_back(to_string(move));
        return texts;
      },
      game);
}

int repetition_count(const Game& game) {
  if (const auto* two = std::get_if<TwoPlayerGame>(&game))
    return 1 +
           int(std::count(two->history_keys.begin(), two->history_keys.end(), two->position.key()));
  const auto& four = std::get<FourPlayerGame>(game);
  return 1 + int(std::count(four.history.begin(), four.history.end(), four.position));
}

}  // namespace quixo::uqi
