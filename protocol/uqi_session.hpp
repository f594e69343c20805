// The UQI command loop of quixo-engine: reads GUI commands line by line, drives the Engine and
// writes the answers. One session per process; the streams are parameters so tests can run it
// in-process.
#pragma once

#include <atomic>
#include <cstddef>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "search/engine.hpp"
#include "search/engine4.hpp"
#include "uqi_engine_messages.hpp"

namespace quixo {

namespace tb {
class Tablebase;
}

class UqiSession {
 public:
  // With `tuning` (quixo-engine --tune) the search's parameters (search/search_params.hpp) are
  // spin options too, declared by the handshake and taken by setoption; without it they are
  // unknown options, so that a GUI's user never sees them.
  explicit UqiSession(std::ostream& out, bool tuning = false);
  // Stops and waits for a running search, so no callback outlives the session.
  ~UqiSession();
  UqiSession(const UqiSession&) = delete;
  UqiSession& operator=(const UqiSession&) = delete;

  // Handles one command line (with or without its '\r' or '\n'). Returns false on `quit`, after
  // the running search has been stopped and its bestmove written.
  bool handle_line(std::string_view line);
  // Handles lines until `quit` or the end of `in`, which acts as `quit`. A line longer than
  // kMaxInputLineMebibytes is answered with `info string error: ...` and skipped: the engine's
  // memory never grows with its input.
  void run(std::istream& in);
  static constexpr std::size_t kMaxInputLineMebibytes = 4;
  // The answer to such a line, which is skipped (run(), and hosts that read lines themselves).
  void refuse_too_long_line();

  // Sets an option as `setoption name <name> value <value>` does (name case-insensitive).
  // Returns the error message, or nullopt when the option was set. Throws TableAllocationError
  // when a new Hash size cannot be allocated (the engine then keeps its old table and options).
  // TablebasePath also reports what it loaded (and each table file it refused) as `info string`.
  std::optional<std::string> set_option(std::string_view name,
                                        std::optional<std::string_view> value);
  [[nodiscard]] const EngineOptions& options() const { return options_; }

 private:
  using Args = std::span<const std::string_view>;

  // Every write goes through these: one mutex (search callbacks come from the search thread),
  // a flush after each line, and multi-line blocks written without interleaving.
  void send(std::string_view line);
  void send_lines(const std::vector<std::string>& lines);
  void send_info_string(std::string_view text);

  // Stops a running search and waits for its bestmove; also releases a held-back bestmove.
  void stop_and_wait();
  void release_held_bestmove();

  void handshake(bool ugi);
  // Hands changed options to both engines (after stopping a search), or to neither.
  void apply_options(const EngineOptions& changed);
  void setoption(Args args);
  // TablebasePath: loads the tables in `path` (empty: none) for the two-player search and `tb`.
  // A folder that is not there, or holds no usable table, is an error and changes nothing.
  std::optional<std::string> set_tablebase_path(const std::string& path);
  // Evaluation and EvalFile: hands the two-player engine the evaluation they name.
  std::optional<std::string> set_evaluation(std::string_view name,
                                            std::optional<std::string_view> value);
  // Reports a table block found corrupt during a search (the tables drop its layer), once.
  void report_table_problem();
  void position(Args args);
  void go(Args args);
  // `go`'s search of either game: the Engine searches a two-player line, the Engine4 a
  // four-player one, each told the positions before it for repetitions.
  template <class PositionT>
  void search(const uqi::GoCommand& command, const GameLine<PositionT>& line);
  // Says once per session, for each option set to a value the team search cannot honour, that
  // it does not apply.
  void note_options_without_effect_on_four_players();
  // The last line of defence, for both variants: whatever the search reports, the GUI gets a
  // legal best move (the first legal one otherwise, `0000` when there is none) and a ponder move
  // only when it is legal after it.
  template <class PositionT, class MoveT>
  void send_legal_bestmove(const PositionT& position, MoveT best, MoveT ponder);
  // Starts `go perft` on its own thread, so that isready, stop and quit are answered while it
  // counts; stop_and_wait cancels it.
  void go_perft(int depth);
  // Counts `depth` plies of `game` on the perft thread, with the lines of `go perft`.
  void perft(const Game& game, int depth);
  // Answers a `go` at once with `move` (a position the search does not handle), but holds the
  // bestmove back until `stop` (infinite) or `ponderhit`/`stop` (ponder), as a search would.
  void answer_without_search(const SearchLimits& limits, std::string_view reason,
                             const std::string& move);
  void display();
  void evaluate();
  // `tb`: what the tables say of the position, as `quixo-tb probe` prints it.
  void table_report();
  void bench();
  void query(Args args);

  std::mutex out_mutex_;
  std::ostream& out_;

  EngineOptions options_;
  const bool tuning_;  // the search's parameters are options
  bool ponder_option_ = false;
  Game game_;

  // A bestmove line decided without a search, waiting for stop (or ponderhit).
  std::optional<std::string> held_bestmove_;
  bool held_until_ponderhit_ = false;  // ponderhit also releases it (ponder, not infinite)

  // The options already said not to apply to four-player positions.
  std::set<std::string> four_player_notes_sent_;

  // The endgame tables (option TablebasePath), shared with the two-player engine; null: none.
  // Changed only while no search runs.
  std::shared_ptr<const tb::Tablebase> tables_;
  std::string tablebase_path_;  // the folder tables_ came from
  // The search probes the win/draw/loss files; the cache serves the root and layers without them.
  static constexpr int kDefaultTablebaseCacheMb = 64;
  int tablebase_cache_mb_ = kDefaultTablebaseCacheMb;  // option TablebaseCache
  bool tablebase_check_ = false;  // option TablebaseCheck: files read against their checksums
  // The evaluation of both games (option Evaluation: hand or learned) and the learned weights of
  // each (option EvalFile, whose file's magic says the game; null: the built-in ones).
  bool learned_evaluation_ = false;
  std::shared_ptr<const patterns::PatternWeights> eval_weights_;
  std::shared_ptr<const patterns::TeamPatternWeights> team_eval_weights_;
  // The tables' last problem already reported; touched only by the search's bestmove callback
  // and while no search runs.
  std::string reported_table_problem_;

  // The running `go perft`, if any.
  std::thread perft_thread_;
  std::atomic<bool> perft_cancel_{false};

  // Last members: destroyed first, while everything their callbacks use is still alive. Each
  // variant has its own engine; at most one of them searches at a time.
  Engine engine_;
  Engine4 engine4_;
};

}  // namespace quixo
