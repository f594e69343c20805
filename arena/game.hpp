// One two-player game between two engine clients: the arena keeps both clocks from the wall-clock
// time of each reply, checks every move with the rules core, and ends the game on a line,
// threefold repetition, the ply cap, a time forfeit, an illegal or malformed move, a crash, a
// stall, or a resign/draw adjudication from both engines' scores. Every ending is recorded with
// its reason; nothing an engine does can make play_game throw or hang.
#pragma once

#include <atomic>

#include "engine_client.hpp"
#include "game_setup.hpp"

namespace quixo::arena {

// Plays one game. An engine that is not running is started first (a crashed engine is restarted
// for its next game); one that cannot start or answer loses the game (crash or stall). An engine
// that crashed, stalled or overran is left in a state in which alive() is false or it has been
// stopped, so the next game restarts it when needed. When `abort` becomes true play_game returns
// between moves with `aborted` set; such a game must not be counted. Throws NotationError for an
// opening that is not a legal two-player position; nothing an engine does makes it throw.
[[nodiscard]] GameOutcome play_game(const GameSetup& setup, EngineClient& x, EngineClient& o,
                                    const std::atomic<bool>* abort = nullptr);

}  // namespace quixo::arena
