// The messages between the page and quixo-gui (docs/gui-protocol.md), as typed values: requests
// parsed from the page's JSON (with a sentence for the page when one is malformed), and the
// server's messages formatted as JSON. Nothing here plays the game or drives the engines: the
// session gathers what a message says (for `state`, a StateMessage) and formats it here.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "gui_game.hpp"
#include "tb/value.hpp"
#include "uqi_client_messages.hpp"

namespace quixo::gui {

struct NewGameRequest {
  std::string variant;  // "2p" or "4p"
  std::vector<std::string> players;
  std::optional<std::string> time;
  std::optional<std::string> position;
  // Engines think on their opponent's time (`go ponder`), two-player games only.
  bool ponder = false;
  // The level of the game's engines: UCI_LimitStrength and this UCI_Elo; none: full strength.
  std::optional<int> elo;
  // The level is a default, not the person's choice: an engine without levels plays at full
  // strength, and an Elo outside an engine's range becomes the nearest it offers, without error.
  bool elo_if_offered = false;
};
struct MoveRequest {
  std::string move;
};
struct TakeBackRequest {};
struct GoToRequest {
  int ply = 0;
  std::optional<int> node;  // a node of the game's tree (wins over ply)
};
struct ThinkRequest {
  std::optional<std::string> engine;
};
struct StopRequest {};
struct AnalyzeRequest {
  bool on = false;
  std::optional<std::string> engine;
  int multipv = 1;
};
struct SetupRequest {
  std::string position;
};
struct SavePgnRequest {};
struct LoadPgnRequest {
  std::string text;
  // A part of a PGN too long for one message: more parts follow; the last has more = false.
  bool more = false;
  // The part's number, from 0; part 0 starts a new PGN (an unfinished one is dropped).
  int part = 0;
};
struct OpenGameRequest {
  int index = 0;
};
// Keeping the person's work: a saved game opened again, the list of saved games, the players of
// the game changed (analysis takes over a game), and the tree's comments and variations.
struct ResumeRequest {
  std::string game_id;
};
struct RecentGamesRequest {};
struct SetPlayersRequest {
  std::vector<std::string> players;
};
struct CommentRequest {
  int node = 0;
  std::string text;
};
struct PromoteRequest {
  int node = 0;
};
struct DeleteRequest {
  int node = 0;
};

// Whole-game analysis: every position of the current line, `movetime_ms` of the engine's time
// each where the tables do not reach; `on` false cancels it.
struct AnalyzeGameRequest {
  bool on = false;
  std::optional<std::string> engine;
  int movetime_ms = 1000;
};
// The positions along `moves` from the shown one (an analysis line to preview).
struct PreviewRequest {
  std::vector<std::string> moves;
};
// `moves` played from the shown position, as far as a person is to move.
struct PlayLineRequest {
  std::vector<std::string> moves;
};

// The options an engine declares, and the values the page set (answered by `engine_options`).
struct EngineOptionsRequest {
  std::string engine;
};
struct SetOptionRequest {
  std::string engine;
  std::string name;
  std::string value;
};
struct PauseRequest {
  bool on = false;
};
// A page of the loaded PGN's games, those whose White or Black contains `player` (without case)
// and whose result is `result`.
struct PgnListRequest {
  int offset = 0;
  int limit = 100;
  std::optional<std::string> player;
  std::optional<std::string> result;
};

using Request = std::variant<NewGameRequest, MoveRequest, TakeBackRequest, GoToRequest,
                             ThinkRequest, StopRequest, AnalyzeRequest, SetupRequest,
                             SavePgnRequest, LoadPgnRequest, OpenGameRequest, ResumeRequest,
                             RecentGamesRequest, SetPlayersRequest, CommentRequest, PromoteRequest,
                             DeleteRequest, AnalyzeGameRequest, PreviewRequest, PlayLineRequest,
                             EngineOptionsRequest, SetOptionRequest, PauseRequest, PgnListRequest>;

// The longest line `preview` and `play_line` take.
inline constexpr std::size_t kMaxLineMoves = 128;
// The engine's time per position in whole-game analysis, in milliseconds.
inline constexpr int kMinAnalysisMoveTimeMs = 10;
inline constexpr int kMaxAnalysisMoveTimeMs = 60'000;

// The request in `text`, or a sentence saying what is wrong with it (not JSON, not an object, an
// unknown type, a missing or mistyped field). Unknown fields are ignored.
struct ParsedRequest {
  std::optional<Request> request;
  std::string error;
};
ParsedRequest parse_request(std::string_view text);

// {"type":"error","message":...}
std::string format_error(std::string_view message);
// {"type":"warning","message":...}: the request was done, but something in it looks wrong.
std::string format_warning(std::string_view message);
// {"type":"engine_options","engine":...,"id":...,"options":[{"name","type","default","min","max",
// "vars","value"}]}: what the engine declares, with the value the page set (else null).
std::string format_engine_options(std::string_view engine, std::string_view id_name,
                                  const std::vector<uqi::OptionLine>& declared,
                                  const std::vector<std::pair<std::string, std::string>>& values);
// {"type":"info",...} for one `info` line of `engine`'s search of the position after `ply` moves;
// `purpose` is "move" or "analysis".
std::string format_info(const uqi::InfoLine& info, std::string_view engine,
                        std::string_view purpose, int ply);

// The parts of the `state` message that may be null.
struct StateClock {
  std::vector<std::int64_t> remaining_ms;  // per side or seat
  std::optional<int> running;              // the index of the clock that runs
};
struct StateThinking {
  std::string engine;
  bool analysis = false;  // "analysis", else "move"
};
struct StatePondering {
  std::string engine;
  std::string move;  // the reply it expects
};
struct StateAnalysis {
  bool on = false;
  std::string engine;
  int multipv = 1;
};
struct StateTbMove {
  std::string move;
  tb::TbValue value;  // of the position the move leads to, from the mover's point of view
};
struct StateTb {
  tb::TbValue value;  // the side to move's
  std::vector<StateTbMove> moves;
};

// Everything a `state` message says, as the session gathers it after a change. The spans point
// into the session's game, which must outlive the call to format_state.
struct StateMessage {
  Variant variant = Variant::TwoPlayer;
  std::span<const std::string> players;  // 2p: X, O; 4p: seats 1..4
  std::optional<std::string> time;       // the time control's text
  std::string start;                     // the game's first position
  std::span<const GuiMove> moves;
  int ply = 0;                      // the shown position is after this many moves
  std::string game_id;              // the saved game's id ("" when games are not saved)
  std::span<const int> line;        // the node of each position of `moves` (line[0]: the start)
  std::span<const GuiNode> nodes;   // the game's tree, for `tree`
  std::string position;             // the shown position
  std::string to_move;              // "x", "o" or the seat "1".."4" of the shown position
  std::optional<GuiResult> result;  // only where the game ended: at its last move
  bool human_to_move = false;
  std::vector<LegalMove> legal;  // every legal move of the shown position
  std::optional<StateClock> clock;
  std::optional<StateThinking> thinking;
  bool ponder = false;  // the game's ponder setting
  std::optional<StatePondering> pondering;
  StateAnalysis analysis;
  std::optional<StateTb> tb;  // the tables' values of the shown position, when they have them
  std::span<const std::optional<int>> levels;  // per player: the UCI_Elo it plays at, or none
  std::span<const std::string> names;          // a loaded game's players as its file names them
  bool paused = false;
};

// {"type":"state",...}: every field present, null where the message has nothing.
std::string format_state(const StateMessage& state);

// Whole-game analysis's progress: `done` of `total` positions have their value.
struct GameAnalysisProgress {
  bool running = false;
  int done = 0;
  int total = 0;
  std::string engine;  // "" when only the tables are used
  int movetime_ms = 0;
  bool cancelled = false;  // ended before the last position
};
// {"type":"game_analysis",...}
std::string format_game_analysis(const GameAnalysisProgress& progress);
// {"type":"preview","ply":P,"moves":[...],"positions":[...]}: positions[i] is after moves[0..i].
std::string format_preview(int ply, std::span<const std::string> moves,
                           std::span<const std::string> positions);

}  // namespace quixo::gui
