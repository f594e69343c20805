#include "spsa.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "read_number.hpp"

namespace quixo::arena {

namespace {

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return std::string(text.substr(first, last - first + 1));
}

double parse_real(std::string_view parameter, std::string_view what, std::string_view text) {
  const std::string word = trimmed(text);
  if (const std::optional<double> value = read_number<double>(word)) return *value;
  throw std::invalid_argument("--param " + std::string(parameter) + ": " + std::string(what) +
                              " must be a number, not \"" + word + "\"");
}

std::string number_text(double value) {
  std::ostringstream out;
  out.precision(10);
  out << value;
  return out.str();
}

}  // namespace

SpsaParameter parse_spsa_parameter(std::string_view text) {
  const std::size_t equals = text.rfind('=');
  if (equals == std::string_view::npos)
    throw std::invalid_argument("--param: expected NAME=start,min,max,c_end[,r_end], not \"" +
                                std::string(text) + "\"");
  SpsaParameter parameter;
  parameter.name = trimmed(text.substr(0, equals));
  if (parameter.name.empty())
    throw std::invalid_argument("--param \"" + std::string(text) +
                                "\": the option's name is empty");
  std::vector<std::string_view> fields;
  std::string_view rest = text.substr(equals + 1);
  for (;;) {
    const std::size_t comma = rest.find(',');
    fields.push_back(rest.substr(0, comma));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (fields.size() != 4 && fields.size() != 5)
    throw std::invalid_argument("--param " + parameter.name +
                                ": expected start,min,max,c_end[,r_end], not \"" +
                                std::string(text.substr(equals + 1)) + "\"");
  const std::string& name = parameter.name;
  parameter.start = parse_real(name, "start", fields[0]);
  parameter.min = parse_real(name, "min", fields[1]);
  parameter.max = parse_real(name, "max", fields[2]);
  parameter.c_end = parse_real(name, "c_end", fields[3]);
  if (fields.size() == 5) parameter.r_end = parse_real(name, "r_end", fields[4]);
  if (!(parameter.min < parameter.max))
    throw std::invalid_argument("--param " + name + ": min must be below max");
  if (parameter.start < parameter.min || parameter.start > parameter.max)
    throw std::invalid_argument("--param " + name + ": start " + number_text(parameter.start) +
                                " is outside [" + number_text(parameter.min) + ", " +
                                number_text(parameter.max) + "]");
  // The engine is sent whole numbers: with c below a half the two probes would round to one
  // value at most iterations, and the pair would measure nothing.
  if (!(parameter.c_end >= 0.5))
    throw std::invalid_argument("--param " + name +
                                ": c_end must be at least 0.5 (spin options take whole numbers)");
  if (parameter.c_end > parameter.max - parameter.min)
    throw std::invalid_argument("--param " + name + ": c_end is wider than [min, max]");
  if (!(parameter.r_end > 0))
    throw std::invalid_argument("--param " + name + ": r_end must be positive");
  return parameter;
}

std::string format_spsa_parameter(const SpsaParameter& parameter, double value) {
  return parameter.name + "=" + number_text(value) + "," + number_text(parameter.min) + "," +
         number_text(parameter.max) + "," + number_text(parameter.c_end) + "," +
         number_text(parameter.r_end);
}

Spsa::Spsa(std::vector<SpsaParameter> parameters, SpsaSchedule schedule)
    : parameters_(std::move(parameters)), schedule_(schedule) {
  if (parameters_.empty()) throw std::invalid_argument("tune needs at least one --param");
  std::set<std::string> names;
  for (const SpsaParameter& parameter : parameters_)
    if (!names.insert(parameter.name).second)
      throw std::invalid_argument("--param " + parameter.name + " is given twice");
  if (schedule_.iterations < 1) throw std::invalid_argument("--iterations must be at least 1");
  if (!(schedule_.alpha > 0) || !(schedule_.gamma > 0))
    throw std::invalid_argument("--alpha and --gamma must be positive");
  A_ = schedule_.A >= 0 ? schedule_.A : double(schedule_.iterations) / 10;
  const double n = double(schedule_.iterations);
  for (const SpsaParameter& parameter : parameters_) {
    c_.push_back(parameter.c_end * std::pow(n, schedule_.gamma));
    a_.push_back(parameter.r_end * parameter.c_end * parameter.c_end *
                 std::pow(A_ + n, schedule_.alpha));
  }
}

double Spsa::c_at(std::size_t i, std::int64_t k) const {
  return c_.at(i) / std::pow(double(std::max<std::int64_t>(k, 1)), schedule_.gamma);
}

double Spsa::a_at(std::size_t i, std::int64_t k) const {
  return a_.at(i) / std::pow(A_ + double(std::max<std::int64_t>(k, 1)), schedule_.alpha);
}

SpsaProbe Spsa::probe(std::span<const double> theta, std::int64_t k,
                      std::mt19937_64& random) const {
  SpsaProbe probe;
  probe.k = k;
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const int flip = (random() & 1) != 0 ? 1 : -1;
    const double step = c_at(i, k) * flip;
    const SpsaParameter& parameter = parameters_[i];
    probe.flips.push_back(flip);
    probe.plus.push_back(std::clamp(theta[i] + step, parameter.min, parameter.max));
    probe.minus.push_back(std::clamp(theta[i] - step, parameter.min, parameter.max));
  }
  return probe;
}

void Spsa::apply(std::vector<double>& theta, const SpsaReport& report) const {
  if (report.flips.size() != parameters_.size())
    throw std::invalid_argument("a report has " + std::to_string(report.flips.size()) +
                                " flips for " + std::to_string(parameters_.size()) + " parameters");
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const double step = a_at(i, report.k) / c_at(i, report.k) * report.result * report.flips[i];
    theta[i] = std::clamp(theta[i] + step, parameters_[i].min, parameters_[i].max);
  }
}

std::vector<double> Spsa::start() const {
  std::vector<double> theta;
  for (const SpsaParameter& parameter : parameters_) theta.push_back(parameter.start);
  return theta;
}

std::vector<double> Spsa::replay(std::span<const SpsaReport> reports) const {
  std::vector<double> theta = start();
  for (const SpsaReport& report : reports) apply(theta, report);
  return theta;
}

void sort_reports(std::vector<SpsaReport>& reports) {
  std::stable_sort(reports.begin(), reports.end(), [](const SpsaReport& a, const SpsaReport& b) {
    return std::tie(a.k, a.source, a.serial) < std::tie(b.k, b.source, b.serial);
  });
}

long long spin_value(double value) {
  return std::llround(value);
}

}  // namespace quixo::arena
