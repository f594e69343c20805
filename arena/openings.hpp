// Opening books for the arena: a text file of start positions, each played as a game pair with
// colours swapped; the order in which a tournament uses them; and a generator that makes varied,
// roughly balanced openings by random legal play checked with a short search.
//
// File format (one opening per line; blank lines and lines starting with '#' are skipped):
//   <board> <side> [moves m1 m2 ...]      e.g. "5/5/5/5/5 x moves b1e1 e5a5"
//   startpos [moves m1 m2 ...]
// with positions and moves in the notation of SPEC section 3 (also `fen <board> <side>` as in
// the `position` command; a move number after the side is kept in the position string, and so in
// the PGN's FEN tag and move numbers). Four-player
// openings are written the same way, with a seat to move and four-player moves:
// "5/5/5/5/5 1 moves b1b5x e5a5o", "startpos4 moves b1b5X". A book may hold either kind; a
// tournament checks that its book is of its variant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/notation.hpp"

namespace quixo::arena {

struct Opening {
  // Canonical position string, e.g. "5/5/5/5/5 x", "5/5/5/5/5 1", with the book's move number
  // when it gave one ("x4/5/5/5/o4 x 12").
  std::string position;
  std::vector<std::string> moves;  // canonical move texts, legal in turn from `position`
  friend bool operator==(const Opening&, const Opening&) = default;
};

class OpeningError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses a book. Throws OpeningError "<source>:<line>: <what is wrong>" for a malformed position
// or an illegal move, and for a line whose game is already over after its moves.
std::vector<Opening> parse_openings(std::istream& in, std::string_view source_name);
// The same for a file; OpeningError also when it cannot be read or holds no opening.
std::vector<Opening> load_openings(const std::string& path);
// One line per opening in the format above (positions without moves as just the position).
void write_openings(std::ostream& out, const std::vector<Opening>& openings);
std::string format_opening(const Opening& opening);

enum class OpeningOrder { Sequential, Random };

// The indices of `needed` openings for a tournament from a book of `book_size`: sequential order
// or a permutation seeded by `seed` (the same seed gives the same order on every machine), begun
// at `offset` and wrapping around when the book is shorter than `needed`. The permutation is a
// Fisher-Yates shuffle drawing from std::mt19937_64(seed) reduced by a plain remainder (not
// std::uniform_int_distribution, whose output differs between standard libraries). Throws
// OpeningError when openings are needed from an empty book.
std::vector<std::size_t> opening_sequence(std::size_t book_size, OpeningOrder order,
                                          std::uint64_t seed, std::size_t offset,
                                          std::size_t needed);

struct OpeningGeneratorOptions {
  std::size_t count = 100;  // openings to make
  int min_plies = 4;        // random plies from the start position, at least...
  int max_plies = 8;        // ...and at most
  std::uint64_t seed = 1;
  int search_depth = 6;        // depth of the check search (0: no check; two players only)
  int max_abs_score_cp = 150;  // openings the search scores beyond this (or as won) are dropped
  Variant variant = Variant::TwoPlayer;
};

// Random legal play from the start, each candidate checked with a short fixed-depth search of the
// engine and dropped when the game is over, the score is beyond the limit, or an opening with the
// same position up to symmetry was already made. Deterministic for a given seed. The openings are
// written as final positions (no moves).
// Details: each candidate plays a number of plies drawn uniformly from [min_plies, max_plies],
// each ply a uniformly drawn legal move (same portable draw as opening_sequence); a position in
// which the side to move can win at once is dropped too. The check search uses one thread, a
// 1 MB table cleared before each candidate and no game history; its score is the last exact one
// reported. Throws OpeningError for bad options, or when `count` openings are not found within
// 1000 + 100 * count candidates (too few distinct positions within the plies).
// Four-player openings (variant FourPlayer) are made the same way from the four-player start: a
// candidate is dropped when the game is over, when the seat to move can win at once, when every
// move of it loses at once or lets the next seat win at once (lost in two plies), when its
// position, points and seat to move included, repeats an earlier one up to symmetry, or when the
// engine's team search scores it as above for the team to move.
std::vector<Opening> generate_openings(const OpeningGeneratorOptions& options);

}  // namespace quixo::arena
