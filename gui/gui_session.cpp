#include "gui_session.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <cctype>
#include <stdexcept>

#include "core/notation.hpp"
#include "pgn_reader.hpp"
#include "pgn_writer.hpp"
#include "tb/probe_report.hpp"

namespace quixo::gui {
namespace json = boost::json;
namespace {

using std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

// How much longer than its clock an engine may take before the session gives up on its reply;
// the clock itself decides the forfeit, this only keeps a silent engine from hanging the game.
constexpr milliseconds kReplyGrace{2'000};
// A fixed node or depth search, or an infinite one, has no clock; this is its wall-clock cap.
constexpr milliseconds kUnclockedReplyCap{24LL * 3600 * 1000};
// A PGN sent in parts (load_pgn with more) may be this long in all.
constexpr std::size_t kMaxPgnBytes = std::size_t{256} << 20;

// The strength options (docs/gui-protocol.md): the page sets them through the level, and the
// session sets MultiPV for the analysis, so set_option leaves them alone.
constexpr std::string_view kLimitStrength = "UCI_LimitStrength";
constexpr std::string_view kElo = "UCI_Elo";

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const uqi::OptionLine* find_option(const std::vector<uqi::OptionLine>& declared,
                                   std::string_view name) {
  for (const uqi::OptionLine& option : declared)
    if (lower(option.name) == lower(name)) return &option;
  return nullptr;
}

std::string position_arguments(const GuiGame& game, int ply) {
  std::string text = "fen " + game.start().text();
  if (ply > 0) {
    text += " moves";
    for (int i = 0; i < ply; ++i) text += ' ' + game.moves()[static_cast<std::size_t>(i)].move;
  }
  return text;
}

// `preview` and `play_line`: move `index` (from 0) of a line is not legal where it is played.
std::invalid_argument illegal_line_move(std::size_t index, const std::string& move,
                                        const NotationError& why) {
  return std::invalid_argument("move " + std::to_string(index + 1) + " of the line, \"" + move +
                               "\", is not legal there: " + why.what());
}

}  // namespace

GuiSession::GuiSession(SessionConfig config, Send send)
    : config_(std::move(config)), send_(std::move(send)), game_id_(GameStore::new_id()) {
  for (const arena::EngineConfig& engine : config_.engines)
    if (engine.name == kHuman)
      throw std::invalid_argument("an engine may not be called \"human\": the page uses the name");
}

GuiSession::~GuiSession() {
  std::map<std::string, std::unique_ptr<EngineWorker>> workers;
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
    save_game();  // the clocks as they stand when the page goes
    workers.swap(workers_);
  }
  // Joined without the lock: a worker that is reporting waits for it, then sees closing_.
  workers.clear();
}

void GuiSession::set_tables(std::shared_ptr<const tb::Tablebase> tables) {
  std::lock_guard lock(mutex_);
  config_.tables = std::move(tables);
  send_state();
}

void GuiSession::open() {
  std::lock_guard lock(mutex_);
  json::array engines;
  for (const arena::EngineConfig& engine : config_.engines) {
    const auto found = workers_.find(engine.name);
    engines.push_back(
        json::object{{"name", engine.name},
                     {"id", found == workers_.end() ? std::string() : found->second->id_name()}});
  }
  send_(json::serialize(json::object{{"type", "hello"},
                                     {"version", 1},
                                     {"engines", std::move(engines)},
                                     {"tablebase", config_.tables != nullptr},
                                     {"max_message_bytes", 4 << 20},
                                     {"saves_games", config_.store != nullptr}}));
  send_state();
}

void GuiSession::receive(std::string_view text) {
  ParsedRequest parsed = parse_request(text);
  std::lock_guard lock(mutex_);
  if (!parsed.request) {
    send_error(parsed.error);
    return;
  }
  try {
    handle(*parsed.request);
  } catch (const std::exception& error) {
    // Whatever the request was, the game is as it was before it (the handlers change the game
    // only after every check passed).
    send_error(error.what());
  }
}

void GuiSession::tick() {
  std::lock_guard lock(mutex_);
  if (closing_) return;
  if (game_.tick(SteadyClock::now())) game_changed();
}

void GuiSession::handle(const Request& request) {
  std::visit([this](const auto& typed) { handle(typed); }, request);
}

void GuiSession::handle(const NewGameRequest& request) {
  Variant variant;
  if (request.variant == "2p")
    variant = Variant::TwoPlayer;
  else if (request.variant == "4p")
    variant = Variant::FourPlayer;
  else
    throw std::invalid_argument("unknown variant \"" + request.variant + "\" (2p or 4p)");
  check_players(request.players);
  std::optional<arena::TimeControl> control;
  if (request.time && !request.time->empty()) control = arena::TimeControl::parse(*request.time);
  GuiGame game(variant, request.players, control, request.position.value_or(""),
               SteadyClock::now());
  if (request.elo) {
    std::vector<std::optional<int>> levels(request.players.size());
    for (std::size_t i = 0; i < request.players.size(); ++i) {
      if (request.players[i] == kHuman) continue;
      levels[i] = *request.elo;
      if (const std::string problem =
              level_problem(request.players[i], levels[i], request.elo_if_offered);
          !problem.empty())
        throw std::invalid_argument(problem);
    }
    game.set_levels(std::move(levels));
  }
  level_if_offered_ = request.elo_if_offered;
  game_ = std::move(game);
  game_id_ = GameStore::new_id();
  engines_need_new_game_ = true;
  ponder_on_ = request.ponder;
  ponder_hint_.reset();
  game_changed();
}

void GuiSession::handle(const MoveRequest& request) {
  if (!game_.human_to_move())
    throw std::invalid_argument(game_.at_end() && game_.result()
                                    ? "the game is over: " + game_.result()->reason
                                    : "it is not a person's turn to move");
  game_.play(request.move, move_by(kHuman), SteadyClock::now());
  game_changed();
}

void GuiSession::handle(const TakeBackRequest&) {
  const bool against_engine =
      std::any_of(game_.players().begin(), game_.players().end(),
                  [](const std::string& player) { return player != kHuman; }) &&
      std::any_of(game_.players().begin(), game_.players().end(),
                  [](const std::string& player) { return player == kHuman; });
  if (!game_.take_back(against_engine, SteadyClock::now()))
    throw std::invalid_argument("there is no move to take back");
  game_changed();
}

void GuiSession::handle(const GoToRequest& request) {
  if (request.node)
    game_.go_to_node(*request.node, SteadyClock::now());
  else
    game_.go_to(request.ply, SteadyClock::now());
  game_changed();
}

void GuiSession::handle(const ThinkRequest& request) {
  const std::string engine = request.engine.value_or(default_engine());
  if (!find_engine(engine))
    throw std::invalid_argument("no engine \"" + engine + "\" was listed when quixo-gui started");
  if (game_.legal_moves().empty()) throw std::invalid_argument("there is no move to make here");
  if (active_ && !active_->analysis) throw std::invalid_argument("an engine is thinking already");
  if (active_) worker(active_->engine).stop();
  active_.reset();
  // The engine asked may be the one pondering, and a ponder search expects a game to go on.
  if (pondering_) worker(pondering_->engine).stop();
  pondering_.reset();
  start_search(engine, false);
  send_state();
}

void GuiSession::handle(const StopRequest&) {
  if (game_analysis_) {  // whole-game analysis stops too
    end_game_analysis(true);
    schedule();
    send_state();
    return;
  }
  if (!active_) return;
  if (active_->analysis) {
    analysis_on_ = false;
    worker(active_->engine).stop();
    active_.reset();
    send_state();
    return;
  }
  // The engine moves at once with what it has; its move arrives through on_engine_done.
  worker(active_->engine).stop();
}

void GuiSession::handle(const AnalyzeRequest& request) {
  if (request.on) {
    const std::string engine = request.engine.value_or(default_engine());
    if (!find_engine(engine))
      throw std::invalid_argument("no engine \"" + engine + "\" was listed when quixo-gui started");
    analysis_engine_ = engine;
    analysis_multipv_ = request.multipv;
  }
  analysis_on_ = request.on;
  game_changed();
}

void GuiSession::handle(const SetupRequest& request) {
  const Variant variant = variant_of(request.position);
  std::vector<std::string> players = game_.players();
  players.resize(variant == Variant::TwoPlayer ? 2 : 4, std::string(kHuman));
  GuiGame game(variant, players, game_.time_control(), request.position, SteadyClock::now());
  game_ = std::move(game);
  game_id_ = GameStore::new_id();
  engines_need_new_game_ = true;
  game_changed();
  if (const std::optional<std::string> reason = unreachable_reason(game_.start()))
    send_(format_warning("this position cannot arise in a game: " + *reason +
                         "; it is set up all the same"));
}

void GuiSession::handle(const SavePgnRequest&) {
  send_(
      json::serialize(json::object{{"type", "pgn"}, {"text", arena::format_pgn(game_.record())}}));
}

void GuiSession::handle(const LoadPgnRequest& request) {
  if (request.part == 0) {
    pgn_upload_.clear();
    pgn_next_part_ = 0;
  }
  if (request.part != pgn_next_part_) {
    const int expected = std::exchange(pgn_next_part_, 0);
    pgn_upload_.clear();
    throw std::invalid_argument("part " + std::to_string(request.part) +
                                " of the PGN came where part " + std::to_string(expected) +
                                " was due; send it again from part 0");
  }
  ++pgn_next_part_;
  if (pgn_upload_.size() + request.text.size() > kMaxPgnBytes) {
    pgn_upload_.clear();
    pgn_next_part_ = 0;
    throw std::invalid_argument("the PGN is longer than quixo-gui reads (" +
                                std::to_string(kMaxPgnBytes >> 20) + " MiB)");
  }
  pgn_upload_ += request.text;
  if (request.more) return;  // the next part follows
  pgn_next_part_ = 0;
  const std::string text = std::exchange(pgn_upload_, std::string());
  loaded_games_ = arena::parse_pgn(text, arena::PgnReading::Annotated);
  send_pgn_games(PgnListRequest{});
}

void GuiSession::handle(const PgnListRequest& request) {
  send_pgn_games(request);
}

void GuiSession::send_pgn_games(const PgnListRequest& request) {
  if (request.result && !arena::parse_result_text(*request.result))
    throw std::invalid_argument("no result \"" + *request.result + "\" (1-0, 0-1, 1/2-1/2 or *)");
  const std::string player = lower(request.player.value_or(""));
  const auto named = [&](const std::string& name) {
    return lower(name).find(player) != std::string::npos;
  };
  json::array list;
  std::size_t matched = 0;
  for (std::size_t i = 0; i < loaded_games_.size(); ++i) {
    const arena::GameRecord& game = loaded_games_[i];
    if (!player.empty() && !named(game.x_name) && !named(game.o_name)) continue;
    if (request.result && arena::result_text(game.result) != *request.result) continue;
    if (matched++ < static_cast<std::size_t>(request.offset) ||
        list.size() >= static_cast<std::size_t>(request.limit))
      continue;
    list.push_back(json::object{{"index", i},
                                {"white", game.x_name},
                                {"black", game.o_name},
                                {"result", arena::result_text(game.result)},
                                {"round", game.round},
                                {"variant", game.four_player ? "4p" : "2p"},
                                {"plies", game.opening_moves.size() + game.moves.size()}});
  }
  send_(json::serialize(json::object{{"type", "pgn_games"},
                                     {"total", loaded_games_.size()},
                                     {"matched", matched},
                                     {"offset", request.offset},
                                     {"games", std::move(list)}}));
}

void GuiSession::handle(const EngineOptionsRequest& request) {
  if (!find_engine(request.engine))
    throw std::invalid_argument("no engine \"" + request.engine +
                                "\" was listed when quixo-gui started");
  if (declared_.count(request.engine)) {
    send_engine_options(request.engine);
    return;
  }
  // Answered by on_engine_started once the engine runs.
  SearchJob start;
  start.start_only = true;
  worker(request.engine).submit(std::move(start));
}

void GuiSession::handle(const SetOptionRequest& request) {
  if (!find_engine(request.engine))
    throw std::invalid_argument("no engine \"" + request.engine +
                                "\" was listed when quixo-gui started");
  const auto declared = declared_.find(request.engine);
  if (declared == declared_.end())
    throw std::invalid_argument("the options of engine \"" + request.engine +
                                "\" are not known until it has started (ask engine_options)");
  const std::string given = lower(request.name);
  if (given == lower(kLimitStrength) || given == lower(kElo) || given == "multipv")
    throw std::invalid_argument("option " + request.name +
                                " is set by the page: the level sets UCI_LimitStrength and "
                                "UCI_Elo, the analysis its MultiPV");
  arena::EngineConfig probe;
  probe.name = request.engine;
  probe.options = {{request.name, request.value}};
  const std::vector<arena::OptionProblem> problems = arena::check_options(probe, declared->second);
  if (!problems.empty()) throw std::invalid_argument(problems.front().message);
  const uqi::OptionLine& option = *find_option(declared->second, request.name);
  if (option.type == "button")
    throw std::invalid_argument("option " + option.name +
                                " is a button; the page sets only options with a value");
  auto& values = page_options_[request.engine];
  std::erase_if(values, [&](const auto& value) { return value.first == option.name; });
  values.emplace_back(option.name, request.value);
  send_engine_options(request.engine);
}

void GuiSession::handle(const PauseRequest& request) {
  if (request.on) {
    if (game_.at_end() && game_.result())
      throw std::invalid_argument("the game is over: " + game_.result()->reason);
    game_.pause(SteadyClock::now());
  } else {
    game_.resume(SteadyClock::now());
  }
  // A paused engine's search is stopped and its move dropped; on resume it searches afresh.
  game_changed();
}

std::string GuiSession::level_problem(const std::string& engine, std::optional<int>& elo,
                                      bool if_offered) const {
  const auto declared = declared_.find(engine);
  if (!elo || declared == declared_.end()) return {};
  const uqi::OptionLine* limit = find_option(declared->second, kLimitStrength);
  const uqi::OptionLine* rating = find_option(declared->second, kElo);
  if (!limit || !rating || rating->type != "spin") {
    if (if_offered) {
      elo.reset();
      return {};
    }
    return "engine \"" + engine +
           "\" has no levels (it declares no UCI_LimitStrength and UCI_Elo options)";
  }
  const std::int64_t low = rating->min.value_or(0);
  const std::int64_t high = rating->max.value_or(std::max<std::int64_t>(*elo, low));
  if (*elo < low || *elo > high) {
    if (if_offered) {
      elo = static_cast<int>(std::clamp<std::int64_t>(*elo, low, high));
      return {};
    }
    return "engine \"" + engine + "\" plays levels from Elo " + std::to_string(low) + " to " +
           std::to_string(high) + ", not " + std::to_string(*elo);
  }
  return {};
}

std::vector<std::pair<std::string, std::string>> GuiSession::search_options(
    const std::string& engine, std::optional<int> level) const {
  std::vector<std::pair<std::string, std::string>> options;
  if (const auto set = page_options_.find(engine); set != page_options_.end())
    options = set->second;
  if (level) {
    options.emplace_back(kElo, std::to_string(*level));
    options.emplace_back(kLimitStrength, "true");
  } else {
    options.emplace_back(kLimitStrength, "false");
  }
  return options;
}

void GuiSession::on_engine_started(const std::string& engine, const std::string&,
                                   const std::vector<uqi::OptionLine>& declared) {
  declared_[engine] = declared;
  std::vector<std::optional<int>> levels = game_.levels();
  bool dropped = false;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    if (!levels[i] || game_.players()[i] != engine) continue;
    const std::optional<int> asked = levels[i];
    if (const std::string problem = level_problem(engine, levels[i], level_if_offered_);
        !problem.empty()) {
      if (!dropped) send_error(problem + ": it plays at full strength");
      levels[i].reset();
    }
    dropped = dropped || levels[i] != asked;
  }
  send_engine_options(engine);
  if (dropped) {
    game_.set_levels(std::move(levels));
    send_state();
  }
}

void GuiSession::send_engine_options(const std::string& engine) {
  const auto found = workers_.find(engine);
  const auto values = page_options_.find(engine);
  send_(format_engine_options(
      engine, found == workers_.end() ? std::string() : found->second->id_name(), declared_[engine],
      values == page_options_.end() ? std::vector<std::pair<std::string, std::string>>()
                                    : values->second));
}

void GuiSession::handle(const OpenGameRequest& request) {
  if (static_cast<std::size_t>(request.index) >= loaded_games_.size())
    throw std::invalid_argument("there is no game " + std::to_string(request.index) +
                                " in the loaded PGN (" + std::to_string(loaded_games_.size()) +
                                " games)");
  game_ = GuiGame::from_record(loaded_games_[static_cast<std::size_t>(request.index)]);
  game_id_ = GameStore::new_id();
  analysis_on_ = false;
  ponder_on_ = false;
  engines_need_new_game_ = true;
  game_changed();
}

void GuiSession::check_players(const std::vector<std::string>& players) const {
  for (const std::string& player : players)
    if (player != kHuman && !find_engine(player))
      throw std::invalid_argument("no engine \"" + player + "\" was listed when quixo-gui started");
}

void GuiSession::handle(const ResumeRequest& request) {
  if (!config_.store)
    throw std::invalid_argument("games are not saved: quixo-gui runs without a data folder");
  const std::string text = config_.store->load(request.game_id);
  std::optional<SavedGame> saved;
  try {
    saved = parse_saved_game(text, SteadyClock::now());
  } catch (const std::exception& problem) {
    throw std::invalid_argument("the saved game " + request.game_id +
                                " cannot be opened: " + problem.what());
  }
  if (saved->id != request.game_id)
    throw std::invalid_argument("the saved game " + request.game_id + " names another id (" +
                                saved->id + ")");
  try {
    check_players(saved->game.players());
  } catch (const std::exception& problem) {
    throw std::invalid_argument("the saved game " + request.game_id +
                                " cannot be opened: " + problem.what());
  }
  game_ = std::move(saved->game);
  game_id_ = request.game_id;
  ponder_on_ = saved->ponder;
  ponder_hint_.reset();
  // The engines start afresh: one that was thinking searches its position again.
  engines_need_new_game_ = true;
  analysis_on_ = saved->analysis_on && find_engine(saved->analysis_engine);
  if (find_engine(saved->analysis_engine)) analysis_engine_ = saved->analysis_engine;
  analysis_multipv_ = saved->analysis_multipv;
  save_error_.clear();
  game_changed();
}

void GuiSession::handle(const RecentGamesRequest&) {
  if (!config_.store)
    throw std::invalid_argument("games are not saved: quixo-gui runs without a data folder");
  constexpr std::size_t kRecentGames = 20;
  json::array games;
  json::array problems;
  for (const std::string& id : config_.store->newest(kRecentGames)) {
    try {
      const SavedGame saved = parse_saved_game(config_.store->load(id), SteadyClock::now());
      const arena::GameRecord record = saved.game.record();
      json::array players;
      for (const std::string& player : saved.game.players()) players.emplace_back(player);
      games.push_back(
          json::object{{"id", id},
                       {"saved_ms", saved.saved_ms},
                       {"variant", saved.game.variant() == Variant::TwoPlayer ? "2p" : "4p"},
                       {"players", std::move(players)},
                       {"plies", record.moves.size()},
                       {"result", arena::result_text(record.result)},
                       {"current", id == game_id_}});
    } catch (const std::exception& problem) {
      problems.emplace_back("saved game " + id + " (" +
                            (config_.store->folder() / (id + ".json")).string() +
                            ") skipped: " + problem.what());
    }
  }
  send_(json::serialize(json::object{
      {"type", "recent_games"}, {"games", std::move(games)}, {"problems", std::move(problems)}}));
}

void GuiSession::handle(const SetPlayersRequest& request) {
  check_players(request.players);
  game_.set_players(request.players);
  engines_need_new_game_ = true;
  ponder_hint_.reset();
  game_changed();
}

void GuiSession::handle(const CommentRequest& request) {
  constexpr std::size_t kMaxComment = 10'000;
  if (request.text.size() > kMaxComment)
    throw std::invalid_argument("a comment may have at most " + std::to_string(kMaxComment) +
                                " characters");
  if (request.node == 0)
    throw std::invalid_argument("a comment goes after a move, and the start is none");
  game_.set_comment(request.node, request.text);
  send_state();
}

void GuiSession::handle(const PromoteRequest& request) {
  game_.promote(request.node);
  game_changed();
}

void GuiSession::handle(const DeleteRequest& request) {
  game_.remove(request.node, SteadyClock::now());
  game_changed();
}

void GuiSession::save_game() {
  if (!config_.store || game_.nodes().size() < 2) return;
  SavedGame saved;
  saved.id = game_id_;
  saved.saved_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  saved.game = game_;
  saved.ponder = ponder_on_;
  saved.analysis_on = analysis_on_;
  saved.analysis_engine = analysis_engine_;
  saved.analysis_multipv = analysis_multipv_;
  try {
    config_.store->save(game_id_, format_saved_game(saved, SteadyClock::now()));
    save_error_.clear();
  } catch (const std::exception& problem) {
    const std::string message = std::string("the game could not be saved: ") + problem.what();
    if (message != save_error_ && !closing_) send_error(message);
    save_error_ = message;
  }
}

void GuiSession::game_changed() {
  // Whole-game analysis belongs to one line of one game: any other (a move, a take-back, a new
  // game) ends it; showing another position of the line does not.
  if (game_analysis_) {
    bool same = game_analysis_->start == game_.start().text() &&
                game_analysis_->players == game_.players() &&
                game_analysis_->line.size() == game_.moves().size();
    for (std::size_t i = 0; same && i < game_analysis_->line.size(); ++i)
      same = game_analysis_->line[i] == game_.moves()[i].move;
    if (!same) end_game_analysis(true);
  }
  if (active_) {
    worker(active_->engine).stop();
    active_.reset();
  }
  resolve_ponder();
  schedule();
  send_state();
}

void GuiSession::resolve_ponder() {
  if (!pondering_) return;
  ActiveSearch search = *std::exchange(pondering_, std::nullopt);
  const bool hit = !analysis_on_ && game_.engine_to_move() && game_.mover() == search.engine &&
                   game_.ply() == search.ply && game_.shown().text() == search.ponder_position;
  if (!hit) {
    worker(search.engine).stop();  // its bestmove is dropped: no search has its id any more
    return;
  }
  // The engine's clock runs from the opponent's move (GuiGame::play); its reply is timed from
  // `ponderhit`, which the worker sends within a few milliseconds.
  worker(search.engine).ponderhit();
  search.ponder_move.clear();
  search.ponder_position.clear();
  active_ = std::move(search);
}

void GuiSession::schedule() {
  // Engines wait while the whole game is analysed (one process, one search).
  if (closing_ || game_analysis_) return;
  if (!active_) {
    if (game_.engine_to_move())
      start_search(game_.mover(), false);
    else if (analysis_on_ && !game_.legal_moves().empty())
      start_search(analysis_engine_, true);
  }
  start_ponder();
}

void GuiSession::start_ponder() {
  // Pondering is the two-player `go ponder`: in the four-player game the expected reply is
  // followed by two more seats before the engine moves again.
  if (!ponder_on_ || pondering_ || analysis_on_ || !ponder_hint_ ||
      game_.variant() != Variant::TwoPlayer || !game_.at_end() || game_.result() ||
      game_.ply() == 0)
    return;
  const PonderHint& hint = *ponder_hint_;
  const std::string& last_mover =
      game_.players()[static_cast<std::size_t>(1 - game_.mover_index())];
  // Only the engine that made the last move, as a player of the game, and not while its own
  // process searches (an engine playing itself, or asked to `think`): one process, one search.
  if (hint.ply != game_.ply() || hint.engine != last_mover ||
      game_.moves().back().by != hint.engine || (active_ && active_->engine == hint.engine))
    return;
  Game after = game_.shown();
  try {
    after.play(hint.move);
  } catch (const NotationError&) {
    return;  // an illegal ponder move is not an error: the engine just does not ponder
  }
  if (after.is_game_over()) return;
  start_search(hint.engine, false, hint.move);
}

void GuiSession::start_search(const std::string& engine, bool analysis,
                              const std::string& ponder_move) {
  const SteadyTime now = SteadyClock::now();
  const bool ponder = !ponder_move.empty();
  // Whose limits the search gets: the mover's, or (pondering) the engine's that is not to move.
  const int player = ponder ? 1 - game_.mover_index() : game_.mover_index();
  SearchJob job;
  job.position_arguments = position_arguments(game_, game_.ply());
  std::string ponder_position;
  if (ponder) {
    job.position_arguments += (game_.ply() > 0 ? " " : " moves ") + ponder_move;
    Game after = game_.shown();
    after.play(ponder_move);
    ponder_position = after.text();
  }
  job.new_game = std::exchange(engines_need_new_game_, false);
  const bool four = game_.variant() == Variant::FourPlayer;
  uqi::GoLimits own;
  if (analysis) {
    own.infinite = true;
    job.multipv = analysis_multipv_;
  } else if (const arena::EngineConfig* config = find_engine(engine);
             config && config->time_control && !game_.has_clock()) {
    // An engine listed with its own limit (tc=depth=4, an easy opponent) keeps it unless the
    // game has a clock.
    own = arena::Clock(*config->time_control).go_limits();
    job.multipv = 1;
  } else {
    own = game_.limits_of(player, now);
    // An engine asked outside its turn (`think`) always gets a multipv of 1 back.
    job.multipv = 1;
  }
  // A ponder search's deadline below counts from `ponderhit` (arena::SearchWatch).
  own.ponder = ponder;
  if (own.time_ms)
    job.deadline = milliseconds(*own.time_ms) + kReplyGrace;
  else if (own.move_time_ms)
    job.deadline = milliseconds(*own.move_time_ms) + kReplyGrace;
  else
    job.deadline = kUnclockedReplyCap;
  const std::vector<uqi::GoLimits> clocks =
      game_.has_clock() && !analysis ? game_.clock_limits(now) : std::vector<uqi::GoLimits>();
  if (four) {
    arena::GoRequest4 request;
    request.mover = game_.mover_index();
    for (std::size_t seat = 0; seat < 4; ++seat)
      request.seats[seat] = clocks.empty() ? own : clocks[seat];
    request.seats[static_cast<std::size_t>(request.mover)] = own;
    job.request = request;
  } else {
    arena::GoRequest request;
    request.own = own;
    request.mover_is_x = player == 0;
    if (!clocks.empty()) request.other = clocks[request.mover_is_x ? 1 : 0];
    job.request = request;
  }
  const ActiveSearch search{next_search_id_++, engine,
                            analysis,          game_.ply() + (ponder ? 1 : 0),
                            ponder_move,       ponder_position};
  const std::uint64_t id = search.id;
  job.on_info = [this, id](const uqi::InfoLine& info) {
    std::lock_guard lock(mutex_);
    if (closing_) return;
    // A ponder search that was hit is active_ now, and its lines are the move's.
    const bool is_active = active_ && active_->id == id;
    const bool is_pondering = pondering_ && pondering_->id == id;
    if (!is_active && !is_pondering) return;
    const ActiveSearch& current = is_active ? *active_ : *pondering_;
    const char* purpose = current.analysis ? "analysis" : is_pondering ? "ponder" : "move";
    send_(format_info(info, current.engine, purpose, current.ply));
  };
  job.on_done = [this, id](const arena::MoveReply& reply, const std::string& error) {
    std::lock_guard lock(mutex_);
    if (closing_) return;
    on_engine_done(id, reply, error);
  };
  if (ponder)
    pondering_ = search;
  else
    active_ = search;
  // The level is the player's (an analysis, or an engine asked outside its game, plays at full
  // strength).
  std::optional<int> level;
  if (!analysis && game_.players()[static_cast<std::size_t>(player)] == engine)
    level = game_.levels()[static_cast<std::size_t>(player)];
  worker(engine).set_options(search_options(engine, level));
  worker(engine).submit(std::move(job));
}

void GuiSession::on_engine_done(std::uint64_t id, const arena::MoveReply& reply,
                                const std::string& error) {
  if (pondering_ && pondering_->id == id) {
    // The engine ended its ponder search before ponderhit or stop (or failed). Its move answers a
    // position that has not come, so it is dropped; the engine searches when its turn comes.
    pondering_.reset();
    ponder_hint_.reset();
    if (!error.empty()) send_error(error);
    send_state();
    return;
  }
  if (!active_ || active_->id != id) return;  // stopped, or a search of a state that is gone
  const ActiveSearch search = *std::exchange(active_, std::nullopt);
  if (search.analysis) {
    // Analysis ends only when it is stopped, or when the engine failed.
    if (!error.empty()) {
      analysis_on_ = false;
      send_error(error);
    }
    send_state();
    return;
  }
  const int mover = game_.mover_index();
  const GameResult loss = mover % 2 == 0 ? GameResult::OWins : GameResult::XWins;
  const std::string who = player_label(search.engine, game_.shown());
  const bool its_turn = game_.engine_to_move() && game_.mover() == search.engine;
  switch (reply.status) {
    case arena::MoveReply::Status::Move: {
      GuiMove details;
      details.by = search.engine;
      details.time_ms = reply.elapsed_ms;
      if (reply.info) {
        details.score_cp = reply.info->score_cp;
        details.score_mate = reply.info->score_mate;
        details.depth = reply.info->depth;
      }
      ponder_hint_.reset();
      try {
        game_.play(reply.move, details, SteadyClock::now());
        if (!reply.ponder.empty())
          ponder_hint_ = PonderHint{search.engine, game_.ply(), reply.ponder};
      } catch (const NotationError& illegal) {
        if (its_turn)
          game_.finish(
              {loss, Termination::IllegalMove,
               who + " played an illegal move: " + reply.move + " (" + illegal.what() + ")"});
        else
          send_error("engine \"" + search.engine + "\" played an illegal move: " + reply.move +
                     " (" + illegal.what() + ")");
      }
      break;
    }
    case arena::MoveReply::Status::Timeout:
      if (its_turn) game_.finish({loss, Termination::TimeForfeit, who + " did not move in time"});
      send_error(error);
      break;
    case arena::MoveReply::Status::Disconnected:
      if (its_turn) game_.finish({loss, Termination::Crash, error});
      send_error(error);
      break;
  }
  game_changed();
}

void GuiSession::handle(const AnalyzeGameRequest& request) {
  if (!request.on) {
    if (!game_analysis_) {
      send_state();  // nothing to cancel: the page still gets its answer
      return;
    }
    end_game_analysis(true);
    schedule();
    send_state();
    return;
  }
  std::string engine;
  if (request.engine) {
    if (!find_engine(*request.engine))
      throw std::invalid_argument("no engine \"" + *request.engine +
                                  "\" was listed when quixo-gui started");
    engine = *request.engine;
  } else if (!config_.engines.empty()) {
    engine = default_engine();
  }
  if (active_ && !active_->analysis)
    throw std::invalid_argument(active_->engine +
                                " is thinking about its move; analyse the game after it");
  if (game_analysis_) end_game_analysis(true);
  if (active_) {
    worker(active_->engine).stop();
    active_.reset();
  }
  if (pondering_) {
    worker(pondering_->engine).stop();
    pondering_.reset();
  }
  GameAnalysisRun run;
  run.engine = engine;
  run.movetime_ms = request.movetime_ms;
  run.players = game_.players();
  run.start = game_.start().text();
  Game position = game_.start();
  run.positions.push_back(position);
  for (const GuiMove& move : game_.moves()) {
    run.line.push_back(move.move);
    position.play(move.move);
    run.positions.push_back(position);
  }
  game_analysis_ = std::move(run);
  send_game_analysis_progress();
  advance_game_analysis();
}

void GuiSession::advance_game_analysis(bool annotated) {
  GameAnalysisRun& run = *game_analysis_;
  while (run.values.size() < run.positions.size()) {
    const std::size_t k = run.values.size();
    const Game& position = run.positions[k];
    std::optional<PositionValue> value;
    if (position.is_game_over()) {
      // A finished board: lost for the side to move unless the line is its own.
      const bool won = position.outcome() == win_for(position.team_to_move());
      value = PositionValue{tb::TbValue{won ? tb::Wdl::Win : tb::Wdl::Loss, 0}, {}, {}, {}};
    } else if (config_.tables && position.variant() == Variant::TwoPlayer) {
      if (const auto report = tb::probe_report(*config_.tables, parse_position(position.text()))) {
        value = PositionValue{report->value, {}, {}, {}};
        if (!report->moves.empty()) value->best = to_string(report->moves.front().move);
      }
    }
    if (!value) {
      if (!run.engine.empty()) {
        start_game_analysis_search(position);
        break;
      }
      value = PositionValue{};  // neither the tables nor an engine: not known
    }
    run.values.push_back(*value);
    if (k > 0) {
      game_.set_analysis(static_cast<int>(k) - 1,
                         analyse_move(run.line[k - 1], run.values[k - 1], run.values[k]));
      annotated = true;
    }
    send_game_analysis_progress();
  }
  if (run.values.size() == run.positions.size()) {
    end_game_analysis(false);
    schedule();
    send_state();
  } else if (annotated) {
    send_state();
  }
}

void GuiSession::start_game_analysis_search(const Game& position) {
  GameAnalysisRun& run = *game_analysis_;
  SearchJob job;
  // The run's line is the game's (any change of it ends the run).
  job.position_arguments = position_arguments(game_, static_cast<int>(run.values.size()));
  // A fresh hash table for the run (`uqinewgame` before its first search); the game's own
  // engines keep their flag, engines_need_new_game_, for their next search.
  job.new_game = !run.searched;
  run.searched = true;
  job.multipv = 1;
  uqi::GoLimits own;
  own.move_time_ms = run.movetime_ms;
  job.deadline = milliseconds(run.movetime_ms) + kReplyGrace;
  if (position.variant() == Variant::FourPlayer) {
    arena::GoRequest4 request;
    request.mover = std::stoi(to_move_text(position)) - 1;
    for (auto& seat : request.seats) seat = own;
    job.request = request;
  } else {
    arena::GoRequest request;
    request.own = own;
    request.mover_is_x = position.team_to_move() == Color::X;
    job.request = request;
  }
  const std::uint64_t id = next_search_id_++;
  run.search_id = id;
  job.on_done = [this, id](const arena::MoveReply& reply, const std::string& error) {
    std::lock_guard lock(mutex_);
    if (closing_) return;
    on_game_analysis_done(id, reply, error);
  };
  worker(run.engine).submit(std::move(job));
}

void GuiSession::on_game_analysis_done(std::uint64_t id, const arena::MoveReply& reply,
                                       const std::string& error) {
  if (!game_analysis_ || game_analysis_->search_id != id) return;  // cancelled meanwhile
  GameAnalysisRun& run = *game_analysis_;
  run.search_id = 0;
  if (reply.status != arena::MoveReply::Status::Move) {
    send_error("whole-game analysis stopped: " +
               (error.empty() ? "engine \"" + run.engine + "\" did not answer" : error));
    end_game_analysis(true);
    schedule();
    send_state();
    return;
  }
  PositionValue value;
  if (reply.info) {
    value.score_cp = reply.info->score_cp;
    value.score_mate = reply.info->score_mate;
  }
  // The best move in its canonical text, so that it compares with the game's; an illegal one is
  // left out (the score still counts).
  Game position = run.positions[run.values.size()];
  try {
    value.best = position.play(reply.move);
  } catch (const NotationError&) {
  }
  // A search without a score leaves the position unknown; it is stored all the same, so that the
  // run goes on to the next position.
  const std::size_t k = run.values.size();
  run.values.push_back(value);
  if (k > 0)
    game_.set_analysis(static_cast<int>(k) - 1,
                       analyse_move(run.line[k - 1], run.values[k - 1], run.values[k]));
  send_game_analysis_progress();
  advance_game_analysis(k > 0);
}

void GuiSession::end_game_analysis(bool cancelled) {
  if (!game_analysis_) return;
  if (game_analysis_->search_id != 0) worker(game_analysis_->engine).stop();
  // A run that reached its last position has said so with its last progress message.
  if (cancelled) send_game_analysis_progress(true);
  game_analysis_.reset();
}

void GuiSession::send_game_analysis_progress(bool cancelled) {
  // Called while the run is on; the last message (from end_game_analysis) says it has ended.
  const GameAnalysisRun& run = *game_analysis_;
  const bool ending = cancelled || run.values.size() == run.positions.size();
  GameAnalysisProgress progress;
  progress.running = !ending;
  progress.done = static_cast<int>(run.values.size());
  progress.total = static_cast<int>(run.positions.size());
  progress.engine = run.engine;
  progress.movetime_ms = run.movetime_ms;
  progress.cancelled = cancelled;
  send_(format_game_analysis(progress));
}

void GuiSession::handle(const PreviewRequest& request) {
  Game position = game_.shown();
  std::vector<std::string> moves;
  std::vector<std::string> positions;
  for (std::size_t i = 0; i < request.moves.size(); ++i) {
    try {
      moves.push_back(position.play(request.moves[i]));
    } catch (const NotationError& illegal) {
      throw illegal_line_move(i, request.moves[i], illegal);
    }
    positions.push_back(position.text());
  }
  send_(format_preview(game_.ply(), moves, positions));
}

void GuiSession::handle(const PlayLineRequest& request) {
  if (request.moves.empty()) throw std::invalid_argument("the line to play has no move");
  if (!game_.human_to_move())
    throw std::invalid_argument(game_.at_end() && game_.result()
                                    ? "the game is over: " + game_.result()->reason
                                    : "it is not a person's turn to move");
  // Played on a copy, so that an illegal move leaves the game as it was.
  GuiGame game = game_;
  const SteadyTime now = SteadyClock::now();
  for (std::size_t i = 0; i < request.moves.size(); ++i) {
    if (i > 0 && !game.human_to_move()) break;  // an engine replies by itself
    try {
      game.play(request.moves[i], move_by(kHuman), now);
    } catch (const NotationError& illegal) {
      throw illegal_line_move(i, request.moves[i], illegal);
    }
  }
  game_ = std::move(game);
  game_changed();
}

EngineWorker& GuiSession::worker(const std::string& name) {
  auto found = workers_.find(name);
  if (found == workers_.end()) {
    const arena::EngineConfig* engine = find_engine(name);
    if (!engine) throw std::invalid_argument("no engine \"" + name + "\"");
    WorkerEvents events;
    events.on_started = [this, name](const std::string& id_name,
                                     const std::vector<uqi::OptionLine>& declared) {
      std::lock_guard lock(mutex_);
      if (!closing_) on_engine_started(name, id_name, declared);
    };
    events.on_failed = [this](const std::string& error) {
      std::lock_guard lock(mutex_);
      if (!closing_) send_error(error);
    };
    found = workers_
                .emplace(name, std::make_unique<EngineWorker>(*engine, config_.launcher,
                                                              config_.handshake_timeout,
                                                              std::move(events)))
                .first;
  }
  return *found->second;
}

const arena::EngineConfig* GuiSession::find_engine(const std::string& name) const {
  for (const arena::EngineConfig& engine : config_.engines)
    if (engine.name == name) return &engine;
  return nullptr;
}

const std::string& GuiSession::default_engine() const {
  if (config_.engines.empty())
    throw std::invalid_argument("no engine was listed when quixo-gui started");
  return config_.engines.front().name;
}

void GuiSession::send_error(std::string_view message) {
  send_(format_error(message));
}

void GuiSession::send_state() {
  StateMessage state;
  state.variant = game_.variant();
  state.players = game_.players();
  if (game_.time_control()) state.time = game_.time_control()->to_string();
  state.start = game_.start().text();
  state.moves = game_.moves();
  state.ply = game_.ply();
  if (config_.store) state.game_id = game_id_;
  state.line = game_.line();
  state.nodes = game_.nodes();
  state.position = game_.shown().text();
  state.to_move = to_move_text(game_.shown());
  if (game_.at_end()) state.result = game_.result();
  state.human_to_move = game_.human_to_move() && !(active_ && !active_->analysis);
  state.legal = game_.legal_moves();
  if (game_.has_clock())
    state.clock = StateClock{game_.remaining_ms(SteadyClock::now()), game_.running_clock()};
  if (active_) state.thinking = StateThinking{active_->engine, active_->analysis};
  state.ponder = ponder_on_;
  state.levels = game_.levels();
  state.names = game_.names();
  state.paused = game_.paused();
  if (pondering_) state.pondering = StatePondering{pondering_->engine, pondering_->ponder_move};
  state.analysis = {analysis_on_,
                    analysis_engine_.empty() && !config_.engines.empty()
                        ? config_.engines.front().name
                        : analysis_engine_,
                    analysis_multipv_};
  if (config_.tables && game_.variant() == Variant::TwoPlayer) {
    const Position position = parse_position(game_.shown().text());
    if (const std::optional<tb::ProbeReport> report = tb::probe_report(*config_.tables, position)) {
      StateTb tb{report->value, {}};
      for (const tb::MoveValue& move : report->moves)
        tb.moves.push_back({to_string(move.move), move.value});
      state.tb = std::move(tb);
    }
  }
  send_(format_state(state));
  save_game();
}

}  // namespace quixo::gui
