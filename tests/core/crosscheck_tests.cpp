// Seeded random games played in the engine and in the independent reference oracle side by side.
// At every ply both must agree on the position string, the outcome, the sorted list of legal
// moves and their number; every legal move must parse back to itself, and is_legal() must accept
// exactly the reference's moves among all the move texts that could be written.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/position4.hpp"
#include "reference/simple_rules.hpp"
#include "support/sanitizers.hpp"

namespace {

namespace ref = quixo::reference;
using quixo::Move;
using quixo::Move4;
using quixo::Position;
using quixo::Position4;

constexpr int kPlyCap = 200;

// Every move the engine's types can express (all 44 geometries, with each cube letter in the
// four-player game, and the pass): is_legal() must say yes exactly for the reference's moves.
std::vector<Move> every_move(const Position&) {
  std::vector<Move> moves;
  for (int slide = 0; slide < quixo::kSlideCount; ++slide)
    moves.push_back(Move(quixo::SlideIndex(slide)));
  return moves;
}
std::vector<Move4> every_move(const Position4&) {
  std::vector<Move4> moves = {Move4::pass()};
  for (int slide = 0; slide < quixo::kSlideCount; ++slide)
    for (quixo::Seat point = 0; point < quixo::kSeatCount; ++point)
      moves.push_back(Move4(quixo::SlideIndex(slide), point));
  return moves;
}

Position parse_engine_position(const Position&, const std::string& text) {
  return quixo::parse_position(text);
}
Position4 parse_engine_position(const Position4&, const std::string& text) {
  return quixo::parse_position4(text);
}

struct GameStats {
  int games = 0;
  int plies = 0;
  int x_wins = 0;
  int o_wins = 0;
  int capped = 0;
  int self_defeating = 0;  // games the last mover lost by making the other side's line
  int passes = 0;
};

// Millions of checks run here; Boost.Test's per-assertion bookkeeping would dominate the run
// time, so each check is a plain test that fails the case with a precise message.
#define CROSSCHECK(condition, message)                                                    \
  do {                                                                                    \
    if (!(condition)) BOOST_FAIL(#condition << " failed in " << text << ": " << message); \
  } while (false)

std::string joined(const std::vector<std::string>& texts) {
  std::string out;
  for (const std::string& t : texts) out += (out.empty() ? "" : " ") + t;
  return out;
}

// Checks one position in both implementations; returns the reference's legal moves.
template <class PositionT>
std::vector<std::string> check_position(const PositionT& position,
                                        const ref::SimplePosition& reference,
                                        bool check_rejections) {
  const std::string text = quixo::to_string(position);
  CROSSCHECK(text == ref::format_position(reference),
             "the reference has " << ref::format_position(reference));
  CROSSCHECK((parse_engine_position(position, text) == position), "the text does not parse back");
  const ref::SimpleOutcome outcome = ref::outcome(reference);
  CROSSCHECK(quixo::to_string(position.outcome()) == ref::outcome_name(outcome),
             "engine " << quixo::to_string(position.outcome()) << ", reference "
                       << ref::outcome_name(outcome));
  CROSSCHECK(position.is_game_over() == (outcome != ref::SimpleOutcome::Ongoing), "");

  const std::vector<std::string> expected = ref::legal_moves(reference);
  const auto moves = position.legal_moves();
  std::vector<std::string> move_texts;
  for (const auto move : moves) {
    const std::string move_text = quixo::to_string(move);
    move_texts.push_back(move_text);
    CROSSCHECK(position.is_legal(move), move_text);
    std::string parse_error;
    bool round_trips = false;
    try {
      round_trips = quixo::parse_move(position, move_text) == move;
    } catch (const quixo::NotationError& error) {
      parse_error = error.what();
    }
    CROSSCHECK(round_trips, move_text << " does not parse back to itself " << parse_error);
  }
  std::sort(move_texts.begin(), move_texts.end());
  CROSSCHECK(move_texts == expected,
             "engine [" << joined(move_texts) << "], reference [" << joined(expected) << "]");
  CROSSCHECK(std::size_t(position.legal_move_count()) == expected.size(),
             "engine " << position.legal_move_count() << ", reference " << expected.size());

  for (const auto move : every_move(position)) {
    const std::string move_text = quixo::to_string(move);
    const bool legal = std::binary_search(expected.begin(), expected.end(), move_text);
    CROSSCHECK(position.is_legal(move) == legal,
               move_text << " (reference: legal " << legal << ")");
    if (check_rejections && !legal) {
      bool rejected = false;
      try {
        quixo::parse_move(position, move_text);
      } catch (const quixo::NotationError& error) {
        rejected = std::string(error.what()).size() > 0;
      }
      CROSSCHECK(rejected, "parse_move accepted the illegal " << move_text);
    }
  }
  return expected;
}

// Plays `games` random games from the start, choosing among the reference's sorted move list so
// the games do not depend on the engine's move order.
template <class PositionT>
GameStats play_games(const std::string& start_text, unsigned seed, int games,
                     int games_checking_rejections) {
  std::mt19937 rng(seed);
  GameStats stats;
  for (int game = 0; game < games; ++game) {
    PositionT position = parse_engine_position(PositionT(), start_text);
    ref::SimplePosition reference = ref::parse_position(start_text);
    const bool check_rejections = game < games_checking_rejections;
    int ply = 0;
    for (;; ++ply) {
      const std::vector<std::string> moves = check_position(position, reference, check_rejections);
      if (moves.empty() || ply == kPlyCap) break;
      const std::string& move_text = moves[rng() % moves.size()];
      if (move_text == "0000") ++stats.passes;
      position = position.after(quixo::parse_move(position, move_text));
      reference = ref::apply_move(reference, move_text);
    }
    ++stats.games;
    stats.plies += ply;
    switch (ref::outcome(reference)) {
      case ref::SimpleOutcome::XWins:
        ++stats.x_wins;
        break;
      case ref::SimpleOutcome::OWins:
        ++stats.o_wins;
        break;
      case ref::SimpleOutcome::Ongoing:
        ++stats.capped;
        break;
    }
    // The side to move after the last move is the winner: the last mover made its line.
    const bool x_to_move = reference.four_player
                               ? (reference.to_move == 1 || reference.to_move == 3)
                               : reference.to_move == 0;
    const ref::SimpleOutcome win_for_side_to_move =
        x_to_move ? ref::SimpleOutcome::XWins : ref::SimpleOutcome::OWins;
    if (ref::outcome(reference) == win_for_side_to_move) ++stats.self_defeating;
  }
  BOOST_TEST_MESSAGE(start_text << ": " << stats.games << " games, " << stats.plies << " plies, "
                                << stats.x_wins << " X wins, " << stats.o_wins << " O wins, "
                                << stats.capped << " at the ply cap, " << stats.self_defeating
                                << " lost by making the other side's line, " << stats.passes
                                << " passes");
  return stats;
}

// Random games reach both results, and the rule that making the other side's line loses.
void check_games_reach_every_result(const GameStats& stats, int games) {
  BOOST_TEST(stats.games == games);
  BOOST_TEST(stats.x_wins > 0);
  BOOST_TEST(stats.o_wins > 0);
  BOOST_TEST(stats.self_defeating > 0);
}

// Under ASan+UBSan the games look for memory errors in the core, which a quarter of them reach as
// well (the full count took 50 s of CI there, the reference's strings being slow under ASan);
// release plays them all against the reference.
#if defined(QUIXO_ADDRESS_SANITIZER)
constexpr int kGameShare = 4;
#else
constexpr int kGameShare = 1;
#endif

}  // namespace

BOOST_AUTO_TEST_SUITE(crosscheck_tests)

BOOST_AUTO_TEST_CASE(two_player_random_games_agree_with_reference) {
  check_games_reach_every_result(
      play_games<Position>(std::string(quixo::kStartPosition), 20240601, 2000 / kGameShare, 100),
      2000 / kGameShare);
}

BOOST_AUTO_TEST_CASE(four_player_random_games_agree_with_reference) {
  check_games_reach_every_result(
      play_games<Position4>(std::string(quixo::kStartPosition4), 20240602, 700 / kGameShare, 50),
      700 / kGameShare);
}

// Games from positions where passes happen: the seat to move has no cube it may take.
BOOST_AUTO_TEST_CASE(four_player_games_with_passes_agree_with_reference) {
  GameStats total;
  for (const std::string start : {"XoXoX/o3o/X3X/o3o/XoXoX 1", "OxOxO/x3x/O3O/x3x/OxOxO 2",
                                  "oXoXo/X1x1X/o1O1o/X3X/oXoXo 4"}) {
    const GameStats stats = play_games<Position4>(start, 77, 100 / kGameShare, 10);
    total.passes += stats.passes;
  }
  BOOST_TEST(total.passes > 0);
}

// Two-player games from mixed starting positions, either side to move.
BOOST_AUTO_TEST_CASE(two_player_games_from_set_up_positions_agree_with_reference) {
  for (const std::string start : {"xo3/1x2o/5/o3x/2x1o o", "ooxx1/x3o/2x2/o3x/1xoox x",
                                  "5/5/5/5/5 o", "xoxox/o3x/x3o/o3x/xoxox o"}) {
    const GameStats stats = play_games<Position>(start, 99, 200 / kGameShare, 20);
    BOOST_TEST(stats.games == 200 / kGameShare);
  }
}

BOOST_AUTO_TEST_SUITE_END()
