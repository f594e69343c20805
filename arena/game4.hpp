// One four-player team game (docs/spec.md §2): seats 1..4, team A (seats 1 and 3) plays X, team B
// (seats 2 and 4) plays O. The seats are filled per seat (four engine processes, two of each
// team's engine, so partners cannot confer) or per team (one process per team answering for both
// of its seats). The arena keeps a clock for every seat and sends all four in each `go` (s1time ..
// s4time, s1inc .. s4inc), checks every move (passes and the point letter included) with the
// rules core, and ends the game as the two-player loop does: a line (a mover that makes the other
// team's line loses), repetition of the board, points and seat to move, the ply cap, a time
// forfeit, an illegal or malformed move, a crash, a stall, or a resign/draw adjudication from
// both teams' scores. Whatever a seat's engine does wrong loses the game for its team, and the
// reason names the seat and the engine. The record is team A (X, White) against team B (O,
// Black), with the four seats' engines beside.
#pragma once

#include <array>
#include <atomic>

#include "engine_client.hpp"
#include "game_setup.hpp"

namespace quixo::arena {

// The engine of each seat: seats[i] plays seat i + 1. Per seat: four distinct clients. Per team:
// seats[0] == seats[2] (team A's process) and seats[1] == seats[3] (team B's), two clients.
using SeatClients = std::array<EngineClient*, 4>;

// The seating that `seats` describes; throws std::invalid_argument when it is neither (a null
// client, partners sharing one client with the other team, ...).
Seating seating_of(const SeatClients& seats);

// Plays one four-player game from setup.opening (a four-player position), team A under
// setup.x_control and team B under setup.o_control. Engines are started, restarted and left
// behind as play_game does (game.hpp), per client; incidents.seat_started tells which seats'
// processes were (re)started. A scored pass counts for adjudication like any move; a pass
// without a score (a forced pass needs no search) is left out of it. Throws
// std::invalid_argument for a seating that is neither per seat nor per team and NotationError for
// an opening that is not a legal four-player position; nothing an engine does makes it throw.
[[nodiscard]] GameOutcome play_game4(const GameSetup& setup, const SeatClients& seats,
                                     const std::atomic<bool>* abort = nullptr);

}  // namespace quixo::arena
