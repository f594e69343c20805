// Opening books for the arena: a text file of start positions, each played as a game pair with
// colours swapped, and the order in which a tournament uses them. Books are made by hand or by the
// opening generator (tools/opening_generator.hpp, the quixo-openings command), which needs the
// engine's search and so lives outside the arena.
//
// File format (one opening per line; blank lines and lines starting with '#' are skipped):
//   <board> <side> [moves m1 m2 ...]      e.g. "5/5/5/5/5 x moves b1e1 e5a5"
//   startpos [moves m1 m2 ...]
// with positions and moves in the notation of docs/spec.md §3 (also `fen <board> <side>` as in
// the `position` command; a move number after the side is kept in the position string, and so in
// the PGN's FEN tag and move numbers). Four-player
// openings are written the same way, with a seat to move and four-player moves:
// "5/5/5/5/5 1 moves b1b5x e5a5o", "startpos4 moves b1b5X". A book may hold either kind; a
// tournament checks that its book is of its variant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <random>
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
// Books in the formats other tools write (fastchess's `format=`): Text is the format above; Epd
// is one position per line, anything after its first ';' ignored (EPD's operations, and what
// --epd-out writes); Pgn takes each game of a PGN file (as parse_pgn reads it: the arena's own
// full or short form) as its start position and its first `plies` moves (all when negative), cut
// back further when needed so that the game still goes on.
enum class BookFormat { Text, Epd, Pgn };
// The largest opening book read (far above any real one: 100,000 PGN games are about 60 MB).
inline constexpr std::size_t kBookMaxMebibytes = 256;

struct BookSource {
  std::string path;
  BookFormat format = BookFormat::Text;
  int plies = -1;
};
// Throws OpeningError "<path>:<line or game>: <what is wrong>", and when the file cannot be read
// or holds no opening.
std::vector<Opening> load_book(const BookSource& source);
// "text", "epd", "pgn"; nullopt for another name.
std::optional<BookFormat> parse_book_format(std::string_view name);

// One line per opening in the format above (positions without moves as just the position).
void write_openings(std::ostream& out, const std::vector<Opening>& openings);
std::string format_opening(const Opening& opening);

// A uniform-enough index in [0, bound) from one draw of `random`. The plain remainder is used
// instead of std::uniform_int_distribution, whose output differs between standard libraries, so a
// seed gives the same book and the same order everywhere; its bias, below bound / 2^64, is far too
// small to matter for book sizes and move counts. The opening generator draws with it too.
std::size_t random_below(std::mt19937_64& random, std::size_t bound);

enum class OpeningOrder { Sequential, Random };
// Which games share an opening (fastchess's policy=): Round, every pairing of a round plays the
// round's opening; Encounter, every game pair (an encounter of two engines) takes the next one.
enum class OpeningPolicy { Round, Encounter };

// The indices of `needed` openings for a tournament from a book of `book_size`: sequential order
// or a permutation seeded by `seed` (the same seed gives the same order on every machine), begun
// at `offset` and wrapping around when the book is shorter than `needed`, a random order then
// shuffled anew for each further pass of book_size openings (each pass uses every opening once;
// the first is as before, so runs that do not wrap are unchanged).
// The permutation is a Fisher-Yates shuffle drawing from std::mt19937_64(seed), and for pass k > 0
// from std::mt19937_64(seed + k * 0x9E3779B97F4A7C15), with random_below. Throws
// OpeningError when openings are needed from an empty book.
std::vector<std::size_t> opening_sequence(std::size_t book_size, OpeningOrder order,
                                          std::uint64_t seed, std::size_t offset,
                                          std::size_t needed);

}  // namespace quixo::arena
