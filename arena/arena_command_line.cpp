#include "arena_command_line.hpp"

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>

#include "compliance.hpp"
#include "engine_spec.hpp"
#include "merge.hpp"
#include "openings.hpp"
#include "output_files.hpp"
#include "program_options_message.hpp"
#include "read_number.hpp"
#include "report_fan_out.hpp"
#include "report_styles.hpp"
#include "spsa.hpp"
#include "tune.hpp"

namespace quixo::arena {
namespace po = boost::program_options;
namespace {

// Options whose value is a list of key=value tokens; on the command line the tokens may follow
// the option as separate words, fastchess style (`--engine name=a cmd=./e option.Hash=16`).
const std::vector<std::string_view> kGroupedOptions = {"--engine", "--each", "--sprt",
                                                       "--resign", "--draw", "--openings"};

template <typename Number>
Number parse_number(std::string_view key, std::string_view text) {
  if (const std::optional<Number> value = read_number<Number>(text)) return *value;
  throw std::invalid_argument("bad value \"" + std::string(text) + "\" for " + std::string(key));
}

bool parse_bool(std::string_view key, std::string_view text) {
  if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "0" || text == "no" || text == "off") return false;
  throw std::invalid_argument("bad value \"" + std::string(text) + "\" for " + std::string(key) +
                              ": expected true or false");
}

const char* const kUsage =
    "Usage: quixo-arena [options]\n"
    "\n"
    "Plays tournaments between Quixo engines (UQI or UGI) under time controls and reports Elo,\n"
    "SPRT and ratings, like fastchess and cutechess-cli. Engines and options come from the\n"
    "command line and from a config file (--config); the command line wins.\n"
    "\n"
    "Example:\n"
    "  quixo-arena --engine name=new cmd=./new/quixo-engine --engine name=base \\\n"
    "      cmd=./base/quixo-engine --each tc=10+0.1 option.Hash=16 --rounds 500 \\\n"
    "      --concurrency 2 --openings configs/openings.txt --openings-order random \\\n"
    "      --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 --pgn games.pgn --results results.json\n"
    "\n"
    "Engine keys (for --engine and --each): name=NAME cmd=PATH args=\"A B\" arg=A dir=DIR\n"
    "  proto=uqi|ugi tc=TC timemargin=MS restart=on|off stderr=FILE initstr=LINE\n"
    "  option.NAME=VALUE, as separate words or one quoted string. Each option.NAME must be one\n"
    "  the engine declares, with a value it takes (checked before the first game). A relative cmd\n"
    "  is taken from dir when given; one without '/' is also looked for next to quixo-arena, then\n"
    "  on PATH. stderr=FILE appends the engine's stderr to FILE (default: discarded). timemargin:\n"
    "  the engine's own --timemargin; restart=on: a new process for every game. --each sets keys\n"
    "  for every engine; an engine's own win.\n"
    "Time controls (TC): 40/60+0.6 (moves/seconds+increment), 10+0.1, 60 (sudden death),\n"
    "  st=1.5 (seconds per move), nodes=N, depth=N.\n"
    "Endgame tables: --tb DIR ends a two-player game as soon as its position is in the tables\n"
    "  of DIR (quixo-tb's layer files), with their result, as cutechess-cli's -tb.\n"
    "Four players: --variant 4p plays the team game, each engine a team (seats 1 and 3 against\n"
    "  2 and 4), seated per seat or per team (--seating), from a four-player book.\n"
    "Shards: --shard I/N (every N-th game pair) or --chunk I/N (the I-th of N ranges of pairs)\n"
    "  plays one of N shares of the tournament (on a cluster, a job array);\n"
    "  quixo-arena merge --results OUT.json [--pgn OUT.pgn] SHARD.json... makes them one\n"
    "  (quixo-arena merge --help).\n"
    "Tuning: quixo-arena tune --engine KEYS --param NAME=start,min,max,c_end ... tunes an\n"
    "  engine's spin options with SPSA (quixo-arena tune --help).\n"
    "Compliance: quixo-arena --compliance --engine KEYS checks one engine against the UQI\n"
    "  contract (quixo-arena --compliance --help).\n"
    "Exit codes: 0 completed or SPRT accepted H1, 1 SPRT accepted H0, 2 error, 3 SPRT undecided\n"
    "  when the games ran out, 4 interrupted (continue with --resume).\n";

const char* const kMergeUsage =
    "Usage: quixo-arena merge --results OUT.json [--pgn OUT.pgn] [--output STYLE] SHARD.json...\n"
    "\n"
    "Merges the results files of a tournament's shards (--shard I/N) or chunks (--chunk I/N)\n"
    "into one results file and one PGN (games in schedule order), after checking that they are\n"
    "the pieces of one run of one tournament and that no game is missing or doubled, and prints\n"
    "the report. A tournament still running merges as far as it has got.\n"
    "Exit codes: 0 completed or SPRT accepted H1, 1 SPRT accepted H0, 2 error, 3 SPRT undecided,\n"
    "  4 incomplete (games missing: a shard is still running, stopped, or not started: its\n"
    "  results file is not there; resume or start it).\n";

const char* const kTuneUsage =
    "Usage: quixo-arena tune --engine KEYS --param NAME=start,min,max,c_end[,r_end]...\n"
    "                        --iterations N --state FILE [options]\n"
    "\n"
    "Tunes spin options of one engine with SPSA, as fishtest does: each iteration plays a game\n"
    "pair from the book (colours reversed), the engine with theta + c_k * flip against itself\n"
    "with theta - c_k * flip, and moves theta by (a_k / c_k) * (wins - losses) * flip;\n"
    "c_k = c_end * N^gamma / k^gamma, a_k = r_end * c_end^2 * (A + N)^alpha / (A + k)^alpha\n"
    "(the README's section on tuning). Search parameters of quixo-engine are options only with\n"
    "its tuning switch: --engine cmd=quixo-engine args=--tune (quixo-engine --tune\n"
    "--print-params prints their --param lines).\n"
    "The state file keeps every finished pair: the same command resumes a run (also after\n"
    "kill -9); --csv (default STATE.csv) has theta after every pair, --report-html the\n"
    "trajectories. Shards (--shard I/N, e.g. a Slurm job array) share one theta through the\n"
    "state files of every shard, STATE.shard-I-of-N.EXT, on a folder they all see.\n"
    "Engine keys, time control, book, rules and --concurrency as for tournaments.\n"
    "Exit codes: 0 completed, 2 error, 4 interrupted (run the same command to continue).\n";

const char* const kComplianceUsage =
    "Usage: quixo-arena --compliance --engine KEYS [--engines-file FILE] [--timeout MS]\n"
    "                   [--timemargin MS] [--positions N] [--seed N]\n"
    "\n"
    "Checks one engine against the UQI contract (SPEC section 5), as fastchess's --compliance:\n"
    "the handshake, its options, isready (also while searching), stop, one bestmove per go,\n"
    "legal moves in random positions of both variants and in finished ones, clocks, movetime,\n"
    "ponder (when the engine has the Ponder option), the UGI names and quit. Prints one line\n"
    "per check (\"PASS name\", \"FAIL name: why\", \"SKIP name: why\") and a summary line.\n"
    "Engine keys as for tournaments (cmd=PATH name=NAME proto=uqi|ugi option.NAME=VALUE ...).\n"
    "Exit codes: 0 every check passed, 1 a check failed, 2 error (bad option, no engine, a\n"
    "  command that cannot be started).\n";

// Adds the option groups to `options` (the command line's description or the config file's).
void describe_options(po::options_description& options) {
  po::options_description engines("Engines", 100);
  engines.add_options()(
      "engines-file", po::value<std::string>(),
      "a JSON engines file (as cutechess's engines.json); --engine conf=NAME takes its entry")(
      "engine", po::value<std::vector<std::string>>(),
      "an engine: KEYS as above (repeatable; at least two)")(
      "each", po::value<std::vector<std::string>>()->composing(),
      "keys applied to every engine (e.g. tc=10+0.1 option.Hash=16)")(
      "allow-unknown-options", po::bool_switch(),
      "send an option.NAME the engine does not declare, with a warning (else the run stops)");
  po::options_description tournament("Tournament", 100);
  tournament.add_options()(
      "tournament", po::value<std::string>()->default_value("round-robin"),
      "round-robin (a match with two engines), gauntlet or knockout (alias: match = round-robin)")(
      "seeds", po::value<int>()->default_value(1), "gauntlet: the first N engines play the rest")(
      "variant", po::value<std::string>()->default_value("2p"),
      "2p (two players) or 4p (the four-player team game: each engine is a team, seats 1 and 3 "
      "against 2 and 4)")(
      "seating", po::value<std::string>()->default_value("per-seat"),
      "4p: per-seat (a process per seat: no conferring) or per-team (one per team)")(
      "rounds", po::value<int>()->default_value(1),
      "game pairs per pairing; each pair plays one opening with colours swapped")(
      "concurrency", po::value<int>()->default_value(1), "games played at once")(
      "wait", po::value<std::int64_t>()->default_value(0),
      "milliseconds each game slot waits between games")(
      "tc", po::value<std::string>()->default_value("10+0.1"),
      "time control for engines without their own")(
      "timemargin", po::value<std::int64_t>()->default_value(0),
      "milliseconds a reply may exceed the time left before it loses on time")(
      "max-plies", po::value<int>()->default_value(300),
      "draw when the game reaches this many plies (0: no cap)")(
      "repetitions", po::value<int>()->default_value(3),
      "draw when a position occurs this many times")(
      "stall-timeout", po::value<std::int64_t>()->default_value(10'000),
      "milliseconds an engine may take for a reply that no clock limits (nodes, depth), for "
      "isready and the handshake")(
      "resign", po::value<std::string>(),
      "resign adjudication: movecount=N score=CP [twosided=true|false]")(
      "draw", po::value<std::string>(), "draw adjudication: movenumber=N movecount=N score=CP")(
      "tb", po::value<std::string>(),
      "folder of endgame tables (quixo-tb's layer files): a two-player game in them ends with "
      "their result")(
      "sprt", po::value<std::string>(),
      "stop on a decision: elo0=E elo1=E [alpha=0.05 beta=0.05 model=normalized|logistic]")(
      "event", po::value<std::string>()->default_value("quixo-arena"), "PGN Event tag")(
      "site", po::value<std::string>()->default_value(""), "PGN Site tag");
  po::options_description openings("Openings", 100);
  openings.add_options()(
      "openings", po::value<std::string>(),
      "FILE (one position per line, optionally with moves), or file=FILE [format=text|epd|pgn] "
      "[plies=N] [order=sequential|random] [policy=round|encounter]")(
      "openings-order", po::value<std::string>()->default_value("sequential"),
      "sequential or random")("openings-seed", unsigned_value<std::uint64_t>(1),
                              "seed of the random order")(
      "openings-offset", unsigned_value<std::size_t>(0),
      "start at this (0-based) place of the order");
  po::options_description output("Output", 100);
  output.add_options()(
      "pgn", po::value<std::vector<std::string>>()->multitoken(),
      "FILE [min]: write every game to this PGN file; min: the short form (the tags a reader "
      "needs, moves without comments)")(
      "results", po::value<std::string>(),
      "keep the results (JSON) in this file after every game; needed for --resume")(
      "resume", po::bool_switch(), "continue the tournament recorded in --results")(
      "overwrite", po::bool_switch(),
      "let a new tournament replace its existing output files (--pgn, --results, --log, "
      "--epd-out, --report-html; refused otherwise)")(
      "log", po::value<std::string>(),
      "write every line to and from every engine to this file (time, game, engine); engines "
      "without their own stderr= append their stderr to FILE.NAME.stderr")(
      "log-max-mb", po::value<std::int64_t>()->default_value(64),
      "past this size the log becomes FILE.1 and a new one starts")(
      "debug", po::bool_switch(), "also log the arena's own decisions (needs --log)")(
      "epd-out", po::value<std::string>(),
      "at the end, write every game's final position to this file, one line each (needs --pgn)")(
      "anchor", po::value<std::string>(),
      "NAME=ELO: the rating list gives that engine this rating (others' errors relative to it)")(
      "report-interval", po::value<int>(),
      "games between rating reports (0: only at the end); by default 10, and 0 with --output "
      "cutechess (as cutechess-cli's -ratinginterval)")(
      "output", po::value<std::string>()->default_value(default_report_style()),
      report_style_help().c_str());
  for (const FileReport& report : file_reports())
    output.add_options()(report.option, po::value<std::string>(), report.description);
  po::options_description cluster("Shards (one tournament played by several processes)", 100);
  cluster.add_options()(
      "shard", po::value<std::string>(),
      "I/N: play only shard I of N (game pairs p with p % N = I - 1); --pgn and --results name "
      "the tournament's files, and the shard writes FILE.shard-I-of-N.EXT beside them")(
      "chunk", po::value<std::string>(),
      "I/N: play only chunk I of N, a contiguous range of the game pairs (for many more chunks "
      "than nodes, handed out by a job array); files FILE.chunk-I-of-N.EXT")(
      "shared-dir", po::value<std::string>(),
      "a folder every shard sees: shards publish their counts there after every game, an "
      "SPRT decides on all shards' games, and the first decision is recorded there for all; "
      "needs --run-id")(
      "run-id", po::value<std::string>(),
      "ID: this run's id, the same for every shard or chunk of the run (letters, digits, - _ .); "
      "counts of other runs in --shared-dir are not counted; default: the results file's on "
      "--resume, else a new one");
  options.add(engines).add(tournament).add(openings).add(output).add(cluster);
}

SprtParameters parse_sprt(const std::string& text) {
  SprtParameters sprt;
  sprt.model = EloModel::Normalized;
  for (const auto& [key, value] : parse_key_values(text)) {
    if (key == "elo0")
      sprt.elo0 = parse_number<double>("sprt elo0", value);
    else if (key == "elo1")
      sprt.elo1 = parse_number<double>("sprt elo1", value);
    else if (key == "alpha")
      sprt.alpha = parse_number<double>("sprt alpha", value);
    else if (key == "beta")
      sprt.beta = parse_number<double>("sprt beta", value);
    else if (key == "model" && (value == "normalized" || value == "normalised"))
      sprt.model = EloModel::Normalized;
    else if (key == "model" && value == "logistic")
      sprt.model = EloModel::Logistic;
    else if (key == "model")
      throw std::invalid_argument("--sprt: model must be normalized or logistic, not \"" + value +
                                  "\"");
    else
      throw std::invalid_argument("--sprt: unknown key or value \"" + key + "=" + value + "\"");
  }
  sprt.validate();
  return sprt;
}

void parse_resign(const std::string& text, Adjudication& adjudication) {
  for (const auto& [key, value] : parse_key_values(text)) {
    if (key == "movecount")
      adjudication.resign_move_count = parse_number<int>("resign movecount", value);
    else if (key == "score")
      adjudication.resign_score_cp = parse_number<int>("resign score", value);
    else if (key == "twosided")
      adjudication.resign_two_sided = parse_bool("resign twosided", value);
    else
      throw std::invalid_argument("--resign: unknown key \"" + key + "\"");
  }
  if (adjudication.resign_move_count < 1 || adjudication.resign_score_cp < 1)
    throw std::invalid_argument("--resign needs movecount >= 1 and score >= 1");
}

void parse_draw(const std::string& text, Adjudication& adjudication) {
  for (const auto& [key, value] : parse_key_values(text)) {
    if (key == "movenumber")
      adjudication.draw_move_number = parse_number<int>("draw movenumber", value);
    else if (key == "movecount")
      adjudication.draw_move_count = parse_number<int>("draw movecount", value);
    else if (key == "score")
      adjudication.draw_score_cp = parse_number<int>("draw score", value);
    else
      throw std::invalid_argument("--draw: unknown key \"" + key + "\"");
  }
  if (adjudication.draw_move_count < 1 || adjudication.draw_score_cp < 0 ||
      adjudication.draw_move_number < 0)
    throw std::invalid_argument("--draw needs movecount >= 1, movenumber >= 0 and score >= 0");
}

Variant parse_variant(const std::string& name) {
  if (name == "2p") return Variant::TwoPlayer;
  if (name == "4p") return Variant::FourPlayer;
  throw std::invalid_argument("--variant: expected 2p or 4p, not \"" + name + "\"");
}

// --engines-file, read; the cutechess keys it holds that mean nothing here are named once on
// `err`.
EnginesFile read_engines_file(const po::variables_map& vm, std::ostream& err) {
  if (!vm.count("engines-file")) return {};
  const std::string path = vm["engines-file"].as<std::string>();
  std::vector<std::string> ignored;
  EnginesFile engines = load_engines_file(path, &ignored);
  if (!ignored.empty()) {
    std::string keys;
    for (const std::string& key : ignored) keys += (keys.empty() ? "" : ", ") + key;
    err << "quixo-arena: warning: --engines-file " << path << ": ignored " << keys
        << " (cutechess keys that mean nothing here)\n";
  }
  return engines;
}

TournamentConfig make_config(const po::variables_map& vm, std::ostream& err) {
  TournamentConfig config;
  const EnginesFile engines_file = read_engines_file(vm, err);
  config.engines = make_engine_configs(
      vm.count("each") ? vm["each"].as<std::vector<std::string>>() : std::vector<std::string>(),
      vm.count("engine") ? vm["engine"].as<std::vector<std::string>>() : std::vector<std::string>(),
      vm.count("engines-file") ? &engines_file : nullptr);
  const std::string format = vm["tournament"].as<std::string>();
  if (const std::optional<TournamentFormat> parsed = parse_format(format))
    config.format = *parsed;
  else
    throw std::invalid_argument(
        "--tournament: expected round-robin, match, gauntlet or knockout, not \"" + format + "\"");
  config.seeds = vm["seeds"].as<int>();
  config.variant = parse_variant(vm["variant"].as<std::string>());
  const std::string seating = vm["seating"].as<std::string>();
  if (const std::optional<Seating> parsed = parse_seating(seating))
    config.seating = *parsed;
  else
    throw std::invalid_argument("--seating: expected per-seat or per-team, not \"" + seating +
                                "\"");
  config.rounds = vm["rounds"].as<int>();
  config.concurrency = vm["concurrency"].as<int>();
  const std::int64_t margin = vm["timemargin"].as<std::int64_t>();
  const TimeControl common = TimeControl::parse(vm["tc"].as<std::string>());
  config.time_control = common.with_margin(margin);
  for (EngineConfig& engine : config.engines) {
    // An engine's own margin (timemargin=MS) makes the control it plays under its own.
    if (engine.time_margin_ms)
      engine.time_control =
          engine.time_control.value_or(common).with_margin(*engine.time_margin_ms);
    else if (engine.time_control)
      engine.time_control = engine.time_control->with_margin(margin);
  }
  // `go infinite` never ends by itself: every move would stall. A tournament needs a limit.
  const auto refuse_infinite = [](const TimeControl& control, const std::string& whose) {
    if (control.is_infinite())
      throw std::invalid_argument(whose +
                                  " time control \"inf\" has no limit, so no engine would "
                                  "ever move; use a clock, st=, nodes= or depth=");
  };
  for (const EngineConfig& engine : config.engines) {
    refuse_infinite(engine.time_control.value_or(config.time_control),
                    "engine \"" + engine.name + "\":");
  }
  config.rules.max_plies = vm["max-plies"].as<int>();
  config.rules.repetitions = vm["repetitions"].as<int>();
  config.rules.stall_timeout = std::chrono::milliseconds(vm["stall-timeout"].as<std::int64_t>());
  if (vm.count("resign")) parse_resign(vm["resign"].as<std::string>(), config.rules.adjudication);
  if (vm.count("draw")) parse_draw(vm["draw"].as<std::string>(), config.rules.adjudication);
  if (vm.count("tb")) {
    config.tablebase_path = vm["tb"].as<std::string>();
    if (config.tablebase_path.empty())
      throw std::invalid_argument("--tb needs the folder of the endgame tables");
  }
  if (vm.count("sprt")) config.sprt = parse_sprt(vm["sprt"].as<std::string>());
  config.event = vm["event"].as<std::string>();
  config.site = vm["site"].as<std::string>();
  std::string order = vm["openings-order"].as<std::string>();
  if (vm.count("openings")) {
    // `--openings FILE`, or fastchess's keys: file=FILE [format=text|epd|pgn] [plies=N]
    // [order=sequential|random] [policy=round|encounter].
    const std::string value = vm["openings"].as<std::string>();
    BookSource book;
    // Keys when every word is one of them; otherwise the value is the book's file name.
    EngineKeys keys;
    try {
      keys = parse_key_values(value);
    } catch (const std::invalid_argument&) {
      keys.clear();
    }
    const bool keyed = !keys.empty() && std::all_of(keys.begin(), keys.end(), [](const auto& key) {
      return key.first == "file" || key.first == "format" || key.first == "plies" ||
             key.first == "order" || key.first == "policy";
    });
    if (!keyed) {
      book.path = value;
    } else {
      for (const auto& [key, text] : keys) {
        if (key == "file") {
          book.path = text;
        } else if (key == "format") {
          const std::optional<BookFormat> book_format = parse_book_format(text);
          if (!book_format)
            throw std::invalid_argument("--openings format: expected text, epd or pgn, not \"" +
                                        text + "\"");
          book.format = *book_format;
        } else if (key == "plies") {
          book.plies = parse_number<int>("--openings plies", text);
          if (book.plies < 0) throw std::invalid_argument("--openings plies cannot be negative");
        } else if (key == "order") {
          order = text;
        } else if (text == "round" || text == "encounter") {
          config.opening_policy = text == "round" ? OpeningPolicy::Round : OpeningPolicy::Encounter;
        } else {
          throw std::invalid_argument("--openings policy: expected round or encounter, not \"" +
                                      text + "\"");
        }
      }
      if (book.path.empty()) throw std::invalid_argument("--openings needs file=FILE");
      if (book.plies >= 0 && book.format != BookFormat::Pgn)
        throw std::invalid_argument("--openings plies= cuts the games of a PGN book (format=pgn)");
    }
    config.openings_source = book.path;
    config.openings = load_book(book);
  }
  if (order == "random")
    config.opening_order = OpeningOrder::Random;
  else if (order != "sequential")
    throw std::invalid_argument("--openings-order: expected sequential or random, not \"" + order +
                                "\"");
  config.opening_seed = unsigned_option<std::uint64_t>(vm, "openings-seed");
  config.opening_offset = unsigned_option<std::size_t>(vm, "openings-offset");
  if (vm.count("report-interval")) {
    config.report_interval = vm["report-interval"].as<int>();
  } else if (const ReportStyle* style = parse_report_style(vm["output"].as<std::string>())) {
    config.report_interval = style->default_report_interval;
  }
  if (vm.count("pgn")) {
    // `--pgn FILE [min]`, in a config file `pgn = FILE [min]`.
    std::string words;
    for (const std::string& word : vm["pgn"].as<std::vector<std::string>>())
      words += (words.empty() ? "" : " ") + word;
    if (words.size() > 4 && words.ends_with(" min")) {
      config.pgn_style = PgnStyle::Min;
      words.resize(words.size() - 4);
    }
    if (words.empty()) throw std::invalid_argument("--pgn needs a file");
    config.pgn_path = words;
  }
  if (vm.count("log")) {
    config.log_path = vm["log"].as<std::string>();
    if (config.log_path.empty()) throw std::invalid_argument("--log needs a file");
  }
  const std::int64_t log_mb = vm["log-max-mb"].as<std::int64_t>();
  if (log_mb < 1) throw std::invalid_argument("--log-max-mb must be at least 1");
  config.log_max_bytes = log_mb << 20;
  config.debug = vm["debug"].as<bool>();
  if (config.debug && config.log_path.empty())
    throw std::invalid_argument("--debug writes to the log: give --log FILE too");
  if (vm.count("epd-out")) {
    config.epd_path = vm["epd-out"].as<std::string>();
    if (config.epd_path.empty()) throw std::invalid_argument("--epd-out needs a file");
  }
  if (vm.count("anchor")) {
    const std::string text = vm["anchor"].as<std::string>();
    const std::size_t equals = text.rfind('=');
    if (equals == std::string::npos || equals == 0)
      throw std::invalid_argument("--anchor: expected NAME=ELO, not \"" + text + "\"");
    config.anchor = RatingAnchor{text.substr(0, equals),
                                 parse_number<double>("--anchor", text.substr(equals + 1))};
  }
  config.wait_ms = vm["wait"].as<std::int64_t>();
  if (config.wait_ms < 0) throw std::invalid_argument("--wait cannot be negative");
  if (vm.count("results")) config.results_path = vm["results"].as<std::string>();
  config.resume = vm["resume"].as<bool>();
  config.overwrite = vm["overwrite"].as<bool>();
  config.allow_unknown_options = vm["allow-unknown-options"].as<bool>();
  if (vm.count("shard") && vm.count("chunk"))
    throw std::invalid_argument("--shard and --chunk are two ways to split a tournament: give one");
  if (vm.count("shard") || vm.count("chunk")) {
    // Every piece is given the same --pgn and --results; each writes its own files beside them.
    config.shard = vm.count("chunk") ? parse_shard(vm["chunk"].as<std::string>(), true)
                                     : parse_shard(vm["shard"].as<std::string>());
    if (!config.pgn_path.empty()) config.pgn_path = shard_file_path(config.pgn_path, *config.shard);
    if (!config.results_path.empty())
      config.results_path = shard_file_path(config.results_path, *config.shard);
    if (!config.epd_path.empty()) config.epd_path = shard_file_path(config.epd_path, *config.shard);
    if (!config.log_path.empty()) config.log_path = shard_file_path(config.log_path, *config.shard);
  }
  if (!config.log_path.empty())
    for (EngineConfig& engine : config.engines)
      if (engine.process.stderr_path.empty())
        engine.process.stderr_path = config.log_path + "." + engine.name + ".stderr";
  if (vm.count("run-id")) config.run_id = vm["run-id"].as<std::string>();
  if (vm.count("shared-dir")) {
    config.shared_dir = vm["shared-dir"].as<std::string>();
    std::error_code error;
    if (!std::filesystem::is_directory(config.shared_dir, error))
      throw std::invalid_argument("--shared-dir " + config.shared_dir + ": no such folder");
  }
  return config;
}

int exit_code(TournamentEnd end) {
  switch (end) {
    case TournamentEnd::SprtAcceptedH0:
      return kExitSprtH0;
    case TournamentEnd::SprtAcceptedH1:
      return kExitCompleted;
    case TournamentEnd::SprtUndecided:
      return kExitSprtUndecided;
    case TournamentEnd::Interrupted:
      return kExitInterrupted;
    case TournamentEnd::Completed:
      break;
  }
  return kExitCompleted;
}

// The --output style's sink (report_styles.hpp); std::invalid_argument for an unknown style.
std::unique_ptr<ReportSink> make_report(const std::string& style, std::ostream& out,
                                        std::ostream& err) {
  const bool live = &out == &std::cout && ::isatty(STDOUT_FILENO) == 1;
  return make_text_report(out, err, style, live);
}

// quixo-arena merge (argv[1] is "merge").
int run_merge_command_line(int argc, const char* const* argv, std::ostream& out,
                           std::ostream& err) {
  po::options_description options("Options", 100);
  options.add_options()("help,h", "show this help and exit")("results", po::value<std::string>(),
                                                             "the merged results file to write")(
      "pgn", po::value<std::string>(), "the merged PGN to write (from the shards' PGN files)")(
      "output", po::value<std::string>()->default_value(default_report_style()),
      report_style_help().c_str())("shards", po::value<std::vector<std::string>>(),
                                   "the shards' results files");
  po::positional_options_description positional;
  positional.add("shards", -1);
  po::variables_map vm;
  try {
    po::store(
        po::command_line_parser(argc - 1, argv + 1).options(options).positional(positional).run(),
        vm);
    po::notify(vm);
    if (vm.count("help")) {
      out << kMergeUsage << "\n" << options;
      return kExitCompleted;
    }
    if (!vm.count("results"))
      throw std::invalid_argument("merge needs --results, the merged results file to write");
    if (!vm.count("shards")) throw std::invalid_argument("merge needs the shards' results files");
  } catch (const po::error& error) {
    err << "quixo-arena: merge: " << program_options_message(error) << " (see merge --help)\n";
    return kExitUsage;
  } catch (const std::exception& error) {
    err << "quixo-arena: " << error.what() << " (see merge --help)\n";
    return kExitUsage;
  }
  try {
    const auto sink = make_report(vm["output"].as<std::string>(), out, err);
    // The merged files follow the outputs' policy (output_files.hpp), except that they replace
    // an earlier merge's: a tournament is merged again as its shards go on.
    TournamentConfig merged;
    merged.results_path = vm["results"].as<std::string>();
    merged.pgn_path = vm.count("pgn") ? vm["pgn"].as<std::string>() : std::string();
    merged.overwrite = true;
    const ClaimedOutputs outputs(merged, vm["shards"].as<std::vector<std::string>>());
    const MergeOutcome outcome =
        merge_shards(vm["shards"].as<std::vector<std::string>>(), vm["results"].as<std::string>(),
                     vm.count("pgn") ? vm["pgn"].as<std::string>() : std::string(), *sink);
    return exit_code(outcome.end);
  } catch (const std::exception& error) {
    err << "quixo-arena: merge: " << error.what() << "\n";
    return kExitUsage;
  }
}

// quixo-arena tune (argv[1] is "tune"): the tournament's options for the games, and SPSA's.
int run_tune_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                          const std::atomic<bool>& interrupt) {
  po::options_description spsa_options("SPSA", 100);
  spsa_options.add_options()(
      "param", po::value<std::vector<std::string>>(),
      "NAME=start,min,max,c_end[,r_end]: a spin option to tune (repeatable; r_end 0.002 when "
      "left out), fishtest's form")("iterations", po::value<std::int64_t>(),
                                    "N: game pairs of the run")(
      "spsa-A", po::value<double>()->default_value(-1, "N/10"), "A, the stability constant of a_k")(
      "spsa-alpha", po::value<double>()->default_value(0.602), "alpha, the decay of a_k")(
      "spsa-gamma", po::value<double>()->default_value(0.101), "gamma, the decay of c_k")(
      "state", po::value<std::string>(), "the run's state file (resumed when it exists)")(
      "csv", po::value<std::string>(), "theta after every pair (default: STATE.csv)")(
      "spsa-seed", unsigned_value<std::uint64_t>(1), "seed of the flips");
  po::options_description file_options;
  describe_options(file_options);
  file_options.add(spsa_options);
  po::options_description command_line("General", 100);
  command_line.add_options()("help,h", "show this help and exit")(
      "config,c", po::value<std::string>(), "read options from this file (the command line wins)");
  describe_options(command_line);
  command_line.add(spsa_options);
  po::variables_map vm;
  TuneConfig tune;
  try {
    std::vector<std::string> args = group_arguments(argc - 1, argv + 1, kGroupedOptions);
    po::store(po::command_line_parser(args).options(command_line).run(), vm);
    if (vm.count("help")) {
      out << kTuneUsage << "\n" << command_line;
      return kExitCompleted;
    }
    if (vm.count("config") &&
        !store_config_file(vm["config"].as<std::string>(), file_options, vm, "quixo-arena", err))
      return kExitUsage;
    po::notify(vm);
    // What a tuning run has no use for is refused rather than silently ignored.
    for (const char* option : {"sprt", "results", "resume", "rounds", "pgn", "log", "debug",
                               "epd-out", "anchor", "chunk", "shared-dir", "run-id"})
      if (vm.count(option) && !vm[option].defaulted())
        throw std::invalid_argument(std::string("tune takes no --") + option);
    if (vm["tournament"].as<std::string>() != "round-robin" ||
        vm["variant"].as<std::string>() != "2p")
      throw std::invalid_argument("tune plays the two-player game, one engine against itself");
    if (!vm.count("param")) throw std::invalid_argument("tune needs at least one --param");
    if (!vm.count("iterations")) throw std::invalid_argument("tune needs --iterations N");
    if (!vm.count("state")) throw std::invalid_argument("tune needs --state FILE");
    tune.games = make_config(vm, err);
    for (const std::string& text : vm["param"].as<std::vector<std::string>>())
      tune.parameters.push_back(parse_spsa_parameter(text));
    tune.schedule.iterations = vm["iterations"].as<std::int64_t>();
    tune.schedule.A = vm["spsa-A"].as<double>();
    tune.schedule.alpha = vm["spsa-alpha"].as<double>();
    tune.schedule.gamma = vm["spsa-gamma"].as<double>();
    tune.state_path = vm["state"].as<std::string>();
    tune.csv_path = vm.count("csv") ? vm["csv"].as<std::string>() : tune.state_path + ".csv";
    if (tune.games.shard) tune.csv_path = shard_file_path(tune.csv_path, *tune.games.shard);
    if (vm.count("report-html")) {
      tune.html_path = vm["report-html"].as<std::string>();
      if (tune.games.shard) tune.html_path = shard_file_path(tune.html_path, *tune.games.shard);
    }
    tune.seed = unsigned_option<std::uint64_t>(vm, "spsa-seed");
    tune.report_interval = vm.count("report-interval") ? vm["report-interval"].as<int>() : 10;
    if (tune.report_interval < 0)
      throw std::invalid_argument("--report-interval cannot be negative");
    static_cast<void>(Spsa(tune.parameters, tune.schedule));  // its checks, before any engine
  } catch (const po::error& error) {
    err << "quixo-arena: tune: " << program_options_message(error) << " (see tune --help)\n";
    return kExitUsage;
  } catch (const std::exception& error) {
    err << "quixo-arena: tune: " << error.what() << " (see tune --help)\n";
    return kExitUsage;
  }
  try {
    const TuneOutcome outcome = run_tune(
        tune, [&out](const std::string& line) { out << line << "\n"
                                                    << std::flush; }, interrupt);
    out << (outcome.end == TuneEnd::Completed ? "Finished" : "Interrupted") << " after "
        << outcome.reports.size() << " of " << tune.schedule.iterations << " game pairs ("
        << outcome.pairs_played << " played now). Theta, as engine options:\n";
    for (std::size_t i = 0; i < outcome.theta.size(); ++i)
      out << "  option." << tune.parameters[i].name << "=" << spin_value(outcome.theta[i]) << "\n";
    out << "To go on from here, as --param:\n";
    for (std::size_t i = 0; i < outcome.theta.size(); ++i)
      out << "  --param \"" << format_spsa_parameter(tune.parameters[i], outcome.theta[i])
          << "\"\n";
    return outcome.end == TuneEnd::Completed ? kExitCompleted : kExitInterrupted;
  } catch (const std::exception& error) {
    err << "quixo-arena: tune: " << error.what() << "\n";
    return kExitUsage;
  }
}

// quixo-arena --compliance (anywhere on the command line).
int run_compliance_command_line(int argc, const char* const* argv, std::ostream& out,
                                std::ostream& err) {
  po::options_description options("Options", 100);
  options.add_options()("help,h", "show this help and exit")(
      "compliance", po::bool_switch(), "check one engine against the UQI contract")(
      "engine", po::value<std::vector<std::string>>(), "the engine: KEYS as for tournaments")(
      "engines-file", po::value<std::string>(),
      "a JSON engines file; --engine conf=NAME takes its entry")(
      "timeout", po::value<std::int64_t>()->default_value(5000),
      "milliseconds to wait for an answer that no clock limits (handshake, readyok, bestmove "
      "after stop)")("timemargin", po::value<std::int64_t>()->default_value(50),
                     "milliseconds a bestmove may come after the time on its clock or movetime")(
      "positions", po::value<int>()->default_value(40),
      "random two-player positions for the legal-move check (half as many four-player)")(
      "seed", unsigned_value<std::uint64_t>(1), "seed of the random positions");
  po::variables_map vm;
  std::vector<EngineConfig> engines;
  ComplianceOptions settings;
  try {
    const std::vector<std::string> args = group_arguments(argc, argv, {"--engine"});
    po::store(po::command_line_parser(args).options(options).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
      out << kComplianceUsage << "\n" << options;
      return kExitCompleted;
    }
    const EnginesFile engines_file = read_engines_file(vm, err);
    if (!vm.count("engine"))
      throw std::invalid_argument("--compliance needs the engine to check: --engine cmd=PATH");
    engines = make_engine_configs({}, vm["engine"].as<std::vector<std::string>>(),
                                  vm.count("engines-file") ? &engines_file : nullptr);
    if (engines.size() != 1)
      throw std::invalid_argument("--compliance checks one engine, not " +
                                  std::to_string(engines.size()));
    if (engines.front().process.command.empty())
      throw std::invalid_argument("--compliance: the engine needs cmd=PATH");
    settings.timeout = std::chrono::milliseconds(vm["timeout"].as<std::int64_t>());
    settings.time_margin = std::chrono::milliseconds(vm["timemargin"].as<std::int64_t>());
    settings.positions = vm["positions"].as<int>();
    settings.seed = unsigned_option<std::uint64_t>(vm, "seed");
    if (settings.timeout.count() < 1) throw std::invalid_argument("--timeout must be at least 1");
    if (settings.time_margin.count() < 0)
      throw std::invalid_argument("--timemargin cannot be negative");
    if (settings.positions < 1) throw std::invalid_argument("--positions must be at least 1");
  } catch (const po::error& error) {
    err << "quixo-arena: --compliance: " << program_options_message(error)
        << " (see --compliance --help)\n";
    return kExitUsage;
  } catch (const std::exception& error) {
    err << "quixo-arena: " << error.what() << " (see --compliance --help)\n";
    return kExitUsage;
  }
  const EngineConfig& engine = engines.front();
  out << "Checking engine \"" << engine.name << "\" (" << engine.process.command << ", "
      << (engine.protocol == Protocol::Uqi ? "uqi" : "ugi") << ") against SPEC section 5\n"
      << std::flush;
  try {
    const ComplianceReport report =
        run_compliance(engine, settings, [&out](const ComplianceCheck& check) {
          out << format_check(check) << "\n" << std::flush;
        });
    out << format_summary(report) << "\n";
    return report.all_passed() ? kExitCompleted : kExitComplianceFailed;
  } catch (const std::exception& error) {
    err << "quixo-arena: --compliance: engine \"" << engine.name
        << "\" could not start: " << error.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace

int run_arena_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                           const std::atomic<bool>& interrupt) {
  if (argc > 1 && std::string_view(argv[1]) == "merge")
    return run_merge_command_line(argc, argv, out, err);
  if (argc > 1 && std::string_view(argv[1]) == "tune")
    return run_tune_command_line(argc, argv, out, err, interrupt);
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--compliance")
      return run_compliance_command_line(argc, argv, out, err);
  // The config file takes every option but --help and --config; the command line has them too.
  po::options_description file_options;
  describe_options(file_options);
  po::options_description command_line("General", 100);
  command_line.add_options()("help,h", "show this help and exit")(
      "config,c", po::value<std::string>(),
      "read options from this file (`key = value` lines, the long option names; the command "
      "line wins)");
  describe_options(command_line);

  po::variables_map vm;
  try {
    const std::vector<std::string> args = group_arguments(argc, argv, kGroupedOptions);
    po::store(po::command_line_parser(args).options(command_line).run(), vm);
    if (vm.count("help")) {
      out << kUsage << "\n" << command_line;
      return kExitCompleted;
    }
    if (vm.count("config")) {
      // The command line's --each keys must be applied after the file's, so that they win.
      const std::vector<std::string> command_line_each =
          vm.count("each") ? vm["each"].as<std::vector<std::string>>() : std::vector<std::string>();
      if (!store_config_file(vm["config"].as<std::string>(), file_options, vm, "quixo-arena", err))
        return kExitUsage;
      if (vm.count("each")) {
        // Composing put the file's values after the command line's; turn that round.
        auto each = vm["each"].as<std::vector<std::string>>();
        std::rotate(each.begin(),
                    each.begin() + static_cast<std::ptrdiff_t>(command_line_each.size()),
                    each.end());
        vm.at("each").value() = each;
      }
    }
    po::notify(vm);
  } catch (const po::error& error) {
    err << "quixo-arena: " << program_options_message(error) << " (see --help)\n";
    return kExitUsage;
  } catch (const std::exception& error) {
    err << "quixo-arena: " << error.what() << "\n";
    return kExitUsage;
  }

  try {
    TournamentConfig config = make_config(vm, err);
    const auto text = make_report(vm["output"].as<std::string>(), out, err);
    std::vector<ReportSink*> sinks = {text.get()};
    std::vector<std::unique_ptr<ReportSink>> files;
    for (const FileReport& report : file_reports()) {
      if (!vm.count(report.option)) continue;
      // A shard's report file is its own, beside the tournament's, as its PGN and results are.
      std::string path = vm[report.option].as<std::string>();
      if (config.shard && !path.empty()) path = shard_file_path(path, *config.shard);
      config.report_files.emplace_back(report.option, path);
      files.push_back(report.make(path));
      sinks.push_back(files.back().get());
    }
    ReportFanOut sink(std::move(sinks));
    return exit_code(run_tournament(config, sink, interrupt).end);
  } catch (const std::exception& error) {
    err << "quixo-arena: " << error.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace quixo::arena
