#include "report_fan_out.hpp"

#include <stdexcept>
#include <utility>

namespace quixo::arena {

ReportFanOut::ReportFanOut(std::vector<ReportSink*> sinks) : sinks_(std::move(sinks)) {
  for (const ReportSink* sink : sinks_)
    if (sink == nullptr) throw std::invalid_argument("ReportFanOut: a null sink");
}

void ReportFanOut::tournament_started(const TournamentConfig& config, const Standings& standings) {
  for (ReportSink* sink : sinks_) sink->tournament_started(config, standings);
}

void ReportFanOut::game_started(const TournamentConfig& config, const ScheduledGame& game) {
  for (ReportSink* sink : sinks_) sink->game_started(config, game);
}

void ReportFanOut::game_recorded(const TournamentConfig& config, const FinishedGame& game,
                                 const GameRecord& record) {
  for (ReportSink* sink : sinks_) sink->game_recorded(config, game, record);
}

void ReportFanOut::game_finished(const TournamentConfig& config, const FinishedGame& game,
                                 const Standings& standings) {
  for (ReportSink* sink : sinks_) sink->game_finished(config, game, standings);
}

void ReportFanOut::interval_report(const TournamentConfig& config, const Standings& standings) {
  for (ReportSink* sink : sinks_) sink->interval_report(config, standings);
}

void ReportFanOut::tournament_finished(const TournamentConfig& config, const Standings& standings,
                                       TournamentEnd end) {
  for (ReportSink* sink : sinks_) sink->tournament_finished(config, standings, end);
}

void ReportFanOut::warning(const std::string& text) {
  for (ReportSink* sink : sinks_) sink->warning(text);
}

void ReportFanOut::tablebase_loaded(const TournamentConfig& config, const std::string& layers) {
  for (ReportSink* sink : sinks_) sink->tablebase_loaded(config, layers);
}

}  // namespace quixo::arena
