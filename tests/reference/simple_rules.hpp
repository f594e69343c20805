// Simple reference implementation of the Quixo rules (two-player and four-player).
//
// Why this exists: it is an independent oracle that the tests use to cross-check the fast
// bitboard engine (move generation, move application, game outcome, perft, position notation).
// It deliberately shares no code with anything under engine/ and uses plain arrays and strings.
//
// Keep it SIMPLE and obviously correct. Do NOT optimise it and do not make it clever: its only
// value is that a reader can check it against docs/spec.md §1 to §3 and the rule
// sheet line by line. It is slow on purpose (perft depth 4 from the start takes seconds).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace quixo::reference {

// A board cell: '.' blank, 'x','o' (two-player), or four-player letters 'x' (X->seat1),
// 'X' (X->seat3), 'o' (O->seat2), 'O' (O->seat4).
struct SimplePosition {
  bool four_player = false;
  char cells[5][5];  // cells[rank][file], rank 0 = rank '1' (bottom), file 0 = 'a'
  int to_move = 0;   // two-player: 0 = X, 1 = O; four-player: seat 1..4
};

enum class SimpleOutcome { Ongoing, XWins, OWins };  // team A = X, team B = O in four-player

// The notation of docs/spec.md §3.3, with or without trailing move number; throws
// std::invalid_argument on any malformed input. Leading and trailing spaces are tolerated.
SimplePosition parse_position(const std::string& text);

// The notation of docs/spec.md §3.3 without move number, e.g. "5/5/5/5/5 x", "5/5/5/5/5 1".
std::string format_position(const SimplePosition& p);

// Result of the position as it stands, from the lines on the board and who is to move: a line of
// the side to move's symbol means the side to move wins (the previous mover made its opponent's
// line); otherwise a line of the other symbol means the other side wins; otherwise Ongoing.
SimpleOutcome outcome(const SimplePosition& p);

// "X wins", "O wins" or "ongoing": the words of the engine's notation, for comparing results.
std::string outcome_name(SimpleOutcome outcome);

// Move strings of docs/spec.md §3.2, e.g. "b1e1", four-player "b1e1X", pass "0000"; empty if the
// game is over; sorted ascending (std::sort on strings).
std::vector<std::string> legal_moves(const SimplePosition& p);

// Precondition: move is in legal_moves(p) (checked: throws std::invalid_argument otherwise).
SimplePosition apply_move(const SimplePosition& p, const std::string& move);

// Number of sequences of exactly `depth` legal moves from p; perft(p, 0) == 1.
std::uint64_t perft(const SimplePosition& p, int depth);

}  // namespace quixo::reference
