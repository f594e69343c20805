#include "notation.hpp"

#include <array>
#include <vector>

#include "text_helpers.hpp"

namespace quixo {

namespace {

using text_helpers::quoted;

std::string quoted(char c) {
  return quoted(std::string_view(&c, 1));
}

// The fields of a position string, checked for form but not yet for the variant's letters.
struct PositionFields {
  std::string_view board;
  std::string_view side;
};

PositionFields split_position(std::string_view text) {
  const std::vector<std::string_view> tokens = text_helpers::tokenize(text);
  if (tokens.empty()) throw NotationError("empty position string");
  if (tokens.size() < 2)
    throw NotationError("position " + quoted(text) +
                        " has no side to move: expected a board and a side, e.g. '5/5/5/5/5 x'");
  if (tokens.size() > 3)
    throw NotationError("unexpected " + quoted(tokens[3]) + " after the position " + quoted(text));
  if (tokens.size() == 3) {
    const std::string_view number = tokens[2];
    bool digits_only = number.size() <= 9 && number[0] != '0';
    for (char c : number) digits_only = digits_only && c >= '0' && c <= '9';
    if (!digits_only)
      throw NotationError("bad move number " + quoted(number) +
                          ": expected a positive whole number");
  }
  return {tokens[0], tokens[1]};
}

Variant variant_of_side(std::string_view side) {
  if (side == "x" || side == "o") return Variant::TwoPlayer;
  if (side.size() == 1 && side[0] >= '1' && side[0] <= '4') return Variant::FourPlayer;
  throw NotationError("bad side to move " + quoted(side) +
                      ": expected 'x' or 'o' (two players) or a seat 1-4 (four players)");
}

// Cells of the board field, index = square, '.' for blank. `letters` are the cube letters the
// variant allows.
std::array<char, kSquareCount> parse_board(std::string_view board, std::string_view letters,
                                           std::string_view letter_hint) {
  std::vector<std::string_view> ranks;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= board.size(); ++i) {
    if (i == board.size() || board[i] == '/') {
      ranks.push_back(board.substr(start, i - start));
      start = i + 1;
    }
  }
  if (ranks.size() != kBoardSize)
    throw NotationError("expected 5 ranks separated by '/', found " + std::to_string(ranks.size()) +
                        " in " + quoted(board));
  std::array<char, kSquareCount> cells;
  cells.fill('.');
  for (int i = 0; i < kBoardSize; ++i) {
    const int rank = kBoardSize - 1 - i;  // the first field is rank 5
    const std::string_view text = ranks[i];
    const std::string rank_label = "rank " + std::to_string(rank + 1) + " (" + quoted(text) + ")";
    int file = 0;
    for (char c : text) {
      if (c >= '1' && c <= '5') {
        file += c - '0';
      } else if (c >= '0' && c <= '9') {
        throw NotationError("bad run length " + quoted(c) + " in " + rank_label +
                            ": runs of blank squares are 1 to 5");
      } else if (letters.find(c) != std::string_view::npos) {
        if (file < kBoardSize) cells[make_square(file, rank)] = c;
        ++file;
      } else {
        throw NotationError("bad character " + quoted(c) + " in " + rank_label + ": " +
                            std::string(letter_hint));
      }
      if (file > kBoardSize) throw NotationError(rank_label + " covers more than 5 squares");
    }
    if (file != kBoardSize)
      throw NotationError(rank_label + " covers " + std::to_string(file) + " squares, expected 5");
  }
  return cells;
}

template <class CellName>
std::string format_board(CellName cell_letter) {
  std::string out;
  for (int rank = kBoardSize - 1; rank >= 0; --rank) {
    int blanks = 0;
    for (int file = 0; file < kBoardSize; ++file) {
      const char letter = cell_letter(make_square(file, rank));
      if (letter == '.') {
        ++blanks;
        continue;
      }
      if (blanks > 0) out += char('0' + blanks);
      blanks = 0;
      out += letter;
    }
    if (blanks > 0) out += char('0' + blanks);
    if (rank > 0) out += '/';
  }
  return out;
}

struct MoveSquares {
  Square from;
  Square to;
};

// The from/to squares of a move text whose first four characters are squares.
MoveSquares parse_move_squares(std::string_view text) {
  const auto from = parse_square(text.substr(0, 2));
  if (!from)
    throw NotationError("bad square " + quoted(text.substr(0, 2)) + " in move " + quoted(text));
  const auto to = parse_square(text.substr(2, 2));
  if (!to)
    throw NotationError("bad square " + quoted(text.substr(2, 2)) + " in move " + quoted(text));
  return {*from, *to};
}

// The slide for from/to, or the reason that geometry can never be a move.
SlideIndex checked_slide(MoveSquares squares) {
  const auto [from, to] = squares;
  if (!is_border(from))
    throw NotationError(square_name(from) +
                        " is not a border square: only border cubes can be taken");
  if (from == to)
    throw NotationError("a cube may not be pushed back in on " + square_name(from) +
                        ", the square it was taken from");
  const int index = slide_index(from, to);
  if (index < 0) {
    std::string ends;
    const int first = kSlideTables.first[from];
    for (int i = first; i < first + kSlideTables.count[from]; ++i)
      ends += (ends.empty() ? "" : ", ") + square_name(kSlides[i].to);
    throw NotationError(square_name(to) + " is not an end of the rank or file of " +
                        square_name(from) + " (it can go to " + ends + ")");
  }
  return SlideIndex(index);
}

void reject_if_over(Outcome outcome) {
  if (outcome != Outcome::Ongoing)
    throw NotationError("no move is legal: the game is over (" + to_string(outcome) + ")");
}

char color_letter(Color color) {
  return color == Color::X ? 'X' : 'O';
}

}  // namespace

std::string square_name(Square square) {
  if (square < 0 || square >= kSquareCount) return "??";
  return {char('a' + file_of(square)), char('1' + rank_of(square))};
}

std::optional<Square> parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'e' || text[1] < '1' || text[1] > '5')
    return std::nullopt;
  return make_square(text[0] - 'a', text[1] - '1');
}

Variant variant_of(std::string_view position_text) {
  return variant_of_side(split_position(position_text).side);
}

Position parse_position(std::string_view text) {
  const PositionFields fields = split_position(text);
  if (variant_of_side(fields.side) != Variant::TwoPlayer)
    throw NotationError(quoted(text) +
                        " is a four-player position (its side to move is a seat number)");
  const auto cells = parse_board(fields.board, "xo", "two-player cubes are 'x' and 'o'");
  Bitboard x = 0, o = 0;
  for (Square square = 0; square < kSquareCount; ++square) {
    if (cells[square] == 'x') x |= square_bb(square);
    if (cells[square] == 'o') o |= square_bb(square);
  }
  return Position(x, o, fields.side == "x" ? Color::X : Color::O);
}

Position4 parse_position4(std::string_view text) {
  const PositionFields fields = split_position(text);
  if (variant_of_side(fields.side) != Variant::FourPlayer)
    throw NotationError(quoted(text) +
                        " is a two-player position (its side to move is 'x' or 'o')");
  const auto cells = parse_board(fields.board, "xoXO",
                                 "four-player cubes are 'x' (X to seat 1), 'o' (O to seat 2), "
                                 "'X' (X to seat 3) and 'O' (O to seat 4)");
  Bitboard by_point[kSeatCount] = {0, 0, 0, 0};
  for (Square square = 0; square < kSquareCount; ++square)
    for (Seat seat = 0; seat < kSeatCount; ++seat)
      if (cells[square] == cube_letter(seat)) by_point[seat] |= square_bb(square);
  return Position4(by_point, fields.side[0] - '1');
}

std::string to_string(const Position& position) {
  const std::string board = format_board([&](Square square) {
    if (position.cubes(Color::X) & square_bb(square)) return 'x';
    if (position.cubes(Color::O) & square_bb(square)) return 'o';
    return '.';
  });
  return board + (position.side_to_move() == Color::X ? " x" : " o");
}

std::string to_string(const Position4& position) {
  const std::string board = format_board([&](Square square) {
    for (Seat seat = 0; seat < kSeatCount; ++seat)
      if (position.cubes_pointing_to(seat) & square_bb(square)) return cube_letter(seat);
    return '.';
  });
  return board + ' ' + char('1' + position.seat_to_move());
}

char cube_letter(Seat point) {
  constexpr char kLetters[kSeatCount] = {'x', 'o', 'X', 'O'};
  return kLetters[point & 3];
}

std::string to_string(Move move) {
  if (move.is_none()) return "(none)";
  return square_name(move.from()) + square_name(move.to());
}

std::string to_string(Move4 move) {
  if (move.is_none()) return "(none)";
  if (move.is_pass()) return "0000";
  return square_name(move.from()) + square_name(move.to()) + cube_letter(move.point());
}

std::string to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::XWins:
      return "X wins";
    case Outcome::OWins:
      return "O wins";
    case Outcome::Ongoing:
      break;
  }
  return "ongoing";
}

Move parse_move(const Position& position, std::string_view text) {
  if (text == "0000") throw NotationError("the pass '0000' exists only in the four-player game");
  if (text.size() == 5 && parse_square(text.substr(0, 2)) && parse_square(text.substr(2, 2)))
    throw NotationError("move " + quoted(text) +
                        " carries a cube letter: two-player moves are four characters like 'b1e1'");
  if (text.size() != 4)
    throw NotationError("bad move " + quoted(text) + ": a move is four characters like 'b1e1'");
  const MoveSquares squares = parse_move_squares(text);
  reject_if_over(position.outcome());
  const Move move(checked_slide(squares));
  const Color mover = position.side_to_move();
  if (position.cubes(~mover) & square_bb(squares.from))
    throw NotationError(square_name(squares.from) + " holds an " + color_letter(~mover) +
                        " cube: " + color_letter(mover) + " may not take the opponent's cube");
  return move;
}

Move4 parse_move(const Position4& position, std::string_view text) {
  const Seat seat = position.seat_to_move();
  const std::string seat_label = "seat " + std::to_string(seat + 1);
  if (text == "0000") {
    reject_if_over(position.outcome());
    const Bitboard takeable = position.takeable();
    if (takeable != 0)
      throw NotationError("the pass '0000' is not legal: " + seat_label +
                          " has a cube it may take (" + square_name(std::countr_zero(takeable)) +
                          ")");
    return Move4::pass();
  }
  if (text.size() == 4 && parse_square(text.substr(0, 2)) && parse_square(text.substr(2, 2)))
    throw NotationError("four-player move " + quoted(text) +
                        " needs the placed cube's letter, e.g. '" + std::string(text) +
                        cube_letter(seat) + "'");
  if (text.size() != 5)
    throw NotationError("bad move " + quoted(text) +
                        ": a four-player move is two squares and a cube letter like 'b1e1x', or "
                        "the pass '0000'");
  const MoveSquares squares = parse_move_squares(text);
  const char letter = text[4];
  Seat point = -1;
  for (Seat s = 0; s < kSeatCount; ++s)
    if (cube_letter(s) == letter) point = s;
  if (point < 0)
    throw NotationError("bad cube letter " + quoted(letter) + " in move " + quoted(text) +
                        ": expected x, o, X or O");
  reject_if_over(position.outcome());
  const SlideIndex slide = checked_slide(squares);
  const Color team = team_of(seat);
  if (team_of(point) != team)
    throw NotationError(seat_label + " plays " + color_letter(team) +
                        ": the placed cube must point to seat " + std::to_string(seat + 1) +
                        " or " + std::to_string(partner_of(seat) + 1) + " ('" + cube_letter(seat) +
                        "' or '" + cube_letter(partner_of(seat)) + "'), not '" + letter + "'");
  const Bitboard from_bb = square_bb(squares.from);
  if (position.cubes(~team) & from_bb)
    throw NotationError(square_name(squares.from) + " holds an " + color_letter(~team) +
                        " cube: " + seat_label + " may not take the other team's cube");
  if (position.cubes_pointing_to(partner_of(seat)) & from_bb)
    throw NotationError(square_name(squares.from) + " holds a cube pointing to seat " +
                        std::to_string(partner_of(seat) + 1) + ": " + seat_label +
                        " may not take it");
  return Move4(slide, point);
}

}  // namespace quixo
