#include "game_store.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "core/notation.hpp"
#include "json_fields.hpp"

namespace quixo::gui {
namespace json = boost::json;
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kFormat = "quixo-gui game";
constexpr int kVersion = 1;
constexpr std::string_view kSuffix = ".json";
// A saved game is small (a few hundred bytes a move); a bigger file is not one of ours.
constexpr std::uintmax_t kMaxFileBytes = 16u << 20;
// A rating or a level (UCI_Elo), as PGN's WhiteElo is read.
constexpr std::int64_t kMaxElo = 100'000;

[[noreturn]] void bad(const std::string& what) {
  throw std::invalid_argument(what);
}

const json::value& member(const json::object& object, std::string_view name,
                          std::string_view where) {
  const json::value* value = object.if_contains(name);
  if (!value) bad(std::string(where) + " has no field \"" + std::string(name) + "\"");
  return *value;
}

std::string string_of(const json::object& object, std::string_view name, std::string_view where) {
  const json::value& value = member(object, name, where);
  if (!value.is_string())
    bad(std::string(where) + ": field \"" + std::string(name) + "\" must be a string");
  return std::string(value.get_string());
}

std::int64_t int_of(const json::value& value, std::string_view name, std::string_view where,
                    std::int64_t low, std::int64_t high) {
  std::int64_t number = 0;
  if (value.is_int64())
    number = value.get_int64();
  else if (value.is_uint64() && value.get_uint64() <= std::uint64_t(high))
    number = std::int64_t(value.get_uint64());
  else
    bad(std::string(where) + ": field \"" + std::string(name) + "\" must be a whole number");
  if (number < low || number > high)
    bad(std::string(where) + ": field \"" + std::string(name) + "\" must be from " +
        std::to_string(low) + " to " + std::to_string(high));
  return number;
}

std::int64_t int_of(const json::object& object, std::string_view name, std::string_view where,
                    std::int64_t low, std::int64_t high) {
  return int_of(member(object, name, where), name, where, low, high);
}

std::optional<int> optional_int_of(const json::object& object, std::string_view name,
                                   std::string_view where, std::int64_t low = -1'000'000'000,
                                   std::int64_t high = 1'000'000'000) {
  const json::value* value = object.if_contains(name);
  if (!value || value->is_null()) return std::nullopt;
  return static_cast<int>(int_of(*value, name, where, low, high));
}

bool bool_of(const json::object& object, std::string_view name, std::string_view where) {
  const json::value& value = member(object, name, where);
  if (!value.is_bool())
    bad(std::string(where) + ": field \"" + std::string(name) + "\" must be true or false");
  return value.get_bool();
}

const json::object& object_of(const json::value& value, std::string_view where) {
  if (!value.is_object()) bad(std::string(where) + " must be a JSON object");
  return value.get_object();
}

const json::array& array_of(const json::object& object, std::string_view name,
                            std::string_view where) {
  const json::value& value = member(object, name, where);
  if (!value.is_array())
    bad(std::string(where) + ": field \"" + std::string(name) + "\" must be an array");
  return value.get_array();
}

json::value result_json(const std::optional<GuiResult>& result) {
  if (!result) return nullptr;
  return json::object{{"score", arena::result_text(result->result)},
                      {"termination", arena::termination_name(result->termination)},
                      {"reason", result->reason}};
}

std::optional<GuiResult> result_of(const json::value& value, std::string_view where) {
  if (value.is_null()) return std::nullopt;
  const json::object& object = object_of(value, where);
  GuiResult result;
  const std::string score = string_of(object, "score", where);
  const std::optional<GameResult> parsed = arena::parse_result_text(score);
  if (!parsed || *parsed == GameResult::Unfinished)
    bad(std::string(where) + ": bad result \"" + score + "\"");
  result.result = *parsed;
  const std::string termination = string_of(object, "termination", where);
  const std::optional<Termination> ending = arena::parse_termination(termination);
  if (!ending) bad(std::string(where) + ": unknown termination \"" + termination + "\"");
  result.termination = *ending;
  result.reason = string_of(object, "reason", where);
  return result;
}

// The analysis in the page's form (json_fields.hpp), `loss` whole.
json::value analysis_json(const std::optional<MoveAnalysis>& analysis) {
  if (!analysis) return nullptr;
  return move_analysis_json(*analysis, true);
}

std::optional<std::string> optional_string_of(const json::object& object, std::string_view name,
                                              std::string_view where) {
  if (member(object, name, where).is_null()) return std::nullopt;
  return string_of(object, name, where);
}

// A move's whole-game analysis, each field checked; `before` is the position the move was
// played in (the best move must be legal there).
std::optional<MoveAnalysis> analysis_of(const json::value& value, const Game& before,
                                        const std::string& where) {
  if (value.is_null()) return std::nullopt;
  const json::object& object = object_of(value, where);
  MoveAnalysis analysis;
  if (const json::value& score = member(object, "score", where); !score.is_null()) {
    const std::string score_where = where + ", \"score\"";
    const json::object& fields = object_of(score, score_where);
    if (fields.size() != 1 || (!fields.contains("cp") && !fields.contains("mate")))
      bad(where + ": field \"score\" must be {\"cp\":N}, {\"mate\":N} or null");
    if (fields.contains("cp"))
      analysis.after.score_cp = optional_int_of(fields, "cp", score_where);
    else
      analysis.after.score_mate = optional_int_of(fields, "mate", score_where);
    if (!analysis.after.score_cp && !analysis.after.score_mate)
      bad(where + ": field \"score\" holds no number");
  }
  if (const json::value& tb = member(object, "tb", where); !tb.is_null()) {
    const std::string tb_where = where + ", \"tb\"";
    const json::object& fields = object_of(tb, tb_where);
    const std::string wdl = string_of(fields, "value", tb_where);
    tb::TbValue exact;
    if (wdl == "win")
      exact.wdl = tb::Wdl::Win;
    else if (wdl == "loss")
      exact.wdl = tb::Wdl::Loss;
    else if (wdl != "draw")
      bad(tb_where + ": bad value \"" + wdl + "\" (win, loss or draw)");
    const std::optional<int> distance = optional_int_of(fields, "distance", tb_where, 0, 1'000'000);
    if (exact.wdl == tb::Wdl::Draw ? distance.has_value() : !distance.has_value())
      bad(tb_where + ": a draw has no distance, a win or a loss has one");
    exact.distance = distance.value_or(0);
    analysis.after.exact = exact;
  }
  if (const std::optional<std::string> best = optional_string_of(object, "best", where)) {
    Game position = before;
    std::string played;
    try {
      played = position.play(*best);
    } catch (const NotationError& problem) {
      bad(where + ": the best move " + *best + " is not legal there: " + problem.what());
    }
    if (played != *best) bad(where + ": the best move " + *best + " is not written as " + played);
    analysis.best = *best;
  }
  const json::value& loss = member(object, "loss", where);
  if (!loss.is_number() || loss.to_number<double>() < 0 || loss.to_number<double>() > 1)
    bad(where + ": field \"loss\" must be a number from 0 to 1");
  analysis.loss = loss.to_number<double>();
  analysis.cp_loss = static_cast<int>(int_of(object, "cp_loss", where, 0, 2 * kCentipawnCap));
  if (const std::optional<std::string> mark = optional_string_of(object, "mark", where)) {
    const std::optional<MoveMark> parsed = parse_mark_name(*mark);
    if (!parsed) bad(where + ": unknown mark \"" + *mark + "\" (inaccuracy, mistake or blunder)");
    analysis.mark = *parsed;
  }
  return analysis;
}

// The tags record() starts from; the result is the game's own, not saved here.
json::object tags_json(const GuiGame& game) {
  const arena::GameRecord& tags = game.tags();
  json::object object{{"loaded", game.loaded()},
                      {"event", tags.event},
                      {"site", tags.site},
                      {"date", tags.date},
                      {"round", tags.round},
                      {"white", tags.x_name},
                      {"black", tags.o_name},
                      {"white_elo", optional_json(tags.x_elo)},
                      {"black_elo", optional_json(tags.o_elo)},
                      {"time_control", tags.time_control},
                      {"o_time_control", optional_json(tags.o_time_control)},
                      {"start_time", tags.start_time},
                      {"end_time", tags.end_time},
                      {"duration", tags.duration}};
  object["seating"] = nullptr;
  object["seats"] = nullptr;
  if (tags.four_player) {
    object["seating"] = arena::seating_name(tags.four_player->seating);
    json::array seats;
    for (const std::string& name : tags.four_player->names) seats.emplace_back(name);
    object["seats"] = std::move(seats);
  }
  return object;
}

void read_tags(const json::value& value, GuiGame& game) {
  const std::string where = "\"tags\"";
  const json::object& object = object_of(value, where);
  arena::GameRecord tags;
  const bool loaded = bool_of(object, "loaded", where);
  for (const auto& [name, field] :
       {std::pair{"event", &tags.event}, std::pair{"site", &tags.site},
        std::pair{"date", &tags.date}, std::pair{"round", &tags.round},
        std::pair{"white", &tags.x_name}, std::pair{"black", &tags.o_name},
        std::pair{"time_control", &tags.time_control}, std::pair{"start_time", &tags.start_time},
        std::pair{"end_time", &tags.end_time}, std::pair{"duration", &tags.duration}})
    *field = string_of(object, name, where);
  tags.x_elo = optional_int_of(object, "white_elo", where, 0, kMaxElo);
  tags.o_elo = optional_int_of(object, "black_elo", where, 0, kMaxElo);
  tags.o_time_control = optional_string_of(object, "o_time_control", where);
  const std::optional<std::string> seating = optional_string_of(object, "seating", where);
  const json::value& seats = member(object, "seats", where);
  // Only a four-player game read from a PGN has its own seats (a new one's are its players).
  const bool has_seats = loaded && game.variant() == Variant::FourPlayer;
  if (seating.has_value() != has_seats || seats.is_null() == has_seats)
    bad(where +
        ": \"seating\" and \"seats\" are given for, and only for, a four-player game "
        "read from a PGN");
  if (has_seats) {
    arena::FourPlayerSeats four;
    const std::optional<arena::Seating> parsed = arena::parse_seating(*seating);
    if (!parsed) bad(where + ": unknown seating \"" + *seating + "\" (per-seat or per-team)");
    four.seating = *parsed;
    const json::array& names = array_of(object, "seats", where);
    if (names.size() != 4) bad(where + ": field \"seats\" must name 4 seats");
    for (std::size_t i = 0; i < 4; ++i) {
      if (!names[i].is_string()) bad(where + ": field \"seats\" must name 4 seats");
      four.names[i] = std::string(names[i].get_string());
    }
    tags.four_player = std::move(four);
  }
  game.set_tags(std::move(tags), loaded);
}

std::int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string format_saved_game(const SavedGame& saved, SteadyTime now) {
  const GuiGame& game = saved.game;
  json::object file{{"format", kFormat}, {"version", kVersion}, {"id", saved.id}};
  file["saved_ms"] = saved.saved_ms;
  file["variant"] = game.variant() == Variant::TwoPlayer ? "2p" : "4p";
  json::array players;
  for (const std::string& player : game.players()) players.emplace_back(player);
  file["players"] = std::move(players);
  file["time"] =
      game.time_control() ? json::value(game.time_control()->to_string()) : json::value(nullptr);
  file["start"] = game.start().text();
  json::array levels;
  for (const std::optional<int>& level : game.levels()) levels.push_back(optional_json(level));
  file["levels"] = std::move(levels);
  file["tags"] = tags_json(game);
  file["ponder"] = saved.ponder;
  file["analysis"] = json::object{{"on", saved.analysis_on},
                                  {"engine", saved.analysis_engine},
                                  {"multipv", saved.analysis_multipv}};
  // The tree in pre-order, so that each node's parent comes before it; index 0 is the start.
  const std::vector<GuiNode>& nodes = game.nodes();
  std::vector<int> index(nodes.size(), -1);
  json::array entries;
  std::vector<int> stack{0};
  int next = 0;
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    const GuiNode& node = nodes[static_cast<std::size_t>(id)];
    index[static_cast<std::size_t>(id)] = next++;
    for (auto child = node.children.rbegin(); child != node.children.rend(); ++child)
      stack.push_back(*child);
    if (node.parent < 0) {
      file["start_result"] = result_json(node.result);
      continue;
    }
    entries.push_back(json::object{{"parent", index[static_cast<std::size_t>(node.parent)]},
                                   {"move", node.move.move},
                                   {"by", node.move.by},
                                   {"time_ms", node.move.time_ms},
                                   {"score_cp", optional_json(node.move.score_cp)},
                                   {"score_mate", optional_json(node.move.score_mate)},
                                   {"depth", optional_json(node.move.depth)},
                                   {"comment", node.comment},
                                   {"result", result_json(node.result)},
                                   {"analysis", analysis_json(node.move.analysis)}});
  }
  file["nodes"] = std::move(entries);
  file["line_end"] = index[static_cast<std::size_t>(game.line().back())];
  file["ply"] = game.ply();
  if (game.has_clock()) {
    json::array left;
    json::array to_go;
    for (const std::int64_t ms : game.remaining_ms(now)) left.emplace_back(ms);
    for (const arena::Clock& clock : game.clocks()) to_go.emplace_back(clock.moves_to_go());
    file["clock"] =
        json::object{{"remaining_ms", std::move(left)}, {"moves_to_go", std::move(to_go)}};
  } else {
    file["clock"] = nullptr;
  }
  file["paused"] = game.paused();
  return json::serialize(file);
}

SavedGame parse_saved_game(std::string_view text, SteadyTime now) {
  boost::system::error_code error;
  const json::value value = json::parse(text, error);
  if (error) bad("it is not JSON: " + error.message());
  const json::object& file = object_of(value, "the saved game");
  const std::string_view where = "the saved game";
  if (string_of(file, "format", where) != kFormat)
    bad("it is not a quixo-gui game (\"format\" is not \"" + std::string(kFormat) + "\")");
  const std::int64_t version = int_of(file, "version", where, 0, 1'000'000);
  if (version != kVersion)
    bad("it is of version " + std::to_string(version) + "; this quixo-gui reads version " +
        std::to_string(kVersion));
  SavedGame saved;
  saved.id = string_of(file, "id", where);
  if (!GameStore::valid_id(saved.id)) bad("bad id \"" + saved.id + "\"");
  saved.saved_ms = int_of(file, "saved_ms", where, 0, std::numeric_limits<std::int64_t>::max());
  const std::string variant_text = string_of(file, "variant", where);
  if (variant_text != "2p" && variant_text != "4p")
    bad("unknown variant \"" + variant_text + "\" (2p or 4p)");
  const Variant variant = variant_text == "2p" ? Variant::TwoPlayer : Variant::FourPlayer;
  std::vector<std::string> players;
  for (const json::value& player : array_of(file, "players", where)) {
    if (!player.is_string()) bad("the players must be names");
    players.emplace_back(player.get_string());
  }
  std::optional<arena::TimeControl> control;
  if (const json::value& time = member(file, "time", where); !time.is_null()) {
    if (!time.is_string()) bad("field \"time\" must be a time control or null");
    control = arena::TimeControl::parse(std::string(time.get_string()));
  }
  saved.ponder = bool_of(file, "ponder", where);
  const json::object& analysis = object_of(member(file, "analysis", where), "\"analysis\"");
  saved.analysis_on = bool_of(analysis, "on", "\"analysis\"");
  saved.analysis_engine = string_of(analysis, "engine", "\"analysis\"");
  saved.analysis_multipv = static_cast<int>(int_of(analysis, "multipv", "\"analysis\"", 1, 44));
  try {
    saved.game = GuiGame(variant, players, control, string_of(file, "start", where), now);
  } catch (const NotationError& problem) {
    bad(std::string("bad start position: ") + problem.what());
  }
  GuiGame& game = saved.game;
  // Levels, tags and "paused" came with the levels, whole-game analysis and PGN pages: a file
  // saved before them has none (full strength, a new game's tags, not paused).
  if (const json::value* levels = file.if_contains("levels")) {
    if (!levels->is_array() || levels->get_array().size() != game.players().size())
      bad("field \"levels\" must be an array of one level per player (" +
          std::to_string(game.players().size()) + ")");
    std::vector<std::optional<int>> each;
    for (const json::value& level : levels->get_array())
      each.push_back(level.is_null() ? std::nullopt
                                     : std::optional<int>(static_cast<int>(
                                           int_of(level, "levels", where, 0, kMaxElo))));
    game.set_levels(std::move(each));
  }
  if (const json::value* tags = file.if_contains("tags")) read_tags(*tags, game);
  if (const json::value* start_result = file.if_contains("start_result"))
    if (std::optional<GuiResult> result = result_of(*start_result, "the start's result"))
      game.set_result(0, std::move(result));
  // File index -> node id (the same unless moves repeat, which a file of ours never has).
  std::vector<int> ids{0};
  const json::array& nodes = array_of(file, "nodes", where);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string name = "move " + std::to_string(i + 1) + " of the tree";
    const json::object& node = object_of(nodes[i], name);
    const auto parent = static_cast<std::size_t>(
        int_of(node, "parent", name, 0, static_cast<std::int64_t>(ids.size()) - 1));
    GuiMove details;
    details.by = string_of(node, "by", name);
    details.time_ms = int_of(node, "time_ms", name, 0, std::numeric_limits<std::int64_t>::max());
    details.score_cp = optional_int_of(node, "score_cp", name);
    details.score_mate = optional_int_of(node, "score_mate", name);
    details.depth = optional_int_of(node, "depth", name);
    const std::string move = string_of(node, "move", name);
    if (const json::value* judged = node.if_contains("analysis"))
      details.analysis =
          analysis_of(*judged, game.nodes()[static_cast<std::size_t>(ids[parent])].position,
                      name + ", \"analysis\"");
    int id = 0;
    try {
      id = game.add_move(ids[parent], move, details);
    } catch (const NotationError& problem) {
      bad(name + ": illegal move " + move + ": " + problem.what());
    }
    ids.push_back(id);
    game.set_comment(id, string_of(node, "comment", name));
    if (std::optional<GuiResult> result = result_of(member(node, "result", name), name))
      game.set_result(id, std::move(result));
  }
  const auto line_end = static_cast<std::size_t>(
      int_of(file, "line_end", where, 0, static_cast<std::int64_t>(ids.size()) - 1));
  game.go_to_node(ids[line_end], now);
  game.go_to(static_cast<int>(int_of(file, "ply", where, 0, game.length())), now);
  const json::value& clock = member(file, "clock", where);
  if (game.has_clock()) {
    if (!clock.is_object()) bad("a game with a clock has no saved clock");
    std::vector<std::int64_t> left;
    std::vector<int> to_go;
    const std::int64_t limit = std::int64_t(1) << 50;
    for (const json::value& ms : array_of(clock.get_object(), "remaining_ms", "\"clock\""))
      left.push_back(int_of(ms, "remaining_ms", "\"clock\"", -limit, limit));
    for (const json::value& moves : array_of(clock.get_object(), "moves_to_go", "\"clock\""))
      to_go.push_back(static_cast<int>(int_of(moves, "moves_to_go", "\"clock\"", 0, 1'000'000)));
    game.restore_clocks(left, to_go, now);
  }
  if (file.contains("paused") && bool_of(file, "paused", where)) game.pause(now);
  return saved;
}

GameStore::GameStore(fs::path folder) : folder_(std::move(folder)) {
  if (folder_.empty()) throw std::runtime_error("no data folder given");
  std::error_code error;
  fs::create_directories(folder_, error);
  if (error)
    throw std::runtime_error("cannot create the data folder " + folder_.string() + ": " +
                             error.message());
  if (!fs::is_directory(folder_, error))
    throw std::runtime_error("the data folder " + folder_.string() + " is not a folder");
  const fs::path probe = folder_ / (".write-test-" + new_id());
  {
    std::ofstream out(probe);
    out << "quixo-gui\n";
    if (!out.flush())
      throw std::runtime_error("cannot write in the data folder " + folder_.string());
  }
  fs::remove(probe, error);
}

std::string GameStore::new_id() {
  static thread_local std::mt19937_64 random{std::random_device{}() ^
                                             static_cast<std::uint64_t>(unix_ms_now())};
  std::ostringstream text;
  text << std::hex;
  text.width(16);
  text.fill('0');
  text << random();
  return text.str();
}

bool GameStore::valid_id(std::string_view id) {
  return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-';
  });
}

fs::path GameStore::file_of(const std::string& id) const {
  if (!valid_id(id)) throw std::runtime_error("bad game id \"" + id + "\"");
  return folder_ / (id + std::string(kSuffix));
}

void GameStore::save(const std::string& id, const std::string& text) const {
  const fs::path file = file_of(id);
  fs::path temporary = file;
  temporary += ".tmp-" + new_id();
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw std::runtime_error("cannot write " + file.string() + " (" + std::strerror(errno) + ")");
    }
  }
  std::error_code error;
  fs::rename(temporary, file, error);
  if (error) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw std::runtime_error("cannot save " + file.string() + ": " + error.message());
  }
}

std::string GameStore::load(const std::string& id) const {
  const fs::path file = file_of(id);
  std::error_code error;
  const std::uintmax_t size = fs::file_size(file, error);
  if (error) throw std::runtime_error("there is no saved game \"" + id + "\"");
  if (size > kMaxFileBytes)
    throw std::runtime_error(file.string() + " is too big for a saved game");
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw std::runtime_error("cannot read " + file.string());
  return text.str();
}

std::vector<std::string> GameStore::newest(std::size_t count) const {
  std::vector<std::pair<fs::file_time_type, std::string>> games;
  std::error_code error;
  for (fs::directory_iterator entry(folder_, error), end; !error && entry != end;
       entry.increment(error)) {
    const fs::path& path = entry->path();
    if (path.extension() != kSuffix) continue;
    const std::string id = path.stem().string();
    if (!valid_id(id)) continue;
    std::error_code time_error;
    const fs::file_time_type written = fs::last_write_time(path, time_error);
    if (!time_error) games.emplace_back(written, id);
  }
  std::sort(games.begin(), games.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < games.size() && i < count; ++i) ids.push_back(games[i].second);
  return ids;
}

fs::path default_data_folder() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
    return fs::path(xdg) / "quixo-gui";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".local" / "share" / "quixo-gui";
  return {};
}

}  // namespace quixo::gui
