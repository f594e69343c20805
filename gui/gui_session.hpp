// One page's session in quixo-gui: its game, its engines and its analysis, driven by the page's
// requests (docs/gui-protocol.md) and answered through `send`. The session owns the game: every
// move is checked by the rules core, engines move when it is their turn, and the page gets a full
// `state` after every change. It has no network in it, so tests drive it with strings.
//
// Threads: receive() and tick() come from the server's thread, engine replies from each engine's
// worker thread; one mutex guards everything, and `send` is called under it (it must only queue).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine_client.hpp"
#include "engine_worker.hpp"
#include "game_store.hpp"
#include "gui_game.hpp"
#include "gui_messages.hpp"
#include "tb/tablebase.hpp"

namespace quixo::gui {

struct SessionConfig {
  // The engines the page may use: those of the command line and config file, nothing else.
  std::vector<arena::EngineConfig> engines;
  std::shared_ptr<const tb::Tablebase> tables;  // --tb; null without
  arena::ProcessLauncher launcher = arena::default_launcher();
  std::chrono::milliseconds handshake_timeout{10'000};
  // Where games are saved (--data-dir); null: they are not (resume and recent_games say so).
  std::shared_ptr<const GameStore> store;
};

class GuiSession {
 public:
  using Send = std::function<void(std::string)>;

  GuiSession(SessionConfig config, Send send);
  ~GuiSession();  // stops the searches and quits the engines
  GuiSession(const GuiSession&) = delete;
  GuiSession& operator=(const GuiSession&) = delete;

  // Sends `hello` and the first `state` (a new game, all players human, until the page asks).
  void open();
  // One message from the page; a bad one gets an `error` and changes nothing.
  void receive(std::string_view text);
  // Called a few times a second: a clock that runs out ends the game.
  void tick();
  // The endgame tables from now on (the static site's page fetches them when asked); null: none.
  // Sends the state, whose moves then carry their values.
  void set_tables(std::shared_ptr<const tb::Tablebase> tables);

 private:
  // A search sent to an engine. Its replies count while it is active_ or pondering_ (matched by
  // id): a search that was stopped, or belongs to a state that is gone, is no longer either.
  struct ActiveSearch {
    std::uint64_t id = 0;
    std::string engine;
    bool analysis = false;
    int ply = 0;  // of the position searched (a ponder search: after the expected move)
    // A ponder search: the expected move and the position it leads to.
    std::string ponder_move;
    std::string ponder_position;
  };
  // What an engine's last move said it expects in reply (`bestmove m ponder p`).
  struct PonderHint {
    std::string engine;
    int ply = 0;  // the ply after the engine's move
    std::string move;
  };

  void handle(const Request& request);
  void handle(const NewGameRequest& request);
  void handle(const MoveRequest& request);
  void handle(const TakeBackRequest& request);
  void handle(const GoToRequest& request);
  void handle(const ThinkRequest& request);
  void handle(const StopRequest& request);
  void handle(const AnalyzeRequest& request);
  void handle(const SetupRequest& request);
  void handle(const SavePgnRequest& request);
  void handle(const LoadPgnRequest& request);
  void handle(const OpenGameRequest& request);
  void handle(const ResumeRequest& request);
  void handle(const RecentGamesRequest& request);
  void handle(const SetPlayersRequest& request);
  void handle(const CommentRequest& request);
  void handle(const PromoteRequest& request);
  void handle(const DeleteRequest& request);
  // The game as it stands goes to the store (when there is one and the game has a move); a
  // failure is told to the page once.
  void save_game();
  void check_players(const std::vector<std::string>& players) const;
  void handle(const AnalyzeGameRequest& request);
  void handle(const PreviewRequest& request);
  void handle(const PlayLineRequest& request);
  void handle(const EngineOptionsRequest& request);
  void handle(const SetOptionRequest& request);
  void handle(const PauseRequest& request);
  void handle(const PgnListRequest& request);

  // The engine started: its declared options are known; a level it cannot play is dropped.
  void on_engine_started(const std::string& engine, const std::string& id_name,
                         const std::vector<uqi::OptionLine>& declared);
  // Why `engine` cannot play at `elo` (it does not declare the strength options, or the Elo is
  // outside its UCI_Elo range); empty when it can, or while its options are not known. With
  // `if_offered` there is no problem: `elo` becomes none (no levels) or the nearest it offers.
  std::string level_problem(const std::string& engine, std::optional<int>& elo,
                            bool if_offered) const;
  // The options `engine` gets before a search: the page's, then the strength ones (a level,
  // else UCI_LimitStrength false).
  std::vector<std::pair<std::string, std::string>> search_options(const std::string& engine,
                                                                  std::optional<int> level) const;
  void send_engine_options(const std::string& engine);
  void send_pgn_games(const PgnListRequest& request);

  // The game changed: searches of the old state are stopped and forgotten.
  void game_changed();
  // Starts what should run now: the engine to move, else the analysis.
  void schedule();
  // `ponder_move` (two-player games): the search is `go ponder` on the position after it, for
  // the engine that is not to move.
  void start_search(const std::string& engine, bool analysis, const std::string& ponder_move = {});
  // After a change: a ponder search whose expected move was played becomes the engine's search
  // (`ponderhit`); any other ponder search is stopped.
  void resolve_ponder();
  // Starts pondering when the game asks for it and the last engine move named a reply.
  void start_ponder();
  void on_engine_done(std::uint64_t id, const arena::MoveReply& reply, const std::string& error);
  EngineWorker& worker(const std::string& name);
  const arena::EngineConfig* find_engine(const std::string& name) const;
  // Whole-game analysis: values the positions the tables or the rules know at once, then asks
  // the engine for the next one (its reply comes back here); marks each move once the positions
  // on both its sides have their value; ends after the last position. `annotated`: a move got
  // its analysis before the call, so the page is sent a state.
  void advance_game_analysis(bool annotated = false);
  void start_game_analysis_search(const Game& position);
  void on_game_analysis_done(std::uint64_t id, const arena::MoveReply& reply,
                             const std::string& error);
  // Ends the run; `cancelled` when before its last position.
  void end_game_analysis(bool cancelled);
  void send_game_analysis_progress(bool cancelled = false);
  const std::string& default_engine() const;
  void send_state();
  void send_error(std::string_view message);

  SessionConfig config_;
  Send send_;
  std::mutex mutex_;
  bool closing_ = false;
  GuiGame game_;
  std::uint64_t next_search_id_ = 1;
  std::optional<ActiveSearch> active_;     // the mover's search, or the analysis
  std::optional<ActiveSearch> pondering_;  // an engine thinking on its opponent's time
  std::optional<PonderHint> ponder_hint_;
  bool ponder_on_ = false;         // this game's engines ponder
  bool level_if_offered_ = false;  // this game's level is a default (new_game's elo_if_offered)
  bool engines_need_new_game_ = true;
  bool analysis_on_ = false;
  std::string analysis_engine_;
  int analysis_multipv_ = 1;
  std::vector<arena::GameRecord> loaded_games_;
  std::string game_id_;     // the id the game is saved under
  std::string save_error_;  // the last save failure told to the page
  // A whole-game analysis while it runs: the line it analyses (a change of the line cancels it),
  // its positions, and the values found so far (of positions 0..values.size()-1).
  struct GameAnalysisRun {
    std::uint64_t search_id = 0;  // the engine search running; 0 when none
    bool searched = false;        // an engine search has been sent
    std::string engine;           // "" when no engine is listed
    int movetime_ms = 0;
    std::vector<std::string> players;
    std::string start;
    std::vector<std::string> line;
    std::vector<Game> positions;  // positions[i]: after i moves
    std::vector<PositionValue> values;
  };
  std::optional<GameAnalysisRun> game_analysis_;
  std::string pgn_upload_;  // the parts of a PGN received so far (load_pgn with more)
  int pgn_next_part_ = 0;   // the number of the part that may come next
  // What each engine declares, once it has started, and the values the page set.
  std::map<std::string, std::vector<uqi::OptionLine>> declared_;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> page_options_;
  // Engine processes by name, started on first use; last, so they go before the rest.
  std::map<std::string, std::unique_ptr<EngineWorker>> workers_;
};

}  // namespace quixo::gui
