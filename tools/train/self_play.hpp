// The self-play games of either game, as both data sources play them: a random opening, then the
// engine (the hand-written evaluation unless told otherwise), a random safe move now and then,
// until a line, a third occurrence or the ply cap; every position in the evaluation's domain
// becomes a record labelled with the game's result.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "data_sources.hpp"
#include "parallel_work.hpp"
#include "search/engine_options.hpp"
#include "search/limits.hpp"

namespace quixo::train {

// An engine as the data sources use it. One thread: a search at fixed nodes, and so the data,
// is deterministic. It searches with the hand-written evaluation unless `evaluation` asks for
// learned weights (DataEvaluation says why).
template <class EngineT>
void configure_data_engine(EngineT& engine, int hash_mb, const DataEvaluation& evaluation) {
  using Evaluator = std::remove_cvref_t<decltype(engine.evaluator())>;
  using Weights = typename Evaluator::Weights;
  EngineOptions options;
  options.threads = 1;
  options.hash_mb = hash_mb;
  engine.set_options(options);
  std::shared_ptr<const Weights> loaded;
  if (const auto* ours = std::get_if<std::shared_ptr<const Weights>>(&evaluation.weights))
    loaded = *ours;
  else if (!std::holds_alternative<std::monostate>(evaluation.weights))
    throw std::invalid_argument("the data's learned weights are the other game's weights");
  engine.set_evaluator(Evaluator::chosen(evaluation.learned, std::move(loaded)));
}

// `Game` says what differs between the games (data_sources.cpp, team_data.cpp):
//   Game::Engine, Game::Position, Game::Move, Game::Record
//   Game::kSeedSalt                 mixed into each game's seed, so the games' streams differ
//   Game::kWhat                     the games' name in messages ("self-play")
//   Game::safe_moves(position)      the moves that do not lose at once, in a fixed order
//   Game::mover_has_win(position)   whether the one to move has a win in one
//   Game::in_domain(position)       whether the evaluation is ever asked about the position
//   Game::record_of(position)       its record, before the label
//   Game::side_of(record)           whose view the record's label takes
template <class Game>
using PositionKey = decltype(std::declval<const typename Game::Position&>().key());

template <class Game>
typename Game::Move random_move_of(std::mt19937_64& random,
                                   const std::vector<typename Game::Move>& moves) {
  return moves[random_below(random, moves.size())];
}

// The start of a game: random moves that do not lose at once, drawn again until the game is
// still on and the one to move has no win in one after them.
template <class Game>
typename Game::Position random_opening(std::mt19937_64& random, const SelfPlaySettings& settings,
                                       std::vector<PositionKey<Game>>& history) {
  using Position = typename Game::Position;
  for (;;) {
    history.clear();
    Position position = Position::start();
    const int plies = settings.opening_min_plies +
                      int(random_below(random, std::uint64_t(settings.opening_max_plies -
                                                             settings.opening_min_plies + 1)));
    bool playable = true;
    for (int ply = 0; ply < plies && playable; ++ply) {
      const auto moves = Game::safe_moves(position);
      if (moves.empty()) {
        playable = false;
        break;
      }
      history.push_back(position.key());
      position = position.after(random_move_of<Game>(random, moves));
      playable = !position.is_game_over();
    }
    if (playable && !Game::mover_has_win(position)) return position;
  }
}

// Game number `game` of the settings; the same settings give the same records.
template <class Game>
std::vector<typename Game::Record> play_game(typename Game::Engine& engine, std::uint32_t game,
                                             const SelfPlaySettings& settings) {
  using Position = typename Game::Position;
  using Move = typename Game::Move;
  using Record = typename Game::Record;
  std::mt19937_64 random(mix64(settings.seed ^ mix64(game) ^ Game::kSeedSalt));
  std::vector<PositionKey<Game>> history;
  Position position = random_opening<Game>(random, settings, history);
  std::map<PositionKey<Game>, int> seen;
  for (const auto& key : history) ++seen[key];
  ++seen[position.key()];
  SearchLimits limits;
  limits.nodes = settings.nodes;
  std::vector<Record> records;
  Outcome outcome = Outcome::Ongoing;
  engine.new_game();
  for (;;) {
    if (position.is_game_over()) {
      outcome = position.outcome();
      break;
    }
    // A third occurrence, or a game too long: a draw (outcome stays Ongoing).
    if (seen[position.key()] >= 3 || int(history.size()) >= settings.max_plies) break;
    if (Game::in_domain(position)) records.push_back(Game::record_of(position));
    // Drawn every ply, so that a game's random numbers do not depend on the engine's moves.
    const bool random_move = random_unit(random) < settings.random_move_rate;
    const auto safe = Game::safe_moves(position);
    Move move;
    if (random_move && !Game::mover_has_win(position) && !safe.empty()) {
      move = random_move_of<Game>(random, safe);
    } else {
      engine.set_position(position, history);
      move = search<Move>(engine, limits).best;
      if (move.is_none() || !position.is_legal(move))
        throw std::runtime_error("the engine answered no legal move in a " +
                                 std::string(Game::kWhat) + " game");
    }
    history.push_back(position.key());
    position = position.after(move);
    ++seen[position.key()];
  }
  const bool validation = is_validation_game(game, settings.validation_percent);
  for (Record& record : records) {
    record.game = game;
    record.validation = validation;
    record.label = outcome == Outcome::Ongoing                 ? 0.5f
                   : outcome == win_for(Game::side_of(record)) ? 1.0f
                                                               : 0.0f;
  }
  return records;
}

// settings.games games on settings.threads threads, the records in game order.
template <class Game>
std::vector<typename Game::Record> play_games_of(const SelfPlaySettings& settings,
                                                 const Progress& progress) {
  using Engine = typename Game::Engine;
  return play_games_on_threads<Engine, typename Game::Record>(
      settings, progress, std::string(Game::kWhat), configure_data_engine<Engine>,
      [&settings](Engine& engine, std::uint32_t game) {
        return play_game<Game>(engine, game, settings);
      });
}

}  // namespace quixo::train
