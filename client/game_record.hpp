// One finished game as the arena records it, two-player or four-player: who played, from where,
// every move with the engine's comment, the result and why the game ended. PGN and the results
// file are written from this. A four-player game is recorded as team A (X, seats 1 and 3) against
// team B (O, seats 2 and 4), so that everything that reads a two-player record reads it as a game
// between two sides; the four seats' engines come on top.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace quixo::arena {

// X moves first and is PGN's White; O is Black. In the four-player game X is team A.
// Unfinished is PGN's "*": a game saved while it goes on (quixo-gui); the arena finishes every game
// it plays, and its results file never holds one.
enum class GameResult { XWins, OWins, Draw, Unfinished };

// How the seats of a four-player game are filled (docs/spec.md §2): one engine process per seat,
// so that partners cannot confer, or one process per team answering for both of its seats.
enum class Seating { PerSeat, PerTeam };
// "per-seat", "per-team".
[[nodiscard]] std::string_view seating_name(Seating seating);
[[nodiscard]] std::optional<Seating> parse_seating(std::string_view name);

// Why a game ended. Each has a stable name (for PGN's Termination tag and the results file).
enum class Termination {
  Line,                // a line of five decided it (the opponent-line rule included)
  Repetition,          // threefold repetition: draw
  PlyCap,              // the ply cap was reached: draw
  TimeForfeit,         // the mover's reply came after its time (plus margin)
  IllegalMove,         // the mover sent an illegal or malformed move
  Crash,               // the mover's process exited, closed its output or could not start
  Stall,               // the mover did not answer (a `go` under node/depth limits, `isready`,
                       // the handshake) within the arena's generous wall-clock deadline
  ResignAdjudication,  // both engines' scores agreed one side is lost
  DrawAdjudication,    // both engines' scores stayed near zero long enough
  Tablebase,           // the position is in the endgame tables (--tb), which give the result
  Unterminated,        // the game goes on (result Unfinished)
};
// The number of Termination values (Unterminated is the last), for counts by ending.
inline constexpr std::size_t kTerminationCount =
    static_cast<std::size_t>(Termination::Unterminated) + 1;

// "line", "repetition", "ply cap", "time forfeit", "illegal move", "crash", "stall",
// "resign adjudication", "draw adjudication", "tablebase", "unterminated".
[[nodiscard]] std::string_view termination_name(Termination termination);
// The inverse of termination_name; nullopt for an unknown name.
[[nodiscard]] std::optional<Termination> parse_termination(std::string_view name);
// "1-0", "0-1", "1/2-1/2", "*".
[[nodiscard]] std::string_view result_text(GameResult result);
[[nodiscard]] std::optional<GameResult> parse_result_text(std::string_view text);

struct MoveRecord {
  std::string move;               // notation of docs/spec.md §3.2, e.g. "b1e1", "b1e1X", "0000"
  std::optional<int> score_cp;    // the mover's last reported score, its point of view
  std::optional<int> score_mate;  // moves to mate, negative when the mover is mated
  std::optional<int> depth;
  std::int64_t time_ms = 0;  // wall-clock time of the reply as the arena measured it
  std::optional<std::uint64_t> nodes;
  // A study's annotations (quixo-gui; the arena leaves them empty, and then the PGN is as
  // before): a comment written after the move, and the other moves tried instead of this one,
  // each a line of moves from the same position (PGN's "( ... )" after the move).
  std::string comment;
  std::vector<std::vector<MoveRecord>> variations;
  friend bool operator==(const MoveRecord&, const MoveRecord&) = default;
};

// The seats of a four-player game.
struct FourPlayerSeats {
  Seating seating = Seating::PerSeat;
  std::array<std::string, 4> names;  // the engine of seats 1..4 (A1, B1, A2, B2)
  friend bool operator==(const FourPlayerSeats&, const FourPlayerSeats&) = default;
};

struct GameRecord {
  std::string event = "quixo-arena";
  std::string site;
  std::string date;  // "YYYY.MM.DD", UTC, when the game started
  // When the game started and ended ("2026-11-27T05:50:25 +0000", UTC) and how long it took
  // ("00:01:05"), as fastchess and cutechess tag them; empty when not known.
  std::string start_time;
  std::string end_time;
  std::string duration;
  std::string round;           // e.g. "12" (game number in the tournament, from 1)
  std::string x_name;          // White (four players: team A, "name" or "seat1+seat3")
  std::string o_name;          // Black (four players: team B)
  std::string start_position;  // position string before the opening moves, "5/5/5/5/5 x"
  std::vector<std::string> opening_moves;  // book moves played before the engines took over
  std::vector<MoveRecord> moves;           // moves the engines played
  std::string time_control;  // TimeControl::to_string of X's control ("10+0.1", "nodes=1000")
  std::optional<std::string> o_time_control;   // when O's differs
  std::optional<FourPlayerSeats> four_player;  // set for (and only for) a four-player game
  GameResult result = GameResult::Draw;
  Termination termination = Termination::Repetition;
  std::string reason;  // a sentence: "O played an illegal move: a1b1 (...)"

  // A player's rating (PGN's WhiteElo, BlackElo): quixo-gui writes there the level an engine
  // played at (its UCI_Elo); none for full strength, a person or an unknown rating.
  std::optional<int> x_elo;
  std::optional<int> o_elo;
  friend bool operator==(const GameRecord&, const GameRecord&) = default;
};

}  // namespace quixo::arena
