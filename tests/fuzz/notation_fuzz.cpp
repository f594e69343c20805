// Fuzzes the notation of docs/spec.md §3 (engine/core/notation.hpp): position strings of both
// variants, moves, squares.
//
// Input: the first line is a position string, every further line a move played in turn from
// it (a rejected move is skipped). Invariants:
//   - a parse either succeeds or throws NotationError (anything else escapes and is a crash);
//   - at most one of parse_position / parse_position4 accepts a text, the one variant_of names;
//   - a parsed position formats to a canonical text that parses back to the same position (also
//     with a move number), and formatting is idempotent;
//   - parse_move accepts exactly the legal moves: whatever it returns is legal, it returns the
//     move itself for the text of every legal move, and to_string of a move parses back to it;
//   - parse_square and square_name are inverse.
#include <optional>
#include <string>

#include "core/notation.hpp"
#include "fuzz_support.hpp"

namespace {

using namespace quixo;

std::string quote(std::string_view text) {
  return "'" + std::string(text) + "'";
}

template <class PositionT>
PositionT parse_any(std::string_view text) {
  if constexpr (std::is_same_v<PositionT, Position>)
    return parse_position(text);
  else
    return parse_position4(text);
}

template <class PositionT>
void check_position(const PositionT& position) {
  const std::string text = to_string(position);
  const PositionT again = parse_any<PositionT>(text);
  FUZZ_CHECK(again == position,
             "format/parse round trip changed " + quote(text) + " into " + quote(to_string(again)));
  FUZZ_CHECK(to_string(again) == text, "formatting is not canonical: " + quote(text));
  FUZZ_CHECK(parse_any<PositionT>(text + " 17") == position,
             "a move number changed the position " + quote(text));
  FUZZ_CHECK(variant_of(text) ==
                 (std::is_same_v<PositionT, Position> ? Variant::TwoPlayer : Variant::FourPlayer),
             "variant_of disagrees with the parser for " + quote(text));
  if constexpr (std::is_same_v<PositionT, Position>)
    FUZZ_CHECK((position.cubes(Color::X) & position.cubes(Color::O)) == 0,
               "overlapping X and O cubes in " + quote(text));
  else
    FUZZ_CHECK((position.cubes(Color::X) & position.cubes(Color::O)) == 0,
               "overlapping team cubes in " + quote(text));

  // Every legal move's text parses to that move; nothing illegal is generated.
  const auto legal = position.legal_moves();
  FUZZ_CHECK(int(legal.size()) == position.legal_move_count(),
             "legal_moves and legal_move_count disagree in " + quote(text));
  FUZZ_CHECK(legal.size() == 0 || !position.is_game_over(),
             "moves in a finished game " + quote(text));
  for (const auto move : legal) {
    FUZZ_CHECK(position.is_legal(move), "generated move is not legal in " + quote(text));
    const std::string move_text = to_string(move);
    const auto parsed = parse_move(position, move_text);
    FUZZ_CHECK(parsed == move,
               "legal move " + quote(move_text) + " parses to another one in " + quote(text));
  }
}

template <class PositionT>
void play(PositionT position, const std::vector<std::string_view>& lines) {
  check_position(position);
  for (std::size_t i = 1; i < lines.size() && i < 64; ++i) {
    const std::string_view text = lines[i];
    bool is_legal_text = false;
    for (const auto move : position.legal_moves()) is_legal_text |= to_string(move) == text;
    try {
      const auto move = parse_move(position, text);
      FUZZ_CHECK(position.is_legal(move), "parse_move accepted the illegal " + quote(text) +
                                              " in " + quote(to_string(position)));
      FUZZ_CHECK(to_string(move) == text,
                 "move " + quote(text) + " formats as " + quote(to_string(move)));
      position = position.after(move);
      check_position(position);
    } catch (const NotationError& error) {
      FUZZ_CHECK(!is_legal_text, "the legal move " + quote(text) + " was refused in " +
                                     quote(to_string(position)) + ": " + error.what());
      FUZZ_CHECK(std::string(error.what()).size() > 0, "empty error message");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string_view> lines = fuzz::lines_of(fuzz::as_text(data, size));
  if (lines.empty()) return 0;
  const std::string_view text = lines[0];

  if (const auto square = parse_square(text)) {
    FUZZ_CHECK(*square >= 0 && *square < kSquareCount, "square out of range");
    FUZZ_CHECK(square_name(*square) == text, "square " + quote(text) + " round trip");
  }

  std::optional<Variant> variant;
  try {
    variant = variant_of(text);
  } catch (const NotationError&) {
  }
  std::optional<Position> two;
  std::optional<Position4> four;
  try {
    two = parse_position(text);
  } catch (const NotationError&) {
  }
  try {
    four = parse_position4(text);
  } catch (const NotationError&) {
  }
  FUZZ_CHECK(!(two && four), "both variants accept " + quote(text));
  if (two) {
    FUZZ_CHECK(variant == Variant::TwoPlayer, "variant_of disagrees for " + quote(text));
    play(*two, lines);
  }
  if (four) {
    FUZZ_CHECK(variant == Variant::FourPlayer, "variant_of disagrees for " + quote(text));
    play(*four, lines);
  }
  if (!two && !four) {
    // The moves are still parsed, against the start positions, so that move parsing is fuzzed
    // even when the position line is garbage.
    if (lines.size() > 1 && !lines[1].empty() && (lines[1].size() % 2) == 1)
      play(Position4::start(), lines);
    else
      play(Position::start(), lines);
  }
  return 0;
}
