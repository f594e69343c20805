// Whole-game analysis in quixo-gui: what the analysis knows of each position of a game (the
// endgame tables' exact value, a finished board's, or an engine's score) and, from the values
// before and after a move, how much of their expected score the mover gave away and the mark
// that earns (inaccuracy, mistake, blunder), as lichess marks moves by the loss of win chances.
// Pure values and functions: the session gathers the values, the page draws the marks.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tb/value.hpp"

namespace quixo::gui {

// A score as an expected score: sigma(cp / kScoreScale). The scale is the K fitted for the
// engine's evaluation (README, "The fit is Texel-style logistic regression": K = 112.1), so that
// +112 cp is a 73 % expected score.
inline constexpr double kScoreScale = 112.1;
// Centipawn figures (the loss, the average loss) count a won or lost position (a mate, a table
// win) as this many centipawns, and clamp engine scores to it.
inline constexpr int kCentipawnCap = 1000;
// The marks by the expected score (0..1) the mover gave away. lichess marks a drop in its win
// chances (-1..1) of 0.1, 0.2 and 0.3; on the 0..1 scale of an expected score those are these.
inline constexpr double kInaccuracyLoss = 0.05;
inline constexpr double kMistakeLoss = 0.10;
inline constexpr double kBlunderLoss = 0.15;

// What the analysis knows of one position, from the point of view of the side (team) to move.
struct PositionValue {
  std::optional<tb::TbValue> exact;  // the tables', or a finished board's (distance 0)
  std::optional<int> score_cp;       // else the engine's score
  std::optional<int> score_mate;
  std::string best;  // the best move there, as the tables or the engine said; "" when none

  bool known() const { return exact || score_cp || score_mate; }
  friend bool operator==(const PositionValue&, const PositionValue&) = default;
};

enum class MoveMark { None, Inaccuracy, Mistake, Blunder };

// What whole-game analysis says about one move.
struct MoveAnalysis {
  PositionValue after;  // the position after the move, from the MOVER's point of view
  std::string best;     // the best move in the position before it ("" when not known)
  double loss = 0;      // the expected score the mover gave away, 0..1
  int cp_loss = 0;      // the same in centipawns, 0..2 * kCentipawnCap
  MoveMark mark = MoveMark::None;
  friend bool operator==(const MoveAnalysis&, const MoveAnalysis&) = default;
};

// 1 for a win, 0 for a loss, 1/2 for a draw, sigma(cp / kScoreScale) for an engine score; a mate
// score counts as a win (mate > 0) or a loss. The value must be known().
double expected_score(const PositionValue& value);
// The value in centipawns, clamped to +-kCentipawnCap; a win or mate is the cap.
int centipawns(const PositionValue& value);
// The same position seen by the other side: the scores negated, a win a loss. The best move is
// dropped (it is the other side's).
PositionValue other_side(const PositionValue& value);
// The mark of a loss of expected score, by the thresholds above.
MoveMark mark_of_loss(double loss);

// The analysis of `move` from the value of the position before it (the mover's view) and of the
// position after it (its side to move's view: the mover's opponent); nullopt when either is not
// known. A move that is the best one loses nothing. A move between two exact values that makes
// the mover's value worse (a win thrown to a draw or a loss, a draw to a loss) is always a
// blunder, whatever the expected scores say.
std::optional<MoveAnalysis> analyse_move(std::string_view move, const PositionValue& before,
                                         const PositionValue& after);

// "inaccuracy", "mistake", "blunder"; "" for none.
std::string_view mark_name(MoveMark mark);
// The mark mark_name names (an inaccuracy, a mistake, a blunder); nullopt for any other name.
std::optional<MoveMark> parse_mark_name(std::string_view name);
// The mark as a PGN comment says it: "?? blunder, best b1e1" ("?!" an inaccuracy, "?" a
// mistake; no ", best" when the best move is not known); "" for a move without a mark.
std::string mark_comment(const MoveAnalysis& analysis);

}  // namespace quixo::gui
