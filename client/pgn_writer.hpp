// PGN for Quixo games, readable by the rating tools of chess (Ordo, BayesElo, pgn-extract):
// the seven-tag roster with X as White and O as Black, the Quixo tags (Variant, FEN with the
// position string of docs/spec.md §3.3, SetUp, TimeControl, Termination, PlyCount), movetext with
// move numbers in the notation of docs/spec.md §3.2, the opening moves marked {book}, the
// engines' moves with comments {score/depth time} as cutechess writes them, e.g. {+0.35/9 0.120s}
// or {+M3/7 0.020s}, and the result.
//
// What format_pgn writes, in this order:
//   [Event] [Site] [Date] [Round] [White] [Black] [Result]   the roster; an empty field is written
//       as PGN's unknown value ("?", Date "????.??.??") and read back as empty
//   [Variant "quixo"] [SetUp "1"] [FEN "<start_position>"]
//       a four-player game: [Variant "quixo-4p"], the four-player FEN, then [Seating "per-seat"
//       or "per-team"] and [Seat1 ".."] .. [Seat4 ".."], the seats' engines; White and Black are
//       team A (X, seats 1 and 3) and team B, "name" or "seat1+seat3", so that rating tools read
//       the game as one between two teams, and the result is the team result (1-0: team A wins)
//   [TimeControl "<time_control>"]  X's control, as GameRecord holds it ("?" when empty); when
//       o_time_control is set also [WhiteTimeControl] (the same) and [BlackTimeControl]
//   [Termination "..."]  the PGN standard's value: "normal" (line, repetition), "adjudication"
//       (ply cap, resign/draw adjudication), "time forfeit", "rules infraction" (illegal move),
//       "abandoned" (crash, stall)
//   [QuixoTermination "<termination_name>"]  our exact reason, which parse_pgn reads
//   [Reason "<reason>"]  only when the reason is not empty
//   [PlyCount "<opening moves + engine moves>"]
//   [GameStartTime "2026-11-27T05:50:25 +0000"] [GameEndTime "..."] [GameDuration "00:01:05"]
//       when the record has them (the arena's games do), as fastchess writes them
// Tag values escape '"' and '\' with '\'; control characters (a tag is one line) become spaces.
// Movetext: "1. a1e1 {book} 1... e5a5 {+0.35/9 0.120s} 2. ..." numbered from the FEN's move
// number (docs/spec.md §3.3; 1 when it has none: "12..." first for "... o 12"), "N..." first when O
// is to move there; every O move restates its number because every move
// carries a comment. The teams alternate in the four-player game, so its plies are numbered the
// same way (team A's "N.", team B's "N..."), with moves like "b1e1X" and passes "0000". An engine
// comment is "[score[/depth] ]time": score in hundredths written as pawns with two decimals and a
// sign ("+0.35", "-1.20", "0.00"), a mate as "+M3"/"-M2" (a mate wins over a cp score when a record
// has both), "?" when only the depth is known; time in seconds with three decimals. Lines are
// wrapped at 80 columns; the result ends the movetext and a blank line follows. MoveRecord::nodes
// is not written, so parse_pgn leaves it nullopt.
#pragma once

#include <string>

#include "game_record.hpp"

namespace quixo::arena {

// Full: everything above. Min (`--pgn FILE min`, as cutechess's `-pgnout FILE min`): only what
// a reader needs to replay and classify the game (the roster, Variant, SetUp, FEN, the seats,
// Termination and QuixoTermination) and the moves without comments; parse_pgn reads it back.
enum class PgnStyle { Full, Min };

// The whole game as PGN text, ending with a blank line.
[[nodiscard]] std::string format_pgn(const GameRecord& game, PgnStyle style = PgnStyle::Full);

}  // namespace quixo::arena
