// The static evaluation of four-player (team) positions, from the point of view of the team to
// move. It looks at the board as the two-player evaluation does (lines, border, centre), but
// each seat's real takeable set matters: a cube of our team that points to our partner cannot be
// used by the seat to move, only by the partner two plies later; a seat with nothing to take
// must pass.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "board_terms.hpp"
#include "core/move_scan.hpp"
#include "core/position4.hpp"
#include "score.hpp"

namespace quixo {

// Seats relative to the seat to move, in the order they move: 0 = the mover, 1 = the next seat
// (an opponent), 2 = the partner, 3 = the last opponent (who moved just before the mover).
inline constexpr int kRelativeSeats = 4;

// Every weight is data, so that a tuner can change them without touching the code. The board
// features' weights are shared with the two-player evaluation (board_terms.hpp).
struct EvalWeights4 : eval_terms::BoardWeights {
  // Mobility: per geometry (slide) a seat may play. The mover's against the next opponent's,
  // who answer each other at once; the partner's against the last opponent's, who come later.
  // Blank border squares are takeable by every seat, so these measure own-pointing cubes.
  Score mobility_now = 2;
  Score mobility_later = 1;
  // The next opponent's winning moves if it were to move: the mover must meet them all. The
  // first costs threat, each further one threat_extra (two are rarely both parried).
  Score threat = 40;
  Score threat_extra = 120;
  // Wins our partner holds (a blank or a cube pointing to it completes our line): the next
  // opponent must parry them, or the partner wins; the mover itself cannot play them.
  Score partner_threat = 30;
  Score partner_threat_extra = 60;
  // The last opponent's wins: two plies further away, partly the partner's business.
  Score later_threat = 15;
  // A seat with nothing to take must pass: a lost tempo for its team. Indexed by the seat
  // relative to the mover; positive is good for the mover's team. The next opponent's forced
  // pass gives our team two moves in a row (mover, then partner after the pass).
  std::array<Score, kRelativeSeats> forced_pass = {-30, 30, -30, 15};
  // Bonus for having the move.
  Score tempo = 10;
};

// The terms of one evaluation, for the `eval` command.
struct EvalBreakdown4 : eval_terms::BoardTerms {
  Score mobility = 0;
  Score threats = 0;          // the next opponent's wins in one
  Score partner_threats = 0;  // the partner's wins in one
  Score later_threats = 0;    // the last opponent's wins in one
  Score passes = 0;
  Score tempo = 0;
  Score total = 0;
  // By relative seat (0 = mover): geometries it may play, and its winning moves if it were to
  // move now (with its own takeable set).
  std::array<int, kRelativeSeats> mobility_slides{};
  std::array<int, kRelativeSeats> wins{};
};

const EvalWeights4& default_weights4();

// What each seat could do if it were to move now, by relative seat (0 = the mover): the
// geometries it may play, its team's wins among them, the border cubes that point to it (which
// only it may take), and whether it has nothing to take (a pass). Both team evaluations, the
// hand-written one and the learned one, read the points of the cubes through these facts.
struct SeatFacts {
  std::array<int, kRelativeSeats> mobility_slides{};
  std::array<int, kRelativeSeats> wins{};
  std::array<int, kRelativeSeats> own_border_cubes{};
  std::array<bool, kRelativeSeats> forced_pass{};
};
SeatFacts seat_facts(const Position4& position, SlideSet own_team_wins,
                     SlideSet opponent_team_wins);

// `own_team_wins` / `opponent_team_wins`: the geometries that complete the line of the team to
// move / of the other team and not the other's, over every border cube a seat of that team
// could ever take: scan_moves(...).wins for the team boards in that order. The evaluation
// restricts them to each seat's takeable set. The search has the first from its own move scan.
Score evaluate(const Position4& position, SlideSet own_team_wins, SlideSet opponent_team_wins,
               const EvalWeights4& weights = default_weights4());
// The same, computing both scans.
Score evaluate(const Position4& position, const EvalWeights4& weights = default_weights4());

// The position's boards as a scan takes them: the cubes of the team to move in the low half.
inline PackedBoards team_first(const Position4& position) {
  const Color team = position.team_to_move();
  return pack(position.cubes(team), position.cubes(~team));
}
// The scan of the team to move's geometries (wins and losses over the team boards) and the
// other team's winning geometries, as evaluate() takes them.
MoveScan team_scan(const Position4& position);
SlideSet opponent_team_wins(const Position4& position);

EvalBreakdown4 evaluate_with_breakdown(const Position4& position,
                                       const EvalWeights4& weights = default_weights4());

// The breakdown as text, one line per term (no line breaks), for `eval`.
std::vector<std::string> breakdown_lines(const EvalBreakdown4& breakdown);

}  // namespace quixo
