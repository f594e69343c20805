// The game a quixo-gui session shows: the players of each side or seat, the moves with what the
// engines said about them, the position shown (any ply of the game), the result and the clocks.
// It has no engines and no network in it: the session feeds it moves and reads it back, and every
// move is checked by the rules core (through the arena's Game, so both variants are one
// type).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.hpp"
#include "game_record.hpp"
#include "move_analysis.hpp"
#include "time_control.hpp"

namespace quixo::gui {

using arena::GameResult;
using arena::Termination;
using SteadyTime = std::chrono::steady_clock::time_point;

inline constexpr std::string_view kHuman = "human";

struct GuiMove {
  std::string move;      // notation of docs/spec.md §3.2, canonical
  std::string by;        // "human" or the engine's name
  std::string position;  // after the move, without a move number
  std::int64_t time_ms = 0;
  std::optional<int> score_cp;  // the mover's view, as its engine reported it
  std::optional<int> score_mate;
  std::optional<int> depth;
  std::optional<MoveAnalysis> analysis;  // whole-game analysis, once it has reached this move
};

// A move's details before it is played: only who makes it.
inline GuiMove move_by(std::string_view by) {
  GuiMove move;
  move.by = std::string(by);
  return move;
}

struct GuiResult {
  GameResult result = GameResult::Draw;
  Termination termination = Termination::Line;
  std::string reason;  // a sentence for the page: "X makes five in a row"
};

// One position of the game's tree: the start (node 0) or the position after a move. The first
// child is the main continuation, the others are variations (alternatives to it).
struct GuiNode {
  int parent = -1;  // -1 for the start
  std::vector<int> children;
  GuiMove move;  // the move that led here (empty for the start)
  Game position;
  std::string comment;              // a person's comment after the move
  std::optional<GuiResult> result;  // how the game ended here, when it did
  bool removed = false;             // deleted with its variation (ids stay stable)
};

// A legal move of the shown position, as the page draws it.
struct LegalMove {
  std::string move;                  // "b1e1", "b1e1X", "0000"
  std::optional<std::string> from;   // none for a pass
  std::optional<std::string> to;     // none for a pass
  std::optional<std::string> point;  // four players: the placed cube's letter
};

class GuiGame {
 public:
  // A game of `variant` from `start` (the variant's start position when empty) between
  // `players` (2 for the two-player game, X then O; 4 for seats 1..4), each "human" or an engine
  // name, with an optional clock shared by every side. Throws NotationError for a bad position
  // and std::invalid_argument for a wrong number of players or a position of the other variant.
  GuiGame(Variant variant, std::vector<std::string> players,
          std::optional<arena::TimeControl> time_control = std::nullopt,
          std::string_view start = {}, SteadyTime now = std::chrono::steady_clock::now());
  GuiGame() : GuiGame(Variant::TwoPlayer, {std::string(kHuman), std::string(kHuman)}) {}

  Variant variant() const { return start_.variant(); }
  const std::vector<std::string>& players() const { return players_; }
  const std::optional<arena::TimeControl>& time_control() const { return time_control_; }
  const Game& start() const { return start_; }
  // The current line: from the start through the shown position to the end of the line it is on
  // (after the shown node, the main continuation of each position). moves()[i] is the move of
  // line()[i + 1]; line()[0] is the start (node 0).
  const std::vector<GuiMove>& moves() const { return moves_; }
  const std::vector<int>& line() const { return line_; }
  // Every position of the game, by node id (removed ones included, flagged `removed`).
  const std::vector<GuiNode>& nodes() const { return nodes_; }
  // The shown node's id.
  int node() const { return line_[static_cast<std::size_t>(ply_)]; }
  int ply() const { return ply_; }
  int length() const { return static_cast<int>(moves_.size()); }
  bool at_end() const { return ply_ == length(); }
  // The result of the current line as played to its last move.
  const std::optional<GuiResult>& result() const {
    return nodes_[static_cast<std::size_t>(line_.back())].result;
  }
  const Game& shown() const { return nodes_[static_cast<std::size_t>(node())].position; }

  // The index in players() of whoever moves in the shown position (0/1 for X/O, 0..3 seats).
  int mover_index() const { return mover_index_at(ply_); }
  const std::string& mover() const { return players_[static_cast<std::size_t>(mover_index())]; }
  // Whether a person may move in the shown position now: it is a person's turn there and the
  // game is not over at that point (an earlier position always may be left by a new line).
  bool human_to_move() const;
  // Whether an engine should be playing now: at the last position, game on, its turn.
  bool engine_to_move() const;

  std::vector<LegalMove> legal_moves() const;

  // Plays `text` in the shown position (checked by the rules; throws NotationError and changes
  // nothing when it is not legal). From an earlier position of the line the move starts a
  // variation (the moves after the shown position stay in the tree), or follows the one that
  // already has this move. Runs the mover's clock, and ends the game on a line, a repetition or
  // a flag.
  void play(std::string_view text, GuiMove details, SteadyTime now);
  // Adds `text` after node `parent` (checked by the rules, throws NotationError) without showing
  // it or running a clock: a variation read from a PGN or a saved game. A move that `parent`
  // has already gives that node. Returns the node's id.
  int add_move(int parent, std::string_view text, GuiMove details);
  // Shows node `id` (throws std::out_of_range for no such node): on the current line, as go_to;
  // elsewhere its line becomes the current line.
  void go_to_node(int id, SteadyTime now);
  // The line through node `id` becomes the main line (each of its positions the first
  // continuation of the one before); throws std::out_of_range for no such node.
  void promote(int id);
  // Deletes node `id` (not the start) and every position after it; the shown position moves to
  // its parent when it was among them.
  void remove(int id, SteadyTime now);
  void set_comment(int id, std::string comment);
  // Other players for the same game (the analysis mode takes over a game as all-human); throws
  // std::invalid_argument for a wrong number of players.
  void set_players(std::vector<std::string> players);
  // How the game ended at node `id` (a saved game's forfeit or adjudication).
  void set_result(int id, std::optional<GuiResult> result);
  // A saved game's clocks: each one's time left and moves left in its period; the clock of the
  // side to move runs from `now` when the end of the line is shown.
  void restore_clocks(const std::vector<std::int64_t>& remaining_ms,
                      const std::vector<int>& moves_to_go, SteadyTime now);
  const std::vector<arena::Clock>& clocks() const { return clocks_; }
  // Whole-game analysis of the move that made ply `index` + 1 of the current line; throws
  // std::out_of_range.
  void set_analysis(int index, std::optional<MoveAnalysis> analysis);
  // Ends the game (an engine's illegal move or crash, a flag seen by tick()).
  void finish(GuiResult result);
  // The shown ply becomes `ply` (0..length()); throws std::out_of_range.
  void go_to(int ply, SteadyTime now);
  // Back one ply, or, when `to_human_turn`, back to the last position before the end where a
  // person was to move; false when there is nothing to take back. Drops the moves taken back.
  bool take_back(bool to_human_turn, SteadyTime now);

  // A paused game (an engine-vs-engine game the person holds): its clocks stand still, no one
  // moves (engine_to_move() and human_to_move() are false) until resume(); looking back and
  // analysis go on. Resuming gives the mover back the rest of its turn, as it was at the pause.
  void pause(SteadyTime now);
  void resume(SteadyTime now);
  bool paused() const { return paused_; }

  // Clocks (only with a game clock): each side's or seat's time left now, and whose runs.
  bool has_clock() const;
  std::vector<std::int64_t> remaining_ms(SteadyTime now) const;
  std::optional<int> running_clock() const;
  // Flags the running clock when it has run out; true when that ended the game.
  bool tick(SteadyTime now);
  // The `go` limits of the mover (a clock, the fixed control, or `st=1` without a control) and
  // every clock, for the engine of the shown position.
  uqi::GoLimits own_limits(SteadyTime now) const { return limits_of(mover_index(), now); }
  // The same for any player (an engine that ponders while its opponent is to move).
  uqi::GoLimits limits_of(int player, SteadyTime now) const;
  std::vector<uqi::GoLimits> clock_limits(SteadyTime now) const;

  // The level each player plays at (UCI_Elo; none: full strength or a person), per player as
  // players(); the PGN's WhiteElo/BlackElo. All none until set.
  const std::vector<std::optional<int>>& levels() const { return levels_; }
  void set_levels(std::vector<std::optional<int>> levels);
  // A game read from a PGN names its players as the file does (its engines, now played by
  // people on the page): per player as players(), empty for a new game.
  const std::vector<std::string>& names() const { return names_; }
  // The tags record() starts from (without the start, moves and result: the game's): a game read
  // from a PGN (`loaded`) keeps the file's, players and time control included; a new game has only
  // its event and date, the players and the levels being its own. set_tags gives a saved game back
  // its tags (names() then follow a loaded game's players).
  const arena::GameRecord& tags() const { return tags_; }
  bool loaded() const { return loaded_; }
  void set_tags(arena::GameRecord tags, bool loaded);

  // The game as the arena records it, for the PGN: a finished game as it ended; an unfinished one
  // with the result "*" (GameResult::Unfinished, Termination::Unterminated). A game read from a
  // PGN keeps the file's tags (event, site, date, round, players, times); a new one is the event
  // "quixo-gui" of the day it started (UTC). A move that whole-game analysis marked has the mark
  // in its comment (mark_comment: "?? blunder, best b1e1"), after the person's, once: a comment
  // read back from a PGN that already ends with it is not marked again.
  arena::GameRecord record() const;
  // A game read from a PGN, every player human, shown at its start.
  static GuiGame from_record(const arena::GameRecord& game);

 private:
  int mover_index_at(int ply) const;
  void restart_clock(SteadyTime now);
  void check_ending();
  // The line from the start to node `end`, then on along the main continuations.
  void set_line(int end);
  int depth(int id) const;
  const GuiNode& checked_node(int id) const;
  // Looking away from the end of the line pauses the game: the time so far is charged.
  void pause_clock(SteadyTime now);
  std::optional<GuiResult> ending_at(int id) const;
  void add_variations(int parent, const std::vector<std::vector<arena::MoveRecord>>& lines);
  std::vector<std::vector<arena::MoveRecord>> record_variations(int parent, int skip) const;
  arena::MoveRecord record_move(int id) const;
  // `now` as the clocks see it: the moment of the pause while paused.
  SteadyTime clock_now(SteadyTime now) const { return paused_ ? paused_at_ : now; }

  Game start_;
  std::vector<std::string> players_;
  std::optional<arena::TimeControl> time_control_;
  std::vector<GuiNode> nodes_;  // nodes_[0]: the start
  std::vector<int> line_;       // line_[i]: the node after i moves of the current line
  std::vector<GuiMove> moves_;  // the moves of line_
  int ply_ = 0;
  // Game clocks: with a clock control, one per player, and the running one's start.
  std::vector<arena::Clock> clocks_;
  std::optional<int> running_;
  SteadyTime turn_started_{};
  bool paused_ = false;
  SteadyTime paused_at_{};
  std::vector<std::optional<int>> levels_;
  std::vector<std::string> names_;
  // The tags record() starts from (no moves): a loaded game's, or a new game's event and date.
  arena::GameRecord tags_;
  bool loaded_ = false;
};

// Why `position` cannot arise in a game from the empty board, when something shows it (checks
// that are simple and always right, not a proof of reachability): a side to move that cannot be
// (O on the empty board), a side with no cube although it has moved (X moves first, and each
// side's cubes never become fewer: a move only turns a blank or own cube into its own), or a
// last mover with no cube on the border, where the cube it moved lands. None when nothing does.
std::optional<std::string> unreachable_reason(const Game& position);

// How a result's reason names a player, as the page does: "Person (O)", "quixo (X)",
// "Person (seat 2)".
std::string player_label(std::string_view player, const Game& position);

// "x", "o" or the seat "1".."4" of the shown position.
std::string to_move_text(const Game& position);

}  // namespace quixo::gui
