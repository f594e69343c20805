// What the PGN writer and reader agree on beyond the tags' names: PGN's spellings of unknown
// values, the Variant and seat tags, the book comment, the standard Termination value of each
// ending and how a FEN numbers its first move. Internal to the engine client library.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "game_record.hpp"

namespace quixo::arena::pgn_format {

inline constexpr std::string_view kBookComment = "book";
// PGN's spellings of an unknown value: a record's empty field is written as these and read back
// as empty, so that PGN tools see a well-formed roster.
inline constexpr std::string_view kUnknown = "?";
inline constexpr std::string_view kUnknownDate = "????.??.??";
inline constexpr std::string_view kVariant2 = "quixo";
inline constexpr std::string_view kVariant4 = "quixo-4p";
inline constexpr std::array<std::string_view, 4> kSeatTags = {"Seat1", "Seat2", "Seat3", "Seat4"};

// The PGN standard's Termination value (section 9.8.1) for each of ours: rating tools and GUIs
// know these; our exact reason goes into QuixoTermination.
[[nodiscard]] std::string_view standard_termination(Termination termination);

// O (team B in the four-player game) moves first from a start position with O to move; the ply
// numbering then starts with "1...". The teams alternate in the four-player game too, so its
// plies are numbered as the two-player game's: team A's with "N.", team B's with "N...".
[[nodiscard]] bool o_moves_first(std::string_view start_position);

// The full-move number of the FEN's first ply: the position string's move number
// (docs/spec.md §3.3) when it has one, else 1. A book line "x4/5/5/5/o4 x 12 moves ..." numbers
// its moves from 12.
[[nodiscard]] std::size_t first_move_number(std::string_view start_position);

}  // namespace quixo::arena::pgn_format
