#include "merge.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>

#include "file_io.hpp"
#include "results_store.hpp"
#include "schedule.hpp"
#include "shard_exchange.hpp"
#include "standings.hpp"

namespace quixo::arena {
namespace {

// The part of a shard's PGN that its results file records.
std::string recorded_pgn(const std::string& path, std::int64_t bytes, const std::string& shard) {
  const std::optional<std::string> text = read_prefix(path, bytes);
  if (!text) throw TournamentError("cannot read the PGN file " + path + " of " + shard);
  if (static_cast<std::int64_t>(text->size()) != bytes)
    throw TournamentError("the PGN file " + path + " of " + shard +
                          " is shorter than its results file records");
  return *text;
}

TournamentEnd decided_end(const Standings& standings) {
  switch (sprt_decision(standings)) {
    case SprtResult::Decision::AcceptH1:
      return TournamentEnd::SprtAcceptedH1;
    case SprtResult::Decision::AcceptH0:
      return TournamentEnd::SprtAcceptedH0;
    case SprtResult::Decision::Continue:
      break;
  }
  return TournamentEnd::Completed;
}

}  // namespace

MergeOutcome merge_shards(const std::vector<std::string>& shard_files,
                          const std::string& results_path, const std::string& pgn_path,
                          ReportSink& sink) {
  if (shard_files.empty()) throw TournamentError("merge needs the shards' results files");
  std::vector<RecordedResults> shards;
  // The pieces whose results file is not there: they never started (pending or cancelled in the
  // queue), so their games are missing, as a piece's that stopped midway are. Known by the name
  // that the piece would have written (r.shard-2-of-4.json, r.chunk-7-of-64.json).
  std::map<int, std::string> absent;
  std::optional<Shard> absent_kind;
  for (const std::string& file : shard_files) {
    if (std::filesystem::weakly_canonical(file) == std::filesystem::weakly_canonical(results_path))
      throw TournamentError("the merged results file " + results_path + " is also a shard's");
    std::error_code error;
    const std::optional<Shard> named = shard_of_file_path(file);
    if (named && !std::filesystem::exists(file, error) && !error) {
      if (absent_kind && (absent_kind->count != named->count || absent_kind->chunk != named->chunk))
        throw TournamentError(file + " names " + shard_label(*named) + ", but another file " +
                              shard_label(*absent_kind) +
                              ": the pieces of one tournament are all shards or all chunks, of "
                              "one N");
      absent_kind = named;
      if (!absent.emplace(named->index, file).second)
        throw TournamentError(shard_label(*named) + " is given twice (" + absent[named->index] +
                              " and " + file + ")");
      continue;
    }
    RecordedResults shard = read_recorded_results(file);
    if (!shard.shard)
      throw TournamentError(file +
                            " is not a shard's results file (it was written without "
                            "--shard or --chunk)");
    shards.push_back(std::move(shard));
  }
  if (shards.empty())
    throw TournamentError("none of the " + std::to_string(absent.size()) +
                          " pieces given has a results file yet (none has started), so there is "
                          "nothing to merge");
  const Shard kind = *shards.front().shard;
  const int count = kind.count;
  const auto same_kind = [&](const Shard& shard) {
    return shard.count == count && shard.chunk == kind.chunk;
  };
  std::map<int, const RecordedResults*> by_index;
  for (const RecordedResults& shard : shards) {
    if (!same_kind(*shard.shard))
      throw TournamentError(shard.path + " is " + shard_label(*shard.shard) + ", but " +
                            shards.front().path + " is " + shard_label(kind) +
                            ": the pieces of one tournament are all shards or all chunks, of "
                            "the same N");
    const std::string difference =
        tournament_difference(shards.front().description, shard.description);
    if (!difference.empty())
      throw TournamentError(shard.path + " and " + shards.front().path +
                            " are not shards of one tournament: " + difference);
    if (shard.run_id != shards.front().run_id)
      throw TournamentError(
          shard.path + " and " + shards.front().path +
          " are pieces of different runs of the tournament (run " +
          (shard.run_id.empty() ? "without an id" : shard.run_id) + " and " +
          (shards.front().run_id.empty() ? "without an id" : shards.front().run_id) +
          "): merge the pieces of one run");
    const auto [place, fresh] = by_index.emplace(shard.shard->index, &shard);
    if (!fresh || absent.count(shard.shard->index) > 0)
      throw TournamentError(shard_label(*shard.shard) + " is given twice (" +
                            (fresh ? absent[shard.shard->index] : place->second->path) + " and " +
                            shard.path + ")");
  }
  if (absent_kind && !same_kind(*absent_kind))
    throw TournamentError(absent.begin()->second + " names " + shard_label(*absent_kind) +
                          ", but " + shards.front().path + " is " + shard_label(kind) +
                          ": the pieces of one tournament are all shards or all chunks, of the "
                          "same N");

  // The whole tournament's configuration and schedule (the book's positions are not needed: the
  // games are already played, and the schedule says who played X).
  TournamentConfig config = shards.front().config;
  config.shard.reset();
  config.results_path = results_path;
  config.pgn_path = pgn_path;
  const std::vector<ScheduledGame> schedule = make_schedule(config);
  const auto pairs = static_cast<std::int64_t>(schedule.size()) / 2;

  struct Entry {
    FinishedGame game;
    std::string pgn;
  };
  std::map<int, Entry> games;
  for (const RecordedResults& shard : shards) {
    const std::string name = shard_label(*shard.shard) + " (" + shard.path + ")";
    std::string pgn;
    if (!pgn_path.empty()) {
      if (shard.pgn_path.empty())
        throw TournamentError(name +
                              " was played without --pgn, so there is no PGN to merge; "
                              "merge without --pgn");
      pgn = recorded_pgn(shard.pgn_path, shard.pgn_bytes, name);
    }
    for (std::size_t i = 0; i < shard.games.size(); ++i) {
      const FinishedGame& game = shard.games[i];
      const std::string which = "game " + std::to_string(game.id + 1);
      if (game.id < 0 || static_cast<std::size_t>(game.id) >= schedule.size())
        throw TournamentError(name + " holds " + which + ", which is not in the schedule");
      const ScheduledGame& planned = schedule[static_cast<std::size_t>(game.id)];
      if (!shard.shard->owns_pair(planned.pair, pairs)) {
        int owner = 1;
        while (owner < count && !Shard{owner, count, kind.chunk}.owns_pair(planned.pair, pairs))
          ++owner;
        throw TournamentError(name + " holds " + which + ", which is " +
                              shard_label(Shard{owner, count, kind.chunk}) + "'s");
      }
      if (planned.x != game.x || planned.o != game.o || planned.round != game.round)
        throw TournamentError(name + " holds " + which +
                              " with other players or round than the schedule's");
      Entry entry{game, {}};
      if (!pgn_path.empty()) {
        const PgnSpan span = shard.spans[i];
        if (span.length == 0 || span.offset + span.length > shard.pgn_bytes)
          throw TournamentError(name + " does not say where " + which + " is in its PGN " +
                                shard.pgn_path);
        entry.pgn = pgn.substr(static_cast<std::size_t>(span.offset),
                               static_cast<std::size_t>(span.length));
      }
      if (!games.emplace(game.id, std::move(entry)).second)
        throw TournamentError(which + " is in " + name + " twice");
    }
  }

  RecordedResults merged;
  merged.path = results_path;
  merged.description = shards.front().description;
  merged.config = config;
  merged.pgn_path = pgn_path;
  merged.run_id = shards.front().run_id;
  std::string pgn;
  for (const auto& [id, entry] : games) {
    merged.games.push_back(entry.game);
    merged.spans.push_back(
        {static_cast<std::int64_t>(pgn.size()), static_cast<std::int64_t>(entry.pgn.size())});
    pgn += entry.pgn;
  }
  merged.pgn_bytes = static_cast<std::int64_t>(pgn.size());

  MergeOutcome outcome;
  outcome.standings = compute_standings(config, merged.games);
  // What is missing, shard by shard.
  bool missing = false;
  bool running = false;
  for (int index = 1; index <= count; ++index) {
    const Shard shard{index, count, kind.chunk};
    const auto found = by_index.find(index);
    std::int64_t played = 0;
    for (const auto& [id, entry] : games)
      played += shard.owns_pair(schedule[static_cast<std::size_t>(id)].pair, pairs) ? 1 : 0;
    const std::int64_t owned = 2 * shard.pairs_owned(pairs);
    if (found == by_index.end()) {
      missing = missing || owned > 0;
      if (owned > 0 && absent.count(index) > 0)
        sink.warning(shard_label(shard) + " (" + absent[index] +
                     ") has not started (no results file): its " + std::to_string(owned) +
                     " games are missing");
      else if (owned > 0)
        sink.warning(shard_label(shard) + " is not given: its " + std::to_string(owned) +
                     " games are missing");
      continue;
    }
    running = running || found->second->status == "running";
    if (played < owned) {
      missing = true;
      sink.warning(shard_label(shard) + " (" + found->second->path + ", " + found->second->status +
                   ") has played " + std::to_string(played) + " of its " + std::to_string(owned) +
                   " games");
    }
  }

  // The SPRT decision the pieces recorded in --shared-dir stands, with the counts it was taken
  // on, whatever games were played after it (one file, written once: every piece has the same).
  std::optional<SharedDecision> shared;
  for (const RecordedResults& shard : shards) {
    if (!shard.shared_decision) continue;
    if (shared && *shared != *shard.shared_decision)
      throw TournamentError(shard.path + " records another SPRT decision than the other pieces (" +
                            describe_shared_decision(*shard.shared_decision) + ", not " +
                            describe_shared_decision(*shared) + ")");
    shared = shard.shared_decision;
  }
  if (shared && config.sprt) {
    outcome.standings.shared_decision = shared;
    outcome.standings.sprt_shards = shared->shards;
    outcome.standings.sprt.reset();
    outcome.standings.sprt_error.clear();
    sprt_or_error(shared->counts, *config.sprt, outcome.standings.sprt,
                  outcome.standings.sprt_error);
    if (outcome.standings.sprt) outcome.standings.sprt->decision = shared->decision;
    sink.warning("the SPRT was decided: " + describe_shared_decision(*shared));
  }

  // An SPRT decides on the merged games, which hold every game the shards decided on.
  outcome.end = decided_end(outcome.standings);
  if (outcome.end == TournamentEnd::Completed) {
    // The shards stopped on a decision that the merged counts no longer show (games finished
    // after it moved the LLR back): the shards' decision stands, as a single run's would.
    for (const RecordedResults& shard : shards) {
      if (shard.status == end_name(TournamentEnd::SprtAcceptedH1))
        outcome.end = TournamentEnd::SprtAcceptedH1;
      else if (shard.status == end_name(TournamentEnd::SprtAcceptedH0))
        outcome.end = TournamentEnd::SprtAcceptedH0;
    }
    if (outcome.end == TournamentEnd::Completed && missing)
      outcome.end = TournamentEnd::Interrupted;
    if (outcome.end == TournamentEnd::Completed && config.sprt)
      outcome.end = TournamentEnd::SprtUndecided;
  }
  merged.status = outcome.end == TournamentEnd::Interrupted && running
                      ? std::string("running")
                      : std::string(end_name(outcome.end));
  if (!pgn_path.empty()) replace_file(pgn_path, pgn);
  write_results_file(results_path, merged, outcome.standings);
  sink.tournament_finished(config, outcome.standings, outcome.end);
  return outcome;
}

}  // namespace quixo::arena
