#include "standings.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
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

Standings compute_standings(const TournamentConfig& config,
                            const std::vector<FinishedGame>& games) {
  Standings standings;
  for (const EngineConfig& engine : config.engines) {
    EngineTally tally;
    tally.name = engine.name;
    standings.engines.push_back(std::move(tally));
  }
  const auto pairings = pairings_of(config);
  for (const auto& [first, second] : pairings) {
    PairingTally pairing;
    pairing.first = first;
    pairing.second = second;
    standings.pairings.push_back(pairing);
  }
  const std::int64_t pairs =
      static_cast<std::int64_t>(pairings.size()) * static_cast<std::int64_t>(config.rounds);
  standings.total_games = 2 * (config.shard ? config.shard->pairs_owned(pairs) : pairs);
  standings.terminations.assign(kTerminationCount, 0);

  const auto pairing_index = [&](std::size_t a, std::size_t b) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < pairings.size(); ++i)
      if ((pairings[i].first == a && pairings[i].second == b) ||
          (pairings[i].first == b && pairings[i].second == a))
        return i;
    return std::nullopt;
  };

  std::map<int, const FinishedGame*> by_id;
  for (const FinishedGame& game : games) {
    if (game.x >= config.engines.size() || game.o >= config.engines.size()) continue;
    by_id[game.id] = &game;
    ++standings.games;
    ++standings.terminations[static_cast<std::size_t>(game.termination)];
    standings.engines[game.x].results.add(result_for(game.result, true));
    standings.engines[game.o].results.add(result_for(game.result, false));
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
    if (const auto index = pairing_index(game.x, game.o)) {
      PairingTally& pairing = standings.pairings[*index];
      pairing.results.add(result_for(game.result, game.x == pairing.first));
    }
  }
  // A pair counts once both of its games are in; games 2k and 2k+1 are a pair.
  for (const auto& [id, game] : by_id) {
    if (id % 2 != 0) continue;
    const auto partner = by_id.find(id + 1);
    if (partner == by_id.end()) continue;
    const auto index = pairing_index(game->x, game->o);
    if (!index) continue;
    PairingTally& pairing = standings.pairings[*index];
    pairing.pairs.add(result_for(game->result, game->x == pairing.first),
                      result_for(partner->second->result, partner->second->x == pairing.first));
  }
  if (config.sprt && !standings.pairings.empty()) {
    // Bounds are checked before the first game, but no statistics failure may cost the games
    // played: the standings say why there is no LLR and the tournament goes on.
    try {
      standings.sprt = sprt(standings.pairings.front().pairs, *config.sprt);
    } catch (const std::exception& error) {
      standings.sprt_error = error.what();
    }
  }
  return standings;
}

std::optional<Ratings> rate_engines(const Standings& standings) {
  std::vector<PairingResult> results;
  for (const PairingTally& pairing : standings.pairings)
    if (pairing.results.games() > 0)
      results.push_back({pairing.first, pairing.second, pairing.results});
  const std::size_t players = standings.engines.size();
  if (results.empty() || !players_connected(players, results)) return std::nullopt;
  try {
    Ratings ratings = bradley_terry(players, results);
    if (!ratings.converged) {
      RatingOptions options;
      options.prior_draws = kFallbackPriorDraws;
      ratings = bradley_terry(players, results, options);
    }
    return ratings;
  } catch (const std::exception&) {
    return std::nullopt;  // a report without ratings rather than a lost tournament
  }
}

}  // namespace quixo::arena
