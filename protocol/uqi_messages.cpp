#include "uqi_messages.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <unordered_map>

namespace quixo::uqi {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

// Position of `token` (a view into `line`) inside `line`.
std::size_t offset_in(std::string_view line, std::string_view token) {
  return std::size_t(token.data() - line.data());
}

// The text of `line` from the start of `token` to the end, trailing whitespace removed.
std::string rest_of_line(std::string_view line, std::string_view token) {
  std::string_view rest = line.substr(offset_in(line, token));
  while (!rest.empty() && is_space(rest.back())) rest.remove_suffix(1);
  return std::string(rest);
}

std::string join(std::span<const std::string_view> tokens) {
  std::string out;
  for (const std::string_view token : tokens) {
    if (!out.empty()) out += ' ';
    out += token;
  }
  return out;
}

template <class Int>
Int clamp_to(std::int64_t value) {
  return Int(std::clamp<std::int64_t>(value, std::numeric_limits<Int>::min(),
                                      std::numeric_limits<Int>::max()));
}

// Unsigned numbers of engine output (nodes, nps) may exceed int64; read them whole.
std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  if (text.empty() || text[0] < '0' || text[0] > '9') return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (end != text.data() + text.size()) return std::nullopt;
  if (error == std::errc::result_out_of_range) return std::numeric_limits<std::uint64_t>::max();
  if (error != std::errc()) return std::nullopt;
  return value;
}

// ------------------------------------------------------------------------------ go keywords

enum class GoKey {
  XTime,
  OTime,
  XInc,
  OInc,
  SeatTime,  // + seat index
  SeatInc,
  MovesToGo,
  Depth,
  Nodes,
  Mate,
  MoveTime,
  Infinite,
  Ponder,
  SearchMoves,
  Perft,
};

struct GoKeyword {
  GoKey key;
  int seat = 0;
};

const std::unordered_map<std::string_view, GoKeyword>& go_keywords() {
  static const std::unordered_map<std::string_view, GoKeyword> keywords = {
      {"xtime", {GoKey::XTime}},
      {"otime", {GoKey::OTime}},
      {"xinc", {GoKey::XInc}},
      {"oinc", {GoKey::OInc}},
      // UGI names, p1 = X.
      {"p1time", {GoKey::XTime}},
      {"p2time", {GoKey::OTime}},
      {"p1inc", {GoKey::XInc}},
      {"p2inc", {GoKey::OInc}},
      // UCI names, for GUIs that send chess clocks: white moves first, as X does.
      {"wtime", {GoKey::XTime}},
      {"btime", {GoKey::OTime}},
      {"winc", {GoKey::XInc}},
      {"binc", {GoKey::OInc}},
      {"s1time", {GoKey::SeatTime, 0}},
      {"s2time", {GoKey::SeatTime, 1}},
      {"s3time", {GoKey::SeatTime, 2}},
      {"s4time", {GoKey::SeatTime, 3}},
      {"s1inc", {GoKey::SeatInc, 0}},
      {"s2inc", {GoKey::SeatInc, 1}},
      {"s3inc", {GoKey::SeatInc, 2}},
      {"s4inc", {GoKey::SeatInc, 3}},
      {"movestogo", {GoKey::MovesToGo}},
      {"depth", {GoKey::Depth}},
      {"nodes", {GoKey::Nodes}},
      {"mate", {GoKey::Mate}},
      {"movetime", {GoKey::MoveTime}},
      {"infinite", {GoKey::Infinite}},
      {"ponder", {GoKey::Ponder}},
      {"searchmoves", {GoKey::SearchMoves}},
      {"perft", {GoKey::Perft}},
  };
  return keywords;
}

bool is_go_keyword(std::string_view token) {
  return go_keywords().contains(token);
}

// -------------------------------------------------------------------------- info keywords

bool is_info_keyword(std::string_view token) {
  static constexpr std::string_view kKeywords[] = {
      "depth",      "seldepth", "time",           "nodes",      "pv",       "multipv",
      "score",      "currmove", "currmovenumber", "hashfull",   "nps",      "tbhits",
      "sbhits",     "cpuload",  "string",         "refutation", "currline", "lowerbound",
      "upperbound", "cp",       "mate",           "wdl"};
  return std::find(std::begin(kKeywords), std::end(kKeywords), token) != std::end(kKeywords);
}

}  // namespace

// ---------------------------------------------------------------------------------------------

std::vector<std::string_view> tokenize(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

std::string quoted(std::string_view text) {
  constexpr std::size_t kMaxEcho = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < kMaxEcho; ++i) {
    const char c = text[i];
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  if (text.size() > kMaxEcho) out += "...";
  return out + "'";
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  for (const char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  std::uint64_t magnitude = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), magnitude);
  const bool overflow = error == std::errc::result_out_of_range;
  if (!overflow && (error != std::errc() || end != text.data() + text.size())) return std::nullopt;
  constexpr std::uint64_t kMax = std::uint64_t(std::numeric_limits<std::int64_t>::max());
  if (negative)
    return overflow || magnitude > kMax ? std::numeric_limits<std::int64_t>::min()
                                        : -std::int64_t(magnitude);
  return overflow || magnitude > kMax ? std::numeric_limits<std::int64_t>::max()
                                      : std::int64_t(magnitude);
}

// ---------------------------------------------------------------------------------- position

Variant variant_of(const Game& game) {
  return std::holds_alternative<TwoPlayerGame>(game) ? Variant::TwoPlayer : Variant::FourPlayer;
}

std::string position_text(const Game& game) {
  return std::visit([](const auto& g) { return to_string(g.position); }, game);
}

std::vector<std::string> legal_move_texts(const Game& game) {
  return std::visit(
      [](const auto& g) {
        std::vector<std::string> texts;
        for (const auto move : g.position.legal_moves()) texts.push_back(to_string(move));
        return texts;
      },
      game);
}

int repetition_count(const Game& game) {
  if (const auto* two = std::get_if<TwoPlayerGame>(&game))
    return 1 +
           int(std::count(two->history_keys.begin(), two->history_keys.end(), two->position.key()));
  const auto& four = std::get<FourPlayerGame>(game);
  return 1 + int(std::count(four.history.begin(), four.history.end(), four.position));
}

namespace {

PositionCommand rejected(std::string error) {
  PositionCommand command;
  command.error = std::move(error);
  return command;
}

template <class GameT, class PositionT>
PositionCommand play_moves(PositionT position, std::span<const std::string_view> moves) {
  GameT game;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    try {
      const auto move = parse_move(position, moves[i]);
      if constexpr (std::is_same_v<GameT, TwoPlayerGame>)
        game.history_keys.push_back(position.key());
      else
        game.history.push_back(position);
      position = position.after(move);
    } catch (const NotationError& e) {
      return rejected("illegal move " + quoted(moves[i]) + " (move " + std::to_string(i + 1) +
                      " after the position): " + e.what());
    }
  }
  game.position = position;
  PositionCommand command;
  command.game = Game(std::move(game));
  return command;
}

}  // namespace

PositionCommand parse_position_command(std::span<const std::string_view> args) {
  if (args.empty()) return rejected("position needs 'startpos', 'startpos4' or 'fen <position>'");
  const auto moves_at = std::find(args.begin(), args.end(), std::string_view("moves"));
  const std::span<const std::string_view> setup(args.begin(), moves_at);
  const std::span<const std::string_view> moves =
      moves_at == args.end() ? std::span<const std::string_view>()
                             : std::span<const std::string_view>(moves_at + 1, args.end());
  std::string text;
  std::vector<std::string> notes;
  if (setup.empty()) return rejected("position: no position before 'moves'");
  if (setup[0] == "startpos" || setup[0] == "startpos4") {
    text = setup[0] == "startpos" ? std::string(kStartPosition) : std::string(kStartPosition4);
    if (setup.size() > 1)
      notes.push_back("position: ignored " + quoted(join(setup.subspan(1))) + " after " +
                      quoted(setup[0]) + " (expected 'moves')");
  } else if (setup[0] == "fen") {
    text = join(setup.subspan(1));
    if (text.empty()) return rejected("position fen: the position string is missing");
  } else {
    return rejected("position: expected 'startpos', 'startpos4' or 'fen', not " + quoted(setup[0]));
  }
  PositionCommand command;
  try {
    command = quixo::variant_of(text) == Variant::TwoPlayer
                  ? play_moves<TwoPlayerGame>(parse_position(text), moves)
                  : play_moves<FourPlayerGame>(parse_position4(text), moves);
  } catch (const NotationError& e) {
    command = rejected(std::string("bad position: ") + e.what());
  }
  command.notes = std::move(notes);
  return command;
}

// ---------------------------------------------------------------------------------------- go

GoCommand parse_go_command(std::span<const std::string_view> args) {
  GoCommand command;
  SearchLimits& limits = command.limits;
  std::size_t i = 0;
  // The number after args[i], consuming it when it is not itself a keyword.
  const auto value_of = [&](std::string_view keyword) -> std::optional<std::int64_t> {
    if (i + 1 >= args.size() || is_go_keyword(args[i + 1])) {
      command.notes.push_back(std::string(keyword) + " needs a value: ignored");
      return std::nullopt;
    }
    const std::string_view text = args[++i];
    const auto value = parse_integer(text);
    if (!value)
      command.notes.push_back(std::string(keyword) + " " + quoted(text) +
                              " is not a whole number: ignored");
    return value;
  };
  // Clock times and increments: a negative value means the time is gone.
  const auto clock_value = [&](std::string_view keyword) -> std::optional<std::int64_t> {
    auto value = value_of(keyword);
    if (value && *value < 0) {
      command.notes.push_back(std::string(keyword) + " " + std::to_string(*value) +
                              " is negative: taken as 0");
      value = 0;
    }
    return value;
  };
  // A limit for which 0 means "off" in SearchLimits: keep it a limit.
  const auto positive_value = [&](std::string_view keyword) -> std::optional<std::int64_t> {
    auto value = value_of(keyword);
    if (value && *value < 1) {
      command.notes.push_back(std::string(keyword) + " " + std::to_string(*value) +
                              " is not positive: taken as 1");
      value = 1;
    }
    return value;
  };

  for (; i < args.size(); ++i) {
    const std::string_view token = args[i];
    const auto found = go_keywords().find(token);
    if (found == go_keywords().end()) {
      command.notes.push_back("unknown go token " + quoted(token) + ": ignored");
      continue;
    }
    const GoKeyword keyword = found->second;
    switch (keyword.key) {
      case GoKey::XTime:
        if (const auto v = clock_value(token)) limits.time_ms[int(Color::X)] = *v;
        break;
      case GoKey::OTime:
        if (const auto v = clock_value(token)) limits.time_ms[int(Color::O)] = *v;
        break;
      case GoKey::XInc:
        if (const auto v = clock_value(token)) limits.increment_ms[int(Color::X)] = *v;
        break;
      case GoKey::OInc:
        if (const auto v = clock_value(token)) limits.increment_ms[int(Color::O)] = *v;
        break;
      case GoKey::SeatTime:
        if (const auto v = clock_value(token)) command.seat_time_ms[keyword.seat] = *v;
        break;
      case GoKey::SeatInc:
        if (const auto v = clock_value(token)) command.seat_increment_ms[keyword.seat] = *v;
        break;
      case GoKey::MovesToGo:
        if (auto v = value_of(token)) {
          if (*v < 0) {
            command.notes.push_back("movestogo " + std::to_string(*v) + " is negative: ignored");
          } else {
            limits.moves_to_go = clamp_to<int>(*v);
          }
        }
        break;
      case GoKey::Depth:
        if (const auto v = positive_value(token)) limits.depth = clamp_to<int>(*v);
        break;
      case GoKey::Nodes:
        if (const auto v = positive_value(token)) limits.nodes = std::uint64_t(*v);
        break;
      case GoKey::Mate:
        if (const auto v = positive_value(token)) limits.mate = clamp_to<int>(*v);
        break;
      case GoKey::MoveTime:
        if (const auto v = positive_value(token)) limits.move_time_ms = *v;
        break;
      case GoKey::Infinite:
        limits.infinite = true;
        break;
      case GoKey::Ponder:
        limits.ponder = true;
        break;
      case GoKey::SearchMoves:
        while (i + 1 < args.size() && !is_go_keyword(args[i + 1]))
          command.search_move_texts.emplace_back(args[++i]);
        if (command.search_move_texts.empty())
          command.notes.push_back("searchmoves without moves: ignored");
        break;
      case GoKey::Perft:
        if (const auto v = value_of(token)) {
          if (*v < 0) {
            command.notes.push_back("perft " + std::to_string(*v) + " is negative: ignored");
          } else {
            command.perft_depth = clamp_to<int>(*v);
          }
        }
        break;
    }
  }
  return command;
}

GoCommand parse_go_command(std::span<const std::string_view> args, const Game& game) {
  GoCommand command = parse_go_command(args);
  for (const std::string& text : command.search_move_texts) {
    try {
      if (const auto* two = std::get_if<TwoPlayerGame>(&game)) {
        const Move move = parse_move(two->position, text);
        if (std::find(command.limits.search_moves.begin(), command.limits.search_moves.end(),
                      move) == command.limits.search_moves.end())
          command.limits.search_moves.push_back(move);
      } else {
        const Move4 move = parse_move(std::get<FourPlayerGame>(game).position, text);
        if (std::find(command.search_moves4.begin(), command.search_moves4.end(), move) ==
            command.search_moves4.end())
          command.search_moves4.push_back(move);
      }
    } catch (const NotationError& e) {
      command.notes.push_back("searchmoves: " + quoted(text) + " skipped: " + e.what());
    }
  }
  if (!command.search_move_texts.empty() && command.limits.search_moves.empty() &&
      command.search_moves4.empty())
    command.notes.push_back("searchmoves: no legal move given, searching all moves");
  return command;
}

std::string format_go_command(const GoCommand& command) {
  const SearchLimits& limits = command.limits;
  std::string out = "go";
  const auto add = [&out](std::string_view key, auto value) {
    out += ' ';
    out += key;
    out += ' ';
    out += std::to_string(value);
  };
  if (limits.time_ms[0] >= 0) add("xtime", limits.time_ms[0]);
  if (limits.time_ms[1] >= 0) add("otime", limits.time_ms[1]);
  if (limits.time_ms[0] >= 0 && limits.increment_ms[0] > 0) add("xinc", limits.increment_ms[0]);
  if (limits.time_ms[1] >= 0 && limits.increment_ms[1] > 0) add("oinc", limits.increment_ms[1]);
  for (int seat = 0; seat < 4; ++seat)
    if (command.seat_time_ms[seat] >= 0)
      add("s" + std::to_string(seat + 1) + "time", command.seat_time_ms[seat]);
  for (int seat = 0; seat < 4; ++seat)
    if (command.seat_time_ms[seat] >= 0 && command.seat_increment_ms[seat] > 0)
      add("s" + std::to_string(seat + 1) + "inc", command.seat_increment_ms[seat]);
  if (limits.moves_to_go > 0) add("movestogo", limits.moves_to_go);
  if (limits.depth > 0) add("depth", limits.depth);
  if (limits.nodes > 0) add("nodes", limits.nodes);
  if (limits.mate > 0) add("mate", limits.mate);
  if (limits.move_time_ms > 0) add("movetime", limits.move_time_ms);
  if (limits.infinite) out += " infinite";
  if (limits.ponder) out += " ponder";
  if (command.perft_depth) add("perft", *command.perft_depth);
  if (!command.search_move_texts.empty()) {
    out += " searchmoves";
    for (const std::string& move : command.search_move_texts) out += ' ' + move;
  }
  return out;
}

// --------------------------------------------------------------------------------- setoption

std::optional<SetOptionCommand> parse_setoption_command(std::span<const std::string_view> args) {
  if (args.empty() || args[0] != "name") return std::nullopt;
  const auto value_at = std::find(args.begin() + 1, args.end(), std::string_view("value"));
  SetOptionCommand command;
  command.name = join(std::span<const std::string_view>(args.begin() + 1, value_at));
  if (command.name.empty()) return std::nullopt;
  if (value_at != args.end())
    command.value = join(std::span<const std::string_view>(value_at + 1, args.end()));
  return command;
}

std::string format_setoption_command(const SetOptionCommand& command) {
  std::string out = "setoption name " + command.name;
  if (command.value) out += " value " + *command.value;
  return out;
}

// ------------------------------------------------------------------------------ engine output

std::string format_option_line(const OptionLine& option) {
  std::string out = "option name " + option.name + " type " + option.type;
  if (option.default_value)
    out += " default " + (option.default_value->empty() ? "<empty>" : *option.default_value);
  if (option.min) out += " min " + std::to_string(*option.min);
  if (option.max) out += " max " + std::to_string(*option.max);
  for (const std::string& var : option.vars) out += " var " + var;
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

std::string format_score(Score score, Bound bound) {
  std::string out = is_mate_score(score) ? "mate " + std::to_string(mate_moves(score))
                                         : "cp " + std::to_string(score);
  if (bound == Bound::Lower) out += " lowerbound";
  if (bound == Bound::Upper) out += " upperbound";
  return out;
}

namespace {

// Both variants' reports have the same fields; only the moves of the pv differ.
template <class Info>
std::string format_any_info(const Info& info) {
  std::string out = "info depth " + std::to_string(info.depth) + " seldepth " +
                    std::to_string(info.selective_depth) + " multipv " +
                    std::to_string(info.multipv) + " score " +
                    format_score(info.score, info.bound) + " nodes " + std::to_string(info.nodes) +
                    " nps " + std::to_string(info.nodes_per_second) + " hashfull " +
                    std::to_string(info.hashfull) + " time " + std::to_string(info.time_ms);
  if (!info.pv.empty()) {
    out += " pv";
    for (const auto move : info.pv) out += ' ' + to_string(move);
  }
  return out;
}

}  // namespace

std::string format_info(const SearchInfo& info) {
  return format_any_info(info);
}

std::string format_info(const TeamSearchInfo& info) {
  return format_any_info(info);
}

std::string format_info_string(std::string_view text) {
  return "info string " + std::string(text);
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
          info.bound = Bound::Lower;
        } else if (part == "upperbound") {
          ++i;
          info.bound = Bound::Upper;
        } else {
          break;
        }
      }
    } else if (key == "pv") {
      info.pv.clear();
      while (i + 1 < tokens.size() && !is_info_keyword(tokens[i + 1]))
        info.pv.emplace_back(tokens[++i]);
    }
    // Anything else (tbhits, cpuload, wdl values, unknown words) is skipped token by token.
  }
  return info;
}

std::string format_bestmove(std::string_view best, std::string_view ponder) {
  std::string out = "bestmove ";
  out += best.empty() ? std::string_view("0000") : best;
  if (!ponder.empty()) {
    out += " ponder ";
    out += ponder;
  }
  return out;
}

std::string format_bestmove(Move best, Move ponder) {
  if (best.is_none()) return format_bestmove("0000");
  return format_bestmove(to_string(best), ponder.is_none() ? std::string() : to_string(ponder));
}

std::string format_bestmove(Move4 best, Move4 ponder) {
  if (best.is_none()) return format_bestmove("0000");
  return format_bestmove(to_string(best), ponder.is_none() ? std::string() : to_string(ponder));
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

// ---------------------------------------------------------------------------------- display

std::vector<std::string> draw_game(const Game& game) {
  const auto cell = [&game](Square square) -> char {
    if (const auto* two = std::get_if<TwoPlayerGame>(&game)) {
      if (two->position.cubes(Color::X) & square_bb(square)) return 'x';
      if (two->position.cubes(Color::O) & square_bb(square)) return 'o';
      return '.';
    }
    const Position4& position = std::get<FourPlayerGame>(game).position;
    for (Seat seat = 0; seat < kSeatCount; ++seat)
      if (position.cubes_pointing_to(seat) & square_bb(square)) return cube_letter(seat);
    return '.';
  };
  std::vector<std::string> lines;
  const std::string border = "  +---+---+---+---+---+";
  lines.push_back(border);
  for (int rank = kBoardSize - 1; rank >= 0; --rank) {
    std::string row = std::string(1, char('1' + rank)) + " |";
    for (int file = 0; file < kBoardSize; ++file) {
      row += ' ';
      row += cell(make_square(file, rank));
      row += " |";
    }
    lines.push_back(row);
    lines.push_back(border);
  }
  lines.push_back("    a   b   c   d   e");
  lines.push_back("");
  lines.push_back("Position: " + position_text(game));
  if (const auto* two = std::get_if<TwoPlayerGame>(&game)) {
    lines.push_back(std::string("Side to move: ") +
                    (two->position.side_to_move() == Color::X ? "x" : "o"));
    lines.push_back("Key: " + std::to_string(two->position.key()));
  } else {
    const Seat seat = std::get<FourPlayerGame>(game).position.seat_to_move();
    lines.push_back("Seat to move: " + std::to_string(seat + 1) + " (team " +
                    (team_of(seat) == Color::X ? "X" : "O") + ", places '" + cube_letter(seat) +
                    "' or '" + cube_letter(partner_of(seat)) + "')");
    lines.push_back("Cubes: x = X to seat 1, o = O to seat 2, X = X to seat 3, O = O to seat 4");
  }
  const std::vector<std::string> moves = legal_move_texts(game);
  lines.push_back("Legal moves: " + std::to_string(moves.size()));
  const Outcome outcome = std::visit([](const auto& g) { return g.position.outcome(); }, game);
  lines.push_back("Outcome: " + to_string(outcome));
  const int repetitions = repetition_count(game);
  if (repetitions > 1) lines.push_back("Repetitions: " + std::to_string(repetitions));
  return lines;
}

}  // namespace quixo::uqi
