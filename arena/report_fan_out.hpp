// A ReportSink that tells every one of several sinks what it is told, in order: the command line
// reports as text and, with --report-html, as a page too, while the runner knows one sink.
#pragma once

#include <string>
#include <vector>

#include "tournament.hpp"

namespace quixo::arena {

class ReportFanOut : public ReportSink {
 public:
  // The sinks are not owned and must outlive this one; none may be null.
  explicit ReportFanOut(std::vector<ReportSink*> sinks);

  void tournament_started(const TournamentConfig& config, const Standings& standings) override;
  void game_started(const TournamentConfig& config, const ScheduledGame& game) override;
  void game_recorded(const TournamentConfig& config, const FinishedGame& game,
                     const GameRecord& record) override;
  void game_finished(const TournamentConfig& config, const FinishedGame& game,
                     const Standings& standings) override;
  void interval_report(const TournamentConfig& config, const Standings& standings) override;
  void tournament_finished(const TournamentConfig& config, const Standings& standings,
                           TournamentEnd end) override;
  void warning(const std::string& text) override;
  void tablebase_loaded(const TournamentConfig& config, const std::string& layers) override;

 private:
  std::vector<ReportSink*> sinks_;
};

}  // namespace quixo::arena
