#include "openings.hpp"

#include <algorithm>
#include <fstream>
#include <istream>
#include <mutex>
#include <numeric>
#include <optional>
#include <ostream>
#include <random>
#include <unordered_set>
#include <utility>

#include "core/notation.hpp"
#include "core/position.hpp"
#include "core/symmetry.hpp"
#include "game_position.hpp"
#include "search/engine.hpp"
#include "search/score.hpp"
#include "search/team_search.hpp"
#include "text_helpers.hpp"

namespace quixo::arena {

namespace {

bool is_move_number(std::string_view token) {
  if (token.empty() || token[0] == '0') return false;
  for (const char c : token)
    if (c < '0' || c > '9') return false;
  return true;
}

// One book line (not blank, not a comment) as an Opening; throws NotationError or
// std::invalid_argument with the problem, which the caller prefixes with source:line.
Opening parse_opening_line(std::string_view line) {
  const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
  std::size_t next = 0;
  std::string position_text;
  std::string move_number;
  if (tokens[0] == "startpos" || tokens[0] == "startpos4") {
    position_text = std::string(tokens[0] == "startpos" ? kStartPosition : kStartPosition4);
    next = 1;
  } else {
    next = tokens[0] == "fen" ? 1 : 0;
    if (tokens.size() < next + 2)
      throw std::invalid_argument(
          "expected a position '<board> <side>', 'fen <board> <side>', 'startpos' or "
          "'startpos4', optionally followed by 'moves ...'");
    position_text = std::string(tokens[next]) + " " + std::string(tokens[next + 1]);
    next += 2;
    // The position string may carry a move number (SPEC section 3). It is kept, so that the
    // PGN's FEN tag and move numbers go on from it as in the book.
    if (next < tokens.size() && is_move_number(tokens[next])) move_number = tokens[next++];
  }
  GamePosition position =
      GamePosition::parse(move_number.empty() ? position_text : position_text + " " + move_number);
  Opening opening{position.text() + (move_number.empty() ? "" : " " + move_number), {}};
  if (next < tokens.size()) {
    if (tokens[next] != "moves")
      throw std::invalid_argument("unexpected '" + std::string(tokens[next]) +
                                  "' after the position (expected 'moves')");
    for (++next; next < tokens.size(); ++next) {
      const std::string_view text = tokens[next];
      try {
        opening.moves.push_back(position.play(text));
      } catch (const NotationError& error) {
        throw NotationError("move " + std::to_string(opening.moves.size() + 1) + " '" +
                            std::string(text) + "': " + error.what());
      }
    }
  }
  if (position.is_game_over())
    throw std::invalid_argument("the game is already over (" + to_string(position.outcome()) + ")" +
                                (opening.moves.empty() ? "" : " after the moves"));
  return opening;
}

// A uniform-enough index in [0, bound) from one draw of the generator. The plain remainder is
// used instead of std::uniform_int_distribution, whose output differs between standard libraries,
// so a seed gives the same book and the same order everywhere; its bias, below bound / 2^64, is
// far too small to matter for book sizes and move counts.
std::size_t random_below(std::mt19937_64& random, std::size_t bound) {
  return static_cast<std::size_t>(random() % static_cast<std::uint64_t>(bound));
}

bool has_winning_move(const Position& position) {
  const Outcome win = win_for(position.side_to_move());
  for (const Move move : position.legal_moves())
    if (position.after(move).outcome() == win) return true;
  return false;
}

bool has_winning_move(const Position4& position) {
  const Outcome win = win_for(position.team_to_move());
  for (const Move4 move : position.legal_moves())
    if (position.after(move).outcome() == win) return true;
  return false;
}

// Whether every move of the seat to move loses at once or lets the next seat (the other team)
// win with its reply: the position is lost in two plies.
bool lost_in_two(const Position4& position) {
  const Outcome loss = win_for(~position.team_to_move());
  for (const Move4 move : position.legal_moves()) {
    const Position4 next = position.after(move);
    if (next.outcome() != loss && !has_winning_move(next)) return false;
  }
  return true;
}

// One text for all 8 symmetric images of a four-player position (points and seat included): the
// smallest of their position strings.
std::string canonical_text(const Position4& position) {
  std::string smallest = to_string(position);
  for (const Symmetry symmetry : kAllSymmetries)
    smallest = std::min(smallest, to_string(transform(symmetry, position)));
  return smallest;
}

// The score of a fixed-depth search of `position` from the side (team) to move's point of view:
// the last exact score the search reported (the deepest completed iteration). For Engine with
// SearchCallbacks and TeamEngine with TeamSearchCallbacks alike.
template <class Callbacks, class EngineT, class PositionT>
Score search_score(EngineT& engine, const PositionT& position, int depth) {
  std::mutex mutex;
  std::optional<Score> exact;
  std::optional<Score> any;
  Callbacks callbacks;
  callbacks.on_info = [&](const auto& info) {
    std::lock_guard lock(mutex);
    any = info.score;
    if (info.bound == Bound::Exact) exact = info.score;
  };
  callbacks.on_bestmove = [](auto, auto) {};
  // A fresh table for every candidate makes each verdict independent of the ones before it.
  engine.new_game();
  // The game starts from this position with no history, as the engines will see it.
  engine.set_position(position, {});
  SearchLimits limits;
  limits.depth = depth;
  engine.go(limits, std::move(callbacks));
  engine.wait();
  std::lock_guard lock(mutex);
  return exact ? *exact : any.value_or(kDrawScore);
}

// The four-player generator: see generate_openings.
std::vector<Opening> generate_openings4(const OpeningGeneratorOptions& options) {
  TeamEngine engine;
  EngineOptions engine_options;
  engine_options.threads = 1;
  engine_options.hash_mb = 1;
  engine.set_options(engine_options);
  std::mt19937_64 random(options.seed);
  std::unordered_set<std::string> seen;  // canonical texts of the positions made or rejected
  std::vector<Opening> openings;
  const std::size_t max_attempts = 1000 + 100 * options.count;
  std::size_t attempts = 0;
  const int ply_span = options.max_plies - options.min_plies + 1;
  while (openings.size() < options.count) {
    if (++attempts > max_attempts)
      throw OpeningError("generate_openings: made only " + std::to_string(openings.size()) +
                         " of " + std::to_string(options.count) + " four-player openings in " +
                         std::to_string(max_attempts) +
                         " attempts (too few distinct positions within the plies)");
    const int plies = options.min_plies +
                      static_cast<int>(random_below(random, static_cast<std::size_t>(ply_span)));
    Position4 position = Position4::start();
    for (int ply = 0; ply < plies && !position.is_game_over(); ++ply) {
      const MoveList4 moves = position.legal_moves();
      position = position.after(moves[random_below(random, moves.size())]);
    }
    if (position.is_game_over() || has_winning_move(position)) continue;
    if (!seen.insert(canonical_text(position)).second) continue;
    if (lost_in_two(position)) continue;
    if (options.search_depth > 0) {
      const Score score = search_score<TeamSearchCallbacks>(engine, position, options.search_depth);
      if (is_mate_score(score) || score > options.max_abs_score_cp ||
          score < -options.max_abs_score_cp)
        continue;
    }
    openings.push_back({to_string(position), {}});
  }
  return openings;
}

}  // namespace

std::vector<Opening> parse_openings(std::istream& in, std::string_view source_name) {
  std::vector<Opening> openings;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::vector<std::string_view> tokens = text_helpers::tokenize(line);
    if (tokens.empty() || tokens[0][0] == '#') continue;
    try {
      openings.push_back(parse_opening_line(line));
    } catch (const std::invalid_argument& error) {  // NotationError is one too
      throw OpeningError(std::string(source_name) + ":" + std::to_string(line_number) + ": " +
                         error.what());
    }
  }
  return openings;
}

std::vector<Opening> load_openings(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw OpeningError(path + ": cannot open the opening book");
  std::vector<Opening> openings = parse_openings(in, path);
  if (in.bad()) throw OpeningError(path + ": read error");
  if (openings.empty()) throw OpeningError(path + ": the book holds no opening");
  return openings;
}

std::string format_opening(const Opening& opening) {
  std::string text = opening.position;
  if (!opening.moves.empty()) {
    text += " moves";
    for (const std::string& move : opening.moves) text += " " + move;
  }
  return text;
}

void write_openings(std::ostream& out, const std::vector<Opening>& openings) {
  for (const Opening& opening : openings) out << format_opening(opening) << '\n';
}

std::vector<std::size_t> opening_sequence(std::size_t book_size, OpeningOrder order,
                                          std::uint64_t seed, std::size_t offset,
                                          std::size_t needed) {
  if (needed == 0) return {};
  if (book_size == 0) throw OpeningError("the opening book is empty");
  std::vector<std::size_t> order_of_book(book_size);
  std::iota(order_of_book.begin(), order_of_book.end(), std::size_t{0});
  if (order == OpeningOrder::Random) {
    // Fisher-Yates from the back, with the portable reduction above.
    std::mt19937_64 random(seed);
    for (std::size_t i = book_size - 1; i > 0; --i)
      std::swap(order_of_book[i], order_of_book[random_below(random, i + 1)]);
  }
  std::vector<std::size_t> sequence;
  sequence.reserve(needed);
  for (std::size_t i = 0; i < needed; ++i)
    sequence.push_back(order_of_book[(offset % book_size + i) % book_size]);
  return sequence;
}

std::vector<Opening> generate_openings(const OpeningGeneratorOptions& options) {
  if (options.min_plies < 0 || options.max_plies < options.min_plies)
    throw OpeningError("generate_openings: need 0 <= min_plies <= max_plies, got " +
                       std::to_string(options.min_plies) + " and " +
                       std::to_string(options.max_plies));
  if (options.search_depth < 0 || options.max_abs_score_cp < 0)
    throw OpeningError("generate_openings: search_depth and max_abs_score_cp must not be negative");
  if (options.variant == Variant::FourPlayer) return generate_openings4(options);

  Engine engine;
  EngineOptions engine_options;
  engine_options.threads = 1;  // one thread: the search, and so the book, is deterministic
  engine_options.hash_mb = 1;  // plenty for a depth-6 search, and cheap to clear per candidate
  engine.set_options(engine_options);

  std::mt19937_64 random(options.seed);
  std::unordered_set<std::uint64_t> seen;  // canonical keys of the positions made or rejected
  std::vector<Opening> openings;
  // Only a few distinct positions exist within very few plies; give up rather than loop forever.
  const std::size_t max_attempts = 1000 + 100 * options.count;
  std::size_t attempts = 0;
  const int ply_span = options.max_plies - options.min_plies + 1;
  while (openings.size() < options.count) {
    if (++attempts > max_attempts)
      throw OpeningError("generate_openings: made only " + std::to_string(openings.size()) +
                         " of " + std::to_string(options.count) + " openings in " +
                         std::to_string(max_attempts) +
                         " attempts (too few distinct positions within the plies, or too "
                         "strict a score limit)");
    const int plies = options.min_plies +
                      static_cast<int>(random_below(random, static_cast<std::size_t>(ply_span)));
    Position position = Position::start();
    for (int ply = 0; ply < plies && !position.is_game_over(); ++ply) {
      const MoveList2 moves = position.legal_moves();
      position = position.after(moves[random_below(random, moves.size())]);
    }
    if (position.is_game_over() || has_winning_move(position)) continue;
    // A rejected position is remembered too: checking it again would only reject it again.
    if (!seen.insert(canonical(position).key()).second) continue;
    if (options.search_depth > 0) {
      const Score score = search_score<SearchCallbacks>(engine, position, options.search_depth);
      if (is_mate_score(score) || score > options.max_abs_score_cp ||
          score < -options.max_abs_score_cp)
        continue;
    }
    openings.push_back({to_string(position), {}});
  }
  return openings;
}

}  // namespace quixo::arena
