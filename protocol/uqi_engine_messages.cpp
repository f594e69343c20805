#include "uqi_engine_messages.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "core/text_helpers.hpp"

namespace quixo::uqi {

using text_helpers::clamp_to;
using text_helpers::join;
using text_helpers::parse_integer;
using text_helpers::quoted;

namespace {

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

}  // namespace

// ---------------------------------------------------------------------------------- position

namespace {

PositionCommand rejected(std::string error) {
  PositionCommand command;
  command.error = std::move(error);
  return command;
}

// The game from `start` after `moves`, or the error that names the first illegal one.
PositionCommand play_moves(Game game, std::span<const std::string_view> moves) {
  for (std::size_t i = 0; i < moves.size(); ++i) {
    try {
      game.play(moves[i]);
    } catch (const NotationError& e) {
      return rejected("illegal move " + quoted(moves[i]) + " (move " + std::to_string(i + 1) +
                      " after the position): " + e.what());
    }
  }
  PositionCommand command;
  command.game = std::move(game);
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
    command = play_moves(Game::parse(text), moves);
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
      if (const GameLine<Position>* two = game.two_player()) {
        const Move move = parse_move(two->position, text);
        if (std::find(command.limits.search_moves.begin(), command.limits.search_moves.end(),
                      move) == command.limits.search_moves.end())
          command.limits.search_moves.push_back(move);
      } else {
        const Move4 move = parse_move(game.four_player()->position, text);
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
                    std::to_string(info.hashfull) + " tbhits " + std::to_string(info.tb_hits) +
                    " time " + std::to_string(info.time_ms);
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

std::string format_info(const SearchInfo4& info) {
  return format_any_info(info);
}

std::string format_info_string(std::string_view text) {
  return "info string " + std::string(text);
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

}  // namespace quixo::uqi
