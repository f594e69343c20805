// Simple reference implementation of the Quixo rules. See simple_rules.hpp for why it exists.
// Everything here is written for clarity, not speed. Please keep it that way.
#include "simple_rules.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace quixo::reference {

namespace {

struct Square {
  int rank;  // 0 = rank '1' (bottom) .. 4 = rank '5' (top)
  int file;  // 0 = file 'a' (left) .. 4 = file 'e' (right)
};

bool same_square(Square a, Square b) {
  return a.rank == b.rank && a.file == b.file;
}

// The 16 periphery squares: rank 1, rank 5, file a, file e.
bool is_border(Square s) {
  return s.rank == 0 || s.rank == 4 || s.file == 0 || s.file == 4;
}

// The symbol a cell shows, whatever its point: '.', 'x' or 'o'.
char symbol_of(char cell) {
  if (cell == 'x' || cell == 'X') return 'x';
  if (cell == 'o' || cell == 'O') return 'o';
  return '.';
}

char other_symbol(char symbol) {
  return symbol == 'x' ? 'o' : 'x';
}

// The symbol of the side (two-player) or team (four-player) to move: 'x' or 'o'.
char mover_symbol(const SimplePosition& p) {
  if (!p.four_player) return p.to_move == 0 ? 'x' : 'o';
  return (p.to_move == 1 || p.to_move == 3) ? 'x' : 'o';
}

// Four-player: the letter of a cube of this seat's team symbol pointing to this seat.
char letter_pointing_to_seat(int seat) {
  switch (seat) {
    case 1:
      return 'x';
    case 2:
      return 'o';
    case 3:
      return 'X';
    case 4:
      return 'O';
  }
  throw std::invalid_argument("bad seat");
}

// Four-player: the seat of the same team facing this one.
int partner_seat(int seat) {
  return seat <= 2 ? seat + 2 : seat - 2;
}

int next_to_move(const SimplePosition& p) {
  if (!p.four_player) return p.to_move == 0 ? 1 : 0;  // X -> O -> X
  return p.to_move == 4 ? 1 : p.to_move + 1;          // 1 -> 2 -> 3 -> 4 -> 1
}

// May the side/seat to move take a cube showing `cell`?
bool may_take(const SimplePosition& p, char cell) {
  if (cell == '.') return true;
  if (!p.four_player) return cell == mover_symbol(p);
  return cell == letter_pointing_to_seat(p.to_move);
}

// Does the board hold a line of 5 (rank, file or long diagonal) of `symbol` ('x' or 'o')?
bool has_line(const SimplePosition& p, char symbol) {
  for (int rank = 0; rank < 5; ++rank) {
    bool all = true;
    for (int file = 0; file < 5; ++file) {
      if (symbol_of(p.cells[rank][file]) != symbol) all = false;
    }
    if (all) return true;
  }
  for (int file = 0; file < 5; ++file) {
    bool all = true;
    for (int rank = 0; rank < 5; ++rank) {
      if (symbol_of(p.cells[rank][file]) != symbol) all = false;
    }
    if (all) return true;
  }
  bool diagonal = true;       // a1 b2 c3 d4 e5
  bool anti_diagonal = true;  // a5 b4 c3 d2 e1
  for (int i = 0; i < 5; ++i) {
    if (symbol_of(p.cells[i][i]) != symbol) diagonal = false;
    if (symbol_of(p.cells[4 - i][i]) != symbol) anti_diagonal = false;
  }
  return diagonal || anti_diagonal;
}

// Where a cube taken from `from` may be pushed back in: the two ends of its rank (files a and e)
// and the two ends of its file (ranks 1 and 5), except the square it was taken from.
std::vector<Square> destinations(Square from) {
  const Square ends[4] = {
      {from.rank, 0},  // left end of the rank
      {from.rank, 4},  // right end of the rank
      {0, from.file},  // bottom end of the file
      {4, from.file},  // top end of the file
  };
  std::vector<Square> result;
  for (Square end : ends) {
    if (same_square(end, from)) continue;
    bool already = false;
    for (Square seen : result) {
      if (same_square(seen, end)) already = true;
    }
    if (!already) result.push_back(end);
  }
  return result;
}

std::string square_name(Square s) {
  std::string name;
  name += static_cast<char>('a' + s.file);
  name += static_cast<char>('1' + s.rank);
  return name;
}

Square parse_square(char file_char, char rank_char) {
  if (file_char < 'a' || file_char > 'e' || rank_char < '1' || rank_char > '5') {
    throw std::invalid_argument("bad square in move");
  }
  return Square{rank_char - '1', file_char - 'a'};
}

// Take the cube at `from`, slide the cubes between the hole and `to` one step toward the hole,
// and put `placed` on `to`. `to` is on the same rank or the same file as `from`.
void push(char cells[5][5], Square from, Square to, char placed) {
  if (from.rank == to.rank) {
    const int r = from.rank;
    const int step = to.file > from.file ? 1 : -1;
    for (int f = from.file; f != to.file; f += step) cells[r][f] = cells[r][f + step];
  } else {
    const int f = from.file;
    const int step = to.rank > from.rank ? 1 : -1;
    for (int r = from.rank; r != to.rank; r += step) cells[r][f] = cells[r + step][f];
  }
  cells[to.rank][to.file] = placed;
}

// Applies a move string without checking that it is legal (used by perft, whose moves come
// straight from legal_moves).
SimplePosition apply_unchecked(const SimplePosition& p, const std::string& move) {
  SimplePosition next = p;
  next.to_move = next_to_move(p);
  if (move == "0000") return next;  // four-player pass: board unchanged
  const Square from = parse_square(move[0], move[1]);
  const Square to = parse_square(move[2], move[3]);
  const char placed = p.four_player ? move[4] : mover_symbol(p);
  push(next.cells, from, to, placed);
  return next;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string current;
  for (char c : text) {
    if (c == separator) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(current);
  return parts;
}

[[noreturn]] void malformed(const std::string& text, const std::string& why) {
  throw std::invalid_argument("malformed position \"" + text + "\": " + why);
}

}  // namespace

SimplePosition parse_position(const std::string& text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string::npos) malformed(text, "empty");
  const std::size_t last = text.find_last_not_of(' ');
  const std::string trimmed = text.substr(first, last - first + 1);

  // Fields are separated by exactly one space: board, side to move, optional move number.
  const std::vector<std::string> fields = split(trimmed, ' ');
  if (fields.size() != 2 && fields.size() != 3) malformed(text, "expected 2 or 3 fields");
  for (const std::string& field : fields) {
    if (field.empty()) malformed(text, "empty field (double space?)");
  }

  SimplePosition p;
  const std::string& side = fields[1];
  if (side == "x" || side == "o") {
    p.four_player = false;
    p.to_move = side == "x" ? 0 : 1;
  } else if (side == "1" || side == "2" || side == "3" || side == "4") {
    p.four_player = true;
    p.to_move = side[0] - '0';
  } else {
    malformed(text, "bad side to move");
  }
  const std::string letters = p.four_player ? "xXoO" : "xo";

  const std::vector<std::string> rank_texts = split(fields[0], '/');
  if (rank_texts.size() != 5) malformed(text, "expected 5 ranks");
  for (int i = 0; i < 5; ++i) {
    const int rank = 4 - i;  // the string lists rank 5 first
    int file = 0;
    for (char c : rank_texts[i]) {
      if (c >= '1' && c <= '5') {
        const int blanks = c - '0';
        if (file + blanks > 5) malformed(text, "rank too long");
        for (int k = 0; k < blanks; ++k) p.cells[rank][file++] = '.';
      } else if (letters.find(c) != std::string::npos) {
        if (file + 1 > 5) malformed(text, "rank too long");
        p.cells[rank][file++] = c;
      } else {
        malformed(text, std::string("bad character '") + c + "' in board");
      }
    }
    if (file != 5) malformed(text, "rank too short");
  }

  if (fields.size() == 3) {
    const std::string& number = fields[2];
    for (char c : number) {
      if (c < '0' || c > '9') malformed(text, "move number is not a number");
    }
    if (number[0] == '0') malformed(text, "move number must be positive, no leading zero");
  }
  return p;
}

std::string format_position(const SimplePosition& p) {
  std::string text;
  for (int rank = 4; rank >= 0; --rank) {
    int blanks = 0;
    for (int file = 0; file < 5; ++file) {
      const char cell = p.cells[rank][file];
      if (cell == '.') {
        ++blanks;
      } else {
        if (blanks > 0) text += static_cast<char>('0' + blanks);
        blanks = 0;
        text += cell;
      }
    }
    if (blanks > 0) text += static_cast<char>('0' + blanks);
    if (rank > 0) text += '/';
  }
  text += ' ';
  if (p.four_player) {
    text += static_cast<char>('0' + p.to_move);
  } else {
    text += p.to_move == 0 ? 'x' : 'o';
  }
  return text;
}

SimpleOutcome outcome(const SimplePosition& p) {
  const char to_move_symbol = mover_symbol(p);                  // side whose turn it is now
  const char just_moved_symbol = other_symbol(to_move_symbol);  // side that made the last move
  auto wins = [](char symbol) {
    return symbol == 'x' ? SimpleOutcome::XWins : SimpleOutcome::OWins;
  };
  // The last mover made its opponent's line (perhaps with its own too): the last mover loses.
  if (has_line(p, to_move_symbol)) return wins(to_move_symbol);
  // Otherwise a line of the last mover's symbol wins for the last mover.
  if (has_line(p, just_moved_symbol)) return wins(just_moved_symbol);
  return SimpleOutcome::Ongoing;
}

std::string outcome_name(SimpleOutcome outcome) {
  switch (outcome) {
    case SimpleOutcome::XWins:
      return "X wins";
    case SimpleOutcome::OWins:
      return "O wins";
    case SimpleOutcome::Ongoing:
      break;
  }
  return "ongoing";
}

std::vector<std::string> legal_moves(const SimplePosition& p) {
  std::vector<std::string> moves;
  if (outcome(p) != SimpleOutcome::Ongoing) return moves;

  for (int rank = 0; rank < 5; ++rank) {
    for (int file = 0; file < 5; ++file) {
      const Square from{rank, file};
      if (!is_border(from)) continue;
      if (!may_take(p, p.cells[rank][file])) continue;
      for (Square to : destinations(from)) {
        const std::string base = square_name(from) + square_name(to);
        if (!p.four_player) {
          moves.push_back(base);
        } else {
          // The placed cube points to the mover or to the mover's partner.
          moves.push_back(base + letter_pointing_to_seat(p.to_move));
          moves.push_back(base + letter_pointing_to_seat(partner_seat(p.to_move)));
        }
      }
    }
  }
  // Four-player: a seat with no cube it may take passes. (Two-player: cannot happen in a real
  // game; a set-up position without moves simply has no moves.)
  if (p.four_player && moves.empty()) moves.push_back("0000");

  std::sort(moves.begin(), moves.end());
  return moves;
}

SimplePosition apply_move(const SimplePosition& p, const std::string& move) {
  const std::vector<std::string> moves = legal_moves(p);
  if (std::find(moves.begin(), moves.end(), move) == moves.end()) {
    throw std::invalid_argument("illegal move \"" + move + "\" in " + format_position(p));
  }
  return apply_unchecked(p, move);
}

std::uint64_t perft(const SimplePosition& p, int depth) {
  if (depth <= 0) return 1;
  std::uint64_t count = 0;
  for (const std::string& move : legal_moves(p)) {
    count += perft(apply_unchecked(p, move), depth - 1);
  }
  return count;
}

}  // namespace quixo::reference
