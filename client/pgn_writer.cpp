#include "pgn_writer.hpp"

#include <cstdint>
#include <string_view>

#include "pgn_format.hpp"

namespace quixo::arena {
namespace {

using namespace pgn_format;  // the conventions the writer and the reader share

constexpr std::size_t kLineWidth = 80;

// A tag value between quotes: '"' and '\' escaped as the standard asks; a tag pair must fit on
// one line, so control characters (a newline in an engine's message) become spaces.
std::string escape_tag_value(std::string_view value) {
  std::string out;
  for (const char c : value) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

void add_tag(std::string& out, std::string_view name, std::string_view value) {
  out += '[';
  out += name;
  out += " \"";
  out += escape_tag_value(value);
  out += "\"]\n";
}

std::string_view or_unknown(std::string_view value, std::string_view unknown = kUnknown) {
  return value.empty() ? unknown : value;
}

// `value / 10^decimals` with exactly `decimals` digits after the point, in integers so that the
// text is exact and reads back to the same value. No sign for zero or positive values.
std::string fixed_point(std::int64_t value, int decimals) {
  std::int64_t scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  // Work on the magnitude as unsigned: the negation of the smallest int64 does not overflow.
  const std::uint64_t magnitude = value < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(value)
                                            : static_cast<std::uint64_t>(value);
  const std::uint64_t unsigned_scale = static_cast<std::uint64_t>(scale);
  std::string fraction = std::to_string(magnitude % unsigned_scale);
  fraction.insert(0, static_cast<std::size_t>(decimals) - fraction.size(), '0');
  return (value < 0 ? "-" : "") + std::to_string(magnitude / unsigned_scale) + "." + fraction;
}

// The score as cutechess writes it: score_cp / 100 with two decimals and a sign ("+0.35",
// "-1.20", "0.00"), "+M3"/"-M2" for a mate (mate 0 as "-M0"), "?" when only the depth is known.
std::string format_score(const MoveRecord& move) {
  if (move.score_mate) {
    const int mate = *move.score_mate;
    return (mate > 0 ? "+M" : "-M") +
           std::to_string(mate < 0 ? -static_cast<std::int64_t>(mate) : mate);
  }
  if (move.score_cp) return (*move.score_cp > 0 ? "+" : "") + fixed_point(*move.score_cp, 2);
  return "?";
}

std::string engine_comment(const MoveRecord& move) {
  std::string comment = "{";
  if (move.score_mate || move.score_cp || move.depth) {
    comment += format_score(move);
    if (move.depth) comment += "/" + std::to_string(*move.depth);
    comment += ' ';
  }
  return comment + fixed_point(move.time_ms, 3) + "s}";
}

// Greedy filling of lines up to kLineWidth columns; a unit longer than a line gets its own.
class LineWrapper {
 public:
  void add(std::string_view unit) {
    if (!line_.empty() && line_.size() + 1 + unit.size() > kLineWidth) flush();
    if (!line_.empty()) line_ += ' ';
    line_ += unit;
  }
  // Glues `text` to the last unit, without a space (a variation's closing parenthesis).
  void glue(std::string_view text) { line_ += text; }
  std::string finish() {
    flush();
    return std::move(text_);
  }

 private:
  void flush() {
    if (line_.empty()) return;
    text_ += line_;
    text_ += '\n';
    line_.clear();
  }
  std::string text_;
  std::string line_;
};

// A person's comment as PGN's "{...}": it may not hold the '}' that would end it.
std::string note_comment(std::string_view text) {
  std::string out = "{";
  for (const char c : text) out += c == '}' ? ')' : c;
  return out + "}";
}

struct Numbering {
  std::size_t first;         // 1 when O moves first
  std::size_t first_number;  // the FEN's move number
  std::string number_of(std::size_t ply, bool restate) const {
    const std::size_t number = (ply + first) / 2 + first_number;
    if ((ply + first) % 2 == 0) return std::to_string(number) + ". ";
    return restate ? std::to_string(number) + "... " : "";
  }
};

void add_annotations(LineWrapper& movetext, const MoveRecord& move, std::size_t ply, bool full,
                     const Numbering& numbering);

// A variation: its moves numbered from `ply`, in parentheses.
void add_variation(LineWrapper& movetext, const std::vector<MoveRecord>& line, std::size_t ply,
                   bool full, const Numbering& numbering) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    // O restates its number at the start of the variation and after anything between moves.
    const bool restate =
        full || i == 0 || !line[i - 1].comment.empty() || !line[i - 1].variations.empty();
    std::string unit = (i == 0 ? "(" : "") + numbering.number_of(ply + i, restate) + line[i].move;
    if (full) unit += " " + engine_comment(line[i]);
    movetext.add(unit);
    add_annotations(movetext, line[i], ply + i, full, numbering);
  }
  movetext.glue(")");
}

// A person's comment and the variations after a move (quixo-gui's studies; none in the arena's).
void add_annotations(LineWrapper& movetext, const MoveRecord& move, std::size_t ply, bool full,
                     const Numbering& numbering) {
  if (!move.comment.empty()) movetext.add(note_comment(move.comment));
  for (const std::vector<MoveRecord>& line : move.variations)
    if (!line.empty()) add_variation(movetext, line, ply, full, numbering);
}

}  // namespace

std::string format_pgn(const GameRecord& game, PgnStyle style) {
  const bool full = style == PgnStyle::Full;
  std::string out;
  add_tag(out, "Event", or_unknown(game.event));
  add_tag(out, "Site", or_unknown(game.site));
  add_tag(out, "Date", or_unknown(game.date, kUnknownDate));
  add_tag(out, "Round", or_unknown(game.round));
  add_tag(out, "White", or_unknown(game.x_name));
  add_tag(out, "Black", or_unknown(game.o_name));
  if (game.x_elo) add_tag(out, "WhiteElo", std::to_string(*game.x_elo));
  if (game.o_elo) add_tag(out, "BlackElo", std::to_string(*game.o_elo));
  add_tag(out, "Result", result_text(game.result));
  add_tag(out, "Variant", game.four_player ? kVariant4 : kVariant2);
  add_tag(out, "SetUp", "1");
  add_tag(out, "FEN", game.start_position);
  if (game.four_player) {
    add_tag(out, "Seating", seating_name(game.four_player->seating));
    for (std::size_t seat = 0; seat < 4; ++seat)
      add_tag(out, kSeatTags[seat], or_unknown(game.four_player->names[seat]));
  }
  if (full) {
    add_tag(out, "TimeControl", or_unknown(game.time_control));
    if (game.o_time_control) {
      add_tag(out, "WhiteTimeControl", or_unknown(game.time_control));
      add_tag(out, "BlackTimeControl", *game.o_time_control);
    }
  }
  add_tag(out, "Termination", standard_termination(game.termination));
  add_tag(out, "QuixoTermination", termination_name(game.termination));
  const std::size_t plies = game.opening_moves.size() + game.moves.size();
  if (full) {
    if (!game.reason.empty()) add_tag(out, "Reason", game.reason);
    add_tag(out, "PlyCount", std::to_string(plies));
    if (!game.start_time.empty()) add_tag(out, "GameStartTime", game.start_time);
    if (!game.end_time.empty()) add_tag(out, "GameEndTime", game.end_time);
    if (!game.duration.empty()) add_tag(out, "GameDuration", game.duration);
  }
  out += '\n';

  LineWrapper movetext;
  const std::size_t first = o_moves_first(game.start_position) ? 1 : 0;
  const std::size_t first_number = first_move_number(game.start_position);
  const Numbering numbering{first, first_number};
  bool after_annotation = false;  // an O move after a comment or variation restates its number
  for (std::size_t ply = 0; ply < plies; ++ply) {
    const std::size_t number = (ply + first) / 2 + first_number;
    const bool x_moves = (ply + first) % 2 == 0;
    const bool book = ply < game.opening_moves.size();
    const std::string& move =
        book ? game.opening_moves[ply] : game.moves[ply - game.opening_moves.size()].move;
    // In the full form every move is followed by a comment, so an O move always restates its
    // number ("N..."); in the short form only the first move does, when O makes it. A ply with its
    // number and comment stays on one line: lines break only between plies.
    std::string unit;
    if (x_moves)
      unit = std::to_string(number) + ". ";
    else if (full || ply == 0 || after_annotation)
      unit = std::to_string(number) + "... ";
    unit += move;
    if (full)
      unit += " " + (book ? "{" + std::string(kBookComment) + "}"
                          : engine_comment(game.moves[ply - game.opening_moves.size()]));
    movetext.add(unit);
    after_annotation = false;
    if (!book) {
      const MoveRecord& played = game.moves[ply - game.opening_moves.size()];
      add_annotations(movetext, played, ply, full, numbering);
      after_annotation = !played.comment.empty() || !played.variations.empty();
    }
  }
  movetext.add(result_text(game.result));
  return out + movetext.finish() + "\n";
}

}  // namespace quixo::arena
