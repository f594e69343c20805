// The notation of docs/spec.md §3 for squares, moves and positions of both variants, with
// precise error messages.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "position.hpp"
#include "position4.hpp"

namespace quixo {

// Thrown for any malformed or illegal text; what() names the problem for the user.
class NotationError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

enum class Variant { TwoPlayer, FourPlayer };

inline constexpr std::string_view kStartPosition = "5/5/5/5/5 x";
inline constexpr std::string_view kStartPosition4 = "5/5/5/5/5 1";

std::string square_name(Square square);
// "a1".."e5", lower case only; nullopt for anything else.
std::optional<Square> parse_square(std::string_view text);

// The variant a position string is written for, from its side-to-move field ('x'/'o' or 1-4).
Variant variant_of(std::string_view position_text);

Position parse_position(std::string_view text);
Position4 parse_position4(std::string_view text);
// Without a move number: "5/5/5/5/5 x", "5/5/5/5/5 1".
std::string to_string(const Position& position);
std::string to_string(const Position4& position);

std::string to_string(Move move);   // "b1e1"
std::string to_string(Move4 move);  // "b1e1X", or "0000" for a pass
char cube_letter(Seat point);       // 'x', 'o', 'X', 'O' for a cube pointing to seat 0..3

// Parse a move and check that it is legal in `position`; the message says why it is not.
Move parse_move(const Position& position, std::string_view text);
Move4 parse_move(const Position4& position, std::string_view text);

std::string to_string(Outcome outcome);  // "ongoing", "X wins", "O wins"

}  // namespace quixo
