// The data of the learned team evaluation (issue 31): positions of team self-play games with the
// games' results, and some of them scored by a deeper search. There are no tables of the team
// game, so these are its only sources. The games, their split and the settings are those of the
// two-player self-play (data_sources.hpp); the positions are the team game's, seen from the team
// to move.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/position4.hpp"
#include "data_sources.hpp"
#include "fit.hpp"
#include "search/team_pattern_evaluation.hpp"
#include "training_data.hpp"

namespace quixo::train {

struct TeamRecord {
  Position4 position;
  Source source = Source::Game;  // Game or Deep
  // The expected result for the team to move in [0, 1]: win 1, draw 0.5, loss 0.
  float label = 0.5f;
  bool validation = false;  // of a validation game: never trained on
  bool has_score = false;
  Score score = 0;  // a deeper search's score for the team to move; Deep only
  std::uint32_t game = 0;
};

// The positions the team evaluation is ever asked about: the game goes on, the seat to move has
// no win in one, and it has a move that does not make the other team's line (a forced pass
// included).
bool in_team_evaluation_domain(const Position4& position);

// The in-domain positions after the opening of every game, labelled with the game's result from
// the team to move's view, in game order. A game starts with random moves that do not lose at
// once, then a one-thread Engine4 with the hand-written evaluation plays every seat at
// settings.nodes a move (a random safe move at settings.random_move_rate); it ends with a line,
// at the third occurrence of a position or after max_plies (both draws). The same settings give
// the same records.
std::vector<TeamRecord> play_team_games(const SelfPlaySettings& settings,
                                        const Progress& progress = {});

// `settings.positions` game records chosen at random, each searched afresh without history by
// the hand-written evaluation, as Deep records with the search's score.
std::vector<TeamRecord> deep_search_team(const std::vector<TeamRecord>& games,
                                         const DeepSearchSettings& settings,
                                         const Progress& progress = {});

// The record as the fit takes it: the team evaluation's active features.
Example prepare_team(const TeamRecord& record);

// Fits K and the team weights: training on the records of training games, measuring on the
// validation games'.
FitResult fit_team_weights(std::span<const TeamRecord> records, const FitSettings& settings,
                           const Progress& progress = {});

// Per phase and source, on training and validation records, for the learned team weights and the
// hand-written team evaluation: count, mean loss, the accuracy on decisive labels, as lines of a
// table.
std::vector<std::string> team_evaluation_report(std::span<const TeamRecord> records,
                                                const patterns::TeamPatternWeights& weights,
                                                double scale);

}  // namespace quixo::train
