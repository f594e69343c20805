#include "opening_generator.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "core/position.hpp"
#include "core/position4.hpp"
#include "core/symmetry.hpp"
#include "search/engine.hpp"
#include "search/engine4.hpp"
#include "search/score.hpp"

namespace quixo::opening_generator {

namespace {

using arena::Opening;
using arena::OpeningError;
using arena::random_below;

// What the two variants do differently; the generator below is one algorithm over them.
struct TwoPlayerOpenings {
  using PositionType = Position;
  using EngineType = Engine;
  using Callbacks = SearchCallbacks;
  using CanonicalKey = std::uint64_t;
  static constexpr std::string_view kWhat = "openings";
  static constexpr std::string_view kWhyTooFew =
      "too few distinct positions within the plies, or too strict a score limit";

  static Color mover(const Position& position) { return position.side_to_move(); }
  static CanonicalKey canonical_key(const Position& position) { return canonical(position).key(); }
  // A two-player position with no win in one is kept for the search to judge.
  static bool lost_in_two(const Position&) { return false; }
};

struct FourPlayerOpenings {
  using PositionType = Position4;
  using EngineType = Engine4;
  using Callbacks = SearchCallbacks4;
  // Position4 has no symmetric key: the smallest position string of its 8 images (points and seat
  // included) stands for the class.
  using CanonicalKey = std::string;
  static constexpr std::string_view kWhat = "four-player openings";
  static constexpr std::string_view kWhyTooFew = "too few distinct positions within the plies";

  static Color mover(const Position4& position) { return position.team_to_move(); }
  static CanonicalKey canonical_key(const Position4& position) {
    std::string smallest = to_string(position);
    for (const Symmetry symmetry : kAllSymmetries)
      smallest = std::min(smallest, to_string(transform(symmetry, position)));
    return smallest;
  }
  static bool lost_in_two(const Position4& position);
};

template <class PositionT>
bool has_winning_move(const PositionT& position, Color mover) {
  const Outcome win = win_for(mover);
  for (const auto move : position.legal_moves())
    if (position.after(move).outcome() == win) return true;
  return false;
}

// Whether every move of the seat to move loses at once or lets the next seat (the other team)
// win with its reply: the position is lost in two plies. Four players only: the next seat's
// reply can undo what a two-player search would see.
bool FourPlayerOpenings::lost_in_two(const Position4& position) {
  const Outcome loss = win_for(~position.team_to_move());
  for (const Move4 move : position.legal_moves()) {
    const Position4 next = position.after(move);
    if (next.outcome() != loss && !has_winning_move(next, next.team_to_move())) return false;
  }
  return true;
}

// The score of a fixed-depth search of `position` from the side (team) to move's point of view:
// the last exact score the search reported (the deepest completed iteration).
template <class VariantRules>
Score search_score(typename VariantRules::EngineType& engine,
                   const typename VariantRules::PositionType& position, int depth) {
  std::mutex mutex;
  std::optional<Score> exact;
  std::optional<Score> any;
  typename VariantRules::Callbacks callbacks;
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

template <class VariantRules>
std::vector<Opening> generate(const OpeningGeneratorOptions& options) {
  using PositionT = typename VariantRules::PositionType;
  typename VariantRules::EngineType engine;
  EngineOptions engine_options;
  engine_options.threads = 1;  // one thread: the search, and so the book, is deterministic
  engine_options.hash_mb = 1;  // plenty for a depth-6 search, and cheap to clear per candidate
  engine.set_options(engine_options);

  std::mt19937_64 random(options.seed);
  // Canonical keys of the positions made or rejected: checking a rejected one again would only
  // reject it again.
  std::unordered_set<typename VariantRules::CanonicalKey> seen;
  std::vector<Opening> openings;
  // Only a few distinct positions exist within very few plies; give up rather than loop forever.
  const std::size_t max_attempts = 1000 + 100 * options.count;
  std::size_t attempts = 0;
  const int ply_span = options.max_plies - options.min_plies + 1;
  while (openings.size() < options.count) {
    if (++attempts > max_attempts)
      throw OpeningError("generate_openings: made only " + std::to_string(openings.size()) +
                         " of " + std::to_string(options.count) + " " +
                         std::string(VariantRules::kWhat) + " in " + std::to_string(max_attempts) +
                         " attempts (" + std::string(VariantRules::kWhyTooFew) + ")");
    const int plies = options.min_plies +
                      static_cast<int>(random_below(random, static_cast<std::size_t>(ply_span)));
    PositionT position = PositionT::start();
    for (int ply = 0; ply < plies && !position.is_game_over(); ++ply) {
      const auto moves = position.legal_moves();
      position = position.after(moves[random_below(random, moves.size())]);
    }
    if (position.is_game_over() || has_winning_move(position, VariantRules::mover(position)))
      continue;
    if (!seen.insert(VariantRules::canonical_key(position)).second) continue;
    if (VariantRules::lost_in_two(position)) continue;
    if (options.search_depth > 0) {
      const Score score = search_score<VariantRules>(engine, position, options.search_depth);
      if (is_mate_score(score) || score > options.max_abs_score_cp ||
          score < options.min_score_cp.value_or(-options.max_abs_score_cp))
        continue;
    }
    openings.push_back({to_string(position), {}});
  }
  return openings;
}

}  // namespace

std::vector<Opening> generate_openings(const OpeningGeneratorOptions& options) {
  if (options.min_plies < 0 || options.max_plies < options.min_plies)
    throw OpeningError("generate_openings: need 0 <= min_plies <= max_plies, got " +
                       std::to_string(options.min_plies) + " and " +
                       std::to_string(options.max_plies));
  if (options.search_depth < 0 || options.max_abs_score_cp < 0)
    throw OpeningError("generate_openings: search_depth and max_abs_score_cp must not be negative");
  if (options.min_score_cp && (*options.min_score_cp > options.max_abs_score_cp ||
                               *options.min_score_cp < -options.max_abs_score_cp))
    throw OpeningError(
        "generate_openings: min_score_cp must lie in [-max_abs_score_cp, "
        "max_abs_score_cp]");
  if (options.min_score_cp && options.search_depth == 0)
    throw OpeningError("generate_openings: a score band needs the check search (search_depth > 0)");
  return options.variant == Variant::FourPlayer ? generate<FourPlayerOpenings>(options)
                                                : generate<TwoPlayerOpenings>(options);
}

}  // namespace quixo::opening_generator
