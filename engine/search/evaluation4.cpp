#include "evaluation4.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "board_terms.hpp"
#include "core/packed_slides.hpp"

namespace quixo {

namespace {

// A first threat costs `first`, each further one (up to three in all) `extra`.
Score threat_value(int threats, Score first, Score extra) {
  if (threats == 0) return 0;
  return first + extra * (std::min(threats, 3) - 1);
}

EvalBreakdown4 breakdown_of(const Position4& position, SlideSet own_team_wins,
                            SlideSet opponent_team_wins, const EvalWeights4& weights) {
  const Color team = position.team_to_move();
  const Bitboard own = position.cubes(team), opponent = position.cubes(~team);
  EvalBreakdown4 terms;
  const SeatFacts facts = seat_facts(position, own_team_wins, opponent_team_wins);
  terms.mobility_slides = facts.mobility_slides;
  terms.wins = facts.wins;
  for (int relative = 0; relative < kRelativeSeats; ++relative)
    if (facts.forced_pass[relative]) terms.passes += weights.forced_pass[relative];

  static_cast<eval_terms::BoardTerms&>(terms) = eval_terms::board_terms(own, opponent, weights);
  terms.mobility = weights.mobility_now * (terms.mobility_slides[0] - terms.mobility_slides[1]) +
                   weights.mobility_later * (terms.mobility_slides[2] - terms.mobility_slides[3]);
  terms.threats = -threat_value(terms.wins[1], weights.threat, weights.threat_extra);
  terms.partner_threats =
      threat_value(terms.wins[2], weights.partner_threat, weights.partner_threat_extra);
  terms.later_threats = -threat_value(terms.wins[3], weights.later_threat, weights.later_threat);
  terms.tempo = weights.tempo;
  terms.total = terms.sum() + terms.mobility + terms.threats + terms.partner_threats +
                terms.later_threats + terms.passes + terms.tempo;
  return terms;
}

}  // namespace

SeatFacts seat_facts(const Position4& position, SlideSet own_team_wins,
                     SlideSet opponent_team_wins) {
  const Seat mover = position.seat_to_move();
  const Bitboard border_blanks = kBorder & position.blanks();
  SeatFacts facts;
  // What each seat could play if it were to move now: blanks and the cubes pointing to it. The
  // wins of a seat are its team's winning geometries whose from-square it may take.
  for (int relative = 0; relative < kRelativeSeats; ++relative) {
    const Seat seat = (mover + relative) & 3;
    const Bitboard own_border = kBorder & position.cubes_pointing_to(seat);
    const Bitboard takeable = border_blanks | own_border;
    const SlideSet team_wins = relative % 2 == 0 ? own_team_wins : opponent_team_wins;
    facts.mobility_slides[relative] = slide_count(takeable);
    facts.wins[relative] = std::popcount(team_wins & slides_from(takeable));
    facts.own_border_cubes[relative] = std::popcount(own_border);
    facts.forced_pass[relative] = takeable == 0;
  }
  return facts;
}

const EvalWeights4& default_weights4() {
  static const EvalWeights4 weights;
  return weights;
}

MoveScan team_scan(const Position4& position) {
  return scan_moves(team_first(position));
}

SlideSet opponent_team_wins(const Position4& position) {
  return scan_moves(swap_halves(team_first(position))).wins;
}

Score evaluate(const Position4& position, SlideSet own_team_wins, SlideSet opponent_team_wins,
               const EvalWeights4& weights) {
  return breakdown_of(position, own_team_wins, opponent_team_wins, weights).total;
}

Score evaluate(const Position4& position, const EvalWeights4& weights) {
  return evaluate(position, team_scan(position).wins, opponent_team_wins(position), weights);
}

EvalBreakdown4 evaluate_with_breakdown(const Position4& position, const EvalWeights4& weights) {
  return breakdown_of(position, team_scan(position).wins, opponent_team_wins(position), weights);
}

std::vector<std::string> breakdown_lines(const EvalBreakdown4& terms) {
  const auto number = [](Score value) { return std::to_string(value); };
  const auto seats = [&](const std::array<int, kRelativeSeats>& values) {
    return "mover " + number(values[0]) + ", next opponent " + number(values[1]) + ", partner " +
           number(values[2]) + ", last opponent " + number(values[3]);
  };
  return {
      "lines " + number(terms.lines),
      "border " + number(terms.border),
      "centre " + number(terms.centre),
      "cube lead " + number(terms.cube_lead),
      "mobility " + number(terms.mobility) + " (geometries: " + seats(terms.mobility_slides) + ")",
      "threats " + number(terms.threats) + " (next opponent wins in one: " + number(terms.wins[1]) +
          ")",
      "partner threats " + number(terms.partner_threats) +
          " (partner wins in one: " + number(terms.wins[2]) + ")",
      "later threats " + number(terms.later_threats) +
          " (last opponent wins in one: " + number(terms.wins[3]) + ")",
      "forced passes " + number(terms.passes),
      "tempo " + number(terms.tempo),
      "immediate wins for the seat to move: " + number(terms.wins[0]),
      "total " + number(terms.total) + " (team to move)"};
}

}  // namespace quixo
