// `quixo-arena tune`: SPSA tuning of an engine's spin options (spsa.hpp), played as game pairs of
// the engine against itself, theta + c_k * flip against theta - c_k * flip, from the book with
// colours reversed, `concurrency` pairs at once.
//
// The state file is a journal, one JSON line per line: a header (the parameters and the
// schedule), then one line per finished pair (spsa.hpp's SpsaReport). A line is appended and
// flushed to the disk as its pair ends, so a run killed at any moment (kill -9) resumes from every
// pair it finished: a last line cut short is dropped. Theta is never stored: it is the replay of
// the reports, so the journal cannot disagree with it.
//
// Shards (--shard I/N, each a process on its own node, as Slurm runs them): shard I appends to
// STATE.shard-I-of-N.EXT only, and reads every shard's journal (the same path with the other
// numbers, on a folder they all see) before it hands out a pair. So all shards play around one
// theta, updated as any shard's results arrive, as fishtest's workers do. The race policy is that
// of the tournament's shards (shard_exchange.hpp): a reader sees a journal as it was at some
// moment; lines are whole or dropped; a shard one report behind plays one pair around a slightly
// older theta, which SPSA's update tolerates (fishtest's workers always do).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "spsa.hpp"
#include "tournament_types.hpp"

namespace quixo::arena {

struct TuneConfig {
  // The games: engines[0] is the tuned engine (both sides of every pair), and the time control,
  // rules, book (openings, order, seed), concurrency, tables, log and shard as for tournaments.
  TournamentConfig games;
  std::vector<SpsaParameter> parameters;
  SpsaSchedule schedule;
  std::string state_path;    // the journal (per shard: shard_file_path of it)
  std::string csv_path;      // theta after every pair; empty: none
  std::string html_path;     // the trajectories as SVG lines; empty: none
  std::uint64_t seed = 1;    // the flips' random numbers (each run and shard mixes in its own)
  int report_interval = 10;  // pairs between progress lines and CSV/HTML rewrites (0: end only)
};

// One line of the journal, and back. Throws std::runtime_error on a line that is not one.
[[nodiscard]] std::string tune_header_line(const Spsa& spsa);
[[nodiscard]] std::string tune_report_line(const SpsaReport& report);
[[nodiscard]] SpsaReport parse_tune_report_line(const std::string& line, std::size_t parameters);

// A journal read back: its header's parameters and schedule, and its whole report lines (a last
// line without its newline, cut by a kill, is not counted). nullopt when the file is missing or
// empty. Throws std::runtime_error naming the file and line when it is not a journal.
struct TuneJournal {
  std::vector<SpsaParameter> parameters;
  SpsaSchedule schedule;
  std::vector<SpsaReport> reports;
};
[[nodiscard]] std::optional<TuneJournal> read_tune_journal(const std::string& path, int source);

// The CSV (iteration, k, result, one column per parameter: theta after that report) and the HTML
// page (one SVG line chart per parameter) of `reports`, in replay order.
[[nodiscard]] std::string tune_csv(const Spsa& spsa, const std::vector<SpsaReport>& reports);
[[nodiscard]] std::string tune_html(const Spsa& spsa, const std::vector<SpsaReport>& reports,
                                    const std::string& engine_name);

enum class TuneEnd { Completed, Interrupted };

struct TuneOutcome {
  TuneEnd end = TuneEnd::Completed;
  std::vector<SpsaReport> reports;  // every shard's, in replay order
  std::vector<double> theta;
  std::int64_t pairs_played = 0;  // by this process in this run
};

// What the run tells its user as it goes: a line each report_interval pairs and at the end.
using TuneProgress = std::function<void(const std::string& line)>;

// Plays until the journals hold schedule.iterations reports, or `interrupt` is set (the pairs in
// play are then dropped: they are not in the journal). Resumes from the journal when it exists;
// throws std::invalid_argument when it belongs to another run (other parameters or schedule) or
// an option is not a spin option of the engine, and TournamentError when the engine cannot start.
[[nodiscard]] TuneOutcome run_tune(const TuneConfig& config, const TuneProgress& progress,
                                   const std::atomic<bool>& interrupt);

}  // namespace quixo::arena
