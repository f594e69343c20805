// The three sources of quixo-train's data set: positions of the endgame tables with their exact
// values, positions of self-play games with the games' results, and self-play positions scored
// by a deeper search. Every record is in the evaluation's domain (training_data.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "tb/tablebase.hpp"
#include "training_data.hpp"

namespace quixo::patterns {
class PatternWeights;
class TeamPatternWeights;
}  // namespace quixo::patterns

namespace quixo::train {

// Progress lines for a person watching a long run.
using Progress = std::function<void(const std::string&)>;

struct TableSampleSettings {
  // In all, in equal shares over the loaded layers; a layer with fewer positions in the domain
  // gives all it has and leaves the rest to the larger layers.
  std::uint64_t positions = 1'600'000;
  // Slots are read in runs of consecutive slots from random starts: a probe decodes a whole
  // block of the file, so single random slots would cost one block decode each.
  int run_length = 32;
  std::uint64_t seed = 1;
};

// Distinct positions of the loaded layers (0..tb::kMaxIndexedLayer) in the domain, labelled with
// their exact value: win 1, draw 0.5, loss 0. The held-out ones carry validation = true.
std::vector<TrainingRecord> sample_table_positions(const tb::Tablebase& tables,
                                                   const TableSampleSettings& settings,
                                                   const Progress& progress = {});

// The evaluation the data's engines search with. The hand-written one by default: the shipped
// weights were fitted to its games, and the same command must make them again. The learned one
// (the weights built into the engine, or a file's) makes the data of a next generation from the
// games and scores of the last.
struct DataEvaluation {
  bool learned = false;
  // Learned weights read from a file, once for all the data's engines (a wrong file is refused
  // before any game); none: the weights built into the engine. The team game takes team weights.
  std::variant<std::monostate, std::shared_ptr<const patterns::PatternWeights>,
               std::shared_ptr<const patterns::TeamPatternWeights>>
      weights;
};

struct SelfPlaySettings {
  int games = 40000;
  std::uint64_t nodes = 3000;  // per move
  int threads = 2;             // games played at once, each by its own one-thread engine
  int hash_mb = 16;            // per engine
  // A game starts with random moves that do not lose at once, this many plies of them.
  int opening_min_plies = 4;
  int opening_max_plies = 12;
  // After the opening, a move is a random safe move instead of the engine's with this chance.
  double random_move_rate = 0.05;
  int max_plies = 200;  // a draw when the game gets this long
  int validation_percent = 10;
  std::uint64_t seed = 1;
  DataEvaluation evaluation;
};

// Whether a self-play game belongs to the validation set; whole games, so that the positions of
// one game are never split between training and validation.
bool is_validation_game(std::uint32_t game, int validation_percent);

// The in-domain positions after the opening of every game, labelled with the game's result from
// their side to move's view, in game order. A game ends with a line, at the third occurrence of
// a position (a draw) or after max_plies (a draw). The same settings give the same records.
std::vector<TrainingRecord> play_games(const SelfPlaySettings& settings,
                                       const Progress& progress = {});

struct DeepSearchSettings {
  std::uint64_t positions = 0;
  std::uint64_t nodes = 60'000;  // per position, unless depth is given
  int depth = 0;
  int threads = 2;
  int hash_mb = 16;
  std::uint64_t seed = 1;
  DataEvaluation evaluation;
};

// `settings.positions` self-play records chosen at random (never held-out ones), each searched
// afresh without history, as Deep records that keep the game, the validation flag and the game's
// result, with the search's score (side to move).
std::vector<TrainingRecord> deep_search(const std::vector<TrainingRecord>& games,
                                        const DeepSearchSettings& settings,
                                        const Progress& progress = {});

}  // namespace quixo::train
