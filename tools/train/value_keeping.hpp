// The value-keeping test of issue 13: on positions of the endgame tables that no training ever
// sees (held out), with the tables switched off and a fixed time per move, the share of moves
// that keep the position's exact value (a win stays a win, a draw a draw). Only positions where
// some legal move gives the value away count: elsewhere every move keeps it. Most table positions
// are easy (a short win, a draw that most moves keep), and a tenth of a second finds their
// move whatever the evaluation; the settings keep the hard ones, where the evaluation decides.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "search/evaluation.hpp"
#include "tb/tablebase.hpp"

namespace quixo::train {

struct ValueKeepingSettings {
  int positions = 1000;  // sampled over the loaded layers 1.. (equal shares)
  // A win counts when it takes at least this many plies (a shorter one is found by the search
  // alone), a position when at most this share of its moves keeps its value.
  int min_win_plies = 15;
  int max_keeping_percent = 50;
  // Which values count: a study of converting long wins wants the wins alone, which are rarer
  // than draws among the hard positions (about one in thirty at 41 plies and more).
  bool wins = true;
  bool draws = true;
  // The fewest blanks of a position: layer 0 (full boards) has the fewest choices, so it is left
  // out unless asked for (the sanitizer builds' test tables have only layer 0).
  int min_blanks = 1;
  int move_time_ms = 100;  // per position
  // A node count per position instead of the time (0: the time): the same search on a loaded
  // machine as on an idle one, so two evaluations measured at once are compared fairly.
  std::uint64_t nodes = 0;
  std::uint64_t seed = 1;
  // The held-out positions (is_held_out), which no fit learns from; false draws from the others,
  // the ones a fit may use (the tests of `quixo-train rank` learn from them).
  bool held_out = true;
};

// One test position: its value for the side to move and how many of its moves keep it.
struct ValueKeepingPosition {
  Position position;
  tb::Wdl value = tb::Wdl::Draw;
  int keeping_moves = 0;
  int legal_moves = 0;
};

// Held-out positions (or, with settings.held_out false, trainable ones) of the loaded layers from
// min_blanks on where the side to move wins or draws and the settings' share of its moves gives
// that away, drawn at random.
std::vector<ValueKeepingPosition> value_keeping_positions(const tb::Tablebase& tables,
                                                          const ValueKeepingSettings& settings);

struct ValueKeepingResult {
  std::string evaluation;  // "hand" or "learned"
  int positions = 0;
  int kept = 0;
  // By the number of blank cubes (index) and by the value (win, draw).
  std::vector<int> positions_by_blanks, kept_by_blanks;
  int win_positions = 0, win_kept = 0, draw_positions = 0, draw_kept = 0;
};

// Searches every position with `evaluator` for the settings' time, without tables, and counts
// the moves that keep its value.
ValueKeepingResult measure_value_keeping(const tb::Tablebase& tables,
                                         const std::vector<ValueKeepingPosition>& positions,
                                         const Evaluator& evaluator, const std::string& name,
                                         const ValueKeepingSettings& settings);

// The result as lines of a table, one per evaluation, with the share by blank count and value.
std::vector<std::string> value_keeping_report(const std::vector<ValueKeepingResult>& results);

}  // namespace quixo::train
