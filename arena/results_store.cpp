#include "results_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "game_position.hpp"
#include "pgn.hpp"

namespace quixo::arena {
namespace json = boost::json;
namespace {

constexpr std::string_view kFileFormat = "quixo-arena results";
constexpr std::int64_t kFileVersion = 1;

std::string system_error_text() {
  return std::strerror(errno);
}

// Writes all of `text` to `path` (appending or truncating) and flushes it to the disk, so that a
// crash of the machine after this returns cannot lose it.
void write_durably(const std::string& path, std::string_view text, bool append) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) throw TournamentError("cannot write " + path + ": " + system_error_text());
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = system_error_text();
      ::close(fd);
      throw TournamentError("cannot write " + path + ": " + why);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0)
    throw TournamentError("cannot write " + path + ": " + system_error_text());
}

// JSON numbers must be finite; infinite Elo (all games won) is written as null.
json::value number(double value) {
  if (!std::isfinite(value)) return nullptr;
  const double rounded = std::round(value * 100.0) / 100.0;
  // Whole numbers as integers ("6", not "6E0"), and never a negative zero.
  if (rounded == std::trunc(rounded) && std::fabs(rounded) < 1e15)
    return static_cast<std::int64_t>(rounded);
  return rounded;
}

json::object describe(const TournamentConfig& config) {
  json::array engines;
  for (const EngineConfig& engine : config.engines) {
    json::array args(engine.process.args.begin(), engine.process.args.end());
    json::array options;
    for (const auto& [name, value] : engine.options) options.push_back({name, value});
    engines.push_back(
        {{"name", engine.name},
         {"command", engine.process.command},
         {"args", std::move(args)},
         {"options", std::move(options)},
         {"protocol", engine.protocol == Protocol::Ugi ? "ugi" : "uqi"},
         {"time_control", engine.time_control ? json::value(engine.time_control->to_string())
                                              : json::value(nullptr)}});
  }
  json::array book;
  for (const Opening& opening : config.openings)
    book.push_back(json::value(format_opening(opening)));
  // The book's content, not its file name, identifies the tournament; a hash keeps the file small.
  std::uint64_t book_hash = 1469598103934665603ULL;
  for (const json::value& line : book)
    for (const char c : line.as_string())
      book_hash = (book_hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  json::object description = {
      {"engines", std::move(engines)},
      {"format", format_name(config.format)},
      {"seeds", config.seeds},
      {"rounds", config.rounds},
      {"time_control", config.time_control.to_string()},
      {"time_margin_ms", config.time_control.margin_ms()},
      {"openings",
       {{"source", config.openings_source},
        {"count", config.openings.size()},
        {"hash", std::to_string(book_hash)},
        {"order", config.opening_order == OpeningOrder::Random ? "random" : "sequential"},
        {"seed", std::to_string(config.opening_seed)},
        {"offset", config.opening_offset}}},
      {"rules",
       {{"max_plies", config.rules.max_plies}, {"repetitions", config.rules.repetitions}}}};
  // Only four-player tournaments name their variant, so that a two-player description (and a
  // two-player results file written before four-player games existed) stays as it was.
  if (config.variant == Variant::FourPlayer) {
    description["variant"] = variant_name(config.variant);
    description["seating"] = seating_name(config.seating);
  }
  return description;
}

json::object estimate_json(const EloEstimate& estimate) {
  return {{"elo", number(estimate.elo)},
          {"elo_error", number(estimate.elo_error)},
          {"elo_lower", number(estimate.elo_lower)},
          {"elo_upper", number(estimate.elo_upper)},
          {"nelo", number(estimate.nelo)},
          {"nelo_error", number(estimate.nelo_error)},
          {"los", number(estimate.los)},
          {"draw_ratio", number(estimate.draw_ratio)},
          {"score", number(estimate.score)}};
}

json::object standings_json(const TournamentConfig& config, const Standings& standings) {
  json::array engines;
  const std::optional<Ratings> ratings = rate_engines(standings);
  for (std::size_t i = 0; i < standings.engines.size(); ++i) {
    const EngineTally& tally = standings.engines[i];
    json::object entry = {{"name", tally.name},
                          {"games", tally.results.games()},
                          {"wins", tally.results.wins},
                          {"losses", tally.results.losses},
                          {"draws", tally.results.draws},
                          {"points", number(tally.results.points())},
                          {"crashes", tally.crashes},
                          {"time_forfeits", tally.time_forfeits},
                          {"illegal_moves", tally.illegal_moves},
                          {"stalls", tally.stalls},
                          {"restarts", tally.restarts}};
    if (ratings) {
      entry["rating"] = number(ratings->elo[i]);
      entry["rating_error"] = number(1.959964 * ratings->error[i]);
    }
    engines.push_back(std::move(entry));
  }
  json::array pairings;
  for (const PairingTally& pairing : standings.pairings) {
    json::array pentanomial(pairing.pairs.counts.begin(), pairing.pairs.counts.end());
    pairings.push_back({{"first", config.engines[pairing.first].name},
                        {"second", config.engines[pairing.second].name},
                        {"wins", pairing.results.wins},
                        {"losses", pairing.results.losses},
                        {"draws", pairing.results.draws},
                        {"pentanomial", std::move(pentanomial)},
                        {"pentanomial_estimate", estimate_json(estimate_elo(pairing.pairs))},
                        {"trinomial_estimate", estimate_json(estimate_elo(pairing.results))}});
  }
  json::object terminations;
  for (std::size_t t = 0; t < standings.terminations.size(); ++t)
    if (standings.terminations[t] > 0)
      terminations[termination_name(static_cast<Termination>(t))] = standings.terminations[t];
  json::object result = {{"games", standings.games},
                         {"total_games", standings.total_games},
                         {"engines", std::move(engines)},
                         {"pairings", std::move(pairings)},
                         {"terminations", std::move(terminations)}};
  if (standings.sprt && config.sprt) {
    const SprtResult& sprt = *standings.sprt;
    const char* decision = sprt.decision == SprtResult::Decision::AcceptH1   ? "H1"
                           : sprt.decision == SprtResult::Decision::AcceptH0 ? "H0"
                                                                             : "continue";
    result["sprt"] = {
        {"llr", number(sprt.llr)},
        {"lower", number(sprt.lower)},
        {"upper", number(sprt.upper)},
        {"elo0", number(config.sprt->elo0)},
        {"elo1", number(config.sprt->elo1)},
        {"alpha", number(config.sprt->alpha)},
        {"beta", number(config.sprt->beta)},
        {"model", config.sprt->model == EloModel::Normalized ? "normalized" : "logistic"},
        {"decision", decision},
        {"summary", format_sprt(sprt, *config.sprt)}};
  }
  return result;
}

json::object game_json(const TournamentConfig& config, const FinishedGame& game) {
  return {{"id", game.id},
          {"round", game.round},
          {"x", config.engines[game.x].name},
          {"o", config.engines[game.o].name},
          {"result", result_text(game.result)},
          {"termination", termination_name(game.termination)},
          {"reason", game.reason},
          {"plies", game.plies},
          {"opening", game.opening},
          {"x_restarted", game.x_restarted},
          {"o_restarted", game.o_restarted}};
}

json::value read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TournamentError("cannot read results file " + path);
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code error;
  json::value value = json::parse(text.str(), error);
  if (error)
    throw TournamentError("results file " + path + " is not valid JSON (" + error.message() +
                          "); it may have been edited by hand");
  if (!value.is_object() || !value.as_object().contains("format") ||
      value.at("format") != json::value(kFileFormat))
    throw TournamentError(path + " is not a quixo-arena results file");
  return value;
}

// The games of a parsed results file, engines numbered by their order in its description.
std::vector<FinishedGame> games_of(const json::value& file, const std::string& path) {
  try {
    std::vector<std::string> names;
    for (const json::value& engine : file.at("tournament").at("engines").as_array())
      names.emplace_back(engine.at("name").as_string());
    const auto index_of = [&](const json::value& name) {
      for (std::size_t i = 0; i < names.size(); ++i)
        if (name.as_string() == names[i]) return i;
      throw TournamentError("game names an unknown engine");
    };
    std::vector<FinishedGame> games;
    for (const json::value& entry : file.at("games").as_array()) {
      FinishedGame game;
      game.id = json::value_to<int>(entry.at("id"));
      game.round = json::value_to<int>(entry.at("round"));
      game.x = index_of(entry.at("x"));
      game.o = index_of(entry.at("o"));
      const auto result = parse_result_text(entry.at("result").as_string());
      const auto termination = parse_termination(entry.at("termination").as_string());
      if (!result || !termination) throw TournamentError("bad result or termination");
      game.result = *result;
      game.termination = *termination;
      game.reason = json::value_to<std::string>(entry.at("reason"));
      game.plies = json::value_to<int>(entry.at("plies"));
      game.opening = json::value_to<std::string>(entry.at("opening"));
      game.x_restarted = entry.at("x_restarted").as_bool();
      game.o_restarted = entry.at("o_restarted").as_bool();
      games.push_back(std::move(game));
    }
    return games;
  } catch (const TournamentError& error) {
    throw TournamentError("results file " + path + ": " + error.what());
  } catch (const std::exception& error) {
    throw TournamentError("results file " + path + " is malformed: " + error.what());
  }
}

}  // namespace

ResultsStore::ResultsStore(const TournamentConfig& config) : config_(config) {}

std::vector<FinishedGame> ResultsStore::open() {
  games_.clear();
  pgn_bytes_ = 0;
  const bool have_results = !config_.results_path.empty();
  if (config_.resume && !have_results)
    throw TournamentError("--resume needs the results file of the earlier run (--results)");
  if (config_.resume && std::filesystem::exists(config_.results_path)) {
    const json::value file = read_json_file(config_.results_path);
    if (!file.as_object().contains("tournament") ||
        file.at("tournament") != json::value(describe(config_)))
      throw TournamentError("results file " + config_.results_path +
                            " belongs to another tournament (engines, format, rounds, time "
                            "control, openings or rules differ); use another file or start over "
                            "without --resume");
    games_ = games_of(file, config_.results_path);
    // The PGN's recorded length only means something for the file it was measured on.
    const auto* recorded_pgn = file.as_object().if_contains("pgn");
    const std::string earlier_pgn =
        recorded_pgn && recorded_pgn->is_string() ? std::string(recorded_pgn->as_string()) : "";
    if (earlier_pgn != config_.pgn_path)
      throw TournamentError(
          "results file " + config_.results_path + " was written with " +
          (earlier_pgn.empty() ? std::string("no PGN file") : "the PGN file " + earlier_pgn) +
          "; resume with the same " +
          (earlier_pgn.empty() ? "(no --pgn)" : "--pgn " + earlier_pgn));
    if (!config_.pgn_path.empty()) {
      const auto* recorded = file.as_object().if_contains("pgn_bytes");
      pgn_bytes_ = recorded ? json::value_to<std::int64_t>(*recorded) : 0;
      std::error_code error;
      const auto size = std::filesystem::file_size(config_.pgn_path, error);
      if (error) {
        if (pgn_bytes_ > 0)
          throw TournamentError("the PGN file " + config_.pgn_path +
                                " of the earlier run is missing");
      } else if (static_cast<std::int64_t>(size) < pgn_bytes_) {
        throw TournamentError("the PGN file " + config_.pgn_path +
                              " is shorter than the results file " +
                              "records; it was changed after the earlier run");
      } else if (static_cast<std::int64_t>(size) > pgn_bytes_) {
        // A game written to the PGN just before the run was killed, but never recorded as
        // finished: it will be played again, so it goes.
        std::filesystem::resize_file(config_.pgn_path, static_cast<std::uintmax_t>(pgn_bytes_));
      }
    }
    return games_;
  }
  if (!config_.pgn_path.empty()) write_durably(config_.pgn_path, "", false);
  if (have_results) write_results(compute_standings(config_, games_), "running");
  return games_;
}

void ResultsStore::record(const FinishedGame& game, const GameRecord& record,
                          const Standings& standings) {
  if (!config_.pgn_path.empty()) {
    const std::string text = format_pgn(record);
    write_durably(config_.pgn_path, text, true);
    pgn_bytes_ += static_cast<std::int64_t>(text.size());
  }
  games_.push_back(game);
  if (!config_.results_path.empty()) write_results(standings, "running");
}

void ResultsStore::finish(const Standings& standings, TournamentEnd end) {
  if (!config_.results_path.empty()) write_results(standings, std::string(end_name(end)));
}

void ResultsStore::write_results(const Standings& standings, const std::string& status) {
  json::array games;
  for (const FinishedGame& game : games_) games.push_back(game_json(config_, game));
  const json::object file = {{"format", kFileFormat},
                             {"version", kFileVersion},
                             {"status", status},
                             {"tournament", describe(config_)},
                             {"pgn", config_.pgn_path},
                             {"pgn_bytes", pgn_bytes_},
                             {"standings", standings_json(config_, standings)},
                             {"games", std::move(games)}};
  // Whole or not at all: a reader (or a resume after kill -9) never sees half a file.
  const std::string temporary = config_.results_path + ".tmp";
  write_durably(temporary, json::serialize(file) + "\n", false);
  if (std::rename(temporary.c_str(), config_.results_path.c_str()) != 0)
    throw TournamentError("cannot replace " + config_.results_path + ": " + system_error_text());
}

std::vector<FinishedGame> read_results_file(const std::string& path) {
  return games_of(read_json_file(path), path);
}

}  // namespace quixo::arena
