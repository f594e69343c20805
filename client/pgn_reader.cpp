#include "pgn_reader.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "core/game.hpp"
#include "core/notation.hpp"
#include "core/text_helpers.hpp"
#include "pgn_format.hpp"

namespace quixo::arena {
namespace {

using namespace pgn_format;  // the conventions the writer and the reader share

constexpr std::string_view kPass = "0000";
// Variations inside variations, at most: each level is read, checked and written recursively.
constexpr std::size_t kMaxVariationDepth = 64;

using text_helpers::is_space;

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// A parsed decimal "[-]digits[.digits]" with at most `decimals` digits after the point, scaled to
// an integer (value * 10^decimals); nullopt when malformed or out of range.
std::optional<std::int64_t> parse_fixed_point(std::string_view text, int decimals) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  const std::size_t point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  std::string fraction(point == std::string_view::npos ? "" : text.substr(point + 1));
  if (whole.empty() || fraction.size() > static_cast<std::size_t>(decimals)) return std::nullopt;
  if (point != std::string_view::npos && fraction.empty()) return std::nullopt;
  fraction.append(static_cast<std::size_t>(decimals) - fraction.size(), '0');
  const std::string digits = std::string(whole) + fraction;
  for (const char c : digits)
    if (!is_digit(c)) return std::nullopt;
  // The magnitude as unsigned, so that the smallest int64 (one more than the largest) reads back.
  std::uint64_t magnitude = 0;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  const std::uint64_t limit =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
  if (magnitude > limit) return std::nullopt;
  // Conversion to a signed type is modular in C++20, so 0 - 2^63 gives the smallest int64.
  return static_cast<std::int64_t>(negative ? std::uint64_t{0} - magnitude : magnitude);
}

bool fits_int(std::int64_t value) {
  return value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max();
}

std::optional<int> parse_int(std::string_view text) {
  const auto value = parse_fixed_point(text, 0);
  if (!value || text.find('.') != std::string_view::npos || !fits_int(*value)) return std::nullopt;
  return static_cast<int>(*value);
}

// Fills the score, depth and time of `move` from an engine comment's text (without the braces):
// "[score[/depth] ]time", where score is "+0.35", "-1.20", "0.00", "+M3", "-M2" or "?" and time
// is "0.120s". Returns what is wrong, or an empty string.
std::string parse_engine_comment(std::string_view text, MoveRecord& move) {
  const std::vector<std::string_view> words = text_helpers::tokenize(text);
  if (words.empty() || words.size() > 2)
    return "expected {book} or {[score[/depth] ]time}, e.g. {+0.35/9 0.120s}";
  std::string_view time = words.back();
  if (time.size() < 2 || time.back() != 's')
    return "the time '" + std::string(time) + "' does not end in 's'";
  time.remove_suffix(1);
  const auto time_ms = parse_fixed_point(time, 3);
  if (!time_ms)
    return "bad time '" + std::string(words.back()) +
           "': expected seconds with at most 3 decimals, e.g. 0.120s";
  move.time_ms = *time_ms;
  if (words.size() == 1) return "";

  std::string_view score = words.front();
  const std::size_t slash = score.find('/');
  if (slash != std::string_view::npos) {
    const std::string_view depth_text = score.substr(slash + 1);
    const auto depth = parse_int(depth_text);
    if (!depth) return "bad depth '" + std::string(depth_text) + "'";
    move.depth = depth;
    score = score.substr(0, slash);
  }
  if (score == "?") {
    if (!move.depth) return "the unknown score '?' is written only before a depth, as in ?/9";
    return "";
  }
  std::string_view mate = score;
  if (!mate.empty() && (mate[0] == '+' || mate[0] == '-')) mate.remove_prefix(1);
  if (!mate.empty() && mate[0] == 'M') {
    mate.remove_prefix(1);
    // The magnitude is read as int64 first, so that "-M2147483648" (INT_MIN) reads back too.
    const bool digits_only =
        !mate.empty() && mate.find_first_not_of("0123456789") == std::string_view::npos;
    const auto moves = digits_only ? parse_fixed_point(mate, 0) : std::nullopt;
    const std::int64_t signed_moves = moves ? (score[0] == '-' ? -*moves : *moves) : 0;
    if (!moves || !fits_int(signed_moves)) return "bad mate score '" + std::string(score) + "'";
    move.score_mate = static_cast<int>(signed_moves);
    return "";
  }
  const auto cp = parse_fixed_point(score, 2);
  if (!cp || !fits_int(*cp))
    return "bad score '" + std::string(score) +
           "': expected pawns with at most 2 decimals (+0.35) or a mate (+M3, -M2)";
  move.score_cp = static_cast<int>(*cp);
  return "";
}

struct Tag {
  std::string value;
  int line = 0;
};

struct MovetextMove {
  std::string text;
  int line = 0;
  std::optional<std::string> comment;
  std::string note;  // Annotated: the comments after the first one
  std::vector<std::vector<MovetextMove>> variations;
};

// Reads games one after the other from the text, keeping the line number for messages.
class PgnReader {
 public:
  PgnReader(std::string_view text, PgnReading reading)
      : text_(text), annotated_(reading == PgnReading::Annotated) {}

  // Skips white space, "%" escape lines and ";" comments between games and tokens.
  void skip_space() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (is_space(c)) {
        ++pos_;
      } else if (c == ';' || (c == '%' && (pos_ == 0 || text_[pos_ - 1] == '\n'))) {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  bool at_end() {
    skip_space();
    return pos_ >= text_.size();
  }

  GameRecord read_game(int number) {
    game_number_ = number;
    context_.clear();
    tags_.clear();
    pending_number_ = false;
    read_tags();
    MovetextResult movetext = read_movetext();
    return build_record(movetext);
  }

 private:
  struct MovetextResult {
    std::vector<MovetextMove> moves;
    std::string result;
    int result_line = 0;
  };

  [[noreturn]] void fail(int line, const std::string& what) const {
    std::string where =
        "PGN line " + std::to_string(line) + ", game " + std::to_string(game_number_);
    if (!context_.empty()) where += " (" + context_ + ")";
    throw PgnError(where + ": " + what);
  }

  void read_tags() {
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] != '[')
      fail(line_, "expected a tag pair such as [Event \"...\"] at the start of a game");
    while (true) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '[') break;
      read_tag();
    }
    const auto value = [&](std::string_view name) -> std::string {
      const auto it = tags_.find(std::string(name));
      return it == tags_.end() ? "?" : it->second.value;
    };
    context_ = "Round " + value("Round") + ", " + value("White") + " - " + value("Black");
    const auto fen = tags_.find("FEN");
    o_first_ = fen != tags_.end() && o_moves_first(fen->second.value);
    first_number_ = fen != tags_.end() ? first_move_number(fen->second.value) : 1;
  }

  void read_tag() {
    const int line = line_;
    ++pos_;  // '['
    skip_blanks_on_line();
    const std::size_t name_start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    const std::string name(text_.substr(name_start, pos_ - name_start));
    if (name.empty()) fail(line, "a tag pair without a name");
    skip_blanks_on_line();
    if (pos_ >= text_.size() || text_[pos_] != '"')
      fail(line, "tag " + name + " has no quoted value");
    ++pos_;
    std::string value;
    while (true) {
      if (pos_ >= text_.size() || text_[pos_] == '\n')
        fail(line, "the value of tag " + name + " has no closing quote");
      const char c = text_[pos_++];
      if (c == '"') break;
      if (c == '\\') {
        if (pos_ >= text_.size() || text_[pos_] == '\n')
          fail(line, "the value of tag " + name + " ends in a lone '\\'");
        value += text_[pos_++];
      } else {
        value += c;
      }
    }
    skip_blanks_on_line();
    if (pos_ >= text_.size() || text_[pos_] != ']')
      fail(line, "tag " + name + " is not closed by ']'");
    ++pos_;
    if (!tags_.emplace(name, Tag{value, line}).second) fail(line, "tag " + name + " is repeated");
  }

  void skip_blanks_on_line() {
    while (pos_ < text_.size() && is_space(text_[pos_]) && text_[pos_] != '\n') ++pos_;
  }

  // The movetext up to and including the result token. Move numbers are checked here against
  // the plies; legality is checked later, once the FEN is known.
  MovetextResult read_movetext() {
    MovetextResult out;
    // The line being read: the game's, or a variation (Annotated) with the ply of its first move.
    struct Frame {
      std::vector<MovetextMove>* moves;
      std::size_t first_ply;
    };
    std::vector<Frame> lines{{&out.moves, 0}};
    const auto ply_now = [&] { return lines.back().first_ply + lines.back().moves->size(); };
    while (true) {
      std::vector<MovetextMove>& moves = *lines.back().moves;
      skip_space();
      if (pos_ >= text_.size()) fail(line_, "the movetext ends without a result");
      const int line = line_;
      const char c = text_[pos_];
      if (c == '{') {
        const std::size_t close = text_.find('}', pos_);
        if (close == std::string_view::npos) fail(line, "a comment '{' is never closed");
        const std::string_view body = text_.substr(pos_ + 1, close - pos_ - 1);
        for (const char b : body) line_ += b == '\n' ? 1 : 0;
        pos_ = close + 1;
        if (moves.empty()) fail(line, "a comment before the first move");
        if (moves.back().comment && !annotated_)
          fail(line, "a second comment after move " + moves.back().text);
        if (!moves.back().comment)
          moves.back().comment = std::string(body);
        else
          moves.back().note += (moves.back().note.empty() ? "" : " ") + std::string(body);
        continue;
      }
      if (c == '[') fail(line, "the next game's tags begin before this game's result");
      if ((c == '(' || c == ')') && !annotated_) fail(line, "variations '(...)' are not supported");
      if (c == '(') {
        if (moves.empty()) fail(line, "a variation '(' before the first move");
        if (pending_number_) fail(line, "a move number without its move before '('");
        if (lines.size() > kMaxVariationDepth)
          fail(line, "variations nested deeper than " + std::to_string(kMaxVariationDepth));
        ++pos_;
        const std::size_t ply = ply_now() - 1;  // an alternative to the last move
        lines.push_back({&moves.back().variations.emplace_back(), ply});
        continue;
      }
      if (c == ')') {
        if (lines.size() == 1) fail(line, "a ')' without its '('");
        if (moves.empty()) fail(line, "an empty variation '()'");
        if (pending_number_) fail(line, "a move number without its move before ')'");
        ++pos_;
        lines.pop_back();
        continue;
      }
      if (c == '}') fail(line, "a '}' without its '{'");
      const std::size_t start = pos_;
      while (pos_ < text_.size() && !is_space(text_[pos_]) &&
             std::string_view("{}()[];").find(text_[pos_]) == std::string_view::npos)
        ++pos_;
      std::string_view token = text_.substr(start, pos_ - start);
      if (token.empty()) fail(line, "unexpected '" + std::string(1, c) + "' in the movetext");
      if (token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*") {
        if (pending_number_) fail(line, "a move number without its move before the result");
        if (lines.size() > 1) fail(line, "the result inside a variation: a '(' is not closed");
        out.result = std::string(token);
        out.result_line = line;
        return out;
      }
      // The four-player pass "0000" is a move, not a move number.
      if (is_digit(token[0]) && token != kPass) {
        std::size_t digits = 0;
        while (digits < token.size() && is_digit(token[digits])) ++digits;
        std::size_t dots = digits;
        while (dots < token.size() && token[dots] == '.') ++dots;
        if (dots == digits) fail(line, "unexpected '" + std::string(token) + "' in the movetext");
        expect_move_number(ply_now(), token.substr(0, digits), dots - digits, line);
        token.remove_prefix(dots);  // "1.a1e1" carries its move
        if (token.empty()) {
          pending_number_ = true;
          continue;
        }
      } else if (!pending_number_ && side_of_ply(ply_now()) == Color::X) {
        fail(line, "X's move " + std::string(token) + " has no move number before it (expected '" +
                       std::to_string(move_number_of_ply(ply_now())) + ".')");
      }
      pending_number_ = false;
      moves.push_back({std::string(token), line, std::nullopt, {}, {}});
    }
  }

  void expect_move_number(std::size_t ply, std::string_view number, std::size_t dots, int line) {
    if (pending_number_) fail(line, "two move numbers in a row");
    const std::string expected =
        std::to_string(move_number_of_ply(ply)) + (side_of_ply(ply) == Color::X ? "." : "...");
    const std::string found = std::string(number) + std::string(dots, '.');
    if (found != expected)
      fail(line, "move number '" + found + "' where '" + expected + "' was expected (ply " +
                     std::to_string(ply + 1) + ")");
  }

  // The side to move and the full-move number of a ply counted from the FEN (0 = first move).
  // The tags come before the movetext, so the FEN's side to move is known when the numbers are.
  Color side_of_ply(std::size_t ply) const {
    return (ply + (o_first_ ? 1 : 0)) % 2 == 0 ? Color::X : Color::O;
  }
  std::size_t move_number_of_ply(std::size_t ply) const {
    return (ply + (o_first_ ? 1 : 0)) / 2 + first_number_;
  }

  const Tag& required_tag(std::string_view name) const {
    const auto it = tags_.find(std::string(name));
    if (it == tags_.end()) fail(line_, "missing tag [" + std::string(name) + " \"...\"]");
    return it->second;
  }
  const Tag* optional_tag(std::string_view name) const {
    const auto it = tags_.find(std::string(name));
    return it == tags_.end() ? nullptr : &it->second;
  }
  std::string roster_value(std::string_view name, std::string_view unknown = kUnknown) const {
    const std::string& value = required_tag(name).value;
    return value == unknown ? std::string() : value;
  }

  // A rating tag: a whole number, or none when absent or PGN's unknown ("?", "-").
  std::optional<int> elo_value(std::string_view name) const {
    const Tag* tag = optional_tag(name);
    if (!tag || tag->value == kUnknown || tag->value == "-" || tag->value.empty())
      return std::nullopt;
    const std::optional<std::int64_t> number = text_helpers::parse_integer(tag->value);
    if (!number || *number < 0 || *number > 100'000)
      fail(tag->line, "tag " + std::string(name) + " must be a rating (a whole number), not '" +
                          tag->value + "'");
    return static_cast<int>(*number);
  }

  GameRecord build_record(const MovetextResult& movetext) {
    GameRecord game;
    game.event = roster_value("Event");
    game.site = roster_value("Site");
    game.date = roster_value("Date", kUnknownDate);
    game.round = roster_value("Round");
    game.x_name = roster_value("White");
    game.o_name = roster_value("Black");
    game.x_elo = elo_value("WhiteElo");
    game.o_elo = elo_value("BlackElo");
    for (const auto& [tag, field] :
         {std::pair{"GameStartTime", &game.start_time}, std::pair{"GameEndTime", &game.end_time},
          std::pair{"GameDuration", &game.duration}})
      if (const Tag* value = optional_tag(tag)) *field = value->value;

    const Tag& result_tag = required_tag("Result");
    const auto result = parse_result_text(result_tag.value);
    if (!result)
      fail(result_tag.line, "bad result '" + result_tag.value +
                                "' in the Result tag: expected 1-0, 0-1, 1/2-1/2 or *");
    if (movetext.result != result_tag.value)
      fail(movetext.result_line, "the movetext ends in '" + movetext.result +
                                     "' but the Result tag says '" + result_tag.value + "'");
    game.result = *result;

    const Tag* variant = optional_tag("Variant");
    if (variant && variant->value != kVariant2 && variant->value != kVariant4)
      fail(variant->line, "Variant '" + variant->value + "' is not " + std::string(kVariant2) +
                              " or " + std::string(kVariant4));
    const Tag& fen = required_tag("FEN");
    game.start_position = fen.value;
    Game position;
    try {
      position = Game::parse(fen.value);
    } catch (const NotationError& error) {
      fail(fen.line, "bad FEN '" + fen.value + "': " + error.what());
    }
    const bool four_players = position.variant() == Variant::FourPlayer;
    if (variant && (variant->value == kVariant4) != four_players)
      fail(variant->line, "Variant '" + variant->value + "' but the FEN '" + fen.value + "' is a " +
                              (four_players ? "four" : "two") + "-player position");
    if (four_players) read_seats(game);

    const Tag& termination_tag = required_tag("QuixoTermination");
    const auto termination = parse_termination(termination_tag.value);
    if (!termination)
      fail(termination_tag.line, "unknown QuixoTermination '" + termination_tag.value + "'");
    game.termination = *termination;
    // "*" and "unterminated" go together: a game that goes on has no ending, and the reverse.
    if ((game.result == GameResult::Unfinished) != (game.termination == Termination::Unterminated))
      fail(termination_tag.line, "QuixoTermination '" + termination_tag.value +
                                     "' does not fit the result " + result_tag.value);
    if (const Tag* standard = optional_tag("Termination");
        standard && standard->value != standard_termination(*termination))
      fail(standard->line, "Termination '" + standard->value +
                               "' disagrees with QuixoTermination '" + termination_tag.value +
                               "' (expected '" + std::string(standard_termination(*termination)) +
                               "')");
    if (const Tag* reason = optional_tag("Reason")) game.reason = reason->value;

    read_time_controls(game);

    const bool commented = !annotated_ && std::any_of(movetext.moves.begin(), movetext.moves.end(),
                                                      [](const MovetextMove& entry) {
                                                        return entry.comment.has_value();
                                                      });
    for (std::size_t ply = 0; ply < movetext.moves.size(); ++ply) {
      const MovetextMove& entry = movetext.moves[ply];
      const std::string label = std::to_string(move_number_of_ply(ply)) +
                                (side_of_ply(ply) == Color::X ? ". " : "... ") + entry.text;
      const Game before = position;
      try {
        position.play(entry.text);
      } catch (const NotationError& error) {
        fail(entry.line, "illegal move " + label + ": " + error.what());
      }
      if (annotated_ && (!entry.comment || *entry.comment != kBookComment)) {
        game.moves.push_back(annotated_move(entry, label, before, ply));
        continue;
      }
      if (!entry.variations.empty()) fail(entry.line, "a variation of the book move " + label);
      // A game without any comment (the short form, `--pgn FILE min`) has engine moves of which
      // nothing more is known; in a game with comments every move has one.
      if (!entry.comment && commented)
        fail(entry.line, "move " + label +
                             " has no comment: in a game with comments each move carries {book} "
                             "or {[score/depth ]time}");
      if (!entry.comment) {
        MoveRecord move;
        move.move = entry.text;
        game.moves.push_back(std::move(move));
        continue;
      }
      if (*entry.comment == kBookComment) {
        if (!game.moves.empty())
          fail(entry.line, "book move " + label + " after the engines' moves");
        game.opening_moves.push_back(entry.text);
        continue;
      }
      MoveRecord move;
      move.move = entry.text;
      const std::string problem = parse_engine_comment(*entry.comment, move);
      if (!problem.empty())
        fail(entry.line,
             "bad comment {" + *entry.comment + "} after move " + label + ": " + problem);
      game.moves.push_back(std::move(move));
    }

    const std::size_t plies = movetext.moves.size();
    if (const Tag* ply_count = optional_tag("PlyCount");
        ply_count && ply_count->value != std::to_string(plies))
      fail(ply_count->line, "PlyCount " + ply_count->value + " but the movetext has " +
                                std::to_string(plies) + " plies");
    if (game.termination == Termination::Line) {
      const Outcome outcome = position.outcome();
      if (outcome == Outcome::Ongoing)
        fail(movetext.result_line, "the game ended by a line, but no line is on the board");
      const GameResult winner = outcome == Outcome::XWins ? GameResult::XWins : GameResult::OWins;
      if (winner != game.result)
        fail(movetext.result_line, "the result " + movetext.result +
                                       " disagrees with the line on "
                                       "the board (" +
                                       to_string(outcome) + ")");
    }
    // The tables decide only games that are still going, and only two-player ones.
    if (game.termination == Termination::Tablebase) {
      if (four_players)
        fail(movetext.result_line, "a four-player game cannot end by the endgame tables");
      if (position.outcome() != Outcome::Ongoing)
        fail(movetext.result_line,
             "the game ended by the endgame tables, but a line is on the board");
    }
    if (game.result == GameResult::Unfinished && position.outcome() != Outcome::Ongoing)
      fail(movetext.result_line, "the game is marked unfinished (*), but a line is on the board");
    return game;
  }

  // Annotated: a move with its comments (an engine comment, else the person's) and variations,
  // each checked from `before`, the position before the move.
  MoveRecord annotated_move(const MovetextMove& entry, const std::string& label, const Game& before,
                            std::size_t ply) {
    MoveRecord move;
    move.move = entry.text;
    std::string note = entry.note;
    if (entry.comment) {
      MoveRecord engine;
      if (*entry.comment != kBookComment && parse_engine_comment(*entry.comment, engine).empty()) {
        engine.move = move.move;
        move = std::move(engine);
      } else {
        note = *entry.comment + (note.empty() ? "" : " ") + note;
      }
    }
    move.comment = std::move(note);
    for (const std::vector<MovetextMove>& line : entry.variations) {
      std::vector<MoveRecord>& variation = move.variations.emplace_back();
      Game position = before;
      for (std::size_t i = 0; i < line.size(); ++i) {
        const MovetextMove& step = line[i];
        const std::string step_label = std::to_string(move_number_of_ply(ply + i)) +
                                       (side_of_ply(ply + i) == Color::X ? ". " : "... ") +
                                       step.text;
        const Game step_before = position;
        try {
          position.play(step.text);
        } catch (const NotationError& error) {
          fail(step.line,
               "illegal move " + step_label + " in a variation of " + label + ": " + error.what());
        }
        variation.push_back(annotated_move(step, step_label, step_before, ply + i));
      }
    }
    return move;
  }

  // A four-player game's seats: Seating and Seat1..Seat4 are required.
  void read_seats(GameRecord& game) const {
    FourPlayerSeats seats;
    const Tag& seating = required_tag("Seating");
    const std::optional<Seating> parsed = parse_seating(seating.value);
    if (!parsed)
      fail(seating.line, "bad Seating '" + seating.value + "': expected per-seat or per-team");
    seats.seating = *parsed;
    for (std::size_t seat = 0; seat < 4; ++seat) seats.names[seat] = roster_value(kSeatTags[seat]);
    game.four_player = std::move(seats);
  }

  // TimeControl holds X's control; WhiteTimeControl/BlackTimeControl appear when O's differs.
  void read_time_controls(GameRecord& game) const {
    const Tag* common = optional_tag("TimeControl");
    const Tag* white = optional_tag("WhiteTimeControl");
    const Tag* black = optional_tag("BlackTimeControl");
    if (common && white && common->value != white->value)
      fail(white->line, "WhiteTimeControl '" + white->value + "' disagrees with TimeControl '" +
                            common->value + "'");
    const Tag* x_control = common ? common : white;
    if (x_control && x_control->value != kUnknown) game.time_control = x_control->value;
    if (black) game.o_time_control = black->value;
  }

  std::string_view text_;
  bool annotated_ = false;
  std::size_t pos_ = 0;
  int line_ = 1;
  int game_number_ = 0;
  std::string context_;
  std::map<std::string, Tag> tags_;
  bool o_first_ = false;          // the FEN has O to move: ply 0 is "1..."
  std::size_t first_number_ = 1;  // the FEN's move number: ply 0's number
  bool pending_number_ = false;   // a move number was read and its move is still to come
};

}  // namespace

std::vector<GameRecord> parse_pgn(std::string_view text, PgnReading reading) {
  std::vector<GameRecord> games;
  PgnReader reader(text, reading);
  while (!reader.at_end()) games.push_back(reader.read_game(static_cast<int>(games.size()) + 1));
  return games;
}

}  // namespace quixo::arena
