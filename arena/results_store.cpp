#include "results_store.hpp"

#include <boost/json.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <span>
#include <sstream>
#include <string_view>
#include <system_error>
#include <utility>

#include "core/binary_io.hpp"
#include "core/game.hpp"
#include "core/text_helpers.hpp"
#include "file_io.hpp"
#include "pgn_reader.hpp"
#include "pgn_writer.hpp"
#include "shard_exchange.hpp"
#include "standings.hpp"

namespace quixo::arena {
namespace json = boost::json;
namespace {

constexpr std::string_view kFileFormat = "quixo-arena results";
constexpr std::int64_t kFileVersion = 1;

// JSON numbers must be finite; infinite Elo (all games won) is written as null. Every number to
// full precision (the shortest text that reads back as the same double): the text reports round,
// the file does not, so that a tool reading it gets the arena's own numbers.
json::value number(double value) {
  if (!std::isfinite(value)) return nullptr;
  // Whole numbers as integers ("6", not "6E0"), which loses nothing, and never a negative zero.
  if (value == std::trunc(value) && std::fabs(value) < 1e15)
    return static_cast<std::int64_t>(value);
  return value;
}

json::object describe(const TournamentConfig& config, const std::vector<int>& tablebase_layers) {
  json::array engines;
  for (const EngineConfig& engine : config.engines) {
    json::array args(engine.process.args.begin(), engine.process.args.end());
    json::array options;
    for (const auto& [name, value] : engine.options) options.push_back({name, value});
    json::object entry = {
        {"name", engine.name},
        {"command", engine.process.command},
        {"args", std::move(args)},
        {"options", std::move(options)},
        {"protocol", engine.protocol == Protocol::Ugi ? "ugi" : "uqi"},
        {"time_control", engine.time_control ? json::value(engine.time_control->to_string())
                                             : json::value(nullptr)}};
    // Only when set, so that descriptions written before the key existed stay as they were.
    if (engine.time_margin_ms) entry["timemargin"] = *engine.time_margin_ms;
    if (!engine.init_strings.empty())
      entry["initstr"] = json::array(engine.init_strings.begin(), engine.init_strings.end());
    engines.push_back(std::move(entry));
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
  // Adjudication and the SPRT decide how games and the tournament end, so they belong to the
  // tournament's identity too. They are described only when used, so that the description of a
  // tournament without them (and a results file written before they were) stays as it was.
  const Adjudication& adjudication = config.rules.adjudication;
  json::object& rules = description["rules"].as_object();
  if (adjudication.resign_move_count > 0)
    rules["resign"] = {{"movecount", adjudication.resign_move_count},
                       {"score", adjudication.resign_score_cp},
                       {"twosided", adjudication.resign_two_sided}};
  if (adjudication.draw_move_count > 0)
    rules["draw"] = {{"movenumber", adjudication.draw_move_number},
                     {"movecount", adjudication.draw_move_count},
                     {"score", adjudication.draw_score_cp}};
  // policy=encounter gives other games their openings; described only when used, as above.
  if (config.opening_policy == OpeningPolicy::Encounter)
    description["openings"].as_object()["policy"] = "encounter";
  // The tables decide games too; described by their layers (not the folder, which may move).
  if (!tablebase_layers.empty())
    rules["tablebase"] = {
        {"layers", json::array(tablebase_layers.begin(), tablebase_layers.end())}};
  if (config.sprt)
    description["sprt"] = {
        {"elo0", number(config.sprt->elo0)},
        {"elo1", number(config.sprt->elo1)},
        {"alpha", number(config.sprt->alpha)},
        {"beta", number(config.sprt->beta)},
        {"model", config.sprt->model == EloModel::Normalized ? "normalized" : "logistic"}};
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

// An SPRT as the results file has it. Without an LLR (a statistics failure) the bounds and
// settings are still written, with the decision "unavailable" and the reason.
json::object sprt_json(const TournamentConfig& config, const std::optional<SprtResult>& test,
                       const std::string& error) {
  SprtResult sprt;
  sprt.lower = config.sprt->lower_bound();
  sprt.upper = config.sprt->upper_bound();
  if (test) sprt = *test;
  const char* decision = !test                                             ? "unavailable"
                         : sprt.decision == SprtResult::Decision::AcceptH1 ? "H1"
                         : sprt.decision == SprtResult::Decision::AcceptH0 ? "H0"
                                                                           : "continue";
  json::object entry = {
      {"llr", test ? number(sprt.llr) : json::value(nullptr)},
      {"lower", number(sprt.lower)},
      {"upper", number(sprt.upper)},
      {"elo0", number(config.sprt->elo0)},
      {"elo1", number(config.sprt->elo1)},
      {"alpha", number(config.sprt->alpha)},
      {"beta", number(config.sprt->beta)},
      {"model", config.sprt->model == EloModel::Normalized ? "normalized" : "logistic"},
      {"decision", decision},
      {"summary", test ? format_sprt(sprt, *config.sprt) : "LLR: unavailable (" + error + ")"}};
  if (!test) entry["error"] = error;
  return entry;
}

json::object standings_json(const TournamentConfig& config, const Standings& standings) {
  json::array engines;
  const std::optional<Ratings> ratings = rate_engines(config, standings);
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
      // The likelihood that this engine is stronger than each other one.
      json::object los;
      for (std::size_t j = 0; j < standings.engines.size(); ++j)
        if (j != i) los[standings.engines[j].name] = number(ratings->los[i][j]);
      entry["los"] = std::move(los);
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
    // A gauntlet SPRT: each pairing's own test.
    if (config.sprt && standings.pairings.size() > 1)
      pairings.back().as_object()["sprt"] = sprt_json(config, pairing.sprt, pairing.sprt_error);
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
  if (config.sprt && (standings.sprt || !standings.sprt_error.empty()))
    result["sprt"] = sprt_json(config, standings.sprt, standings.sprt_error);
  // The decision of a sharded match, as recorded in --shared-dir, with the counts it was taken on.
  if (config.sprt && standings.shared_decision)
    result["sprt"].as_object()["shared_decision"] =
        shared_decision_json(*standings.shared_decision);
  if (!standings.bracket.empty()) {
    // A knockout's bracket: a list of rounds, each a list of matches in bracket order.
    json::array rounds;
    for (const std::vector<KnockoutMatch>& round : standings.bracket) {
      json::array matches;
      for (const KnockoutMatch& match : round) {
        const auto name = [&](const std::optional<std::size_t>& engine) {
          return engine ? json::value(config.engines[*engine].name) : json::value(nullptr);
        };
        matches.push_back({{"first", config.engines[match.first].name},
                           {"second", name(match.second)},
                           {"first_points", number(match.first_points)},
                           {"second_points", number(match.second_points)},
                           {"games", match.games},
                           {"winner", name(match.winner)},
                           {"by_seed", match.by_seed}});
      }
      rounds.push_back(std::move(matches));
    }
    result["knockout"] = std::move(rounds);
  }
  return result;
}

json::object game_json(const TournamentConfig& config, const FinishedGame& game,
                       const PgnSpan& span) {
  json::object entry = {{"id", game.id},
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
  // Where the game's PGN is in the PGN file, so that merge can take it out.
  if (span.length > 0) {
    entry["pgn_offset"] = span.offset;
    entry["pgn_length"] = span.length;
  }
  return entry;
}

json::value read_json_file(const std::string& path) {
  std::error_code missing;
  if (!std::filesystem::exists(path, missing))
    throw TournamentError("cannot read results file " + path);
  const text_helpers::FileText text =
      text_helpers::read_regular_file(path, kResultsFileMaxMebibytes);
  if (!text.error.empty()) throw TournamentError("results file " + path + " " + text.error);
  boost::system::error_code error;
  json::value value = json::parse(text.text, error);
  if (error)
    throw TournamentError("results file " + path + " is not valid JSON (" + error.message() +
                          "); it may have been edited by hand");
  if (!value.is_object() || !value.as_object().contains("format") ||
      value.at("format") != json::value(kFileFormat))
    throw TournamentError(path + " is not a quixo-arena results file");
  return value;
}

// A value of a tournament description as the user wrote it: "10", "0.05", "nodes=100", an
// object as "key=value ..." (an SPRT: "elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized"),
// an engine's options as "Hash=16", and "none" for what is not there.
std::string shown(const json::value* value) {
  if (value == nullptr || value->is_null()) return "none";
  switch (value->kind()) {
    case json::kind::string:
      return std::string(value->get_string());
    case json::kind::bool_:
      return value->get_bool() ? "true" : "false";
    case json::kind::int64:
      return std::to_string(value->get_int64());
    case json::kind::uint64:
      return std::to_string(value->get_uint64());
    case json::kind::double_: {
      char text[32];
      const auto end = std::to_chars(text, text + sizeof text, value->get_double()).ptr;
      return std::string(text, end);
    }
    case json::kind::object: {
      std::string text;
      for (const auto& [key, item] : value->get_object())
        text += (text.empty() ? "" : " ") + std::string(key) + "=" + shown(&item);
      return text.empty() ? "none" : text;
    }
    case json::kind::array: {
      std::string text;
      for (const json::value& item : value->get_array()) {
        // An option is a [name, value] pair.
        const json::array* pair = item.if_array();
        const std::string part = pair && pair->size() == 2
                                     ? shown(&(*pair)[0]) + "=" + shown(&(*pair)[1])
                                     : shown(&item);
        text += (text.empty() ? "" : " ") + part;
      }
      return text.empty() ? "none" : text;
    }
    case json::kind::null:
      break;
  }
  return "none";
}

// object[key] or object[key][subkey]; nullptr when it is not there.
const json::value* member(const json::value& object, std::string_view key,
                          std::string_view subkey = {}) {
  const json::object* outer = object.if_object();
  const json::value* value = outer ? outer->if_contains(key) : nullptr;
  if (value == nullptr || subkey.empty()) return value;
  const json::object* inner = value->if_object();
  return inner ? inner->if_contains(subkey) : nullptr;
}

// Whether a setting is the same in both descriptions (both without it counts as the same).
bool same(const json::value* a, const json::value* b) {
  return a == nullptr ? b == nullptr : b != nullptr && *a == *b;
}

// Whether two recorded paths name one existing file, as "build/bin/quixo-engine" and
// "/work/build/bin/quixo-engine" do when run from /work.
bool same_file(const json::value* a, const json::value* b) {
  if (a == nullptr || b == nullptr || !a->is_string() || !b->is_string()) return false;
  std::error_code error;
  const bool same = std::filesystem::equivalent(std::string(a->get_string()),
                                                std::string(b->get_string()), error);
  return same && !error;
}

// `recorded` with the engine commands and the book's file name spelled as in `now` where both
// name the same file: a resume that reaches the same engine or book by another path (relative
// instead of absolute) continues the same tournament. A name that no longer resolves, or resolves
// to another file, is left as it was, so that it still differs.
json::value with_paths_spelled_as(json::value recorded, const json::value& now) {
  json::object* description = recorded.if_object();
  if (description == nullptr) return recorded;
  const auto respell = [](json::value* in_file, const json::value* in_run) {
    if (in_file != nullptr && !same(in_file, in_run) && same_file(in_file, in_run))
      *in_file = *in_run;
  };
  json::value* engines = description->if_contains("engines");
  const json::value* run_engines = member(now, "engines");
  if (engines && run_engines && engines->is_array() && run_engines->is_array() &&
      engines->get_array().size() == run_engines->get_array().size())
    for (std::size_t i = 0; i < engines->get_array().size(); ++i)
      if (json::object* engine = engines->get_array()[i].if_object())
        respell(engine->if_contains("command"), member(run_engines->get_array()[i], "command"));
  if (json::value* openings = description->if_contains("openings"))
    if (json::object* book = openings->if_object())
      respell(book->if_contains("source"), member(now, "openings", "source"));
  return recorded;
}

// What makes the tournament recorded in a results file (`recorded_as_written`) another one than
// this run's (`now`), named as the options that set it: "--sprt differs (the file has elo0=0
// elo1=10 ..., this run elo0=0 elo1=5 ...)". Empty when the descriptions are the same.
std::string description_difference(const json::value& recorded_as_written, const json::value& now) {
  const json::value recorded = with_paths_spelled_as(recorded_as_written, now);
  if (recorded == now) return "";
  const auto differs = [](const std::string& label, const json::value* in_file,
                          const json::value* in_run) {
    return label + " differs (the file has " + shown(in_file) + ", this run " + shown(in_run) + ")";
  };
  // The engines, by their place in the list.
  const json::value* file_engines = member(recorded, "engines");
  const json::value* run_engines = member(now, "engines");
  if (!file_engines || !run_engines || !file_engines->is_array() || !run_engines->is_array() ||
      file_engines->get_array().size() != run_engines->get_array().size()) {
    const auto names = [](const json::value* engines) {
      std::string text;
      if (engines && engines->is_array())
        for (const json::value& engine : engines->get_array())
          text += (text.empty() ? "" : ", ") + shown(member(engine, "name"));
      return text.empty() ? std::string("none") : text;
    };
    return "the engines (--engine) differ (the file has " + names(file_engines) + ", this run " +
           names(run_engines) + ")";
  }
  const json::array& file_list = file_engines->get_array();
  const json::array& run_list = run_engines->get_array();
  // The keys of the description and of --engine.
  constexpr std::pair<std::string_view, std::string_view> kEngineKeys[] = {
      {"name", "name"},
      {"command", "cmd"},
      {"args", "args"},
      {"options", "option.NAME"},
      {"protocol", "proto"},
      {"time_control", "tc"},
      {"timemargin", "timemargin"},
      {"initstr", "initstr"}};
  for (std::size_t i = 0; i < file_list.size(); ++i) {
    for (const auto& [key, label] : kEngineKeys) {
      const json::value* in_file = member(file_list[i], key);
      const json::value* in_run = member(run_list[i], key);
      if (same(in_file, in_run)) continue;
      return differs("engine " + std::to_string(i + 1) + " (" + shown(member(run_list[i], "name")) +
                         ")'s " + std::string(label),
                     in_file, in_run);
    }
  }
  struct Setting {
    std::string_view key;
    std::string_view subkey;
    std::string_view label;
  };
  constexpr Setting kSettings[] = {
      {"variant", "", "--variant"},
      {"seating", "", "--seating"},
      {"format", "", "--tournament"},
      {"seeds", "", "--seeds"},
      {"rounds", "", "--rounds"},
      {"time_control", "", "--tc"},
      {"time_margin_ms", "", "--timemargin"},
      {"openings", "source", "--openings"},
      {"openings", "count", "the number of openings in the book (--openings)"},
      {"openings", "order", "--openings-order"},
      {"openings", "seed", "--openings-seed"},
      {"openings", "offset", "--openings-offset"},
      {"openings", "policy", "--openings policy="},
      {"rules", "max_plies", "--max-plies"},
      {"rules", "repetitions", "--repetitions"},
      {"rules", "resign", "--resign"},
      {"rules", "draw", "--draw"},
      {"rules", "tablebase", "--tb (the layers of its tables)"},
      {"sprt", "", "--sprt"},
  };
  for (const Setting& setting : kSettings) {
    const json::value* in_file = member(recorded, setting.key, setting.subkey);
    const json::value* in_run = member(now, setting.key, setting.subkey);
    if (!same(in_file, in_run)) return differs(std::string(setting.label), in_file, in_run);
  }
  if (!same(member(recorded, "openings", "hash"), member(now, "openings", "hash")))
    return "the positions of the book (--openings) differ";
  return "its description differs (written by another version of quixo-arena?)";
}

// One game of a results file (or of its journal), engines numbered by `names`, and where its PGN
// is (a zero span when the entry does not say).
FinishedGame parse_game(const json::value& entry, const std::vector<std::string>& names,
                        PgnSpan& span) {
  const auto index_of = [&](const json::value& name) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (name.as_string() == names[i]) return i;
    throw TournamentError("game names an unknown engine");
  };
  FinishedGame game;
  game.id = json::value_to<int>(entry.at("id"));
  game.round = json::value_to<int>(entry.at("round"));
  game.x = index_of(entry.at("x"));
  game.o = index_of(entry.at("o"));
  const auto result = parse_result_text(entry.at("result").as_string());
  const auto termination = parse_termination(entry.at("termination").as_string());
  // The arena records only finished games.
  if (!result || !termination || *result == GameResult::Unfinished)
    throw TournamentError("bad result or termination");
  game.result = *result;
  game.termination = *termination;
  game.reason = json::value_to<std::string>(entry.at("reason"));
  game.plies = json::value_to<int>(entry.at("plies"));
  game.opening = json::value_to<std::string>(entry.at("opening"));
  game.x_restarted = entry.at("x_restarted").as_bool();
  game.o_restarted = entry.at("o_restarted").as_bool();
  span = {};
  if (const json::value* offset = entry.as_object().if_contains("pgn_offset"))
    span.offset = json::value_to<std::int64_t>(*offset);
  if (const json::value* length = entry.as_object().if_contains("pgn_length"))
    span.length = json::value_to<std::int64_t>(*length);
  if (span.offset < 0 || span.length < 0) throw TournamentError("bad PGN offset");
  return game;
}

std::string journal_path_of(const std::string& results_path) {
  return results_path + ".journal";
}

// The games recorded since the results file was last rewritten, one JSON line each, appended to
// `games` unless already there (a rewrite that the run did not live to follow by emptying the
// journal leaves games in both); `pgn_bytes` grows to the PGN's length after the last of them. A
// last line cut short (the run killed while writing it) is a game that was never recorded; a bad
// line before the last is damage, and an error.
void apply_journal(const std::string& results_path, const std::vector<std::string>& names,
                   std::vector<FinishedGame>& games, std::vector<PgnSpan>& spans,
                   std::int64_t& pgn_bytes) {
  const std::string path = journal_path_of(results_path);
  std::ifstream in(path, std::ios::binary);
  if (!in) return;
  std::set<int> known;
  for (const FinishedGame& game : games) known.insert(game.id);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const bool whole = !in.eof();  // ended by a newline
    boost::system::error_code error;
    const json::value entry = json::parse(line, error);
    try {
      if (error) throw TournamentError(error.message());
      PgnSpan span;
      FinishedGame game = parse_game(entry.at("game"), names, span);
      const auto bytes = json::value_to<std::int64_t>(entry.at("pgn_bytes"));
      if (!known.insert(game.id).second) continue;
      games.push_back(std::move(game));
      spans.push_back(span);
      pgn_bytes = std::max(pgn_bytes, bytes);
    } catch (const std::exception& problem) {
      if (!whole) return;
      throw TournamentError("the journal " + path + " is damaged at line " +
                            std::to_string(number) + " (" + problem.what() + ")");
    }
  }
}

// The games of a parsed results file and of its journal, engines numbered by their order in its
// description; `spans` gets where each one's PGN is, and `pgn_bytes` (the file's value on entry)
// the PGN's length after the last.
std::vector<FinishedGame> games_of(const json::value& file, const std::string& path,
                                   std::vector<PgnSpan>& spans, std::int64_t& pgn_bytes) {
  try {
    std::vector<std::string> names;
    for (const json::value& engine : file.at("tournament").at("engines").as_array())
      names.emplace_back(engine.at("name").as_string());
    std::vector<FinishedGame> games;
    spans.clear();
    // Each game once: a game recorded twice is damage (an edit, two files joined by hand), and
    // told as such, not as a game the schedule does not have.
    std::map<int, std::size_t> entry_of;
    for (const json::value& entry : file.at("games").as_array()) {
      PgnSpan span;
      games.push_back(parse_game(entry, names, span));
      spans.push_back(span);
      const auto [place, fresh] = entry_of.emplace(games.back().id, games.size());
      if (!fresh)
        throw TournamentError("game " + std::to_string(games.back().id + 1) +
                              " is recorded twice (entries " + std::to_string(place->second) +
                              " and " + std::to_string(games.size()) + " of its \"games\")");
    }
    apply_journal(path, names, games, spans, pgn_bytes);
    return games;
  } catch (const TournamentError& error) {
    throw TournamentError("results file " + path + ": " + error.what());
  } catch (const std::exception& error) {
    throw TournamentError("results file " + path + " is malformed: " + error.what());
  }
}

json::object results_document(const TournamentConfig& config, json::value description,
                              const std::vector<FinishedGame>& games,
                              const std::vector<PgnSpan>& spans, const Standings& standings,
                              const std::string& status, const std::string& pgn_path,
                              std::int64_t pgn_bytes, const std::optional<Shard>& shard,
                              const std::string& run_id) {
  json::array entries;
  for (std::size_t i = 0; i < games.size(); ++i)
    entries.push_back(game_json(config, games[i], i < spans.size() ? spans[i] : PgnSpan{}));
  json::object file = {{"format", kFileFormat}, {"version", kFileVersion},
                       {"status", status},      {"tournament", std::move(description)},
                       {"pgn", pgn_path},       {"pgn_bytes", pgn_bytes}};
  // Outside the description, which is the same for every shard of a tournament (a chunk's is
  // "chunk": "I/N").
  if (shard) file[shard->chunk ? "chunk" : "shard"] = shard_name(*shard);
  if (!run_id.empty()) file["run"] = run_id;
  // The defaults each engine declared for its options, for the reports of a merge; outside the
  // description, so that a resume does not depend on them.
  json::object declared;
  for (const EngineConfig& engine : config.engines) {
    json::object defaults;
    for (const auto& [name, value] : engine.declared_defaults) defaults[name] = value;
    if (!defaults.empty()) declared[engine.name] = std::move(defaults);
  }
  if (!declared.empty()) file["declared_options"] = std::move(declared);
  file["standings"] = standings_json(config, standings);
  file["games"] = std::move(entries);
  return file;
}

// Whole or not at all: a reader (or a resume after kill -9) never sees half a file.
void write_document(const std::string& path, const json::object& file) {
  replace_file(path, json::serialize(file) + "\n");
}

std::optional<Shard> shard_of(const json::value& file, const std::string& path) {
  for (const bool chunk : {false, true}) {
    const json::value* shard = file.as_object().if_contains(chunk ? "chunk" : "shard");
    if (shard == nullptr || shard->is_null()) continue;
    try {
      return parse_shard(shard->as_string(), chunk);
    } catch (const std::exception&) {
      throw TournamentError("results file " + path + " has a malformed " +
                            (chunk ? "chunk" : "shard"));
    }
  }
  return std::nullopt;
}

std::string run_of(const json::value& file) {
  const json::value* run = file.as_object().if_contains("run");
  return run && run->is_string() ? std::string(run->as_string()) : std::string();
}

// A run id nobody else has: 16 hex digits from the system's random source.
std::string new_run_id() {
  std::random_device random;
  const std::uint64_t value = (std::uint64_t{random()} << 32) ^ random();
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(value));
  return digits;
}

}  // namespace

ResultsStore::ResultsStore(const TournamentConfig& config, std::vector<int> tablebase_layers)
    : config_(config), tablebase_layers_(std::move(tablebase_layers)) {}

std::vector<FinishedGame> ResultsStore::open() {
  games_.clear();
  spans_.clear();
  pgn_bytes_ = 0;
  const bool have_results = !config_.results_path.empty();
  if (config_.resume && !have_results)
    throw TournamentError("--resume needs the results file of the earlier run (--results)");
  if (config_.resume && std::filesystem::exists(config_.results_path)) {
    const json::value file = read_json_file(config_.results_path);
    // Through the same text as the file's, so that numbers compare as they read back.
    const json::value now = json::parse(json::serialize(describe(config_, tablebase_layers_)));
    const json::value* tournament = file.as_object().if_contains("tournament");
    std::string difference = "it has no tournament description";
    if (tournament) {
      // --rounds may grow on --resume, to extend a run (finished or not): the schedule of more
      // rounds begins with the one recorded (the same pairs and openings, in the same order).
      json::value recorded = *tournament;
      const json::value* rounds_then = member(recorded, "rounds");
      const json::value* rounds_now = member(now, "rounds");
      // Not in a knockout, whose decided matches were decided on the rounds they had.
      if (config_.format != TournamentFormat::Knockout && rounds_then && rounds_now &&
          rounds_then->is_int64() && rounds_now->is_int64() &&
          rounds_then->as_int64() < rounds_now->as_int64())
        recorded.as_object()["rounds"] = *rounds_now;
      difference = description_difference(recorded, now);
    }
    if (!difference.empty())
      throw TournamentError("results file " + config_.results_path +
                            " belongs to another tournament: " + difference +
                            "; resume with the earlier settings, or start a new tournament "
                            "(without --resume) in another --results file or with --overwrite");
    const std::optional<Shard> recorded_shard = shard_of(file, config_.results_path);
    if (recorded_shard != config_.shard)
      throw TournamentError(
          "results file " + config_.results_path + " was written by " +
          (recorded_shard ? shard_label(*recorded_shard) : std::string("no shard")) +
          "; resume it with " +
          (recorded_shard
               ? (recorded_shard->chunk ? "--chunk " : "--shard ") + shard_name(*recorded_shard)
               : std::string("neither --shard nor --chunk")));
    // A resume goes on with the run it continues.
    const std::string recorded_run = run_of(file);
    if (!config_.run_id.empty() && !recorded_run.empty() && recorded_run != config_.run_id)
      throw TournamentError("results file " + config_.results_path + " was written by run " +
                            recorded_run + ", not --run-id " + config_.run_id +
                            "; resume it with --run-id " + recorded_run);
    run_id_ = !recorded_run.empty()     ? recorded_run
              : !config_.run_id.empty() ? config_.run_id
                                        : new_run_id();
    const auto* recorded_bytes = file.as_object().if_contains("pgn_bytes");
    pgn_bytes_ = recorded_bytes ? json::value_to<std::int64_t>(*recorded_bytes) : 0;
    games_ = games_of(file, config_.results_path, spans_, pgn_bytes_);
    const json::value* recorded_games = file.as_object().if_contains("games");
    journal_games_ = games_.size() - recorded_games->as_array().size();
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
    if (config_.pgn_path.empty()) pgn_bytes_ = 0;
    if (!config_.pgn_path.empty()) {
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
  run_id_ = config_.run_id.empty() ? new_run_id() : config_.run_id;
  // A fresh start empties both files (run_tournament has checked that it may: output_files.hpp).
  if (!config_.pgn_path.empty()) write_durably(config_.pgn_path, "", false);
  if (have_results) write_results(compute_standings(config_, games_), "running");
  return games_;
}

std::size_t ResultsStore::compaction_interval() const {
  return std::max<std::size_t>(kMinJournalGames, games_.size() / 4);
}

void ResultsStore::record(const FinishedGame& game, const GameRecord& record,
                          const Standings& standings) {
  PgnSpan span;
  if (!config_.pgn_path.empty()) {
    const std::string text = format_pgn(record, config_.pgn_style);
    write_durably(config_.pgn_path, text, true);
    span = {pgn_bytes_, static_cast<std::int64_t>(text.size())};
    pgn_bytes_ += span.length;
  }
  games_.push_back(game);
  spans_.push_back(span);
  if (config_.results_path.empty()) return;
  // The game is recorded once its journal line is on the disk; the whole file is rewritten (and
  // the journal emptied) only every compaction_interval() games, so a game costs the same
  // however many came before.
  if (journal_games_ + 1 >= compaction_interval()) {
    write_results(standings, "running");
    return;
  }
  const json::object line = {{"game", game_json(config_, game, span)}, {"pgn_bytes", pgn_bytes_}};
  write_durably(journal_path_of(config_.results_path), json::serialize(line) + "\n", true);
  ++journal_games_;
}

void ResultsStore::finish(const Standings& standings, TournamentEnd end) {
  if (!config_.results_path.empty()) write_results(standings, std::string(end_name(end)));
  if (!config_.epd_path.empty()) write_final_positions();
}

void ResultsStore::write_final_positions() const {
  // "<position> ; result \"1-0\" ; game 5 ; termination \"line\"": the board after the last
  // move, EPD style, in the order the PGN has the games.
  const std::string pgn = read_prefix(config_.pgn_path, pgn_bytes_).value_or(std::string());
  std::string text;
  try {
    for (const GameRecord& game : parse_pgn(pgn)) {
      Game position = Game::parse(game.start_position);
      for (const std::string& move : game.opening_moves) position.play(move);
      for (const MoveRecord& move : game.moves) position.play(move.move);
      text += position.text() + " ; result \"" + std::string(result_text(game.result)) +
              "\" ; game " + game.round + " ; termination \"" +
              std::string(termination_name(game.termination)) + "\"\n";
    }
  } catch (const std::exception& error) {
    throw TournamentError("--epd-out: the PGN " + config_.pgn_path + " cannot be read back (" +
                          error.what() + ")");
  }
  replace_file(config_.epd_path, text);
}

void ResultsStore::write_results(const Standings& standings, const std::string& status) {
  write_document(
      config_.results_path,
      results_document(config_, describe(config_, tablebase_layers_), games_, spans_, standings,
                       status, config_.pgn_path, pgn_bytes_, config_.shard, run_id_));
  // Only after the rename: a kill before this leaves games in both, which readers take once.
  const std::string journal = journal_path_of(config_.results_path);
  std::error_code error;
  if (journal_games_ > 0 || std::filesystem::exists(journal, error))
    write_durably(journal, "", false);
  journal_games_ = 0;
}

std::vector<FinishedGame> read_results_file(const std::string& path) {
  std::vector<PgnSpan> spans;
  std::int64_t pgn_bytes = 0;
  return games_of(read_json_file(path), path, spans, pgn_bytes);
}

std::string tournament_identity(const TournamentConfig& config,
                                const std::vector<int>& tablebase_layers) {
  const std::string text = json::serialize(describe(config, tablebase_layers));
  const std::uint64_t hash = binary_io::fnv1a(std::as_bytes(std::span(text.data(), text.size())));
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(hash));
  return digits;
}

std::string tournament_difference(const json::value& recorded, const json::value& other) {
  return description_difference(recorded, other);
}

RecordedResults read_recorded_results(const std::string& path) {
  RecordedResults results;
  results.path = path;
  const json::value file = read_json_file(path);
  results.shard = shard_of(file, path);
  results.run_id = run_of(file);
  try {
    const json::object& top = file.as_object();
    results.pgn_bytes = json::value_to<std::int64_t>(top.at("pgn_bytes"));
    results.games = games_of(file, path, results.spans, results.pgn_bytes);
    results.description = top.at("tournament");
    results.pgn_path = json::value_to<std::string>(top.at("pgn"));
    results.status = json::value_to<std::string>(top.at("status"));
    // The configuration, as far as standings and the final report need it.
    const json::object& tournament = results.description.as_object();
    TournamentConfig& config = results.config;
    for (const json::value& entry : tournament.at("engines").as_array()) {
      EngineConfig engine;
      engine.name = json::value_to<std::string>(entry.at("name"));
      engine.process.command = json::value_to<std::string>(entry.at("command"));
      const json::value& control = entry.at("time_control");
      if (!control.is_null())
        engine.time_control = TimeControl::parse(json::value_to<std::string>(control));
      // The options the user set and the defaults the engine declared, which the reports show.
      for (const json::value& option : entry.at("options").as_array())
        engine.options.emplace_back(json::value_to<std::string>(option.at(0)),
                                    json::value_to<std::string>(option.at(1)));
      if (const json::value* declared = top.if_contains("declared_options"))
        if (const json::value* defaults = declared->as_object().if_contains(engine.name))
          for (const auto& [name, value] : defaults->as_object())
            engine.declared_defaults.emplace_back(std::string(name),
                                                  json::value_to<std::string>(value));
      config.engines.push_back(std::move(engine));
    }
    config.format = parse_format(json::value_to<std::string>(tournament.at("format")))
                        .value_or(TournamentFormat::RoundRobin);
    config.seeds = json::value_to<int>(tournament.at("seeds"));
    config.rounds = json::value_to<int>(tournament.at("rounds"));
    config.time_control =
        TimeControl::parse(json::value_to<std::string>(tournament.at("time_control")));
    config.openings_source = json::value_to<std::string>(tournament.at("openings").at("source"));
    if (const json::value* variant = tournament.if_contains("variant");
        variant && *variant == json::value(variant_name(Variant::FourPlayer)))
      config.variant = Variant::FourPlayer;
    if (const json::value* seating = tournament.if_contains("seating"))
      config.seating =
          parse_seating(json::value_to<std::string>(*seating)).value_or(Seating::PerSeat);
    if (const json::value* sprt = tournament.if_contains("sprt")) {
      SprtParameters parameters;
      parameters.elo0 = json::value_to<double>(sprt->at("elo0"));
      parameters.elo1 = json::value_to<double>(sprt->at("elo1"));
      parameters.alpha = json::value_to<double>(sprt->at("alpha"));
      parameters.beta = json::value_to<double>(sprt->at("beta"));
      parameters.model = sprt->at("model") == json::value("normalized") ? EloModel::Normalized
                                                                        : EloModel::Logistic;
      config.sprt = parameters;
    }
    if (const json::value* decision = member(top.at("standings"), "sprt", "shared_decision"))
      results.shared_decision = parse_shared_decision(*decision);
    config.results_path = path;
    config.pgn_path = results.pgn_path;
    config.shard = results.shard;
    config.run_id = results.run_id;
  } catch (const std::exception& error) {
    throw TournamentError("results file " + path + " is malformed: " + error.what());
  }
  return results;
}

void write_results_file(const std::string& path, const RecordedResults& results,
                        const Standings& standings) {
  write_document(path, results_document(results.config, results.description, results.games,
                                        results.spans, standings, results.status, results.pgn_path,
                                        results.pgn_bytes, results.shard, results.run_id));
  // A journal of another run at this path would add its games to these.
  std::error_code ignored;
  std::filesystem::remove(journal_path_of(path), ignored);
}

}  // namespace quixo::arena
