#include "schedule.hpp"

#include <cassert>
#include <string>
#include <string_view>

#include "core/notation.hpp"

namespace quixo::arena {

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
    const std::string_view start =
        config.variant == Variant::FourPlayer ? kStartPosition4 : kStartPosition;
    for (std::size_t pairing = 0; pairing < pairings.size(); ++pairing) {
      const auto& [first, second] = pairings[pairing];
      const std::size_t place = per_encounter ? round * pairings.size() + pairing : round;
      const Opening opening =
          book_order.empty() ? Opening{std::string(start), {}} : config.openings[book_order[place]];
      for (int swap = 0; swap < 2; ++swap) {
        ScheduledGame game;
        game.id = static_cast<int>(schedule.size());
        game.round = static_cast<int>(round);
        game.pair = game.id / 2;
        game.x = swap == 0 ? first : second;
        game.o = swap == 0 ? second : first;
        game.opening = opening;
        schedule.push_back(std::move(game));
      }
    }
  }
  return schedule;
}

}  // namespace quixo::arena
