// The fit of quixo-train (issue 13): Texel-style logistic regression of the labels on the
// learned evaluation. The model is p = σ(Σ w_f / K) over the active features of a position
// (pattern_evaluation.hpp); K is fitted first on the hand-written evaluation, so that the learned
// scores keep its scale (the search's margins and the arena's thresholds are in those units),
// then the weights minimise the mean cross-entropy plus a small L2 term, by Adam on minibatches.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "data_sources.hpp"
#include "search/pattern_evaluation.hpp"
#include "search/team_pattern_evaluation.hpp"
#include "training_data.hpp"

namespace quixo::train {

struct FitSettings {
  // How much each source's records count in the loss (Table, Game, Deep).
  std::array<double, kSourceCount> source_weights = {1.0, 1.0, 1.0};
  double scale = 0;  // K; 0: fit it on the hand-written evaluation
  double scale_low = 10, scale_high = 2000;
  int epochs = 60;   // at most
  int patience = 4;  // stop after this many epochs without a better validation loss
  int batch_size = 1024;
  double learning_rate = 0.002;  // Adam's step, in logit units
  double l2 = 1e-5;              // on the weights in logit units, per feature
  std::uint64_t seed = 1;
};

// A position prepared for the fit, of either game: its active features (indices into the
// weight vector of that game's learned evaluation), its label and what the report groups by.
struct Example {
  static constexpr int kMaxFeatures =
      std::max(patterns::kLineCount + patterns::kPairCount + 2, patterns::TeamFeatures::kMaxCount);
  std::array<std::uint32_t, kMaxFeatures> features{};
  std::uint8_t feature_count = 0;
  Source source = Source::Table;
  float label = 0;  // a Deep example's is made from `score` once K is known
  float weight = 1;
  float hand = 0;  // the hand-written evaluation, centi-cubes
  bool has_score = false;
  Score score = 0;  // a deeper search's score, Deep only
};

// The model's logit for an example: the sum of its features' weights in logit units.
double logit(const Example& example, std::span<const double> units);

double sigmoid(double x);
// The cross-entropy of the prediction σ(z) against a label in [0, 1], computed without
// overflow: softplus(z) - label · z.
double cross_entropy(double z, double label);

// The label the fit uses: the record's own, or for a Deep record σ(score / K), a mate score
// giving 1 or 0.
double fit_label(const TrainingRecord& record, double scale);
double fit_label(Source source, double label, bool has_score, Score score, double scale);

// The K in [low, high] that minimises the weighted mean cross-entropy of σ(score / K) against
// the labels (a golden-section search over log K; the loss is unimodal in K).
double fit_scale(std::span<const double> scores, std::span<const double> labels,
                 std::span<const double> weights, double low, double high);

struct EpochResult {
  int epoch = 0;
  double training_loss = 0, validation_loss = 0;
  double seconds = 0;
};

struct FitResult {
  double scale = 0;                   // K
  std::vector<std::int16_t> weights;  // round(u_f · K), the weights file's contents
  std::vector<EpochResult> epochs;
  int best_epoch = 0;                             // the epoch whose weights were kept
  double training_loss = 0, validation_loss = 0;  // of those weights (before rounding)
  std::uint64_t training_records = 0, validation_records = 0;
};

// Fits K (unless given) and the weights. Trains on the records that are neither validation
// records nor held out (is_held_out); measures on the validation records.
FitResult fit_weights(std::span<const TrainingRecord> records, const FitSettings& settings,
                      const Progress& progress = {});
// The fit itself, for either game: K (unless given) on the hand-written evaluation of the
// examples that are not Deep, then the `feature_count` weights, trained on `training` and kept
// at the epoch of the best loss on `validation` (on `training` when it is empty).
FitResult fit_examples(std::vector<Example> training, std::vector<Example> validation,
                       int feature_count, const FitSettings& settings,
                       const Progress& progress = {});

// Per phase and source, on training and validation data, for the learned weights and for the
// hand-written evaluation: count, mean loss, the accuracy on decisive labels and the mean loss
// on draws, as lines of a table.
std::vector<std::string> evaluation_report(std::span<const TrainingRecord> records,
                                           const patterns::PatternWeights& weights, double scale);

// One evaluated example of either game for the report: its split, phase and source, the learned
// and the hand-written evaluation in logit units (score / K), and its label.
struct ReportEntry {
  bool validation = false;
  int phase = 0;
  Source source = Source::Game;
  double learned = 0, hand = 0, label = 0;
};
// The table of evaluation_report over any game's entries.
std::vector<std::string> evaluation_report_lines(std::span<const ReportEntry> entries);

// The `count` line weights of the largest magnitude, with the line content each scores.
std::vector<std::string> largest_line_weights(const patterns::PatternWeights& weights, int count);

// `base` with the weights of `phases` (their lines, threats and bias, and their pairs where the
// phase has pairs) taken from `donor`. A position's features all lie in its own phase, so a
// phase's weights score alone the positions of its blank counts: a phase fitted once can be kept
// while the others are refitted. Throws std::invalid_argument for a phase outside 0..kPhases-1.
patterns::PatternWeights merge_phases(const patterns::PatternWeights& base,
                                      const patterns::PatternWeights& donor,
                                      std::span<const int> phases);

// "7-12 blanks": the blank counts of a phase.
std::string phase_blanks_text(int phase);

}  // namespace quixo::train
