// SPSA (simultaneous perturbation stochastic approximation) as fishtest runs it, for
// `quixo-arena tune`: every parameter is probed at once, theta + c_k * flip against
// theta - c_k * flip (flip a random +1 or -1 per parameter), a game pair decides which side was
// better, and theta moves along the flips by the pair's result. Plain math, no processes and no
// files: the tuning run (tune.hpp) plays the pairs and keeps the reports.
//
// The schedules (fishtest's server/fishtest/spsa_handler.py; Spall, "Implementation of the
// Simultaneous Perturbation Algorithm for Stochastic Optimization", 1998), N the iterations (game
// pairs) of the run and k = 1..N the iteration a pair was handed out at:
//   c_k = c / k^gamma                   with c = c_end * N^gamma, so that c_N = c_end
//   a_k = a / (A + k)^alpha             with a = r_end * c_end^2 * (A + N)^alpha
//   theta_i += (a_k / c_k) * result * flip_i, then clamped to [min, max]
// where result = wins - losses of the theta + c_k * flip side over the pair (-2..2). alpha = 0.602
// and gamma = 0.101 are Spall's; A defaults to a tenth of N; r_end to 0.002, fishtest's.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace quixo::arena {

// One tuned parameter, as fishtest's form writes it: NAME,start,min,max,c_end,r_end.
struct SpsaParameter {
  std::string name;
  double start = 0;
  double min = 0;
  double max = 0;
  double c_end = 1;
  double r_end = 0.002;
  bool operator==(const SpsaParameter&) const = default;
};

// Parses "NAME=start,min,max,c_end[,r_end]" (the name may hold blanks, as UQI option names do).
// Throws std::invalid_argument saying what is wrong: no '=', not 4 or 5 numbers, min >= max, a
// start outside [min, max], c_end not positive or too small for a spin option (the engine is sent
// whole numbers: below 0.5 the two probes would mostly be one value), r_end not positive.
[[nodiscard]] SpsaParameter parse_spsa_parameter(std::string_view text);
// "NAME=start,min,max,c_end,r_end", with `value` as the start: the form to continue a run from.
[[nodiscard]] std::string format_spsa_parameter(const SpsaParameter& parameter, double value);

struct SpsaSchedule {
  std::int64_t iterations = 0;  // N, game pairs
  double A = 0;                 // a's stability constant; negative: N / 10
  double alpha = 0.602;
  double gamma = 0.101;
  bool operator==(const SpsaSchedule&) const = default;
};

// What one game pair was played with and gave: the iteration it was handed out at (k), the flips,
// and the result of the plus side. `source` orders the reports of several processes (a shard's
// number, 0 for one process) and `serial` a process's own.
struct SpsaReport {
  std::int64_t k = 1;
  std::vector<int> flips;  // +1 or -1 per parameter
  int result = 0;          // wins - losses of theta + c_k * flip, -2..2
  int wins = 0, losses = 0, draws = 0;
  int source = 0;
  std::int64_t serial = 0;
  bool operator==(const SpsaReport&) const = default;
};

// The probes of one pair: the values each side is sent, before rounding.
struct SpsaProbe {
  std::int64_t k = 1;
  std::vector<int> flips;
  std::vector<double> plus, minus;
};

class Spsa {
 public:
  // Throws std::invalid_argument for no parameters, a name twice, or fewer than 1 iteration.
  Spsa(std::vector<SpsaParameter> parameters, SpsaSchedule schedule);

  [[nodiscard]] const std::vector<SpsaParameter>& parameters() const { return parameters_; }
  [[nodiscard]] const SpsaSchedule& schedule() const { return schedule_; }
  [[nodiscard]] double stability_constant() const { return A_; }

  // c_k and a_k of parameter `i` at iteration k (>= 1).
  [[nodiscard]] double c_at(std::size_t i, std::int64_t k) const;
  [[nodiscard]] double a_at(std::size_t i, std::int64_t k) const;

  // The probes around `theta` at iteration k, with random flips, each value clamped to its range.
  [[nodiscard]] SpsaProbe probe(std::span<const double> theta, std::int64_t k,
                                std::mt19937_64& random) const;
  // theta after one report.
  void apply(std::vector<double>& theta, const SpsaReport& report) const;
  // theta after every report, in the reports' order (sort_reports), from the starts.
  [[nodiscard]] std::vector<double> replay(std::span<const SpsaReport> reports) const;
  [[nodiscard]] std::vector<double> start() const;

 private:
  std::vector<SpsaParameter> parameters_;
  SpsaSchedule schedule_;
  double A_ = 0;
  std::vector<double> c_, a_;  // the schedules' numerators
};

// The order every process replays reports in: by iteration handed out, then source, then serial.
// The update of a report does not depend on theta except through the clamp, so processes that
// see the same reports agree on theta.
void sort_reports(std::vector<SpsaReport>& reports);

// Whole numbers for the engine's spin options: the nearest.
[[nodiscard]] long long spin_value(double value);

}  // namespace quixo::arena
