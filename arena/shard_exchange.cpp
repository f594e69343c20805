#include "shard_exchange.hpp"

#include <boost/json.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "file_io.hpp"

namespace quixo::arena {
namespace json = boost::json;
namespace {

constexpr std::string_view kFormat = "quixo-arena shard counts";
constexpr std::string_view kDecisionFormat = "quixo-arena SPRT decision";

// A file's JSON, or null when it is missing or not JSON.
json::value read_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code error;
  json::value value = json::parse(text.str(), error);
  return error ? json::value(nullptr) : value;
}

bool counts_from(const json::value* counts, Pentanomial& into) {
  if (!counts || !counts->is_array() || counts->as_array().size() != into.counts.size())
    return false;
  for (std::size_t i = 0; i < into.counts.size(); ++i) {
    const json::value& count = counts->as_array()[i];
    if (!count.is_int64() || count.as_int64() < 0) return false;
    into.counts[i] = count.as_int64();
  }
  return true;
}

}  // namespace

json::object shared_decision_json(const SharedDecision& decision) {
  return {
      {"decision", decision.decision == SprtResult::Decision::AcceptH1 ? "H1" : "H0"},
      {"pentanomial", json::array(decision.counts.counts.begin(), decision.counts.counts.end())},
      {"shards", decision.shards},
      {"by", shard_label(decision.by)}};
}

SharedDecision parse_shared_decision(const json::value& value) {
  SharedDecision decision;
  const json::object& object = value.as_object();
  const json::string& verdict = object.at("decision").as_string();
  if (verdict != "H1" && verdict != "H0") throw std::runtime_error("the decision is not H0 or H1");
  decision.decision =
      verdict == "H1" ? SprtResult::Decision::AcceptH1 : SprtResult::Decision::AcceptH0;
  if (!counts_from(object.if_contains("pentanomial"), decision.counts))
    throw std::runtime_error("bad pentanomial counts");
  decision.shards = json::value_to<int>(object.at("shards"));
  const std::string by = json::value_to<std::string>(object.at("by"));
  const bool chunk = by.rfind("chunk ", 0) == 0;
  if (!chunk && by.rfind("shard ", 0) != 0) throw std::runtime_error("bad piece \"" + by + "\"");
  decision.by = parse_shard(by.substr(6), chunk);
  if (decision.shards < 1 || decision.shards > decision.by.count)
    throw std::runtime_error("bad number of pieces");
  return decision;
}

std::string describe_shared_decision(const SharedDecision& decision) {
  const std::string pieces = decision.by.chunk ? "chunks" : "shards";
  std::string counts;
  for (const std::int64_t count : decision.counts.counts)
    counts += (counts.empty() ? "" : " ") + std::to_string(count);
  return std::string(decision.decision == SprtResult::Decision::AcceptH1 ? "H1" : "H0") +
         " accepted by " + shard_label(decision.by) + " on the counts of " +
         std::to_string(decision.shards) + " " +
         (decision.shards == 1 ? pieces.substr(0, pieces.size() - 1) : pieces) + ": " +
         std::to_string(decision.counts.pairs()) + " pairs (pentanomial " + counts + ")";
}

ShardExchange::ShardExchange(const TournamentConfig& config, std::string tournament)
    : dir_(config.shared_dir),
      tournament_(std::move(tournament)),
      run_(config.run_id),
      shard_(config.shard.value()) {}

std::string ShardExchange::prefix() const {
  return (std::filesystem::path(dir_) / ("quixo-arena-" + tournament_ + "-" + run_)).string();
}

std::string ShardExchange::file_of(int index) const {
  // shard_file_path's ".shard-I-of-N" (".chunk-I-of-N") before the extension.
  return shard_file_path(prefix() + ".json", Shard{index, shard_.count, shard_.chunk});
}

std::string ShardExchange::own_file() const {
  return file_of(shard_.index);
}

std::string ShardExchange::decision_file() const {
  return prefix() + ".decision.json";
}

Pentanomial ShardExchange::publish_and_combine(std::int64_t games, const Pentanomial& own,
                                               int& shards_seen) {
  const json::object entry = {
      {"format", kFormat}, {"tournament", tournament_},
      {"run", run_},       {"shard", shard_label(shard_)},
      {"games", games},    {"pentanomial", json::array(own.counts.begin(), own.counts.end())}};
  const std::string path = own_file();
  try {
    replace_file(path, json::serialize(entry) + "\n");
  } catch (const std::runtime_error& error) {
    throw TournamentError("--shared-dir " + dir_ + ": " + error.what() +
                          " (every shard must be able to write there)");
  }

  Pentanomial combined = own;
  shards_seen = 1;
  for (int index = 1; index <= shard_.count; ++index) {
    if (index == shard_.index) continue;
    const json::value value = read_json(file_of(index));
    if (!value.is_object()) continue;
    const json::object& other = value.as_object();
    const json::value* format = other.if_contains("format");
    const json::value* tournament = other.if_contains("tournament");
    const json::value* run = other.if_contains("run");
    Pentanomial theirs;
    if (!format || *format != json::value(kFormat) || !tournament ||
        *tournament != json::value(tournament_) || !run || *run != json::value(run_) ||
        !counts_from(other.if_contains("pentanomial"), theirs))
      continue;
    for (std::size_t i = 0; i < combined.counts.size(); ++i) combined.counts[i] += theirs.counts[i];
    ++shards_seen;
  }
  return combined;
}

std::optional<SharedDecision> ShardExchange::recorded_decision() const {
  const std::string path = decision_file();
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return std::nullopt;
  const json::value value = read_json(path);
  try {
    const json::object& file = value.as_object();
    if (file.at("format") != json::value(kDecisionFormat) ||
        file.at("tournament") != json::value(tournament_) || file.at("run") != json::value(run_))
      throw std::runtime_error("not this run's decision");
    return parse_shared_decision(value);
  } catch (const std::exception& problem) {
    throw TournamentError("the SPRT decision file " + path + " is damaged (" + problem.what() +
                          "); it is written once, whole, and must not be edited");
  }
}

SharedDecision ShardExchange::record_decision(const SharedDecision& decision) {
  json::object file = shared_decision_json(decision);
  file["format"] = kDecisionFormat;
  file["tournament"] = tournament_;
  file["run"] = run_;
  try {
    if (create_file_once(decision_file(), json::serialize(file) + "\n")) return decision;
  } catch (const std::runtime_error& error) {
    throw TournamentError("--shared-dir " + dir_ + ": " + error.what() +
                          " (every shard must be able to write there)");
  }
  // Another piece recorded its decision first: that one stands.
  return recorded_decision().value_or(decision);
}

}  // namespace quixo::arena
