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

}  // namespace

ShardExchange::ShardExchange(const TournamentConfig& config, std::string tournament)
    : dir_(config.shared_dir), tournament_(std::move(tournament)), shard_(config.shard.value()) {}

std::string ShardExchange::file_of(int index) const {
  return (std::filesystem::path(dir_) /
          ("quixo-arena-" + tournament_ + ".shard-" + std::to_string(index) + "-of-" +
           std::to_string(shard_.count) + ".json"))
      .string();
}

std::string ShardExchange::own_file() const {
  return file_of(shard_.index);
}

Pentanomial ShardExchange::publish_and_combine(std::int64_t games, const Pentanomial& own,
                                               int& shards_seen) {
  const json::object entry = {{"format", kFormat},
                              {"tournament", tournament_},
                              {"shard", shard_name(shard_)},
                              {"games", games},
                              {"pentanomial", json::array(own.counts.begin(), own.counts.end())}};
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
    std::ifstream in(file_of(index), std::ios::binary);
    if (!in) continue;
    std::stringstream text;
    text << in.rdbuf();
    boost::system::error_code error;
    const json::value value = json::parse(text.str(), error);
    if (error || !value.is_object()) continue;
    const json::object& other = value.as_object();
    const json::value* format = other.if_contains("format");
    const json::value* tournament = other.if_contains("tournament");
    const json::value* counts = other.if_contains("pentanomial");
    if (!format || *format != json::value(kFormat) || !tournament ||
        *tournament != json::value(tournament_) || !counts || !counts->is_array() ||
        counts->as_array().size() != own.counts.size())
      continue;
    Pentanomial theirs;
    bool valid = true;
    for (std::size_t i = 0; i < theirs.counts.size(); ++i) {
      const json::value& count = counts->as_array()[i];
      if (!count.is_int64() || count.as_int64() < 0)
        valid = false;
      else
        theirs.counts[i] = count.as_int64();
    }
    if (!valid) continue;
    for (std::size_t i = 0; i < combined.counts.size(); ++i) combined.counts[i] += theirs.counts[i];
    ++shards_seen;
  }
  return combined;
}

}  // namespace quixo::arena
