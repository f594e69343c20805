#include "tournament_types.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace quixo::arena {

std::string_view end_name(TournamentEnd end) {
  switch (end) {
    case TournamentEnd::Completed:
      return "completed";
    case TournamentEnd::SprtAcceptedH0:
      return "H0 accepted";
    case TournamentEnd::SprtAcceptedH1:
      return "H1 accepted";
    case TournamentEnd::SprtUndecided:
      return "SPRT undecided";
    case TournamentEnd::Interrupted:
      break;
  }
  return "interrupted";
}

std::string result_description(Variant variant, const FinishedGame& game) {
  const bool four = variant == Variant::FourPlayer;
  const std::string x = four ? "A" : "X";
  const std::string o = four ? "B" : "O";
  const std::string winner = game.result == GameResult::XWins ? x : o;
  const std::string loser = game.result == GameResult::XWins ? o : x;
  const bool draw = game.result == GameResult::Draw;
  // cutechess's Result::description(): the kind of ending, then ": " and the details.
  std::string kind;
  switch (game.termination) {
    case Termination::TimeForfeit:
      kind = draw ? "Draw by timeout" : loser + " loses on time";
      break;
    case Termination::IllegalMove:
      kind = loser + " makes an illegal move";
      break;
    case Termination::Crash:
      kind = draw ? "Draw by disconnection" : loser + " disconnects";
      break;
    case Termination::Stall:
      kind = draw ? "Draw by stalled connection" : loser + "'s connection stalls";
      break;
    case Termination::ResignAdjudication:
    case Termination::DrawAdjudication:
    case Termination::Tablebase:
    case Termination::PlyCap:
      kind = draw ? "Draw by adjudication" : winner + " wins by adjudication";
      break;
    case Termination::Repetition:
      kind = "Draw by repetition";
      break;
    case Termination::Line:
    case Termination::Unterminated:
      break;
  }
  std::string text = kind;
  if (!game.reason.empty()) text += (text.empty() ? "" : ": ") + game.reason;
  if (text.empty()) text = draw ? "Drawn game" : winner + " wins";
  if (text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

std::string_view format_name(TournamentFormat format) {
  switch (format) {
    case TournamentFormat::Gauntlet:
      return "gauntlet";
    case TournamentFormat::Knockout:
      return "knockout";
    case TournamentFormat::RoundRobin:
      break;
  }
  return "round-robin";
}

std::optional<TournamentFormat> parse_format(std::string_view name) {
  if (name == "round-robin" || name == "roundrobin" || name == "match")
    return TournamentFormat::RoundRobin;
  if (name == "gauntlet") return TournamentFormat::Gauntlet;
  if (name == "knockout") return TournamentFormat::Knockout;
  return std::nullopt;
}

std::string shard_name(const Shard& shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

Shard parse_shard(std::string_view text, bool chunk) {
  const auto number = [&](std::string_view part) {
    int value = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || error != std::errc() || end != part.data() + part.size()) return -1;
    return value;
  };
  const std::size_t slash = text.find('/');
  const int index = slash == std::string_view::npos ? -1 : number(text.substr(0, slash));
  const int count = slash == std::string_view::npos ? -1 : number(text.substr(slash + 1));
  if (index < 1 || count < 1 || index > count)
    throw std::invalid_argument(std::string(chunk ? "--chunk" : "--shard") +
                                ": expected I/N with 1 <= I <= N (e.g. 2/4), not \"" +
                                std::string(text) + "\"");
  return {index, count, chunk};
}

std::string shard_label(const Shard& shard) {
  return (shard.chunk ? "chunk " : "shard ") + shard_name(shard);
}

namespace {

// ".shard-" or ".chunk-", which the piece's files have before "I-of-N".
std::string piece_infix(bool chunk) {
  return chunk ? ".chunk-" : ".shard-";
}

}  // namespace

std::string shard_file_path(const std::string& path, const Shard& shard) {
  const std::filesystem::path file(path);
  std::filesystem::path named = file;
  named.replace_filename(file.stem().string() + piece_infix(shard.chunk) +
                         std::to_string(shard.index) + "-of-" + std::to_string(shard.count) +
                         file.extension().string());
  return named.string();
}

std::optional<Shard> shard_of_file_path(const std::string& path) {
  const std::filesystem::path file(path);
  const std::string stem = file.stem().string();
  for (const bool chunk : {false, true}) {
    const std::size_t at = stem.rfind(piece_infix(chunk));
    if (at == std::string::npos) continue;
    std::string numbers = stem.substr(at + piece_infix(chunk).size());
    const std::size_t of = numbers.find("-of-");
    if (of == std::string::npos) continue;
    numbers.replace(of, 4, "/");
    try {
      const Shard shard = parse_shard(numbers, chunk);
      // Only a name that shard_file_path gives ("2-of-4", not "02-of-4").
      std::filesystem::path tournament = file;
      tournament.replace_filename(stem.substr(0, at) + file.extension().string());
      if (shard_file_path(tournament.string(), shard) == path) return shard;
    } catch (const std::invalid_argument&) {
    }
  }
  return std::nullopt;
}

void validate(const TournamentConfig& config) {
  const std::size_t count = config.engines.size();
  if (count < 2) throw TournamentError("a tournament needs at least two engines");
  std::set<std::string> names;
  for (const EngineConfig& engine : config.engines) {
    if (engine.name.empty()) throw TournamentError("every engine needs a name");
    if (engine.process.command.empty())
      throw TournamentError("engine \"" + engine.name + "\" has no command");
    if (!names.insert(engine.name).second)
      throw TournamentError("two engines are named \"" + engine.name + "\"; names must be unique");
  }
  if (config.rounds < 1) throw TournamentError("rounds must be at least 1");
  if (config.concurrency < 1) throw TournamentError("concurrency must be at least 1");
  if (config.report_interval < 0) throw TournamentError("the report interval cannot be negative");
  if (config.format == TournamentFormat::Gauntlet &&
      (config.seeds < 1 || static_cast<std::size_t>(config.seeds) >= count))
    throw TournamentError("a gauntlet needs 1 to " + std::to_string(count - 1) + " seeds for " +
                          std::to_string(count) + " engines");
  if (config.format == TournamentFormat::Knockout && config.sprt)
    throw TournamentError(
        "a knockout has no SPRT: its matches end on their score (use a match or a gauntlet)");
  if (config.format == TournamentFormat::Knockout && config.shard)
    throw TournamentError(
        "a knockout is not sharded (--shard): its later rounds depend on the earlier ones' "
        "results; run it in one process, with --concurrency");
  if (config.sprt) {
    // A match, or a gauntlet of one tested engine against the others: one test per pairing.
    const bool gauntlet_test = config.format == TournamentFormat::Gauntlet && config.seeds == 1;
    if (count != 2 && !gauntlet_test)
      throw TournamentError(
          "an SPRT needs two engines (the first is the one tested), or a gauntlet with one seed "
          "(the seed tested against each of the others), not " +
          std::to_string(count) + " engines in a " + std::string(format_name(config.format)));
    if (count != 2 && !config.shared_dir.empty())
      throw TournamentError(
          "a gauntlet SPRT is not combined across shards (--shared-dir): "
          "run it in one process, or shard a match");
    try {
      config.sprt->validate();
    } catch (const std::invalid_argument& error) {
      throw TournamentError(error.what());  // "SPRT: ..." with the values and what is accepted
    }
  }
  if (config.shard && (config.shard->index < 1 || config.shard->index > config.shard->count))
    throw TournamentError("the " + shard_label(*config.shard) + " does not exist");
  if (!config.shared_dir.empty() && !config.shard)
    throw TournamentError("--shared-dir is where shards meet: it needs --shard or --chunk");
  // It names files in --shared-dir.
  if (config.run_id.size() > 64 ||
      !std::all_of(config.run_id.begin(), config.run_id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '_' || c == '.';
      }))
    throw TournamentError("--run-id \"" + config.run_id +
                          "\": at most 64 letters, digits, '-', '_' and '.'");
  if (!config.shared_dir.empty() && config.run_id.empty())
    throw TournamentError(
        "--shared-dir needs --run-id ID, the same for every piece of this run, so that counts "
        "left in the folder by another run of the tournament are not counted");
  if (config.anchor &&
      std::none_of(config.engines.begin(), config.engines.end(),
                   [&](const EngineConfig& engine) { return engine.name == config.anchor->name; }))
    throw TournamentError("--anchor names \"" + config.anchor->name +
                          "\", which is not an engine of the tournament");
  if (!config.epd_path.empty() && config.pgn_path.empty())
    throw TournamentError("--epd-out is written from the PGN: give --pgn FILE too");
  if (config.rules.repetitions < 2) throw TournamentError("repetitions must be at least 2");
  if (config.rules.max_plies < 0) throw TournamentError("the ply cap cannot be negative");
  if (config.rules.stall_timeout.count() < 1)
    throw TournamentError("the stall timeout must be at least 1 ms");
  // A book of the other variant cannot be played; say which opening and which option.
  const bool four_players = config.variant == Variant::FourPlayer;
  for (std::size_t i = 0; i < config.openings.size(); ++i) {
    if ((variant_of(config.openings[i].position) == Variant::FourPlayer) == four_players) continue;
    throw TournamentError(
        "opening " + std::to_string(i + 1) +
        (config.openings_source.empty() ? std::string() : " of " + config.openings_source) + " (" +
        format_opening(config.openings[i]) + ") is a " +
        (four_players ? "two-player position, but the tournament plays the four-player game "
                        "(--variant 4p)"
                      : "four-player position, but the tournament plays the two-player game "
                        "(use --variant 4p)"));
  }
}

}  // namespace quixo::arena
