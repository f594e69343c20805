#include "uqi_client_messages.hpp"

#include <algorithm>

#include "core/text_helpers.hpp"

namespace quixo::uqi {

using text_helpers::clamp_to;
using text_helpers::join;
using text_helpers::parse_integer;
using text_helpers::parse_unsigned;
using text_helpers::rest_of_line;
using text_helpers::tokenize;

namespace {

bool is_info_keyword(std::string_view token) {
  static constexpr std::string_view kKeywords[] = {
      "depth",      "seldepth", "time",           "nodes",      "pv",       "multipv",
      "score",      "currmove", "currmovenumber", "hashfull",   "nps",      "tbhits",
      "sbhits",     "cpuload",  "string",         "refutation", "currline", "lowerbound",
      "upperbound", "cp",       "mate",           "wdl"};
  return std::find(std::begin(kKeywords), std::end(kKeywords), token) != std::end(kKeywords);
}

}  // namespace

std::string format_setoption_command(const SetOptionCommand& command) {
  std::string out = "setoption name " + command.name;
  if (command.value) out += " value " + *command.value;
  return out;
}

std::optional<OptionLine> parse_option_line(std::string_view line) {
  const std::vector<std::string_view> tokens = tokenize(line);
  if (tokens.size() < 2 || tokens[0] != "option" || tokens[1] != "name") return std::nullopt;
  OptionLine option;
  // Multi-word fields run up to the next keyword.
  static constexpr std::string_view kKeys[] = {"name", "type", "default", "min", "max", "var"};
  const auto is_key = [](std::string_view token) {
    return std::find(std::begin(kKeys), std::end(kKeys), token) != std::end(kKeys);
  };
  std::size_t i = 1;
  while (i < tokens.size()) {
    const std::string_view key = tokens[i++];
    if (!is_key(key)) continue;
    std::vector<std::string_view> words;
    // A name may contain keywords other than "type" ("Clear Hash" has none, but be lenient).
    while (i < tokens.size() && !(key == "name" ? tokens[i] == "type" : is_key(tokens[i])))
      words.push_back(tokens[i++]);
    const std::string value = join(words);
    if (key == "name") {
      option.name = value;
    } else if (key == "type") {
      option.type = value;
    } else if (key == "default") {
      option.default_value = value == "<empty>" ? std::string() : value;
    } else if (key == "min") {
      option.min = parse_integer(value);
    } else if (key == "max") {
      option.max = parse_integer(value);
    } else {
      option.vars.push_back(value);
    }
  }
  if (option.name.empty()) return std::nullopt;
  return option;
}

std::optional<IdLine> parse_id_line(std::string_view line) {
  const std::vector<std::string_view> tokens = tokenize(line);
  if (tokens.size() < 2 || tokens[0] != "id") return std::nullopt;
  IdLine id{std::string(tokens[1]), {}};
  if (tokens.size() > 2) id.value = rest_of_line(line, tokens[2]);
  return id;
}

std::optional<InfoLine> parse_info_line(std::string_view line) {
  const std::vector<std::string_view> tokens = tokenize(line);
  if (tokens.empty() || tokens[0] != "info") return std::nullopt;
  InfoLine info;
  std::size_t i = 1;
  // The number after tokens[i], consumed only when it is one.
  const auto next_integer = [&]() -> std::optional<std::int64_t> {
    if (i + 1 >= tokens.size()) return std::nullopt;
    const auto value = parse_integer(tokens[i + 1]);
    if (value) ++i;
    return value;
  };
  const auto next_unsigned = [&]() -> std::optional<std::uint64_t> {
    if (i + 1 >= tokens.size()) return std::nullopt;
    const auto value = parse_unsigned(tokens[i + 1]);
    if (value) ++i;
    return value;
  };
  for (; i < tokens.size(); ++i) {
    const std::string_view key = tokens[i];
    if (key == "string") {
      info.string = i + 1 < tokens.size() ? rest_of_line(line, tokens[i + 1]) : std::string();
      break;
    }
    if (key == "depth") {
      if (const auto v = next_integer()) info.depth = clamp_to<int>(*v);
    } else if (key == "seldepth") {
      if (const auto v = next_integer()) info.selective_depth = clamp_to<int>(*v);
    } else if (key == "multipv") {
      if (const auto v = next_integer()) info.multipv = clamp_to<int>(*v);
    } else if (key == "time") {
      if (const auto v = next_integer()) info.time_ms = *v;
    } else if (key == "nodes") {
      if (const auto v = next_unsigned()) info.nodes = *v;
    } else if (key == "nps") {
      if (const auto v = next_unsigned()) info.nodes_per_second = *v;
    } else if (key == "hashfull") {
      if (const auto v = next_integer()) info.hashfull = clamp_to<int>(*v);
    } else if (key == "tbhits") {
      if (const auto v = next_unsigned()) info.tbhits = *v;
    } else if (key == "currmovenumber") {
      if (const auto v = next_integer()) info.currmovenumber = clamp_to<int>(*v);
    } else if (key == "currmove") {
      if (i + 1 < tokens.size() && !is_info_keyword(tokens[i + 1]))
        info.currmove = std::string(tokens[++i]);
    } else if (key == "score") {
      // score cp N | mate N, then optional bound words (also accepted before the value).
      while (i + 1 < tokens.size()) {
        const std::string_view part = tokens[i + 1];
        if (part == "cp" || part == "mate") {
          ++i;
          const auto v = next_integer();
          if (!v) continue;
          if (part == "cp") {
            info.score_cp = clamp_to<int>(*v);
            info.score_mate.reset();
          } else {
            info.score_mate = clamp_to<int>(*v);
            info.score_cp.reset();
          }
        } else if (part == "lowerbound") {
          ++i;
          info.bound = ScoreBound::Lower;
        } else if (part == "upperbound") {
          ++i;
          info.bound = ScoreBound::Upper;
        } else {
          break;
        }
      }
    } else if (key == "pv") {
      info.pv.clear();
      while (i + 1 < tokens.size() && !is_info_keyword(tokens[i + 1]))
        info.pv.emplace_back(tokens[++i]);
    }
    // Anything else (sbhits, cpuload, wdl values, unknown words) is skipped token by token.
  }
  return info;
}

std::optional<BestMoveLine> parse_bestmove_line(std::string_view line) {
  const std::vector<std::string_view> tokens = tokenize(line);
  if (tokens.size() < 2 || tokens[0] != "bestmove") return std::nullopt;
  BestMoveLine result{std::string(tokens[1]), std::nullopt};
  if (tokens.size() >= 4 && tokens[2] == "ponder") result.ponder = std::string(tokens[3]);
  return result;
}

std::optional<std::string> parse_response_line(std::string_view line) {
  const std::vector<std::string_view> tokens = tokenize(line);
  if (tokens.empty() || tokens[0] != "response") return std::nullopt;
  return tokens.size() > 1 ? rest_of_line(line, tokens[1]) : std::string();
}

namespace {

void append_limits(std::string& line, const GoLimits& own) {
  if (own.moves_to_go) line += " movestogo " + std::to_string(*own.moves_to_go);
  if (own.move_time_ms) line += " movetime " + std::to_string(*own.move_time_ms);
  if (own.nodes) line += " nodes " + std::to_string(*own.nodes);
  if (own.depth) line += " depth " + std::to_string(*own.depth);
}

}  // namespace

std::string format_go(const GoRequest& request, Protocol protocol) {
  const GoLimits& own = request.own;
  if (own.infinite) return "go infinite";
  // The clocks are named by colour (X, O) or by player (p1 = X), never by "own"/"other": the
  // mover's own clock goes under its colour.
  const GoLimits& x = request.mover_is_x ? request.own : request.other;
  const GoLimits& o = request.mover_is_x ? request.other : request.own;
  const bool uqi = protocol == Protocol::Uqi;
  std::string line = own.ponder ? "go ponder" : "go";
  if (x.time_ms) line += (uqi ? " xtime " : " p1time ") + std::to_string(*x.time_ms);
  if (o.time_ms) line += (uqi ? " otime " : " p2time ") + std::to_string(*o.time_ms);
  if (x.increment_ms) line += (uqi ? " xinc " : " p1inc ") + std::to_string(*x.increment_ms);
  if (o.increment_ms) line += (uqi ? " oinc " : " p2inc ") + std::to_string(*o.increment_ms);
  append_limits(line, own);
  return line;
}

std::string format_go4(const GoRequest4& request) {
  const GoLimits& own = request.seats[static_cast<std::size_t>(request.mover & 3)];
  if (own.infinite) return "go infinite";
  std::string line = own.ponder ? "go ponder" : "go";
  for (std::size_t seat = 0; seat < 4; ++seat)
    if (request.seats[seat].time_ms)
      line +=
          " s" + std::to_string(seat + 1) + "time " + std::to_string(*request.seats[seat].time_ms);
  for (std::size_t seat = 0; seat < 4; ++seat)
    if (request.seats[seat].increment_ms)
      line += " s" + std::to_string(seat + 1) + "inc " +
              std::to_string(*request.seats[seat].increment_ms);
  append_limits(line, own);
  return line;
}

}  // namespace quixo::uqi
