#include "game_record.hpp"

#include <array>
#include <utility>

namespace quixo::arena {
namespace {

constexpr std::array<std::pair<Termination, std::string_view>, kTerminationCount>
    kTerminationNames = {{
        {Termination::Line, "line"},
        {Termination::Repetition, "repetition"},
        {Termination::PlyCap, "ply cap"},
        {Termination::TimeForfeit, "time forfeit"},
        {Termination::IllegalMove, "illegal move"},
        {Termination::Crash, "crash"},
        {Termination::Stall, "stall"},
        {Termination::ResignAdjudication, "resign adjudication"},
        {Termination::DrawAdjudication, "draw adjudication"},
        {Termination::Tablebase, "tablebase"},
        {Termination::Unterminated, "unterminated"},
    }};

}  // namespace

std::string_view termination_name(Termination termination) {
  for (const auto& [value, name] : kTerminationNames)
    if (value == termination) return name;
  return "unknown";
}

std::optional<Termination> parse_termination(std::string_view name) {
  for (const auto& [value, known] : kTerminationNames)
    if (known == name) return value;
  return std::nullopt;
}

std::string_view result_text(GameResult result) {
  switch (result) {
    case GameResult::XWins:
      return "1-0";
    case GameResult::OWins:
      return "0-1";
    case GameResult::Unfinished:
      return "*";
    case GameResult::Draw:
      break;
  }
  return "1/2-1/2";
}

std::optional<GameResult> parse_result_text(std::string_view text) {
  if (text == "1-0") return GameResult::XWins;
  if (text == "0-1") return GameResult::OWins;
  if (text == "1/2-1/2") return GameResult::Draw;
  if (text == "*") return GameResult::Unfinished;
  return std::nullopt;
}

std::string_view seating_name(Seating seating) {
  return seating == Seating::PerTeam ? "per-team" : "per-seat";
}

std::optional<Seating> parse_seating(std::string_view name) {
  if (name == "per-seat") return Seating::PerSeat;
  if (name == "per-team") return Seating::PerTeam;
  return std::nullopt;
}

}  // namespace quixo::arena
