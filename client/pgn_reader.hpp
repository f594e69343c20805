// Reading back the PGN that format_pgn (pgn_writer.hpp) writes, with every game checked against
// the rules core.
#pragma once

#include <stdexcept>
#include <string_view>
#include <vector>

#include "game_record.hpp"

namespace quixo::arena {

class PgnError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads back every game in `text` (as written by format_pgn). Throws PgnError naming the game and
// what is wrong (missing tag, bad move number, bad comment, moves that are not legal from the
// FEN, result that disagrees with the tag). It requires the roster, FEN and QuixoTermination, and
// for a four-player FEN also Seating and Seat1..Seat4; the Termination, PlyCount and Variant tags,
// when present, must agree with the rest; a game ended by a line must show that line on the board
// after its last move, won by the side of the result. Unknown tags are ignored. format_pgn
// followed by parse_pgn gives the record back exactly, except for nodes, a field that is
// literally PGN's unknown value ("?"), control characters in a tag and a cp score beside a mate
// score (only the mate is written). The short form (PgnStyle::Min) has no comments: its moves
// are read as engine moves of which only the move is known, book moves included.
//
// Annotated reading (quixo-gui's studies) also takes variations "( ... )" after a move (each
// checked from the position before that move; MoveRecord::variations) and a person's comments
// (MoveRecord::comment): a comment that is not {book} or an engine comment, or a second comment
// after a move; moves may then go without a comment. The arena reads Strictly: a variation or a
// free comment is an error there.
enum class PgnReading { Strict, Annotated };
std::vector<GameRecord> parse_pgn(std::string_view text, PgnReading reading = PgnReading::Strict);

}  // namespace quixo::arena
