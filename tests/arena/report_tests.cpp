// The exact report styles (report_*.hpp): --output cutechess prints what cutechess-cli prints for
// the same events, --output fastchess what fastchess prints, line for line. Every golden line
// below names the source it mirrors: for cutechess the snapshot's projects/cli/src/enginematch.cpp
// (per-game lines, "Finished match") and projects/lib/src/tournament.cpp (results(),
// resultsForSides(), outcomes(), the ranking table's header and field widths, the SPRT line), and
// for fastchess app/src/matchmaking/output/output_fastchess.hpp (game lines, the rating block),
// sprt/sprt.cpp (the LLR line), tournament/roundrobin/roundrobin.cpp (the SPRT's end),
// tournament/base/tournament.cpp (the timeout tracker) and main.cpp ("Finished match",
// "Total Time"). The numbers are computed by hand (python3 as a calculator) from the two
// programs' formulas, not by the code under test. At the end, the registry (report_styles.hpp):
// the styles by name, --output's help and the error for an unknown style.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "report_cutechess.hpp"
#include "report_fastchess.hpp"
#include "report_styles.hpp"
#include "standings.hpp"
#include "support/tournament_fixtures.hpp"

using namespace quixo::arena;
using quixo::Variant;

BOOST_AUTO_TEST_SUITE(report_tests)

namespace {

EngineConfig engine(const std::string& name) {
  EngineConfig config;
  config.name = name;
  config.process.command = "/bin/true";
  return config;
}

FinishedGame game(int id, std::size_t x, std::size_t o, GameResult result, Termination termination,
                  std::string reason) {
  return quixo::test::finished_game(id, x, o, result, termination, std::move(reason));
}

// A match alpha (0) vs beta (1) of 4 rounds, every game played. From alpha's point of view:
// pair 0 W D, pair 1 L W, pair 2 D D, pair 3 W W: 4 wins, 1 loss, 3 draws; as X (White) 2-1-1,
// as O (Black) 2-0-2; pentanomial [0, 0, 2, 1, 1] with one win-loss pair.
TournamentConfig match_config() {
  TournamentConfig config;
  config.engines = {engine("alpha"), engine("beta")};
  config.engines[0].options = {{"Hash", "64"}};
  config.rounds = 4;
  config.openings_source = "books/quixo-8.epd";
  return config;
}

std::vector<FinishedGame> match_games() {
  using enum GameResult;
  return {
      game(0, 0, 1, XWins, Termination::Line, "X (alpha) makes five in a row"),
      game(1, 1, 0, Draw, Termination::Repetition, "the position occurred 3 times"),
      game(2, 0, 1, OWins, Termination::TimeForfeit, "X (alpha) did not move within its 100 ms"),
      game(3, 1, 0, OWins, Termination::Line, "O (alpha) makes five in a row"),
      game(4, 0, 1, Draw, Termination::DrawAdjudication,
           "both sides scored within 10 cp on their last 8 moves"),
      game(5, 1, 0, Draw, Termination::PlyCap, "the ply cap of 200 was reached"),
      game(6, 0, 1, XWins, Termination::ResignAdjudication,
           "O (beta) scored -600 cp or worse on its last 4 moves"),
      game(7, 1, 0, OWins, Termination::Crash, "X (beta) disconnected: the engine exited"),
  };
}

// The SPRT's state, set by hand (its LLR is sprt_tests' business; here only how it prints):
// bounds log(0.05 / 0.95) and log(0.95 / 0.05), elo0 0, elo1 10.
SprtParameters match_sprt() {
  return quixo::test::sprt_between(0, 10);
}
SprtResult sprt_state(double llr, SprtResult::Decision decision) {
  return {llr, std::log(0.05 / 0.95), std::log(0.95 / 0.05), decision};
}

// The match under that SPRT, its state at `llr` and `decision`.
struct SprtMatch {
  TournamentConfig config;
  Standings standings;
};
SprtMatch match_under_sprt(double llr, SprtResult::Decision decision) {
  SprtMatch match{match_config(), {}};
  match.config.sprt = match_sprt();
  match.standings = compute_standings(match.config, match_games());
  match.standings.sprt = sprt_state(llr, decision);
  return match;
}

// Three engines a, b, c, two rounds of a round robin. Pairs (first's view): a-b W D and D D,
// a-c W D and L D, b-c W L and W D. Totals: a 2-1-5, b 2-2-4, c 2-3-3.
TournamentConfig three_config() {
  TournamentConfig config;
  config.engines = {engine("a"), engine("b"), engine("c")};
  config.rounds = 2;
  return config;
}

std::vector<FinishedGame> three_games() {
  using enum GameResult;
  const Termination line = Termination::Line;
  return {game(0, 0, 1, XWins, line, ""),
          game(1, 1, 0, Draw, Termination::Repetition, ""),
          game(2, 0, 2, XWins, line, ""),
          game(3, 2, 0, Draw, Termination::Repetition, ""),
          game(4, 1, 2, XWins, line, ""),
          game(5, 2, 1, XWins, line, ""),
          game(6, 0, 1, Draw, Termination::Repetition, ""),
          game(7, 1, 0, Draw, Termination::Repetition, ""),
          game(8, 0, 2, OWins, line, ""),
          game(9, 2, 0, Draw, Termination::Repetition, ""),
          game(10, 1, 2, XWins, line, ""),
          game(11, 2, 1, Draw, Termination::Repetition, "")};
}

ScheduledGame scheduled(int id, std::size_t x, std::size_t o) {
  ScheduledGame game;
  game.id = id;
  game.x = x;
  game.o = o;
  return game;
}

// cutechess's outcomes() for the match: per player a "Player:" line, then its endings sorted by
// their text (a QMap), a draw as it is, a decisive game as "Win: " or "Loss: " and the text.
const std::string kMatchOutcomes =
    "\n"
    "Player: alpha\n"
    "   \"Draw by adjudication: both sides scored within 10 cp on their last 8 moves\": 1\n"
    "   \"Draw by adjudication: the ply cap of 200 was reached\": 1\n"
    "   \"Draw by repetition: the position occurred 3 times\": 1\n"
    "   \"Loss: X loses on time: X (alpha) did not move within its 100 ms\": 1\n"
    "   \"Win: O (alpha) makes five in a row\": 1\n"
    "   \"Win: X (alpha) makes five in a row\": 1\n"
    "   \"Win: X disconnects: X (beta) disconnected: the engine exited\": 1\n"
    "   \"Win: X wins by adjudication: O (beta) scored -600 cp or worse on its last 4 moves\": 1\n"
    "Player: beta\n"
    "   \"Draw by adjudication: both sides scored within 10 cp on their last 8 moves\": 1\n"
    "   \"Draw by adjudication: the ply cap of 200 was reached\": 1\n"
    "   \"Draw by repetition: the position occurred 3 times\": 1\n"
    "   \"Loss: O (alpha) makes five in a row\": 1\n"
    "   \"Loss: X (alpha) makes five in a row\": 1\n"
    "   \"Loss: X disconnects: X (beta) disconnected: the engine exited\": 1\n"
    "   \"Loss: X wins by adjudication: O (beta) scored -600 cp or worse on its last 4 moves\": 1\n"
    "   \"Win: X loses on time: X (alpha) did not move within its 100 ms\": 1\n";

// resultsForSides(0) and the two-player "Elo difference" line of results(), for alpha 4-1-3:
// as White 2-1-1, score 5/8; as Black 2-0-2, 6/8; White vs Black: White won 2 (alpha's) + 0,
// lost 1 + 2, drew 3, score (5 + 2*4 - 6) / 16 = 0.4375, which Qt rounds up to 0.438.
// Elo: mu = 0.6875, diff = -400 log10(1/0.6875 - 1) = 136.969; stdev =
// sqrt((0.5*0.3125^2 + 0.125*0.6875^2 + 0.375*0.1875^2) / 8) = 0.123031; margin with cutechess's
// quantile 1.957162 = (diff(0.928292) - diff(0.446708)) / 2 = 241.010; LOS 100 * (0.5 + 0.5 *
// erf(3 / sqrt(10))) = 91.014; draws 3/8.
const std::string kMatchResults =
    "...      alpha playing White: 2 - 1 - 1  [0.625] 4\n"
    "...      alpha playing Black: 2 - 0 - 2  [0.750] 4\n"
    "...      White vs Black: 2 - 3 - 3  [0.438] 8\n"
    "Elo difference: 137.0 +/- 241.0, LOS: 91.0 %, DrawRatio: 37.5 %";

}  // namespace

// cutechess's Elo class (elo.cpp) on 10 wins, 5 losses, 5 draws, by hand: n = 20, w = 0.5,
// l = 0.25, d = 0.25, mu = w + d/2 = 0.625; stdev = sqrt(w (1-mu)^2 + l mu^2 + d (0.5-mu)^2) /
// sqrt(n) = sqrt(0.171875 / 20) = 0.0927025. diff = -400 log10(1/mu - 1) = -400 log10(0.6) =
// 88.7395. Its phiInv(0.975) = sqrt(2) erfInv(0.95) by Winitzki's formula with a = 8 (pi - 3) /
// (3 pi (4 - pi)) = 0.1400123 (pi = 3.1415926535897) is 1.9571619, not 1.9599640: the margin is
// (diff(0.8064338) - diff(0.4435662)) / 2 = (247.8956 + 39.3820) / 2 = 143.6388 (143.87 with the
// exact quantile, so the approximation shows in the printed tenth). LOS = 100 (0.5 + 0.5 erf(5 /
// sqrt(30))) = 100 (0.5 + 0.5 * 0.8032944) = 90.1647. Draw ratio 5/20.
BOOST_AUTO_TEST_CASE(cutechess_elo_is_cutechess_formula_on_10_5_5) {
  const CutechessElo elo = cutechess_elo(Trinomial{5, 5, 10});
  BOOST_TEST(elo.diff == 88.73949984654251, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(elo.error_margin == 143.63882106544293, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(elo.los == 90.16471987705266, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(elo.draw_ratio == 0.25);
  // As results() prints it for two players ("Elo difference: %1 +/- %2, LOS: %3 %, DrawRatio:
  // %4 %", one decimal each).
  TournamentConfig config;
  config.engines = {engine("a"), engine("b")};
  std::vector<FinishedGame> games;
  for (int i = 0; i < 20; ++i)
    games.push_back(game(i, 0, 1,
                         i < 10   ? GameResult::XWins
                         : i < 15 ? GameResult::OWins
                                  : GameResult::Draw,
                         Termination::Line, ""));
  config.rounds = 10;
  const std::string results = cutechess_results(config, compute_standings(config, games));
  BOOST_TEST(results.ends_with("Elo difference: 88.7 +/- 143.6, LOS: 90.2 %, DrawRatio: 25.0 %\n"),
             results);
}

// Without a decisive game cutechess's LOS divides 0 by 0, and without a game everything does:
// it prints "nan".
BOOST_AUTO_TEST_CASE(cutechess_elo_without_games_is_nan) {
  const CutechessElo drawn = cutechess_elo(Trinomial{0, 4, 0});
  BOOST_TEST(drawn.diff == 0.0);
  BOOST_TEST(drawn.error_margin == 0.0);
  BOOST_TEST(std::isnan(drawn.los));
  BOOST_TEST(drawn.draw_ratio == 1.0);
  const CutechessElo none = cutechess_elo(Trinomial{});
  BOOST_TEST((std::isnan(none.diff) && std::isnan(none.error_margin) && std::isnan(none.los) &&
              std::isnan(none.draw_ratio)));
}

// fastchess's EloPentanomial on [0, 0, 2, 1, 1] by hand: pair scores 0.5, 0.5, 0.75, 1, mean
// 0.6875, variance 0.04296875, per pair 0.0107422 (se 0.103644); Elo 136.97, bounds 0.6875 -/+
// 1.959964 se = 0.484361, 0.890639: error (diff(0.890639) - diff(0.484361)) / 2 = 187.60; nElo
// (0.6875 - 0.5) / sqrt(2 * 0.04296875) * 800 / ln 10 = 222.22 +/- 240.76; LOS (1 - erf(-0.1875 /
// sqrt(2 * 0.0107422))) / 2 = 0.964780.
BOOST_AUTO_TEST_CASE(fastchess_elo_is_fastchess_formula) {
  Pentanomial pairs;
  pairs.counts = {0, 0, 2, 1, 1};
  const FastchessElo elo = fastchess_elo(pairs);
  const auto close = boost::test_tools::tolerance(1e-9);
  BOOST_TEST(elo.elo == 136.96907232888248, close);
  BOOST_TEST(elo.elo_error == 187.60382910186004, close);
  BOOST_TEST(elo.nelo == 222.22054716254877, close);
  BOOST_TEST(elo.nelo_error == 240.7561533454714, close);
  BOOST_TEST(elo.los == 0.964779785363956, close);
  // An interval past a score of 1 has no Elo in fastchess (log of a negative number): NaN, where
  // the arena's own estimate clamps it.
  Pentanomial lopsided;
  lopsided.counts = {0, 0, 1, 0, 3};
  BOOST_TEST(std::isnan(fastchess_elo(lopsided).elo_error));
  BOOST_TEST(!std::isnan(estimate_elo(lopsided).elo_error));
}

// How the arena's endings read in the result comment, in cutechess's words (Result::description):
// the kind of ending, then the arena's reason; capitalised as cutechess does.
BOOST_AUTO_TEST_CASE(result_descriptions_use_cutechess_words) {
  using enum GameResult;
  BOOST_TEST(result_description(Variant::TwoPlayer,
                                game(0, 0, 1, OWins, Termination::IllegalMove, "X (a) played")) ==
             "X makes an illegal move: X (a) played");
  BOOST_TEST(result_description(Variant::TwoPlayer,
                                game(0, 0, 1, XWins, Termination::Stall, "O (b) fell silent")) ==
             "O's connection stalls: O (b) fell silent");
  BOOST_TEST(result_description(Variant::TwoPlayer,
                                game(0, 0, 1, Draw, Termination::Tablebase, "tablebase: draw")) ==
             "Draw by adjudication: tablebase: draw");
  BOOST_TEST(result_description(Variant::TwoPlayer, game(0, 0, 1, XWins, Termination::Line,
                                                         "the opening already ends the game")) ==
             "The opening already ends the game");
  // The four-player game's sides are its teams.
  BOOST_TEST(result_description(Variant::FourPlayer, game(0, 0, 1, XWins, Termination::TimeForfeit,
                                                          "B1 (b) was late")) ==
             "B loses on time: B1 (b) was late");
  BOOST_TEST(result_description(Variant::TwoPlayer, game(0, 0, 1, XWins, Termination::Line, "")) ==
             "X wins");
}

BOOST_AUTO_TEST_CASE(cutechess_game_lines) {
  const TournamentConfig config = match_config();
  const std::vector<FinishedGame> games = match_games();
  std::ostringstream out, err;
  const auto sink = make_text_report(out, err, "cutechess", false);
  sink->tournament_started(config, compute_standings(config, {}));
  sink->tablebase_loaded(config, "layers 0 1");
  // onGameStarted: "Started game %d of %d (%s vs %s)", White (X) first, the schedule's count.
  sink->game_started(config, scheduled(7, 1, 0));
  // onGameFinished: "Finished game %d (%s vs %s): %s" with Result::toVerboseString()
  // ("0-1 {description}"), then for two players "Score of %s vs %s: %d - %d - %d  [%.3f] %d"
  // (the first player's wins, the second's wins, draws; score 11/16 = 0.6875, rounded up).
  sink->game_finished(config, games[7], compute_standings(config, games));
  BOOST_TEST(out.str() ==
                 "Started game 8 of 8 (beta vs alpha)\n"
                 "Finished game 8 (beta vs alpha): 0-1 {X disconnects: X (beta) disconnected: "
                 "the engine exited}\n"
                 "Score of alpha vs beta: 4 - 1 - 3  [0.688] 8\n",
             out.str());
  // qWarning goes to stderr through the message handler, as "Warning: %s".
  sink->warning("an engine was restarted");
  BOOST_TEST(err.str() == "Warning: an engine was restarted\n");
}

BOOST_AUTO_TEST_CASE(cutechess_results_of_a_match) {
  TournamentConfig config = match_config();
  Standings standings = compute_standings(config, match_games());
  BOOST_TEST(cutechess_results(config, standings) == kMatchResults + "\n");
  BOOST_TEST(cutechess_outcomes(standings) == kMatchOutcomes);

  // With an SPRT: "\nSPRT: llr %1 (%2%), lbound %3, ubound %4" (llr and bounds 'g' with 3 digits,
  // the percentage llr / ubound * 100 with one decimal: 1.2345 / 2.944439 = 41.93 %).
  config.sprt = match_sprt();
  standings.sprt = sprt_state(1.2345, SprtResult::Decision::Continue);
  BOOST_TEST(cutechess_results(config, standings) ==
             kMatchResults + "\nSPRT: llr 1.23 (41.9%), lbound -2.94, ubound 2.94\n");
  // ... and " - H1 was accepted" after a decision (3.1 / 2.944439 = 105.28 %); the percentage is
  // of the upper bound even below zero (-1.5 / 2.944439 = -50.94 %).
  standings.sprt = sprt_state(3.1, SprtResult::Decision::AcceptH1);
  BOOST_TEST(
      cutechess_results(config, standings)
          .ends_with("\nSPRT: llr 3.1 (105.3%), lbound -2.94, ubound 2.94 - H1 was accepted\n"));
  standings.sprt = sprt_state(-1.5, SprtResult::Decision::Continue);
  BOOST_TEST(cutechess_results(config, standings)
                 .ends_with("\nSPRT: llr -1.5 (-50.9%), lbound -2.94, ubound 2.94\n"));
}

// onTournamentFinished: the ranking (unless the rating interval just printed it), the outcomes,
// then "Finished match".
BOOST_AUTO_TEST_CASE(cutechess_end_of_match) {
  const TournamentConfig config = match_config();
  const Standings standings = compute_standings(config, match_games());
  {
    std::ostringstream out, err;
    make_text_report(out, err, "cutechess", false)
        ->tournament_finished(config, standings, TournamentEnd::Completed);
    BOOST_TEST(out.str() == kMatchResults + "\n" + kMatchOutcomes + "Finished match\n", out.str());
    BOOST_TEST(err.str().empty());
  }
  {
    std::ostringstream out, err;
    const auto sink = make_text_report(out, err, "cutechess", false);
    sink->interval_report(config, standings);
    sink->tournament_finished(config, standings, TournamentEnd::Interrupted);
    BOOST_TEST(out.str() == kMatchResults + "\n" + kMatchOutcomes + "Finished match\n", out.str());
  }
}

// More than two players: the default result format "Rank,Name,Elo,Error,Games,Score,DScore" with
// the header's widths (Rank 4, Name -25, the others 7, each followed by a space) and the fields'
// (Elo and Error 'f' 0 width 7, Games width 7, Score and Draw 'f' 1 width 6 and "% "), players by
// score; the results() text then ends with an empty line (the entries' newlines and qInfo's).
// a 2-1-5: 43.66 +/- 156.74 Elo, score 56.25 % rounded up by Qt; b 2-2-4: a zero Elo, printed
// unsigned; c 2-3-3: -43.66 +/- 216.08, 43.75 %.
BOOST_AUTO_TEST_CASE(cutechess_ranking_of_three_engines) {
  TournamentConfig config = three_config();
  const Standings standings = compute_standings(config, three_games());
  BOOST_TEST(cutechess_results(config, standings) ==
                 "Rank Name                          Elo     +/-   Games   Score    Draw \n"
                 "   1 a                              44     157       8   56.3%   62.5% \n"
                 "   2 b                               0     186       8   50.0%   50.0% \n"
                 "   3 c                             -44     216       8   43.8%   37.5% \n"
                 "\n",
             cutechess_results(config, standings));
  // In a gauntlet the seed comes first, ranked 0 (the rank counter starts at -1); the others by
  // score. Here c's pairings are the gauntlet's (c seeds, then a and b): a 1-1-2 against it,
  // b 1-1-2 too: equal keys, and the later engine comes first (QMultiMap).
  config.engines = {engine("c"), engine("a"), engine("b")};
  config.format = TournamentFormat::Gauntlet;
  config.rounds = 2;
  using enum GameResult;
  const std::vector<FinishedGame> gauntlet = {
      game(0, 0, 1, XWins, Termination::Line, ""), game(1, 1, 0, XWins, Termination::Line, ""),
      game(2, 0, 2, XWins, Termination::Line, ""), game(3, 2, 0, XWins, Termination::Line, ""),
      game(4, 0, 1, Draw, Termination::Line, ""),  game(5, 1, 0, Draw, Termination::Line, ""),
      game(6, 0, 2, Draw, Termination::Line, ""),  game(7, 2, 0, Draw, Termination::Line, "")};
  const std::string ranking = cutechess_results(config, compute_standings(config, gauntlet));
  BOOST_TEST(ranking.find("   0 c ") != std::string::npos, ranking);
  BOOST_TEST(ranking.find("   1 b ") != std::string::npos, ranking);
  BOOST_TEST(ranking.find("   2 a ") != std::string::npos, ranking);
}

BOOST_AUTO_TEST_CASE(fastchess_game_lines) {
  const TournamentConfig config = match_config();
  const std::vector<FinishedGame> games = match_games();
  std::ostringstream out, err;
  const auto sink = make_text_report(out, err, "fastchess", false);
  sink->tournament_started(config, compute_standings(config, {}));
  // startGame: "Started game {} of {} ({} vs {})"; endGame: "Finished game {} ({} vs {}): {}
  // {{{}}}", the result and the reason; printResult (the score line) prints nothing in
  // fastchess's own output.
  sink->game_started(config, scheduled(2, 0, 1));
  sink->game_finished(config, games[2], compute_standings(config, {games[0], games[1], games[2]}));
  BOOST_TEST(out.str() ==
                 "Started game 3 of 8 (alpha vs beta)\n"
                 "Finished game 3 (alpha vs beta): 0-1 {X loses on time: X (alpha) did not move "
                 "within its 100 ms}\n",
             out.str());
  // Logger::print<WARN> writes to stdout: "Warning; ...".
  sink->warning("an engine was restarted");
  BOOST_TEST(out.str().ends_with("\nWarning; an engine was restarted\n"));
  BOOST_TEST(err.str().empty());
}

// printInterval for two engines: the dashed lines (50), formatMatchup "Results of {} vs {} ({},
// {}, {}{}):" with the time control (getTime: seconds "{}", increment "+{:.2g}"), threads and hash
// ("NULL" without the option, "a - b" when the engines differ), the book's file name; formatElo,
// formatGameStats, formatGameResults, the Ptnml line with the WL/DD ratio; printSprt's "LLR: {:.2f}
// ({:.1f}%) ({:.2f}, {:.2f}) [{:.2f}, {:.2f}]". Numbers: fastchess_elo_is_fastchess_formula;
// DrawRatio 2 of 4 pairs scored 1/2; PairsRatio (WW + WD) / (LD + LL) = 2 / 0 = inf; WL/DD 1/1.
BOOST_AUTO_TEST_CASE(fastchess_results_of_a_match) {
  auto [config, standings] = match_under_sprt(1.2345, SprtResult::Decision::Continue);
  const std::string block =
      "--------------------------------------------------\n"
      "Results of alpha vs beta (10+0.1, NULL, 64MB - NULL, quixo-8.epd):\n"
      "Elo: 136.97 +/- 187.60, nElo: 222.22 +/- 240.76\n"
      "LOS: 96.48 %, DrawRatio: 50.00 %, PairsRatio: inf\n"
      "Games: 8, Wins: 4, Losses: 1, Draws: 3, Points: 5.5 (68.75 %)\n"
      "Ptnml(0-2): [0, 0, 2, 1, 1], WL/DD Ratio: 1.00\n"
      "LLR: 1.23 (41.9%) (-2.94, 2.94) [0.00, 10.00]\n"
      "--------------------------------------------------\n";
  BOOST_TEST(fastchess_results(config, standings) == block, fastchess_results(config, standings));

  // Different controls print both; a fixed move time is "{}/move", a depth "{} plies", nodes
  // "{} nodes", a control with periods "moves/time+inc".
  config.engines[0].time_control = TimeControl::parse("40/60+0.6");
  config.engines[1].time_control = TimeControl::fixed_time(1500);
  config.openings_source.clear();
  config.engines[1].options = {{"Threads", "2"}, {"Hash", "64"}};
  BOOST_TEST(
      fastchess_results(config, standings)
          .starts_with("--------------------------------------------------\n"
                       "Results of alpha vs beta (40/60+0.6 - 1.5/move, NULL - 2t, 64MB):\n"));
  config.engines[0].time_control = TimeControl::fixed_depth(8);
  config.engines[1].time_control = TimeControl::fixed_nodes(1000);
  BOOST_TEST(fastchess_results(config, standings).find("(8 plies - 1000 nodes, ") !=
             std::string::npos);
  // A negative LLR's percentage is of the lower bound: -1.5 / -2.944439 negated = -50.9 %.
  standings.sprt = sprt_state(-1.5, SprtResult::Decision::Continue);
  BOOST_TEST(fastchess_results(config, standings).find("\nLLR: -1.50 (-50.9%) (-2.94, 2.94) ") !=
             std::string::npos);
}

// The rating table for more than two engines: "{:<4} {:<{}} {:>10} ... {:>20}" with names at least
// 25 wide, each engine's pairs against everybody, by Elo; fmt prints a negative zero's sign and
// takes 56.25 and 43.75 to the even neighbour.
BOOST_AUTO_TEST_CASE(fastchess_ranking_of_three_engines) {
  const TournamentConfig config = three_config();
  const Standings standings = compute_standings(config, three_games());
  const std::string rule = "--------------------------------------------------\n";
  BOOST_TEST(fastchess_results(config, standings) ==
                 rule +
                     "Rank Name                             Elo        +/-       nElo        +/-"
                     "      Games      Score       Draw           Ptnml(0-2)\n"
                     "   1 a                              43.66     153.04      74.07     240.76"
                     "          8      56.2%      25.0%      [0, 1, 1, 2, 0]\n"
                     "   2 b                              -0.00     125.57       0.00     240.76"
                     "          8      50.0%      50.0%      [0, 1, 2, 1, 0]\n"
                     "   3 c                             -43.66     153.04     -74.07     240.76"
                     "          8      43.8%      25.0%      [0, 2, 1, 1, 0]\n" +
                     rule,
             fastchess_results(config, standings));
}

// The end: an SPRT decision prints the block, then updateSprtStatus's "SPRT ({}) completed - {}
// was accepted"; the tracker lists the players with a timeout or a crash/stall ("Player: {}",
// "  Timeouts: {}", "  Crashed: {}" between empty lines); main prints "Finished match" and
// "Total Time: {:02}:{:02}:{:02} (hours:minutes:seconds)\n" (an empty line after it).
BOOST_AUTO_TEST_CASE(fastchess_end_of_match) {
  const auto [config, standings] = match_under_sprt(3.1, SprtResult::Decision::AcceptH1);
  const std::string tracker =
      "\n"
      "Player: alpha\n"
      "  Timeouts: 1\n"
      "  Crashed: 0\n"
      "Player: beta\n"
      "  Timeouts: 0\n"
      "  Crashed: 1\n"
      "\n";
  const std::string finished = "Finished match\nTotal Time: 00:00:00 (hours:minutes:seconds)\n\n";
  {
    std::ostringstream out, err;
    make_text_report(out, err, "fastchess", false)
        ->tournament_finished(config, standings, TournamentEnd::SprtAcceptedH1);
    BOOST_TEST(out.str() == fastchess_results(config, standings) +
                                "SPRT ([0.00, 10.00]) completed - H1 was accepted\n" + tracker +
                                finished,
               out.str());
    BOOST_TEST(fastchess_results(config, standings).find("\nLLR: 3.10 (105.3%) ") !=
               std::string::npos);
  }
  {
    // Interrupted: no block, and main's "Tournament was interrupted." before "Finished match",
    // with how to resume it (issue 25, item 17): fastchess names its -config file, the arena
    // --resume and the results file, or says that there is none.
    for (const std::string results : {"", "runs/results.json"}) {
      TournamentConfig interrupted = config;
      interrupted.results_path = results;
      std::ostringstream out, err;
      make_text_report(out, err, "fastchess", false)
          ->tournament_finished(interrupted, standings, TournamentEnd::Interrupted);
      const std::string hint =
          results.empty() ? "Its games were not kept (no --results), so it cannot be resumed."
                          : "Its games are kept in runs/results.json: to play the rest, run the "
                            "same command again with --resume.";
      BOOST_TEST(out.str() == tracker + "Tournament was interrupted. " + hint + "\n" + finished,
                 out.str());
    }
  }
}

// The four-player game keeps its team naming in the same line shapes.
BOOST_AUTO_TEST_CASE(four_player_games_name_the_teams) {
  TournamentConfig config = match_config();
  config.variant = Variant::FourPlayer;
  std::ostringstream out, err;
  const auto sink = make_text_report(out, err, "cutechess", false);
  sink->game_started(config, scheduled(0, 0, 1));
  BOOST_TEST(out.str() == "Started game 1 of 8 (A: alpha vs B: beta)\n");
}

BOOST_AUTO_TEST_CASE(styles_by_name) {
  for (const std::string name : {"fastchess", "cutechess", "arena"}) {
    const ReportStyle* style = parse_report_style(name);
    BOOST_TEST_REQUIRE(style != nullptr, name);
    BOOST_TEST(style->name == name);
  }
  BOOST_TEST(parse_report_style("cutechess-cli") == nullptr);
  BOOST_TEST(parse_report_style("") == nullptr);
  BOOST_TEST(std::string(default_report_style()) == "fastchess");
  BOOST_TEST(report_styles().size() == 3u);
}

// Each name makes its own style's sink: the three print a warning each in their own way.
BOOST_AUTO_TEST_CASE(styles_make_their_sinks) {
  const std::vector<std::pair<std::string, std::pair<std::string, std::string>>> expected = {
      {"fastchess", {"Warning; careful\n", ""}},
      {"cutechess", {"", "Warning: careful\n"}},
      {"arena", {"Warning: careful\n", ""}}};
  for (const auto& [name, streams] : expected) {
    std::ostringstream out, err;
    make_text_report(out, err, name, false)->warning("careful");
    BOOST_TEST(out.str() == streams.first, name);
    BOOST_TEST(err.str() == streams.second, name);
  }
}

// --output's help and the error for an unknown style come from the same table: every name and
// its description, the default marked; the error lists the names.
BOOST_AUTO_TEST_CASE(help_and_error_list_the_styles) {
  const std::string help = report_style_help();
  BOOST_TEST(help.starts_with("report style: fastchess (the default: "), help);
  for (const ReportStyle& style : report_styles()) {
    BOOST_TEST(help.find(std::string(style.name) + " (") != std::string::npos, help);
    BOOST_TEST(help.find(style.description) != std::string::npos, help);
  }
  std::ostringstream out, err;
  try {
    (void)make_text_report(out, err, "none", false);
    BOOST_ERROR("an unknown style makes no sink");
  } catch (const std::invalid_argument& error) {
    BOOST_TEST(std::string(error.what()) ==
               "--output: expected fastchess, cutechess or arena, not \"none\"");
  }
  BOOST_TEST(out.str().empty());
  BOOST_TEST(err.str().empty());
}

BOOST_AUTO_TEST_SUITE_END()
