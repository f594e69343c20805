// What the text report styles (report_fastchess, report_cutechess, report_arena) share: number
// formatting, column padding, and the game lines that fastchess and cutechess-cli print alike
// with the sink the two styles build on.
// The styles themselves, and the registry that finds them by name, are in their own files
// (report_styles.hpp).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "tournament.hpp"

namespace quixo::arena {

// A number with `decimals` decimals as the arena's own reports (--output arena, the HTML page)
// print it: what rounds to zero is 0, not -0, and NaN and the infinities are "nan", "inf", "-inf".
[[nodiscard]] std::string format_fixed(double value, int decimals);

// A fraction as a percentage with `decimals` places and the unit: 0.5 -> "50.0 %".
[[nodiscard]] std::string format_percent(double fraction, int decimals);

// printf's "%.*f", as fastchess's fmt "{:.Nf}" prints too (a negative zero keeps its sign, NaN and
// infinity print as "nan"/"-nan" and "inf"/"-inf").
[[nodiscard]] std::string c_fixed(double value, int decimals);

// `text` filled with spaces to `width` columns, on the left (right-aligned) or with `left` on the
// right (left-aligned); a longer text as it is.
[[nodiscard]] std::string pad(std::string text, std::size_t width, bool left = false);

// The two sides of a game for a report line: "x vs o", and in the four-player game the teams,
// "A: x vs B: o" (the seats of team A are 1 and 3).
[[nodiscard]] std::string sides(const TournamentConfig& config, std::size_t x, std::size_t o);

// The lines fastchess and cutechess-cli both print, without the newline: "Started game 3 of 40
// (a vs b)" (numbered in the whole schedule, of every shard) and "Finished game 3 (a vs b): 1-0
// {X loses on time: ...}" (the verbose result).
[[nodiscard]] std::string started_game_line(const TournamentConfig& config,
                                            const ScheduledGame& game);
[[nodiscard]] std::string finished_game_line(const TournamentConfig& config,
                                             const FinishedGame& game);

// The sink of fastchess's and cutechess-cli's styles: neither tool prints anything when the match
// starts or its tables load, both print started_game_line as a game starts, and every line is
// flushed as it is written, so that a pipe or a log follows the games as they end.
class GameLineReport : public ReportSink {
 public:
  explicit GameLineReport(std::ostream& out) : out_(out) {}

  void tournament_started(const TournamentConfig&, const Standings&) override {}
  void tablebase_loaded(const TournamentConfig&, const std::string&) override {}
  void game_started(const TournamentConfig& config, const ScheduledGame& game) override {
    print(started_game_line(config, game) + "\n");
  }

 protected:
  // Writes `text` to `stream` and flushes it.
  static void print(std::ostream& stream, const std::string& text) {
    stream << text;
    stream.flush();
  }
  void print(const std::string& text) { print(out_, text); }

  std::ostream& out_;
};

}  // namespace quixo::arena
