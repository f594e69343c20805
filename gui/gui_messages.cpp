#include "gui_messages.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "json_fields.hpp"

namespace quixo::gui {
namespace json = boost::json;
namespace {

// Thrown by the field readers below; parse_request turns it into the page's error sentence.
struct FieldError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const json::value* field(const json::object& object, std::string_view name) {
  return object.if_contains(name);
}

std::string required_string(const json::object& object, std::string_view name) {
  const json::value* value = field(object, name);
  if (!value) throw FieldError("missing field \"" + std::string(name) + "\"");
  if (!value->is_string()) throw FieldError("field \"" + std::string(name) + "\" must be a string");
  return std::string(value->get_string());
}

std::optional<std::string> optional_string(const json::object& object, std::string_view name) {
  const json::value* value = field(object, name);
  if (!value || value->is_null()) return std::nullopt;
  if (!value->is_string()) throw FieldError("field \"" + std::string(name) + "\" must be a string");
  return std::string(value->get_string());
}

std::optional<int> optional_int(const json::object& object, std::string_view name, int low,
                                int high) {
  const json::value* value = field(object, name);
  if (!value || value->is_null()) return std::nullopt;
  std::int64_t number = 0;
  if (value->is_int64())
    number = value->get_int64();
  else if (value->is_uint64() && value->get_uint64() <= std::uint64_t(high))
    number = std::int64_t(value->get_uint64());
  else
    throw FieldError("field \"" + std::string(name) + "\" must be a whole number");
  if (number < low || number > high)
    throw FieldError("field \"" + std::string(name) + "\" must be from " + std::to_string(low) +
                     " to " + std::to_string(high));
  return int(number);
}

std::optional<bool> optional_bool(const json::object& object, std::string_view name) {
  const json::value* value = field(object, name);
  if (!value || value->is_null()) return std::nullopt;
  if (!value->is_bool())
    throw FieldError("field \"" + std::string(name) + "\" must be true or false");
  return value->get_bool();
}

int required_int(const json::object& object, std::string_view name, int low, int high) {
  const std::optional<int> number = optional_int(object, name, low, high);
  if (!number) throw FieldError("missing field \"" + std::string(name) + "\"");
  return *number;
}

std::vector<std::string> required_moves(const json::object& object, std::string_view name) {
  const json::value* value = field(object, name);
  if (!value) throw FieldError("missing field \"" + std::string(name) + "\"");
  if (!value->is_array())
    throw FieldError("field \"" + std::string(name) + "\" must be an array of moves");
  const json::array& array = value->get_array();
  if (array.size() > kMaxLineMoves)
    throw FieldError("field \"" + std::string(name) + "\" has more than " +
                     std::to_string(kMaxLineMoves) + " moves");
  std::vector<std::string> moves;
  for (const json::value& move : array) {
    if (!move.is_string())
      throw FieldError("field \"" + std::string(name) + "\" must be an array of moves");
    moves.emplace_back(move.get_string());
  }
  return moves;
}

Request parse_object(const json::object& object) {
  const std::string type = required_string(object, "type");
  if (type == "new_game") {
    NewGameRequest request;
    request.variant = optional_string(object, "variant").value_or("2p");
    const json::value* players = field(object, "players");
    if (!players) throw FieldError("missing field \"players\"");
    if (!players->is_array()) throw FieldError("field \"players\" must be an array of names");
    for (const json::value& player : players->get_array()) {
      if (!player.is_string()) throw FieldError("field \"players\" must be an array of names");
      request.players.emplace_back(player.get_string());
    }
    request.time = optional_string(object, "time");
    request.position = optional_string(object, "position");
    request.ponder = optional_bool(object, "ponder").value_or(false);
    request.elo = optional_int(object, "elo", 0, 100'000);
    request.elo_if_offered = optional_bool(object, "elo_if_offered").value_or(false);
    return request;
  }
  if (type == "move") return MoveRequest{required_string(object, "move")};
  if (type == "takeback") return TakeBackRequest{};
  if (type == "goto") {
    const std::optional<int> node =
        optional_int(object, "node", 0, std::numeric_limits<int>::max());
    if (node) return GoToRequest{0, node};
    return GoToRequest{required_int(object, "ply", 0, std::numeric_limits<int>::max()), {}};
  }
  if (type == "think") return ThinkRequest{optional_string(object, "engine")};
  if (type == "stop") return StopRequest{};
  if (type == "analyze") {
    AnalyzeRequest request;
    const std::optional<bool> on = optional_bool(object, "on");
    if (!on) throw FieldError("field \"on\" must be true or false");
    request.on = *on;
    request.engine = optional_string(object, "engine");
    request.multipv = optional_int(object, "multipv", 1, 44).value_or(1);
    return request;
  }
  if (type == "setup") return SetupRequest{required_string(object, "position")};
  if (type == "save_pgn") return SavePgnRequest{};
  if (type == "load_pgn")
    return LoadPgnRequest{
        required_string(object, "text"), optional_bool(object, "more").value_or(false),
        optional_int(object, "part", 0, std::numeric_limits<int>::max()).value_or(0)};
  if (type == "engine_options") return EngineOptionsRequest{required_string(object, "engine")};
  if (type == "set_option")
    return SetOptionRequest{required_string(object, "engine"), required_string(object, "name"),
                            optional_string(object, "value").value_or("")};
  if (type == "pause") {
    const std::optional<bool> on = optional_bool(object, "on");
    if (!on) throw FieldError("field \"on\" must be true or false");
    return PauseRequest{*on};
  }
  if (type == "pgn_list") {
    PgnListRequest request;
    request.offset = optional_int(object, "offset", 0, std::numeric_limits<int>::max()).value_or(0);
    request.limit = optional_int(object, "limit", 1, 1000).value_or(100);
    request.player = optional_string(object, "player");
    request.result = optional_string(object, "result");
    return request;
  }
  if (type == "open_game")
    return OpenGameRequest{required_int(object, "index", 0, std::numeric_limits<int>::max())};
  if (type == "resume") return ResumeRequest{required_string(object, "game_id")};
  if (type == "recent_games") return RecentGamesRequest{};
  if (type == "set_players") {
    SetPlayersRequest request;
    const json::value* players = field(object, "players");
    if (!players || !players->is_array())
      throw FieldError("field \"players\" must be an array of names");
    for (const json::value& player : players->get_array()) {
      if (!player.is_string()) throw FieldError("field \"players\" must be an array of names");
      request.players.emplace_back(player.get_string());
    }
    return request;
  }
  const auto node_of = [&] {
    return required_int(object, "node", 0, std::numeric_limits<int>::max());
  };
  if (type == "comment") return CommentRequest{node_of(), required_string(object, "text")};
  if (type == "promote") return PromoteRequest{node_of()};
  if (type == "delete") return DeleteRequest{node_of()};
  if (type == "analyze_game") {
    AnalyzeGameRequest request;
    const std::optional<bool> on = optional_bool(object, "on");
    if (!on) throw FieldError("field \"on\" must be true or false");
    request.on = *on;
    request.engine = optional_string(object, "engine");
    request.movetime_ms =
        optional_int(object, "movetime_ms", kMinAnalysisMoveTimeMs, kMaxAnalysisMoveTimeMs)
            .value_or(1000);
    return request;
  }
  if (type == "preview") return PreviewRequest{required_moves(object, "moves")};
  if (type == "play_line") return PlayLineRequest{required_moves(object, "moves")};
  throw FieldError("unknown message type \"" + type + "\"");
}

}  // namespace

ParsedRequest parse_request(std::string_view text) {
  boost::system::error_code error;
  const json::value value = json::parse(text, error);
  if (error) return {std::nullopt, "the message is not JSON: " + error.message()};
  if (!value.is_object()) return {std::nullopt, "the message is not a JSON object"};
  try {
    return {parse_object(value.get_object()), {}};
  } catch (const FieldError& bad) {
    return {std::nullopt, bad.what()};
  }
}

std::string format_error(std::string_view message) {
  return json::serialize(json::object{{"type", "error"}, {"message", message}});
}

std::string format_warning(std::string_view message) {
  return json::serialize(json::object{{"type", "warning"}, {"message", message}});
}

std::string format_engine_options(std::string_view engine, std::string_view id_name,
                                  const std::vector<uqi::OptionLine>& declared,
                                  const std::vector<std::pair<std::string, std::string>>& values) {
  json::array options;
  for (const uqi::OptionLine& option : declared) {
    json::array vars;
    for (const std::string& var : option.vars) vars.emplace_back(var);
    const auto set = std::find_if(values.begin(), values.end(),
                                  [&](const auto& value) { return value.first == option.name; });
    options.push_back(json::object{
        {"name", option.name},
        {"type", option.type},
        {"default", optional_json(option.default_value)},
        {"min", optional_json(option.min)},
        {"max", optional_json(option.max)},
        {"vars", std::move(vars)},
        {"value", set == values.end() ? json::value(nullptr) : json::value(set->second)}});
  }
  return json::serialize(json::object{{"type", "engine_options"},
                                      {"engine", engine},
                                      {"id", id_name},
                                      {"options", std::move(options)}});
}

std::string format_info(const uqi::InfoLine& info, std::string_view engine,
                        std::string_view purpose, int ply) {
  json::array pv;
  for (const std::string& move : info.pv) pv.emplace_back(move);
  const char* bound = info.bound == uqi::ScoreBound::Lower   ? "lower"
                      : info.bound == uqi::ScoreBound::Upper ? "upper"
                                                             : "exact";
  return json::serialize(json::object{
      {"type", "info"},
      {"engine", engine},
      {"purpose", purpose},
      {"ply", ply},
      {"multipv", info.multipv.value_or(1)},
      {"depth", optional_json(info.depth)},
      {"seldepth", optional_json(info.selective_depth)},
      {"score", score_json(info.score_cp, info.score_mate)},
      {"bound", bound},
      {"nodes", optional_json(info.nodes)},
      {"nps", optional_json(info.nodes_per_second)},
      {"time_ms", optional_json(info.time_ms)},
      {"tbhits", optional_json(info.tbhits)},
      {"pv", std::move(pv)},
      {"string", optional_json(info.string)},
  });
}

namespace {

// The line that starts with node `first` and goes on along the first continuations, each move
// with the other continuations of its position as its variations.
json::array tree_line(std::span<const GuiNode> nodes, int first, int ply) {
  json::array line;
  for (int id = first;; ++ply) {
    const GuiNode& node = nodes[static_cast<std::size_t>(id)];
    json::array variations;
    const std::vector<int>& siblings = nodes[static_cast<std::size_t>(node.parent)].children;
    if (siblings.front() == id)
      for (std::size_t i = 1; i < siblings.size(); ++i)
        variations.push_back(tree_line(nodes, siblings[i], ply));
    line.push_back(json::object{{"id", id},
                                {"move", node.move.move},
                                {"ply", ply},
                                {"comment", node.comment},
                                {"variations", std::move(variations)}});
    if (node.children.empty()) break;
    id = node.children.front();
  }
  return line;
}

}  // namespace

std::string format_state(const StateMessage& state) {
  json::object message{{"type", "state"}};
  message["variant"] = state.variant == Variant::TwoPlayer ? "2p" : "4p";
  json::array players;
  for (const std::string& player : state.players) players.emplace_back(player);
  message["players"] = std::move(players);
  message["time"] = optional_json(state.time);
  message["start"] = state.start;
  json::array moves;
  for (const GuiMove& move : state.moves)
    moves.push_back(
        json::object{{"move", move.move},
                     {"by", move.by},
                     {"position", move.position},
                     {"time_ms", move.time_ms},
                     {"score", score_json(move.score_cp, move.score_mate)},
                     {"depth", optional_json(move.depth)},
                     {"analysis", move.analysis ? json::value(move_analysis_json(*move.analysis))
                                                : json::value(nullptr)}});
  message["moves"] = std::move(moves);
  message["ply"] = state.ply;
  message["position"] = state.position;
  message["to_move"] = state.to_move;
  if (state.result)
    message["result"] = json::object{{"score", arena::result_text(state.result->result)},
                                     {"reason", state.result->reason}};
  else
    message["result"] = nullptr;
  message["human_to_move"] = state.human_to_move;
  json::array legal;
  for (const LegalMove& move : state.legal)
    legal.push_back(json::object{{"move", move.move},
                                 {"from", optional_json(move.from)},
                                 {"to", optional_json(move.to)},
                                 {"point", optional_json(move.point)}});
  message["legal"] = std::move(legal);
  if (state.clock) {
    json::array left;
    for (const std::int64_t ms : state.clock->remaining_ms) left.emplace_back(ms);
    message["clock"] = json::object{{"remaining_ms", std::move(left)},
                                    {"running", optional_json(state.clock->running)}};
  } else {
    message["clock"] = nullptr;
  }
  message["thinking"] =
      state.thinking
          ? json::value(json::object{{"engine", state.thinking->engine},
                                     {"purpose", state.thinking->analysis ? "analysis" : "move"}})
          : json::value(nullptr);
  message["ponder"] = state.ponder;
  message["pondering"] = state.pondering
                             ? json::value(json::object{{"engine", state.pondering->engine},
                                                        {"move", state.pondering->move}})
                             : json::value(nullptr);
  message["analysis"] = json::object{{"on", state.analysis.on},
                                     {"engine", state.analysis.engine},
                                     {"multipv", state.analysis.multipv}};
  if (state.tb) {
    json::object tb = tb_value_json(state.tb->value);
    json::array tb_moves;
    for (const StateTbMove& move : state.tb->moves) {
      json::object entry = tb_value_json(move.value);
      entry["move"] = move.move;
      tb_moves.push_back(std::move(entry));
    }
    tb["moves"] = std::move(tb_moves);
    message["tb"] = std::move(tb);
  } else {
    message["tb"] = nullptr;
  }
  message["game_id"] = state.game_id;
  json::array line;
  for (std::size_t i = 1; i < state.line.size(); ++i) line.emplace_back(state.line[i]);
  message["line"] = std::move(line);
  message["node"] = state.line.empty() ? 0 : state.line[static_cast<std::size_t>(state.ply)];
  message["tree"] = state.nodes.empty() || state.nodes.front().children.empty()
                        ? json::array()
                        : tree_line(state.nodes, state.nodes.front().children.front(), 1);
  json::array levels;
  for (const std::optional<int>& level : state.levels) levels.push_back(optional_json(level));
  message["levels"] = std::move(levels);
  if (state.names.empty()) {
    message["names"] = nullptr;
  } else {
    json::array names;
    for (const std::string& name : state.names) names.emplace_back(name);
    message["names"] = std::move(names);
  }
  message["paused"] = state.paused;
  return json::serialize(message);
}

std::string format_game_analysis(const GameAnalysisProgress& progress) {
  return json::serialize(json::object{
      {"type", "game_analysis"},
      {"running", progress.running},
      {"done", progress.done},
      {"total", progress.total},
      {"engine", progress.engine.empty() ? json::value(nullptr) : json::value(progress.engine)},
      {"movetime_ms", progress.movetime_ms},
      {"cancelled", progress.cancelled}});
}

std::string format_preview(int ply, std::span<const std::string> moves,
                           std::span<const std::string> positions) {
  json::array move_list;
  for (const std::string& move : moves) move_list.emplace_back(move);
  json::array position_list;
  for (const std::string& position : positions) position_list.emplace_back(position);
  return json::serialize(json::object{{"type", "preview"},
                                      {"ply", ply},
                                      {"moves", std::move(move_list)},
                                      {"positions", std::move(position_list)}});
}

}  // namespace quixo::gui
