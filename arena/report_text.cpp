#include "report_text.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "schedule.hpp"

namespace quixo::arena {
namespace {

// Games in the whole schedule (of every shard: game numbers are the tournament's).
std::int64_t scheduled_games(const TournamentConfig& config) {
  return 2 * static_cast<std::int64_t>(pairings_of(config).size()) *
         static_cast<std::int64_t>(config.rounds);
}

// The verbose result both programs print after "Finished game": "1-0 {X loses on time: ...}".
std::string verbose_result(const TournamentConfig& config, const FinishedGame& game) {
  return std::string(result_text(game.result)) + " {" + result_description(config.variant, game) +
         "}";
}

}  // namespace

std::string format_fixed(double value, int decimals) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // What rounds to zero prints as 0, not -0.
  if (std::fabs(value) < 0.5 * std::pow(10.0, -decimals)) value = 0.0;
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string format_percent(double fraction, int decimals) {
  return format_fixed(100.0 * fraction, decimals) + " %";
}

std::string c_fixed(double value, int decimals) {
  char text[400];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string pad(std::string text, std::size_t width, bool left) {
  if (text.size() >= width) return text;
  const std::string fill(width - text.size(), ' ');
  return left ? text + fill : fill + text;
}

std::string sides(const TournamentConfig& config, std::size_t x, std::size_t o) {
  const std::string& x_name = config.engines[x].name;
  const std::string& o_name = config.engines[o].name;
  if (config.variant == Variant::FourPlayer) return "A: " + x_name + " vs B: " + o_name;
  return x_name + " vs " + o_name;
}

std::string started_game_line(const TournamentConfig& config, const ScheduledGame& game) {
  return "Started game " + std::to_string(game.id + 1) + " of " +
         std::to_string(scheduled_games(config)) + " (" + sides(config, game.x, game.o) + ")";
}

std::string finished_game_line(const TournamentConfig& config, const FinishedGame& game) {
  return "Finished game " + std::to_string(game.id + 1) + " (" + sides(config, game.x, game.o) +
         "): " + verbose_result(config, game);
}

}  // namespace quixo::arena
