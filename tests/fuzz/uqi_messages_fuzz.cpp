// Fuzzes the UQI message parsers: what a GUI sends, as the engine reads it (`position`, `go`,
// `setoption`; protocol/uqi_engine_messages.hpp) and what an engine answers, as a GUI such as the
// arena reads it (`info`, `bestmove`, `option`, `id`, `response`; uqi_client_messages.hpp).
//
// Input: lines; every line goes to every parser (a leading `position`, `go` or `setoption` word
// is dropped for the command parsers). Invariants:
//   - nothing throws (the header promises it);
//   - `position`: a game or a non-empty error; the game's position text parses back to the same
//     position, each of its legal moves is accepted after it, and it is drawn without a crash;
//   - `go`: the documented ranges (clocks -1 or >= 0, limits >= 0, ...); searchmoves checked
//     against a game are legal there; format_go_command is a fixed point of parse and format;
//   - `setoption`, `bestmove`, `option`, `id`, `response`: format then parse gives the same
//     value back;
//   - `info`: never both a cp and a mate score; the numbers and score read from a line, formatted
//     as the engine writes them and read again, come back unchanged.
#include <string>

#include "board_display.hpp"
#include "core/text_helpers.hpp"
#include "fuzz_support.hpp"
#include "support/go_command_format.hpp"
#include "uqi_client_messages.hpp"
#include "uqi_engine_messages.hpp"

namespace {

using namespace quixo;
using namespace quixo::text_helpers;
using namespace quixo::uqi;
using Tokens = std::vector<std::string_view>;

std::string quote(std::string_view text) {
  return "'" + std::string(text) + "'";
}

Tokens args_of(const Tokens& tokens, std::string_view command) {
  if (!tokens.empty() && tokens[0] == command) return Tokens(tokens.begin() + 1, tokens.end());
  return tokens;
}

bool same_position(const Game& a, const Game& b) {
  if (a.variant() != b.variant()) return false;
  if (const auto* two = a.two_player()) return two->position == b.two_player()->position;
  return a.four_player()->position == b.four_player()->position;
}

void check_game(const Game& game) {
  const std::string text = game.text();
  const std::string fen = "fen " + text;
  const Tokens fen_tokens = tokenize(fen);
  const PositionCommand again = parse_position_command(fen_tokens);
  FUZZ_CHECK(again.game, "position text " + quote(text) + " is refused: " + again.error);
  FUZZ_CHECK(same_position(*again.game, game), "position text " + quote(text) + " round trip");
  FUZZ_CHECK(game.repetition_count() >= 1, "repetition count below 1");
  for (const std::string& move : game.legal_move_texts()) {
    const std::string line = fen + " moves " + move;
    const Tokens tokens = tokenize(line);
    const PositionCommand after = parse_position_command(tokens);
    FUZZ_CHECK(after.game, "legal move " + quote(move) + " is refused after " + quote(text) + ": " +
                               after.error);
    FUZZ_CHECK(after.game->repetition_count() >= 1, "repetition count below 1");
  }
  const std::vector<std::string> drawing = draw_game(game);
  FUZZ_CHECK(drawing.size() >= 13, "short board drawing");
}

void check_go_ranges(const GoCommand& go) {
  const SearchLimits& limits = go.limits;
  for (int i = 0; i < 2; ++i) {
    FUZZ_CHECK(limits.time_ms[i] >= -1, "clock below -1");
    FUZZ_CHECK(limits.increment_ms[i] >= 0, "negative increment");
  }
  for (int seat = 0; seat < 4; ++seat) {
    FUZZ_CHECK(go.seat_time_ms[seat] >= -1, "seat clock below -1");
    FUZZ_CHECK(go.seat_increment_ms[seat] >= 0, "negative seat increment");
  }
  FUZZ_CHECK(limits.moves_to_go >= 0, "negative movestogo");
  FUZZ_CHECK(limits.depth >= 0 && limits.mate >= 0 && limits.move_time_ms >= 0,
             "negative depth, mate or movetime");
  FUZZ_CHECK(!go.perft_depth || *go.perft_depth >= 0, "negative perft depth");
}

void check_go(const Tokens& args, const Game& game) {
  const GoCommand go = parse_go_command(args);
  check_go_ranges(go);
  const std::string text = format_go_command(go);
  const Tokens tokens = tokenize(text);
  FUZZ_CHECK(!tokens.empty() && tokens[0] == "go", "formatted go " + quote(text));
  const GoCommand again = parse_go_command(args_of(tokens, "go"));
  FUZZ_CHECK(again.notes.empty(), "the formatted " + quote(text) +
                                      " has notes: " + (again.notes.empty() ? "" : again.notes[0]));
  FUZZ_CHECK(format_go_command(again) == text, "go " + quote(text) + " is not a fixed point");
  const SearchLimits& a = go.limits;
  const SearchLimits& b = again.limits;
  FUZZ_CHECK(a.time_ms == b.time_ms && a.depth == b.depth && a.nodes == b.nodes &&
                 a.mate == b.mate && a.move_time_ms == b.move_time_ms &&
                 a.moves_to_go == b.moves_to_go && a.infinite == b.infinite &&
                 a.ponder == b.ponder && go.seat_time_ms == again.seat_time_ms &&
                 go.perft_depth == again.perft_depth &&
                 go.search_move_texts == again.search_move_texts,
             "go " + quote(text) + " round trip");

  const GoCommand checked = parse_go_command(args, game);
  check_go_ranges(checked);
  FUZZ_CHECK(checked.search_move_texts == go.search_move_texts, "searchmoves differ");
  if (const auto* two = game.two_player()) {
    FUZZ_CHECK(checked.search_moves4.empty(), "four-player searchmoves in a two-player game");
    for (const Move move : checked.limits.search_moves)
      FUZZ_CHECK(two->position.is_legal(move), "illegal searchmove " + to_string(move));
  } else {
    FUZZ_CHECK(checked.limits.search_moves.empty(), "two-player searchmoves in a 4p game");
    for (const Move4 move : checked.search_moves4)
      FUZZ_CHECK(game.four_player()->position.is_legal(move),
                 "illegal searchmove " + to_string(move));
  }
}

void check_setoption(const Tokens& args) {
  const auto command = parse_setoption_command(args);
  if (!command) return;
  FUZZ_CHECK(!command->name.empty(), "setoption without a name");
  const std::string text = format_setoption_command(*command);
  const Tokens tokens = tokenize(text);
  const auto again = parse_setoption_command(args_of(tokens, "setoption"));
  FUZZ_CHECK(again && again->name == command->name && again->value == command->value,
             "setoption " + quote(text) + " round trip");
}

// The numbers of an `info` line as the engine would write them, read back.
void check_info_round_trip(const InfoLine& info) {
  SearchInfo search;
  search.depth = info.depth.value_or(0);
  search.selective_depth = info.selective_depth.value_or(0);
  search.multipv = info.multipv.value_or(1);
  search.time_ms = info.time_ms.value_or(0);
  search.nodes = info.nodes.value_or(0);
  search.nodes_per_second = info.nodes_per_second.value_or(0);
  search.hashfull = info.hashfull.value_or(0);
  search.tb_hits = info.tbhits.value_or(0);
  search.bound = info.bound == ScoreBound::Lower   ? Bound::Lower
                 : info.bound == ScoreBound::Upper ? Bound::Upper
                                                   : Bound::Exact;
  std::optional<int> expected_cp;
  std::optional<int> expected_mate;
  if (info.score_cp && *info.score_cp > -kMateBound && *info.score_cp < kMateBound) {
    search.score = *info.score_cp;
    expected_cp = search.score;
  } else if (info.score_mate && *info.score_mate != 0 && *info.score_mate <= kMaxPly &&
             *info.score_mate >= -kMaxPly) {
    const int moves = *info.score_mate;
    search.score = moves > 0 ? mate_in(2 * moves - 1) : mated_in(-2 * moves);
    expected_mate = moves;
  } else {
    expected_cp = 0;
  }
  const std::string text = format_info(search);
  const auto again = parse_info_line(text);
  FUZZ_CHECK(again, "formatted info line " + quote(text) + " is not read");
  FUZZ_CHECK(again->depth == search.depth && again->selective_depth == search.selective_depth &&
                 again->multipv == search.multipv && again->time_ms == search.time_ms &&
                 again->nodes == search.nodes &&
                 again->nodes_per_second == search.nodes_per_second &&
                 again->hashfull == search.hashfull && again->tbhits == search.tb_hits &&
                 again->bound == info.bound && again->score_cp == expected_cp &&
                 again->score_mate == expected_mate && again->pv.empty() && !again->string,
             "info " + quote(text) + " round trip");
}

void check_engine_output(std::string_view line, const Tokens& tokens) {
  const std::string_view first = tokens.empty() ? std::string_view() : tokens[0];

  const auto info = parse_info_line(line);
  FUZZ_CHECK(info.has_value() == (first == "info"), "info line not recognised " + quote(line));
  if (info) {
    FUZZ_CHECK(!(info->score_cp && info->score_mate), "both cp and mate in " + quote(line));
    for (const std::string& move : info->pv) FUZZ_CHECK(!move.empty(), "empty pv move");
    check_info_round_trip(*info);
  }

  if (const auto best = parse_bestmove_line(line)) {
    FUZZ_CHECK(!best->move.empty(), "empty best move");
    const std::string text = format_bestmove(best->move, best->ponder.value_or(""));
    const auto again = parse_bestmove_line(text);
    FUZZ_CHECK(again && again->move == best->move && again->ponder == best->ponder,
               "bestmove " + quote(text) + " round trip");
  }

  if (const auto option = parse_option_line(line)) {
    FUZZ_CHECK(!option->name.empty(), "option without a name");
    const std::string text = format_option_line(*option);
    const auto again = parse_option_line(text);
    FUZZ_CHECK(again && again->name == option->name && again->type == option->type &&
                   again->default_value == option->default_value && again->min == option->min &&
                   again->max == option->max && again->vars == option->vars,
               "option " + quote(text) + " round trip of " + quote(line));
  }

  if (const auto id = parse_id_line(line)) {
    FUZZ_CHECK(!id->field.empty(), "id without a field");
    const std::string text = "id " + id->field + " " + id->value;
    const auto again = parse_id_line(text);
    FUZZ_CHECK(again && again->field == id->field && again->value == id->value,
               "id " + quote(text) + " round trip");
  }

  if (const auto response = parse_response_line(line)) {
    const std::string text = "response " + *response;
    FUZZ_CHECK(parse_response_line(text) == response, "response " + quote(text) + " round trip");
  }
}

void check_line(std::string_view line) {
  const Tokens tokens = tokenize(line);
  for (const std::string_view token : tokens) {
    FUZZ_CHECK(!token.empty(), "empty token");
    for (const char c : token)
      FUZZ_CHECK(c != ' ' && c != '\t' && c != '\r' && c != '\n', "blank inside a token");
    if (const auto number = parse_integer(token))
      FUZZ_CHECK(parse_integer(std::to_string(*number)) == number,
                 "integer " + quote(token) + " round trip");
  }
  const std::string echo = quoted(line);
  FUZZ_CHECK(echo.size() <= 45, "quoted text too long");
  for (const char c : echo) FUZZ_CHECK(c >= 0x20 && c < 0x7f, "quoted text not printable");
  FUZZ_CHECK(to_lower(to_lower(line)) == to_lower(line), "to_lower is not idempotent");

  const PositionCommand position = parse_position_command(args_of(tokens, "position"));
  Game game;
  if (position.game) {
    check_game(*position.game);
    game = *position.game;
  } else {
    FUZZ_CHECK(!position.error.empty(), "refused position without an error");
  }
  check_go(args_of(tokens, "go"), game);
  check_setoption(args_of(tokens, "setoption"));
  check_engine_output(line, tokens);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  for (const std::string_view line : fuzz::lines_of(fuzz::as_text(data, size))) check_line(line);
  return 0;
}
