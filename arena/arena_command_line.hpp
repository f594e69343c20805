// The command line and config file of quixo-arena (Boost.Program_options): engines, tournament,
// openings, adjudication, SPRT, output files and resume. The command line beats the config file,
// which beats the defaults. (Books are made by quixo-openings, tools/.)
#pragma once

#include <atomic>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine_client.hpp"
#include "engine_spec.hpp"
#include "tournament.hpp"

namespace quixo::arena {

// Exit codes, so that a script can gate a change on an SPRT.
inline constexpr int kExitCompleted = 0;      // the tournament ran to the end (or H1 accepted)
inline constexpr int kExitSprtH0 = 1;         // SPRT: H0 accepted, the change failed
inline constexpr int kExitUsage = 2;          // bad command line, config, engine or files
inline constexpr int kExitSprtUndecided = 3;  // SPRT: the games ran out before a decision
inline constexpr int kExitInterrupted = 4;    // stopped by a signal; resume with --resume

// quixo-arena --compliance: a check failed (0 when every check passed; kExitUsage for a usage
// error).
inline constexpr int kExitComplianceFailed = 1;

// Runs quixo-arena (a tournament, `merge`, or `--compliance`). `interrupt` is set by the caller's
// signal handler.
int run_arena_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                           const std::atomic<bool>& interrupt);

}  // namespace quixo::arena
