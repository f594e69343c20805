#include "standings.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <unordered_map>
#include <utility>

#include "schedule.hpp"

namespace quixo::arena {
namespace {

// When maximum likelihood has no finite answer (an engine won or lost every game), one virtual
// draw per pairing keeps the ratings finite, as BayesElo's prior does.
constexpr double kFallbackPriorDraws = 1.0;

// The game's result for the engine that played X (as_x) or O.
EngineResult result_for(GameResult result, bool as_x) {
  if (result == GameResult::Draw) return EngineResult::Draw;
  return (result == GameResult::XWins) == as_x ? EngineResult::Win : EngineResult::Loss;
}

}  // namespace

StandingsTally::StandingsTally(const TournamentConfig& config) : config_(config) {
  for (const EngineConfig& engine : config.engines) {
    EngineTally tally;
    tally.name = engine.name;
    standings_.engines.push_back(std::move(tally));
  }
  for (const auto& [first, second] : pairings_of(config)) {
    PairingTally pairing;
    pairing.first = first;
    pairing.second = second;
    standings_.pairings.push_back(pairing);
  }
  // A knockout's first guess: config.rounds pairs for each of its N - 1 matches.
  const std::int64_t pairs = static_cast<std::int64_t>(config.format == TournamentFormat::Knockout
                                                           ? config.engines.size() - 1
                                                           : standings_.pairings.size()) *
                             static_cast<std::int64_t>(config.rounds);
  standings_.total_games = 2 * (config.shard ? config.shard->pairs_owned(pairs) : pairs);
  standings_.terminations.assign(kTerminationCount, 0);
  update_sprt();
}

std::optional<std::size_t> StandingsTally::pairing_index(std::size_t a, std::size_t b) const {
  for (std::size_t i = 0; i < standings_.pairings.size(); ++i) {
    const PairingTally& pairing = standings_.pairings[i];
    if ((pairing.first == a && pairing.second == b) || (pairing.first == b && pairing.second == a))
      return i;
  }
  return std::nullopt;
}

void StandingsTally::add(const FinishedGame& game) {
  if (game.x >= config_.engines.size() || game.o >= config_.engines.size()) return;
  Standings& standings = standings_;
  ++standings.games;
  ++standings.terminations[static_cast<std::size_t>(game.termination)];
  standings.engines[game.x].results.add(result_for(game.result, true));
  standings.engines[game.x].x_results.add(result_for(game.result, true));
  standings.engines[game.o].results.add(result_for(game.result, false));
  // cutechess-cli's outcome counts: both players count a draw; a win and a loss are told apart.
  const std::string description = result_description(config_.variant, game);
  if (game.result == GameResult::Draw) {
    ++standings.engines[game.x].outcomes[description];
    ++standings.engines[game.o].outcomes[description];
  } else {
    const bool x_wins = game.result == GameResult::XWins;
    ++standings.engines[x_wins ? game.x : game.o].outcomes["Win: " + description];
    ++standings.engines[x_wins ? game.o : game.x].outcomes["Loss: " + description];
  }
  standings.engines[game.x].restarts += game.x_restarted ? 1 : 0;
  standings.engines[game.o].restarts += game.o_restarted ? 1 : 0;
  if (game.result != GameResult::Draw) {
    EngineTally& loser = standings.engines[game.result == GameResult::XWins ? game.o : game.x];
    switch (game.termination) {
      case Termination::Crash:
        ++loser.crashes;
        break;
      case Termination::TimeForfeit:
        ++loser.time_forfeits;
        break;
      case Termination::IllegalMove:
        ++loser.illegal_moves;
        break;
      case Termination::Stall:
        ++loser.stalls;
        break;
      default:
        break;
    }
  }
  const std::optional<std::size_t> index = pairing_index(game.x, game.o);
  if (!index) return;
  PairingTally& pairing = standings.pairings[*index];
  pairing.results.add(result_for(game.result, game.x == pairing.first));
  // A pair counts once both of its games are in (games 2k and 2k+1, in either order); the first
  // to come waits for its partner.
  const auto partner = waiting_.find(game.id ^ 1);
  if (partner == waiting_.end()) {
    waiting_[game.id] = game;
    return;
  }
  const FinishedGame& even = game.id % 2 == 0 ? game : partner->second;
  const FinishedGame& odd = game.id % 2 == 0 ? partner->second : game;
  const EngineResult first_game = result_for(even.result, even.x == pairing.first);
  const EngineResult second_game = result_for(odd.result, odd.x == pairing.first);
  pairing.pairs.add(first_game, second_game);
  if (first_game != EngineResult::Draw &&
      static_cast<int>(first_game) + static_cast<int>(second_game) == 2)
    ++pairing.win_loss_pairs;
  waiting_.erase(partner);
  update_sprt();
}

void StandingsTally::update_sprt() {
  if (!config_.sprt || standings_.pairings.empty()) return;
  // Bounds are checked before the first game, but no statistics failure may cost the games
  // played: the standings say why there is no LLR and the tournament goes on.
  for (PairingTally& pairing : standings_.pairings)
    sprt_or_error(pairing.pairs, *config_.sprt, pairing.sprt, pairing.sprt_error);
  if (standings_.pairings.size() == 1) {
    standings_.sprt = standings_.pairings.front().sprt;
    standings_.sprt_error = standings_.pairings.front().sprt_error;
  }
}

void sprt_or_error(const Pentanomial& pairs, const SprtParameters& parameters,
                   std::optional<SprtResult>& test, std::string& error) {
  try {
    test = sprt(pairs, parameters);
    error.clear();
  } catch (const std::exception& failure) {
    test.reset();
    error = failure.what();
  }
}

SprtResult::Decision sprt_decision(const Standings& standings) {
  using Decision = SprtResult::Decision;
  if (standings.pairings.size() <= 1)
    return standings.sprt ? standings.sprt->decision : Decision::Continue;
  // A gauntlet SPRT is decided when every pairing's is: H0 when the tested engine failed against
  // any opponent, H1 when it passed against all.
  bool any_h0 = false;
  for (const PairingTally& pairing : standings.pairings) {
    if (!pairing.sprt || pairing.sprt->decision == Decision::Continue) return Decision::Continue;
    any_h0 = any_h0 || pairing.sprt->decision == Decision::AcceptH0;
  }
  return any_h0 ? Decision::AcceptH0 : Decision::AcceptH1;
}

Standings compute_standings(const TournamentConfig& config,
                            const std::vector<FinishedGame>& games) {
  StandingsTally tally(config);
  for (const FinishedGame& game : games) tally.add(game);
  return tally.standings();
}

std::optional<Ratings> rate_engines(const TournamentConfig& config, const Standings& standings) {
  std::vector<PairingResult> results;
  for (const PairingTally& pairing : standings.pairings)
    if (pairing.results.games() > 0)
      results.push_back({pairing.first, pairing.second, pairing.results});
  const std::size_t players = standings.engines.size();
  if (results.empty() || !players_connected(players, results)) return std::nullopt;
  RatingOptions options;
  if (config.anchor) {
    // --anchor NAME=ELO: that engine's rating is fixed, the others' errors are relative to it.
    for (std::size_t i = 0; i < standings.engines.size(); ++i)
      if (standings.engines[i].name == config.anchor->name) options.anchor = i;
    options.anchor_elo = config.anchor->elo;
  }
  try {
    Ratings ratings = bradley_terry(players, results, options);
    if (!ratings.converged) {
      options.prior_draws = kFallbackPriorDraws;
      ratings = bradley_terry(players, results, options);
    }
    return ratings;
  } catch (const std::exception&) {
    return std::nullopt;  // a report without ratings rather than a lost tournament
  }
}

}  // namespace quixo::arena
