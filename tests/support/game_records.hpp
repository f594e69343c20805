// A move of a game record as an engine reports it, in one call: for the suites that build game
// records by hand (pgn_tests, game4_tests).
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

}  // namespace quixo::arena
