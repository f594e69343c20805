// A move of a game record as an engine reports it, and a record's ending, in one call each: for
// the suites that build game records by hand (pgn_tests, game4_tests).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "game_record.hpp"

namespace quixo::arena {

inline MoveRecord move_record(std::string move, std::optional<int> cp, std::optional<int> mate,
                              std::optional<int> depth, std::int64_t time_ms) {
  MoveRecord record;
  record.move = std::move(move);
  record.score_cp = cp;
  record.score_mate = mate;
  record.depth = depth;
  record.time_ms = time_ms;
  return record;
}

// `game`, ended with `result` by `termination` for `reason`.
inline GameRecord ended(GameRecord game, GameResult result, Termination termination,
                        std::string reason) {
  game.result = result;
  game.termination = termination;
  game.reason = std::move(reason);
  return game;
}

}  // namespace quixo::arena
