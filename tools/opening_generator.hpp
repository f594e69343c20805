// The opening generator: varied, roughly balanced openings by random legal play from the start,
// each candidate checked with a short search of the engine. It lives outside the arena because
// it needs the engine's search and the arena must not (the arena only reads books); quixo-openings
// is its command line. The books it writes are in the arena's book format (client/openings.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/notation.hpp"
#include "openings.hpp"

namespace quixo::opening_generator {

struct OpeningGeneratorOptions {
  std::size_t count = 100;  // openings to make
  int min_plies = 4;        // random plies from the start position, at least...
  int max_plies = 8;        // ...and at most
  std::uint64_t seed = 1;
  int search_depth = 6;        // depth of the check search (0: no check)
  int max_abs_score_cp = 150;  // openings the search scores beyond this (or as won) are dropped
  // An unbalanced book ("UHO", as chess testing moved to): only openings whose score for the side
  // to move is at least this are kept, so that the side to move is better by a known amount and
  // fewer games between close engines end drawn. nullopt: -max_abs_score_cp (a balanced book).
  std::optional<int> min_score_cp;
  Variant variant = Variant::TwoPlayer;
};

// Random legal play from the start, each candidate checked with a short fixed-depth search of the
// engine and dropped when the game is over, the score is outside [min_score_cp, max_abs_score_cp]
// (the side to move's; a balanced book keeps [-max, max]), or an opening with the
// same position up to symmetry was already made. Deterministic for a given seed. The openings are
// written as final positions (no moves).
// Details: each candidate plays a number of plies drawn uniformly from [min_plies, max_plies],
// each ply a uniformly drawn legal move (the portable draw of arena::random_below, as the
// tournament's opening order uses); a position in which the side to move can win at once is
// dropped too. The check search uses one thread, a 1 MB table cleared before each candidate and
// no game history; its score is the last exact one reported. Throws arena::OpeningError for bad
// options, or when `count` openings are not found within 1000 + 100 * count candidates (too few
// distinct positions within the plies).
// Four-player openings (variant FourPlayer) are made the same way from the four-player start: a
// candidate is dropped when the game is over, when the seat to move can win at once, when every
// move of it loses at once or lets the next seat win at once (lost in two plies), when its
// position, points and seat to move included, repeats an earlier one up to symmetry, or when the
// engine's team search scores it as above for the team to move.
std::vector<arena::Opening> generate_openings(const OpeningGeneratorOptions& options);

}  // namespace quixo::opening_generator
