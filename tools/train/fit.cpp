#include "fit.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

#include "core/move_scan.hpp"
#include "search/evaluation.hpp"

namespace quixo::train {

namespace {

using patterns::kFeatureCount;

// Unused: a held-out position outside the validation records (one of a training game). It is
// never trained on, and it does not measure the fit either, as it is no table position.
enum class Split { Training, Validation, Unused };

Split split_of(const TrainingRecord& record) {
  if (record.validation) return Split::Validation;
  return is_held_out(record.position()) ? Split::Unused : Split::Training;
}

Example prepare(const TrainingRecord& record) {
  const Position position = record.position();
  const SlideSet threats = opponent_wins(position);
  const patterns::ActiveFeatures active = patterns::active_features(position, threats);
  Example example;
  for (const std::uint32_t line : active.lines) example.features[example.feature_count++] = line;
  for (int pair = 0; pair < active.pair_count; ++pair)
    example.features[example.feature_count++] = active.pairs[std::size_t(pair)];
  if (active.threat >= 0) example.features[example.feature_count++] = std::uint32_t(active.threat);
  example.features[example.feature_count++] = std::uint32_t(active.bias);
  example.source = record.source;
  example.label = record.label;
  example.has_score = record.has_score;
  example.score = record.score;
  example.hand = float(evaluate(position, threats));
  return example;
}

}  // namespace

double logit(const Example& example, std::span<const double> units) {
  double z = 0;
  for (int i = 0; i < example.feature_count; ++i) z += units[example.features[i]];
  return z;
}

namespace {

// The weighted mean cross-entropy of the model over `examples`.
double mean_loss(const std::vector<Example>& examples, const std::vector<double>& units) {
  double loss = 0, total = 0;
  for (const Example& example : examples) {
    loss += example.weight * cross_entropy(logit(example, units), example.label);
    total += example.weight;
  }
  return total > 0 ? loss / total : 0;
}

// Adam that updates only the features a minibatch touches (as TensorFlow's LazyAdam): a rare
// line content keeps its weight between the batches that see it instead of being pushed by
// moments that have decayed to nothing.
class SparseAdam {
 public:
  SparseAdam(int feature_count, double learning_rate, double l2)
      : learning_rate_(learning_rate),
        l2_(l2),
        gradient_(std::size_t(feature_count), 0),
        first_(std::size_t(feature_count), 0),
        second_(std::size_t(feature_count), 0),
        touched_(std::size_t(feature_count), false) {}

  void add(int feature, double gradient) {
    if (!touched_[feature]) {
      touched_[feature] = true;
      touched_list_.push_back(feature);
    }
    gradient_[feature] += gradient;
  }

  void step(std::vector<double>& units) {
    constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEpsilon = 1e-8;
    ++steps_;
    const double correction1 = 1 - std::pow(kBeta1, double(steps_));
    const double correction2 = 1 - std::pow(kBeta2, double(steps_));
    for (const int feature : touched_list_) {
      const double gradient = gradient_[feature] + 2 * l2_ * units[feature];
      first_[feature] = kBeta1 * first_[feature] + (1 - kBeta1) * gradient;
      second_[feature] = kBeta2 * second_[feature] + (1 - kBeta2) * gradient * gradient;
      units[feature] -= learning_rate_ * (first_[feature] / correction1) /
                        (std::sqrt(second_[feature] / correction2) + kEpsilon);
      gradient_[feature] = 0;
      touched_[feature] = false;
    }
    touched_list_.clear();
  }

 private:
  double learning_rate_, l2_;
  std::vector<double> gradient_, first_, second_;
  std::vector<bool> touched_;
  std::vector<int> touched_list_;
  std::uint64_t steps_ = 0;
};

// What the report counts for one group of examples and one evaluation.
struct Tally {
  std::uint64_t count = 0, decisive = 0, agreeing = 0, draws = 0;
  double loss = 0, draw_loss = 0;

  void add(double z, double label, Source source) {
    const double loss_here = cross_entropy(z, label);
    ++count;
    loss += loss_here;
    // A deep search's label is a probability: it is decisive when it leans clearly.
    const bool is_decisive = source == Source::Deep ? std::abs(label - 0.5) > 0.1 : label != 0.5;
    if (is_decisive) {
      ++decisive;
      agreeing += (z > 0) == (label > 0.5);
    } else {
      ++draws;
      draw_loss += loss_here;
    }
  }
};

std::string fixed(double value, int digits) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(digits) << value;
  return text.str();
}

std::string tally_columns(const Tally& tally) {
  std::ostringstream text;
  text << std::right << std::setw(8) << fixed(tally.count ? tally.loss / tally.count : 0, 4)
       << std::setw(8)
       << (tally.decisive ? fixed(100.0 * double(tally.agreeing) / double(tally.decisive), 1) : "-")
       << std::setw(8) << (tally.draws ? fixed(tally.draw_loss / double(tally.draws), 4) : "-");
  return text.str();
}

// A line content as its cells in square order: x the side to move's cube, o the opponent's.
std::string content_cells(int content) {
  std::string cells;
  for (int cell = 0; cell < patterns::kLineCells; ++cell, content /= 3) cells += ".xo"[content % 3];
  return cells;
}

}  // namespace

double sigmoid(double x) {
  return 1 / (1 + std::exp(-x));
}

double cross_entropy(double z, double label) {
  return std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z))) - label * z;
}

double fit_label(Source source, double label, bool has_score, Score score, double scale) {
  if (source != Source::Deep || !has_score) return label;
  if (is_mate_score(score)) return score > 0 ? 1.0 : 0.0;
  return sigmoid(score / scale);
}

double fit_label(const TrainingRecord& record, double scale) {
  return fit_label(record.source, record.label, record.has_score, record.score, scale);
}

double fit_scale(std::span<const double> scores, std::span<const double> labels,
                 std::span<const double> weights, double low, double high) {
  if (!(low > 0 && high > low)) throw std::invalid_argument("fit_scale: need 0 < low < high");
  const auto loss = [&](double log_scale) {
    const double inverse = std::exp(-log_scale);
    double total = 0;
    for (std::size_t i = 0; i < scores.size(); ++i)
      total += weights[i] * cross_entropy(scores[i] * inverse, labels[i]);
    return total;
  };
  const double golden = (std::sqrt(5.0) - 1) / 2;
  double a = std::log(low), b = std::log(high);
  double c = b - golden * (b - a), d = a + golden * (b - a);
  double loss_c = loss(c), loss_d = loss(d);
  // Each step keeps 0.618 of the interval: 60 steps narrow log K to 1e-12 of its width.
  for (int step = 0; step < 60; ++step) {
    if (loss_c < loss_d) {
      b = d;
      d = c;
      loss_d = loss_c;
      c = b - golden * (b - a);
      loss_c = loss(c);
    } else {
      a = c;
      c = d;
      loss_c = loss_d;
      d = a + golden * (b - a);
      loss_d = loss(d);
    }
  }
  return std::exp((a + b) / 2);
}

FitResult fit_weights(std::span<const TrainingRecord> records, const FitSettings& settings,
                      const Progress& progress) {
  std::vector<Example> training, validation;
  for (const TrainingRecord& record : records) {
    const Split split = split_of(record);
    if (split == Split::Unused) continue;
    (split == Split::Training ? training : validation).push_back(prepare(record));
  }
  return fit_examples(std::move(training), std::move(validation), kFeatureCount, settings,
                      progress);
}

FitResult fit_examples(std::vector<Example> training, std::vector<Example> validation,
                       int feature_count, const FitSettings& settings, const Progress& progress) {
  if (settings.batch_size < 1 || settings.epochs < 1 || settings.patience < 1)
    throw std::invalid_argument("the fit needs a batch size, epochs and patience of at least 1");
  for (std::vector<Example>* examples : {&training, &validation}) {
    for (Example& example : *examples)
      example.weight = float(settings.source_weights[int(example.source)]);
    std::erase_if(*examples, [](const Example& example) { return example.weight <= 0; });
  }
  if (training.empty()) throw std::runtime_error("no training records (all are validation)");

  FitResult result;
  result.training_records = training.size();
  result.validation_records = validation.size();
  result.scale = settings.scale;
  if (result.scale <= 0) {
    // Deep labels depend on K themselves, so K is fitted on the other sources alone.
    std::vector<double> scores, labels, weights;
    for (const Example& example : training)
      if (example.source != Source::Deep) {
        scores.push_back(example.hand);
        labels.push_back(example.label);
        weights.push_back(example.weight);
      }
    if (scores.empty()) throw std::runtime_error("K needs table or game records to be fitted on");
    result.scale = fit_scale(scores, labels, weights, settings.scale_low, settings.scale_high);
    if (progress) progress("K = " + fixed(result.scale, 2) + " (fitted on the hand evaluation)");
  }
  // Deep labels, now that K is known.
  for (std::vector<Example>* examples : {&training, &validation})
    for (Example& example : *examples)
      example.label = float(
          fit_label(example.source, example.label, example.has_score, example.score, result.scale));

  std::vector<double> units(std::size_t(feature_count), 0), best_units = units;
  SparseAdam adam(feature_count, settings.learning_rate, settings.l2);
  std::mt19937_64 random(mix64(settings.seed ^ 0x666974ull));
  std::vector<std::size_t> order(training.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  double best = std::numeric_limits<double>::infinity();
  int since_best = 0;
  for (int epoch = 1; epoch <= settings.epochs && since_best < settings.patience; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random() % i]);
    for (std::size_t begin = 0; begin < order.size(); begin += std::size_t(settings.batch_size)) {
      const std::size_t end = std::min(order.size(), begin + std::size_t(settings.batch_size));
      double batch_weight = 0;
      for (std::size_t k = begin; k < end; ++k) batch_weight += training[order[k]].weight;
      for (std::size_t k = begin; k < end; ++k) {
        const Example& example = training[order[k]];
        // d(cross-entropy)/dz = σ(z) - label, for every active feature alike.
        const double gradient =
            example.weight * (sigmoid(logit(example, units)) - example.label) / batch_weight;
        for (int f = 0; f < example.feature_count; ++f) adam.add(example.features[f], gradient);
      }
      adam.step(units);
    }
    EpochResult line;
    line.epoch = epoch;
    line.training_loss = mean_loss(training, units);
    line.validation_loss = validation.empty() ? line.training_loss : mean_loss(validation, units);
    line.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.epochs.push_back(line);
    if (line.validation_loss < best - 1e-7) {
      best = line.validation_loss;
      best_units = units;
      result.best_epoch = epoch;
      result.training_loss = line.training_loss;
      result.validation_loss = line.validation_loss;
      since_best = 0;
    } else {
      ++since_best;
    }
    if (progress)
      progress("epoch " + std::to_string(epoch) + ": training loss " +
               fixed(line.training_loss, 5) + ", validation loss " +
               fixed(line.validation_loss, 5) + (since_best == 0 ? " (best)" : "") + ", " +
               fixed(line.seconds, 1) + " s");
  }
  result.weights.resize(std::size_t(feature_count));
  for (int f = 0; f < feature_count; ++f)
    result.weights[f] = std::int16_t(std::clamp(std::lround(best_units[f] * result.scale),
                                                long(std::numeric_limits<std::int16_t>::min() + 1),
                                                long(std::numeric_limits<std::int16_t>::max())));
  return result;
}

std::vector<std::string> evaluation_report(std::span<const TrainingRecord> records,
                                           const patterns::PatternWeights& weights, double scale) {
  std::vector<ReportEntry> entries;
  for (const TrainingRecord& record : records) {
    const Split split = split_of(record);
    if (split == Split::Unused) continue;
    const Position position = record.position();
    const SlideSet threats = opponent_wins(position);
    entries.push_back({split == Split::Validation, phase_of(position), record.source,
                       weights.evaluate(position, threats) / scale,
                       evaluate(position, threats) / scale, fit_label(record, scale)});
  }
  return evaluation_report_lines(entries);
}

std::vector<std::string> evaluation_report_lines(std::span<const ReportEntry> entries) {
  // tallies[split][phase][source][evaluation: learned, hand]; phase and source kPhases and
  // kSourceCount stand for "all".
  using PerEvaluation = std::array<Tally, 2>;
  using PerSource = std::array<PerEvaluation, kSourceCount + 1>;
  std::array<std::array<PerSource, patterns::kPhases + 1>, 2> tallies{};
  for (const ReportEntry& entry : entries) {
    const int source = int(entry.source);
    for (const int p : {entry.phase, patterns::kPhases})
      for (const int s : {source, kSourceCount}) {
        PerEvaluation& tally = tallies[entry.validation][p][s];
        tally[0].add(entry.learned, entry.label, entry.source);
        tally[1].add(entry.hand, entry.label, entry.source);
      }
  }
  std::vector<std::string> lines;
  std::ostringstream header;
  header << std::left << std::setw(12) << "split" << std::setw(7) << "phase" << std::setw(8)
         << "source" << std::right << std::setw(10) << "count"
         << " | learned:  loss  acc %  draw"
         << " | hand:     loss  acc %  draw";
  lines.push_back(header.str());
  lines.push_back(
      "(loss: mean cross-entropy; acc: share of decisive labels whose side the "
      "evaluation picks; draw: mean loss on draws)");
  for (int split = 0; split < 2; ++split)
    for (int phase = 0; phase <= patterns::kPhases; ++phase)
      for (int source = 0; source <= kSourceCount; ++source) {
        const PerEvaluation& tally = tallies[split][phase][source];
        if (tally[0].count == 0) continue;
        std::ostringstream line;
        line << std::left << std::setw(12) << (split ? "validation" : "training") << std::setw(7)
             << (phase == patterns::kPhases ? std::string("all") : std::to_string(phase))
             << std::setw(8) << (source == kSourceCount ? "all" : source_name(Source(source)))
             << std::right << std::setw(10) << tally[0].count << " |" << std::setw(4) << ""
             << tally_columns(tally[0]) << " |" << std::setw(4) << "" << tally_columns(tally[1]);
        lines.push_back(line.str());
      }
  return lines;
}

std::vector<std::string> largest_line_weights(const patterns::PatternWeights& weights, int count) {
  using namespace patterns;
  // One content of each canonical class (its smallest member) to show it by.
  std::array<int, kCanonicalContents> example_content{};
  for (int content = kLineContents - 1; content >= 0; --content)
    example_content[canonical_content(content)] = content;
  std::vector<int> lines;
  for (int phase = 0; phase < kPhases; ++phase)
    for (int feature = 0; feature < kThreatFeature; ++feature)
      lines.push_back(phase * kFeaturesPerPhase + feature);
  const auto values = weights.weights();
  std::stable_sort(lines.begin(), lines.end(),
                   [&](int a, int b) { return std::abs(values[a]) > std::abs(values[b]); });
  static const char* const kClassNames[kLineClasses] = {"edge", "second", "middle", "diagonal"};
  std::vector<std::string> text;
  for (int i = 0; i < std::min(count, int(lines.size())); ++i) {
    const int phase = lines[i] / kFeaturesPerPhase, within = lines[i] % kFeaturesPerPhase;
    const int line_class = within / kCanonicalContents;
    const int content = example_content[within % kCanonicalContents];
    std::ostringstream line;
    line << "phase " << phase << " " << std::left << std::setw(9) << kClassNames[line_class]
         << content_cells(content) << " (or reversed) " << std::right << std::setw(6)
         << values[lines[i]];
    text.push_back(line.str());
  }
  for (int phase = 0; phase < kPhases; ++phase) {
    const int base = phase * kFeaturesPerPhase;
    std::ostringstream line;
    line << "phase " << phase << " threats 1/2/3+: " << values[base + kThreatFeature] << " "
         << values[base + kThreatFeature + 1] << " " << values[base + kThreatFeature + 2]
         << ", bias " << values[base + kBiasFeature];
    text.push_back(line.str());
  }
  return text;
}

patterns::PatternWeights merge_phases(const patterns::PatternWeights& base,
                                      const patterns::PatternWeights& donor,
                                      std::span<const int> phases) {
  using namespace patterns;
  std::vector<std::int16_t> weights(base.weights().begin(), base.weights().end());
  const auto take = [&](int from, int count) {
    std::copy_n(donor.weights().begin() + from, count, weights.begin() + from);
  };
  for (const int phase : phases) {
    if (phase < 0 || phase >= kPhases)
      throw std::invalid_argument("phase " + std::to_string(phase) + " is not one of 0.." +
                                  std::to_string(kPhases - 1));
    take(phase * kFeaturesPerPhase, kFeaturesPerPhase);
    if (phase < kPairPhases)
      take(kPairFeature + phase * kPairFeaturesPerPhase, kPairFeaturesPerPhase);
  }
  return PatternWeights(weights);
}

std::string phase_blanks_text(int phase) {
  int low = -1, high = -1;
  for (int blanks = 0; blanks <= kSquareCount; ++blanks)
    if (patterns::phase_of(blanks) == phase) {
      if (low < 0) low = blanks;
      high = blanks;
    }
  if (low < 0) throw std::invalid_argument("phase " + std::to_string(phase) + " has no blanks");
  return (low == high ? std::to_string(low) : std::to_string(low) + "-" + std::to_string(high)) +
         (high == 1 ? " blank" : " blanks");
}

}  // namespace quixo::train
