#include "schedule.hpp"

#include <algorithm>
#include <cassert>
#include <set>
#include <string>
#include <string_view>
#include <tuple>

#include "core/notation.hpp"

namespace quixo::arena {

namespace {

Opening start_position(const TournamentConfig& config) {
  return Opening{
      std::string(config.variant == Variant::FourPlayer ? kStartPosition4 : kStartPosition), {}};
}

// The opening at `place` of the book's sequence (the start position without a book).
Opening opening_at(const TournamentConfig& config, std::size_t place) {
  if (config.openings.empty()) return start_position(config);
  const std::vector<std::size_t> order =
      opening_sequence(config.openings.size(), config.opening_order, config.opening_seed,
                       config.opening_offset, place + 1);
  return config.openings[order[place]];
}

// The two games of a pair on one opening, `first` as X in the first.
void add_pair(std::vector<ScheduledGame>& games, int first_id, int round, std::size_t first,
              std::size_t second, const Opening& opening) {
  for (int swap = 0; swap < 2; ++swap) {
    ScheduledGame game;
    game.id = first_id + static_cast<int>(games.size());
    game.round = round;
    game.pair = game.id / 2;
    game.x = swap == 0 ? first : second;
    game.o = swap == 0 ? second : first;
    game.opening = opening;
    games.push_back(std::move(game));
  }
}

// The seeds (1-based) in bracket order for `engines` places: [1, 2], [1, 4, 2, 3],
// [1, 8, 4, 5, 2, 7, 3, 6]: each seed s of a bracket of size n is followed by n + 1 - s, which
// keeps the top seeds apart until the late rounds.
std::vector<std::size_t> bracket_seeds(std::size_t engines) {
  std::vector<std::size_t> seeds{1};
  while (seeds.size() < engines) {
    const std::size_t size = 2 * seeds.size();
    std::vector<std::size_t> next;
    for (const std::size_t seed : seeds) {
      next.push_back(seed);
      next.push_back(size + 1 - seed);
    }
    seeds = std::move(next);
  }
  return seeds;
}

double points_for(GameResult result, bool as_x) {
  if (result == GameResult::Draw) return 0.5;
  return (result == GameResult::XWins) == as_x ? 1.0 : 0.0;
}

// Who goes on from a match whose scheduled games are all finished, if anyone yet.
void decide(const TournamentConfig& config, KnockoutMatch& match) {
  if (!match.second) {
    match.winner = match.first;
    return;
  }
  const int games_per_match = 2 * config.rounds;
  if (match.games < games_per_match || match.games < match.scheduled_games) return;
  if (match.first_points != match.second_points) {
    match.winner = match.first_points > match.second_points ? match.first : *match.second;
  } else if (match.games >= 2 * games_per_match) {
    match.winner = match.first;
    match.by_seed = true;
  }
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> pairings_of(const TournamentConfig& config) {
  std::vector<std::pair<std::size_t, std::size_t>> pairings;
  const std::size_t count = config.engines.size();
  if (config.format == TournamentFormat::Gauntlet) {
    assert(config.seeds >= 1 && static_cast<std::size_t>(config.seeds) < count);
    const auto seeds = static_cast<std::size_t>(config.seeds);
    for (std::size_t seed = 0; seed < seeds; ++seed)
      for (std::size_t other = seeds; other < count; ++other) pairings.emplace_back(seed, other);
  } else {
    for (std::size_t first = 0; first < count; ++first)
      for (std::size_t second = first + 1; second < count; ++second)
        pairings.emplace_back(first, second);
  }
  return pairings;
}

std::vector<ScheduledGame> make_schedule(const TournamentConfig& config) {
  if (config.format == TournamentFormat::Knockout) return next_stage(config, {}, {});
  const auto pairings = pairings_of(config);
  const auto rounds = static_cast<std::size_t>(config.rounds);
  // policy round: one opening per round, for every pairing; encounter: one per game pair.
  const bool per_encounter = config.opening_policy == OpeningPolicy::Encounter;
  std::vector<std::size_t> book_order;
  if (!config.openings.empty())
    book_order =
        opening_sequence(config.openings.size(), config.opening_order, config.opening_seed,
                         config.opening_offset, per_encounter ? rounds * pairings.size() : rounds);
  std::vector<ScheduledGame> schedule;
  schedule.reserve(rounds * pairings.size() * 2);
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t pairing = 0; pairing < pairings.size(); ++pairing) {
      const std::size_t place = per_encounter ? round * pairings.size() + pairing : round;
      add_pair(schedule, 0, static_cast<int>(round), pairings[pairing].first,
               pairings[pairing].second,
               book_order.empty() ? start_position(config) : config.openings[book_order[place]]);
    }
  }
  return schedule;
}

std::vector<std::vector<KnockoutMatch>> knockout_bracket(
    const TournamentConfig& config, const std::vector<ScheduledGame>& schedule,
    const std::vector<std::optional<GameResult>>& results) {
  std::vector<std::vector<KnockoutMatch>> bracket;
  if (config.format != TournamentFormat::Knockout) return bracket;
  const std::size_t engines = config.engines.size();
  std::vector<KnockoutMatch> round;
  const std::vector<std::size_t> seeds = bracket_seeds(engines);
  for (std::size_t place = 0; place + 1 < seeds.size(); place += 2) {
    KnockoutMatch match;
    match.first = seeds[place] - 1;
    if (seeds[place + 1] <= engines) match.second = seeds[place + 1] - 1;
    round.push_back(match);
  }
  while (true) {
    const int number = static_cast<int>(bracket.size());
    for (KnockoutMatch& match : round) match.round = number;
    for (const ScheduledGame& game : schedule) {
      if (game.round != number) continue;
      const auto played = std::find_if(round.begin(), round.end(), [&](const KnockoutMatch& m) {
        return m.second && std::minmax(m.first, *m.second) == std::minmax(game.x, game.o);
      });
      if (played == round.end()) continue;
      ++played->scheduled_games;
      const auto id = static_cast<std::size_t>(game.id);
      if (id >= results.size() || !results[id] || *results[id] == GameResult::Unfinished) continue;
      ++played->games;
      played->first_points += points_for(*results[id], game.x == played->first);
      played->second_points += points_for(*results[id], game.x != played->first);
    }
    for (KnockoutMatch& match : round) decide(config, match);
    bracket.push_back(round);
    const bool decided = std::all_of(round.begin(), round.end(),
                                     [](const KnockoutMatch& match) { return match.winner; });
    if (!decided || round.size() == 1) break;
    std::vector<KnockoutMatch> next;
    for (std::size_t m = 0; m + 1 < round.size(); m += 2) {
      KnockoutMatch match;
      // The better seed (the lower index) is `first`.
      const auto [first, second] = std::minmax(*round[m].winner, *round[m + 1].winner);
      match.first = first;
      match.second = second;
      next.push_back(match);
    }
    round = std::move(next);
  }
  return bracket;
}

std::vector<ScheduledGame> next_stage(const TournamentConfig& config,
                                      const std::vector<ScheduledGame>& schedule,
                                      const std::vector<std::optional<GameResult>>& results) {
  std::vector<ScheduledGame> stage;
  if (config.format != TournamentFormat::Knockout) return stage;
  for (const ScheduledGame& game : schedule) {
    const auto id = static_cast<std::size_t>(game.id);
    if (id >= results.size() || !results[id]) return stage;
  }
  const std::vector<std::vector<KnockoutMatch>> bracket =
      knockout_bracket(config, schedule, results);
  const int first_id = static_cast<int>(schedule.size());
  for (const KnockoutMatch& match : bracket.back()) {
    if (match.winner) continue;
    const int pairs = match.scheduled_games == 0 ? config.rounds : 1;
    for (int pair = 0; pair < pairs; ++pair) {
      const auto match_pair = static_cast<std::size_t>(match.scheduled_games / 2 + pair);
      const auto overall_pair = static_cast<std::size_t>(first_id) / 2 + stage.size() / 2;
      const std::size_t place =
          config.opening_policy == OpeningPolicy::Encounter ? overall_pair : match_pair;
      add_pair(stage, first_id, match.round, match.first, *match.second, opening_at(config, place));
    }
  }
  return stage;
}

std::int64_t known_total_games(const TournamentConfig& config,
                               const std::vector<ScheduledGame>& schedule) {
  const auto scheduled = static_cast<std::int64_t>(schedule.size());
  if (config.format != TournamentFormat::Knockout) return scheduled;
  std::set<std::tuple<int, std::size_t, std::size_t>> matches;
  for (const ScheduledGame& game : schedule)
    matches.emplace(game.round, std::min(game.x, game.o), std::max(game.x, game.o));
  const auto all_matches = static_cast<std::int64_t>(config.engines.size()) - 1;
  return scheduled + 2 * config.rounds * (all_matches - static_cast<std::int64_t>(matches.size()));
}

}  // namespace quixo::arena
