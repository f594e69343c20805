// Shards and chunks (--shard I/N, --chunk I/N, shard_exchange.hpp, merge.hpp): their schedules are
// disjoint and cover the tournament (a chunk's contiguous); pieces played one after the other,
// one of them interrupted and resumed, merge into the games, PGN and standings of the same
// tournament played by one process; merge refuses files of other tournaments, other piece counts
// or kinds, other runs, a piece given twice, a game doubled or in the wrong piece, and reports the
// games that are missing, also of a piece that never started (exit 4); the combined LLR of the
// shards equals the LLR of the merged counts; counts and decisions of another run are not counted;
// the first SPRT decision is recorded once and every piece and the merge report it, with the
// counts it was taken on; shards that play at once stop together on it.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "arena_command_line.hpp"
#include "merge.hpp"
#include "pgn_reader.hpp"
#include "results_store.hpp"
#include "schedule.hpp"
#include "shard_exchange.hpp"
#include "standings.hpp"
#include "support/arena_in_process.hpp"
#include "support/arena_printing.hpp"
#include "support/tournament_fixtures.hpp"

namespace bdata = boost::unit_test::data;
namespace json = boost::json;
using namespace quixo;
using namespace quixo::arena;
using namespace quixo::test;

namespace {

// The configuration of shard (or chunk) `index` of `count` of run `run`, its files in `dir` as
// the command line names them, sharing `dir`.
TournamentConfig shard_config(TournamentConfig config, const TempDir& dir, int index, int count,
                              bool chunk = false, const std::string& run = "run-1") {
  config.shard = Shard{index, count, chunk};
  config.pgn_path = shard_file_path(dir.file("games.pgn"), *config.shard);
  config.results_path = shard_file_path(dir.file("results.json"), *config.shard);
  config.shared_dir = dir.path.string();
  config.run_id = run;
  return config;
}

std::vector<std::string> shard_files(const TempDir& dir, int count, bool chunk = false) {
  std::vector<std::string> files;
  for (int index = 1; index <= count; ++index)
    files.push_back(shard_file_path(dir.file("results.json"), Shard{index, count, chunk}));
  return files;
}

// quixo-arena WORDS..., its exit code; `out` gets what it printed on stdout, then stderr.
int run_arena(std::vector<std::string> words, std::string& out) {
  std::string err;
  const int code = run_arena_in_process(std::move(words), out, err);
  out += err;
  return code;
}

// What a game is, without the times and scores that differ between two runs.
struct PlayedMoves {
  std::string round, x, o, start;
  std::vector<std::string> opening, moves;
  GameResult result;
  Termination termination;
  bool operator==(const PlayedMoves&) const = default;
};
std::ostream& operator<<(std::ostream& out, const PlayedMoves& game) {
  return out << "round " << game.round << " " << game.x << "-" << game.o << " " << game.moves.size()
             << " moves";
}
std::vector<PlayedMoves> pgn_games(const std::string& path) {
  std::vector<PlayedMoves> games;
  for (const GameRecord& record : parse_pgn(read_file(path))) {
    PlayedMoves game{record.round,          record.x_name,        record.o_name,
                     record.start_position, record.opening_moves, {},
                     record.result,         record.termination};
    for (const MoveRecord& move : record.moves) game.moves.push_back(move.move);
    games.push_back(std::move(game));
  }
  return games;
}

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const TournamentError& error) {
    return error.what();
  }
  return "(no error)";
}

// Rewrites a results file through a function of its JSON.
void edit_results(const std::string& path, const std::function<void(json::object&)>& edit) {
  json::value file = json::parse(read_file(path));
  edit(file.as_object());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << json::serialize(file);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shard_tests)

BOOST_DATA_TEST_CASE(shard_names_read_back, bdata::make({"1/1", "2/4", "4/4", "13/50"}), text) {
  BOOST_TEST(shard_name(parse_shard(text)) == text);
}

BOOST_DATA_TEST_CASE(bad_shards_are_refused,
                     bdata::make({"0/4", "5/4", "x", "2/", "/4", "2/4/1", " 2/4", "-1/4", "2/0"}),
                     text) {
  BOOST_CHECK_EXCEPTION((void)parse_shard(text), std::invalid_argument, [&](const auto& error) {
    return std::string(error.what()).find("--shard: expected I/N") != std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE(shard_files_are_named_beside_the_tournaments) {
  BOOST_TEST(shard_file_path("out/games.pgn", {2, 4}) == "out/games.shard-2-of-4.pgn");
  BOOST_TEST(shard_file_path("results", {1, 3}) == "results.shard-1-of-3");
  BOOST_TEST(shard_file_path("/a.b/r.json", {3, 3}) == "/a.b/r.shard-3-of-3.json");
}

BOOST_AUTO_TEST_CASE(piece_files_are_read_back_from_their_names) {
  for (const Shard shard : {Shard{2, 4, false}, Shard{7, 64, true}, Shard{1, 1, true}}) {
    const std::string path = shard_file_path("/a.b/r.json", shard);
    BOOST_TEST((shard_of_file_path(path) == std::optional<Shard>(shard)), path);
  }
  BOOST_TEST(shard_file_path("out/r.json", {7, 64, true}) == "out/r.chunk-7-of-64.json");
  for (const char* path : {"r.json", "r.shard-02-of-4.json", "r.shard-5-of-4.json",
                           "r.chunk-2-of.json", "r.shard-2-of-4x.json"})
    BOOST_TEST(!shard_of_file_path(path), path);
}

BOOST_DATA_TEST_CASE(shard_schedules_are_disjoint_and_cover_the_tournament,
                     bdata::make({1, 2, 3, 4, 7, 40}) * bdata::make({1, 2, 5}) *
                         bdata::make({false, true}),
                     count, rounds, chunk) {
  TournamentConfig config = two_engine_config(rounds);
  config.engines.push_back(engine("seeded-3"));  // three pairings
  const std::vector<ScheduledGame> schedule = make_schedule(config);
  const auto pairs = static_cast<std::int64_t>(schedule.size()) / 2;
  std::vector<int> owners(schedule.size(), 0);
  std::int64_t total = 0;
  int last_pair = -1;
  for (int index = 1; index <= count; ++index) {
    config.shard = Shard{index, count, chunk};
    std::int64_t owned = 0;
    for (const ScheduledGame& game : schedule)
      if (config.shard->owns_pair(game.pair, pairs)) {
        ++owners[static_cast<std::size_t>(game.id)];
        ++owned;
        // A chunk's pairs follow those of the chunk before it, one after the other.
        if (chunk && game.id % 2 == 0) BOOST_TEST(game.pair == ++last_pair);
      }
    // A pair's two games go together, and the standings count the piece's share.
    BOOST_TEST(owned % 2 == 0);
    BOOST_TEST(compute_standings(config, {}).total_games == owned);
    // Chunks differ in size by a pair at most.
    if (chunk) BOOST_TEST(std::abs(owned / 2 - pairs / count) <= 1);
    total += owned;
  }
  BOOST_TEST(total == static_cast<std::int64_t>(schedule.size()));
  BOOST_TEST(std::all_of(owners.begin(), owners.end(), [](int n) { return n == 1; }));
}

// Shards, chunks, and more chunks than pairs (some of them empty).
BOOST_DATA_TEST_CASE(shards_merge_into_the_tournament_one_process_plays,
                     bdata::make({false, true, true}) ^ bdata::make({3, 3, 9}), chunk, count) {
  TempDir single_dir;
  TournamentConfig single = two_engine_config(7);
  keep_files_in(single_dir, single);
  RecordingSink single_sink;
  const TournamentOutcome alone = play_scripted(single, single_sink);
  BOOST_REQUIRE(alone.end == TournamentEnd::Completed);

  TempDir dir;
  for (int index = 1; index <= count; ++index) {
    TournamentConfig config = shard_config(two_engine_config(7), dir, index, count, chunk);
    const std::int64_t share = 2 * config.shard->pairs_owned(7);
    if (index == 2) {
      // Piece 2 is stopped after its first game, and resumed.
      BOOST_TEST((play_scripted_until(config, 1).end == TournamentEnd::Interrupted));
      config.resume = true;
    }
    RecordingSink sink;
    const TournamentOutcome outcome = play_scripted(config, sink);
    BOOST_TEST((outcome.end == TournamentEnd::Completed));
    // Shards: pairs 0 3 6 | 1 4 | 2 5; 3 chunks: 0-1 | 2-3 | 4-6.
    BOOST_TEST(outcome.standings.total_games == share);
    if (count == 3) BOOST_TEST(share == (index == (chunk ? 3 : 1) ? 6 : 4));
    for (const int id : sink.finished_ids) BOOST_TEST(config.shard->owns_pair(id / 2, 7));
  }
  const std::vector<std::string> files = shard_files(dir, count, chunk);
  // Merging one of the shards' own files into the single run's folder is refused.
  BOOST_TEST(error_of([&] {
               RecordingSink sink;
               (void)merge_shards(files, files[0], "", sink);
             }).find("is also a shard's") != std::string::npos);

  RecordingSink sink;
  const MergeOutcome merged =
      merge_shards(files, dir.file("merged.json"), dir.file("merged.pgn"), sink);
  BOOST_TEST((merged.end == TournamentEnd::Completed));
  BOOST_TEST((sink.last_end == TournamentEnd::Completed));
  BOOST_TEST(sink.warnings.empty());
  BOOST_TEST(merged.standings.games == alone.standings.games);
  BOOST_TEST(merged.standings.total_games == alone.standings.total_games);
  BOOST_TEST(merged.standings.engines[0].results.wins == alone.standings.engines[0].results.wins);
  BOOST_TEST(merged.standings.engines[0].results.draws == alone.standings.engines[0].results.draws);
  BOOST_TEST((merged.standings.pairings[0].pairs == alone.standings.pairings[0].pairs));

  // Game by game: the results files (in schedule order) and the PGN files.
  std::vector<FinishedGame> expected = read_results_file(single.results_path);
  std::sort(expected.begin(), expected.end(),
            [](const auto& a, const auto& b) { return a.id < b.id; });
  const std::vector<FinishedGame> got = read_results_file(dir.file("merged.json"));
  BOOST_REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    BOOST_TEST(got[i].id == expected[i].id);
    BOOST_TEST(got[i].x == expected[i].x);
    BOOST_TEST((got[i].result == expected[i].result));
    BOOST_TEST((got[i].termination == expected[i].termination));
    BOOST_TEST(got[i].plies == expected[i].plies);
    BOOST_TEST(got[i].opening == expected[i].opening);
  }
  const std::vector<PlayedMoves> single_pgn = pgn_games(single.pgn_path);
  const std::vector<PlayedMoves> merged_pgn = pgn_games(dir.file("merged.pgn"));
  BOOST_TEST(merged_pgn.size() == 14u);
  BOOST_TEST(merged_pgn == single_pgn, boost::test_tools::per_element());

  // The merged files are a results file and PGN like a single run's: resuming them plays nothing.
  TournamentConfig resumed = two_engine_config(7);
  resumed.pgn_path = dir.file("merged.pgn");
  resumed.results_path = dir.file("merged.json");
  resumed.resume = true;
  RecordingSink resumed_sink;
  BOOST_TEST((play_scripted(resumed, resumed_sink).end == TournamentEnd::Completed));
  BOOST_TEST(resumed_sink.started == 0);
}

BOOST_AUTO_TEST_CASE(a_shard_resumes_only_as_itself) {
  TempDir dir;
  TournamentConfig config = shard_config(two_engine_config(2), dir, 1, 2);
  RecordingSink sink;
  (void)play_scripted(config, sink);
  config.shard = Shard{2, 2};
  config.resume = true;
  RecordingSink resumed;
  BOOST_TEST(error_of([&] { (void)play_scripted(config, resumed); }).find("written by shard 1/2") !=
             std::string::npos);
  // Nor as the chunk of the same number.
  config.shard = Shard{1, 2, true};
  BOOST_TEST(error_of([&] {
               (void)play_scripted(config, resumed);
             }).find("written by shard 1/2; resume it with --shard 1/2") != std::string::npos);
  // Nor as another run.
  config.shard = Shard{1, 2};
  config.run_id = "run-2";
  BOOST_TEST(error_of([&] {
               (void)play_scripted(config, resumed);
             }).find("was written by run run-1, not --run-id run-2") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(merge_refuses_what_is_not_one_tournament) {
  TempDir dir;
  for (int index = 1; index <= 2; ++index) {
    RecordingSink sink;
    (void)play_scripted(shard_config(two_engine_config(3), dir, index, 2), sink);
  }
  const std::vector<std::string> files = shard_files(dir, 2);
  const auto merge = [&](std::vector<std::string> inputs) {
    return error_of([&] {
      RecordingSink sink;
      (void)merge_shards(inputs, dir.file("merged.json"), dir.file("merged.pgn"), sink);
    });
  };
  // Another tournament: more rounds.
  TempDir other;
  RecordingSink sink;
  (void)play_scripted(shard_config(two_engine_config(4), other, 2, 2), sink);
  const std::string other_shard = shard_files(other, 2)[1];
  BOOST_TEST(
      merge({files[0], other_shard}).find("not shards of one tournament: --rounds differs") !=
      std::string::npos);
  // Another shard count.
  (void)play_scripted(shard_config(two_engine_config(3), other, 2, 3), sink);
  BOOST_TEST(merge({files[0], shard_files(other, 3)[1]}).find("the same N") != std::string::npos);
  // Chunks among shards.
  TempDir chunks;
  (void)play_scripted(shard_config(two_engine_config(3), chunks, 2, 2, true), sink);
  BOOST_TEST(merge({files[0], shard_files(chunks, 2, true)[1]}).find("all shards or all chunks") !=
             std::string::npos);
  // Another run's shard.
  TempDir rerun;
  (void)play_scripted(shard_config(two_engine_config(3), rerun, 2, 2, false, "run-2"), sink);
  BOOST_TEST(merge({files[0], shard_files(rerun, 2)[1]}).find("different runs") !=
             std::string::npos);
  // A single run's file.
  TournamentConfig single = two_engine_config(3);
  single.results_path = other.file("single.json");
  (void)play_scripted(single, sink);
  BOOST_TEST(merge({files[0], single.results_path}).find("written without --shard") !=
             std::string::npos);
  // A shard twice.
  std::filesystem::copy_file(files[1], dir.file("copy.json"));
  BOOST_TEST(merge({files[0], files[1], dir.file("copy.json")}).find("is given twice") !=
             std::string::npos);
  // A game twice in its shard's file.
  edit_results(files[1], [](json::object& file) {
    json::array& games = file["games"].as_array();
    games.push_back(games.front());
  });
  BOOST_TEST(merge(files).find(files[1] + ": game 3 is recorded twice") != std::string::npos,
             merge(files));
  // A game in the wrong shard's file.
  edit_results(files[1], [](json::object& file) {
    json::array& games = file["games"].as_array();
    games.pop_back();
    games.front().as_object()["id"] = 0;
  });
  BOOST_TEST(merge(files).find("holds game 1, which is shard 1/2's") != std::string::npos);
  // Nothing was written by the refused merges.
  BOOST_TEST(!std::filesystem::exists(dir.file("merged.json")));
}

BOOST_AUTO_TEST_CASE(merge_reports_the_missing_games) {
  TempDir dir;
  const int count = 3;
  // Shard 3 is not played at all, shard 2 only in part.
  for (int index = 1; index <= 2; ++index)
    (void)play_scripted_until(shard_config(two_engine_config(7), dir, index, count),
                              index == 2 ? 2 : -1);
  RecordingSink sink;
  const std::vector<std::string> files = shard_files(dir, count);
  const MergeOutcome merged =
      merge_shards({files[0], files[1]}, dir.file("merged.json"), dir.file("merged.pgn"), sink);
  BOOST_TEST((merged.end == TournamentEnd::Interrupted));
  BOOST_TEST(merged.standings.games == 6 + 2);
  BOOST_TEST(merged.standings.total_games == 14);
  BOOST_REQUIRE(sink.warnings.size() == 2u);
  BOOST_TEST(sink.warnings[0].find("shard 2/3") != std::string::npos);
  BOOST_TEST(sink.warnings[0].find("interrupted) has played 2 of its 4 games") !=
             std::string::npos);
  BOOST_TEST(sink.warnings[1] == "shard 3/3 is not given: its 4 games are missing");
  BOOST_TEST(pgn_games(dir.file("merged.pgn")).size() == 8u);
}

BOOST_AUTO_TEST_CASE(shards_of_other_tournaments_in_the_folder_are_not_counted) {
  TempDir dir;
  TournamentConfig config = shard_config(two_engine_config(2), dir, 1, 2);
  ShardExchange first(config, "aaaa");
  config.shard = Shard{2, 2};
  ShardExchange second(config, "aaaa");
  ShardExchange stranger(config, "bbbb");
  // Nor shards of another run of this tournament (an earlier run, after an engine was rebuilt at
  // the same path).
  config.shard = Shard{1, 2};
  config.run_id = "run-2";
  ShardExchange other_run(config, "aaaa");
  int seen = 0;
  const Pentanomial one{{1, 0, 2, 0, 3}};
  const Pentanomial two{{0, 4, 0, 5, 0}};
  (void)first.publish_and_combine(12, one, seen);
  BOOST_TEST(seen == 1);  // shard 2 has not published yet
  (void)stranger.publish_and_combine(2, Pentanomial{{9, 9, 9, 9, 9}}, seen);
  (void)other_run.publish_and_combine(2, Pentanomial{{7, 7, 7, 7, 7}}, seen);
  BOOST_TEST(other_run.own_file() != first.own_file());
  const Pentanomial sum = second.publish_and_combine(18, two, seen);
  BOOST_TEST(seen == 2);
  BOOST_TEST((sum == Pentanomial{{1, 4, 2, 5, 3}}));
  // A file that is not whole counts as no games.
  std::ofstream(first.own_file(), std::ios::trunc) << "{\"format\":";
  BOOST_TEST((second.publish_and_combine(18, two, seen) == two));
  BOOST_TEST(seen == 1);
}

BOOST_AUTO_TEST_CASE(the_combined_llr_is_the_llr_of_the_merged_counts) {
  TempDir dir;
  const int count = 3;
  // Wide bounds: the SPRT decides nothing in 20 pairs.
  SprtParameters wide;
  wide.elo0 = -5;
  wide.elo1 = 5;
  wide.alpha = 0.0001;
  wide.beta = 0.0001;
  Standings last;
  for (int index = 1; index <= count; ++index) {
    TournamentConfig config = shard_config(two_engine_config(20), dir, index, count);
    config.sprt = wide;
    RecordingSink sink;
    const TournamentOutcome outcome = play_scripted(config, sink);
    BOOST_TEST((outcome.end == TournamentEnd::SprtUndecided));
    BOOST_TEST(outcome.standings.sprt_shards == index);
    last = outcome.standings;
  }
  RecordingSink sink;
  const MergeOutcome merged =
      merge_shards(shard_files(dir, count), dir.file("merged.json"), "", sink);
  BOOST_TEST((merged.end == TournamentEnd::SprtUndecided));
  BOOST_REQUIRE(last.sprt);
  BOOST_REQUIRE(merged.standings.sprt);
  BOOST_TEST(merged.standings.pairings[0].pairs.pairs() == 20);
  BOOST_TEST(last.sprt->llr == merged.standings.sprt->llr);
  BOOST_TEST(last.sprt->llr == sprt(merged.standings.pairings[0].pairs, wide).llr);
  // The last shard's own games alone give another LLR.
  BOOST_TEST(last.sprt->llr != sprt(last.pairings[0].pairs, wide).llr);
}

BOOST_AUTO_TEST_CASE(shards_playing_at_once_stop_together_on_a_decision) {
  TempDir dir;
  const int count = 4;
  // The illegal engine loses every game: H1 after about 110 pairs of all shards together, far
  // fewer than any shard's 125.
  std::vector<TournamentOutcome> outcomes(count);
  std::vector<std::thread> shards;
  for (int index = 1; index <= count; ++index)
    shards.emplace_back([&, index] {
      TournamentConfig config = shard_config(two_engine_config(500), dir, index, count);
      config.engines = {engine("seeded-1"), engine("illegal")};
      config.sprt = sprt_between(0, 10);
      RecordingSink sink;
      outcomes[static_cast<std::size_t>(index - 1)] = play_scripted(config, sink);
    });
  for (std::thread& shard : shards) shard.join();
  std::int64_t games = 0;
  // Every shard ends on the one decision recorded, with the counts it was taken on, and the LLR of
  // those counts.
  const std::optional<SharedDecision> decision = outcomes.front().standings.shared_decision;
  BOOST_REQUIRE(decision);
  BOOST_TEST((decision->decision == SprtResult::Decision::AcceptH1));
  for (const TournamentOutcome& outcome : outcomes) {
    BOOST_TEST((outcome.end == TournamentEnd::SprtAcceptedH1));
    BOOST_TEST(outcome.standings.games < outcome.standings.total_games);
    BOOST_TEST((outcome.standings.shared_decision == decision));
    BOOST_REQUIRE(outcome.standings.sprt);
    BOOST_TEST(outcome.standings.sprt->llr == sprt(decision->counts, sprt_between(0, 10)).llr);
    games += outcome.standings.games;
  }
  RecordingSink sink;
  const MergeOutcome merged =
      merge_shards(shard_files(dir, count), dir.file("merged.json"), dir.file("merged.pgn"), sink);
  BOOST_TEST((merged.end == TournamentEnd::SprtAcceptedH1));
  BOOST_TEST(merged.standings.games == games);
  BOOST_TEST(games < 1000);
  // The merge reports that decision too, also when games finished after it.
  BOOST_TEST((merged.standings.shared_decision == decision));
  BOOST_REQUIRE(merged.standings.sprt);
  BOOST_TEST(merged.standings.sprt->llr == outcomes.front().standings.sprt->llr);
  BOOST_TEST(merged.standings.pairings[0].pairs.pairs() >= decision->counts.pairs());
}

BOOST_AUTO_TEST_CASE(the_first_decision_is_recorded_once) {
  TempDir dir;
  TournamentConfig config = shard_config(two_engine_config(2), dir, 1, 4);
  ShardExchange first(config, "aaaa");
  config.shard = Shard{3, 4};
  ShardExchange third(config, "aaaa");
  config.run_id = "run-2";
  ShardExchange other_run(config, "aaaa");
  BOOST_TEST(!first.recorded_decision());
  const SharedDecision h1{SprtResult::Decision::AcceptH1, Pentanomial{{1, 2, 3, 4, 50}}, 3,
                          Shard{3, 4}};
  const SharedDecision h0{SprtResult::Decision::AcceptH0, Pentanomial{{60, 2, 3, 4, 5}}, 4,
                          Shard{1, 4}};
  BOOST_TEST((third.record_decision(h1) == h1));
  // A later decision (another view of the counts) does not replace it: the first one stands.
  BOOST_TEST((first.record_decision(h0) == h1));
  BOOST_TEST((first.recorded_decision() == std::optional<SharedDecision>(h1)));
  BOOST_TEST(describe_shared_decision(h1) ==
             "H1 accepted by shard 3/4 on the counts of 3 shards: 60 pairs (pentanomial 1 2 3 4 "
             "50)");
  // Another run has none yet, and records its own.
  BOOST_TEST(!other_run.recorded_decision());
  BOOST_TEST((other_run.record_decision(h0) == h0));
  BOOST_TEST((third.recorded_decision() == std::optional<SharedDecision>(h1)));
  // No temporary file is left beside them.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path))
    files += entry.path().string().find(".decision.json") != std::string::npos ? 1 : 0;
  BOOST_TEST(files == 2);
  // A damaged decision file is an error, not a silent "no decision".
  std::ofstream(first.decision_file(), std::ios::trunc) << "{\"format\":";
  BOOST_TEST(error_of([&] { (void)first.recorded_decision(); }).find("is damaged") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_piece_that_starts_after_the_decision_plays_nothing_and_reports_it) {
  TempDir dir;
  // Chunk 1 of 3 decides alone (the illegal engine loses every game) and records it.
  TournamentConfig config = shard_config(two_engine_config(600), dir, 1, 3, true);
  config.engines = {engine("seeded-1"), engine("illegal")};
  config.sprt = sprt_between(0, 10);
  RecordingSink first_sink;
  const TournamentOutcome first = play_scripted(config, first_sink);
  BOOST_TEST((first.end == TournamentEnd::SprtAcceptedH1));
  BOOST_REQUIRE(first.standings.shared_decision);
  BOOST_TEST((first.standings.shared_decision->by == Shard{1, 3, true}));
  BOOST_TEST(first.standings.shared_decision->shards == 1);
  // Chunk 2 starts later: it plays nothing, and ends on chunk 1's decision and counts.
  RecordingSink sink;
  const TournamentOutcome second = play_scripted(shard_config(config, dir, 2, 3, true), sink);
  BOOST_TEST((second.end == TournamentEnd::SprtAcceptedH1));
  BOOST_TEST(second.standings.games == 0);
  BOOST_TEST((second.standings.shared_decision == first.standings.shared_decision));
  BOOST_TEST(second.standings.sprt->llr == first.standings.sprt->llr);
  BOOST_REQUIRE(sink.warnings.size() == 1u);
  BOOST_TEST(sink.warnings[0].find("the SPRT is decided: H1 accepted by chunk 1/3 on the counts "
                                   "of 1 chunk: ") == 0u,
             sink.warnings[0]);
  // Its results file records the decision; chunk 3 never started; the merge stands by it.
  const std::vector<std::string> files = shard_files(dir, 3, true);
  BOOST_TEST((json::parse(read_file(files[1])).at("standings").at("sprt").at("shared_decision") ==
              json::value(shared_decision_json(*first.standings.shared_decision))));
  RecordingSink merge_sink;
  const MergeOutcome merged = merge_shards(files, dir.file("merged.json"), "", merge_sink);
  BOOST_TEST((merged.end == TournamentEnd::SprtAcceptedH1));
  BOOST_TEST((merged.standings.shared_decision == first.standings.shared_decision));
  BOOST_TEST(merged.standings.games == first.standings.games);
}

// Issue 25, item 6: a second run of a tournament, in the folder of the first, after the first was
// decided, plays its own games and decides on its own counts.
BOOST_AUTO_TEST_CASE(a_second_run_does_not_see_the_first_runs_counts) {
  TempDir dir;
  TempDir again;
  TournamentConfig config = shard_config(two_engine_config(600), dir, 1, 2, false, "first");
  config.engines = {engine("seeded-1"), engine("illegal")};
  config.sprt = sprt_between(0, 10);
  RecordingSink sink;
  const TournamentOutcome first = play_scripted(config, sink);
  BOOST_TEST((first.end == TournamentEnd::SprtAcceptedH1));
  // The second run keeps its files elsewhere but shares the folder of counts.
  TournamentConfig second_config = shard_config(config, again, 2, 2, false, "second");
  second_config.shared_dir = dir.path.string();
  RecordingSink second_sink;
  const TournamentOutcome second = play_scripted(second_config, second_sink);
  BOOST_TEST((second.end == TournamentEnd::SprtAcceptedH1));
  BOOST_TEST(second.standings.games > 0);
  BOOST_TEST(second.standings.sprt_shards == 1);
  BOOST_REQUIRE(second.standings.shared_decision);
  BOOST_TEST((second.standings.shared_decision->by == Shard{2, 2}));
  BOOST_TEST((second.standings.shared_decision->counts == second.standings.pairings[0].pairs));
  // Each results file says which run it is of.
  BOOST_TEST((json::parse(read_file(config.results_path)).at("run") == json::value("first")));
  BOOST_TEST(
      (json::parse(read_file(second_config.results_path)).at("run") == json::value("second")));
}

// Issue 25, item 8: a piece that never started (pending or cancelled in the queue) has no results
// file; it is missing, as one that stopped midway, and merge exits 4 naming it.
BOOST_DATA_TEST_CASE(merge_counts_a_piece_that_never_started_as_missing, bdata::make({false, true}),
                     chunk) {
  TempDir dir;
  const int count = 3;
  for (int index = 1; index <= 2; ++index) {
    RecordingSink sink;
    (void)play_scripted(shard_config(two_engine_config(7), dir, index, count, chunk), sink);
  }
  const std::vector<std::string> files = shard_files(dir, count, chunk);
  BOOST_REQUIRE(!std::filesystem::exists(files[2]));
  RecordingSink sink;
  const MergeOutcome merged = merge_shards(files, dir.file("merged.json"), "", sink);
  BOOST_TEST((merged.end == TournamentEnd::Interrupted));
  BOOST_TEST(merged.standings.games == (chunk ? 8 : 10));
  BOOST_REQUIRE(sink.warnings.size() == 1u);
  const std::string label = chunk ? "chunk 3/3" : "shard 3/3";
  BOOST_TEST(sink.warnings[0] == label + " (" + files[2] +
                                     ") has not started (no results file): its " +
                                     (chunk ? "6" : "4") + " games are missing");
  // Through the command line: exit 4, and the report names the piece.
  std::vector<std::string> words = {"merge", "--results", dir.file("cli.json")};
  words.insert(words.end(), files.begin(), files.end());
  std::string out;
  BOOST_TEST(run_arena(words, out) == kExitInterrupted, out);
  BOOST_TEST(out.find(label + " (" + files[2] + ") has not started") != std::string::npos, out);
  // A file that is missing and not named as a piece's is still an error; so is a merge of no
  // piece that has started.
  words.push_back(dir.file("typo.json"));
  BOOST_TEST(run_arena(words, out) == kExitUsage);
  BOOST_TEST(out.find("cannot read results file " + dir.file("typo.json")) != std::string::npos,
             out);
  BOOST_TEST(error_of([&] {
               (void)merge_shards({files[2]}, dir.file("merged.json"), "", sink);
             }).find("none of the 1 pieces given has a results file yet") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
