#include "move_analysis.hpp"

#include <algorithm>
#include <cmath>

namespace quixo::gui {
namespace {

// 2 for a win, 1 for a draw, 0 for a loss: only the result, not the distance.
int result_rank(tb::Wdl wdl) {
  return wdl == tb::Wdl::Win ? 2 : wdl == tb::Wdl::Draw ? 1 : 0;
}

}  // namespace

double expected_score(const PositionValue& value) {
  if (value.exact) {
    if (value.exact->wdl == tb::Wdl::Win) return 1.0;
    if (value.exact->wdl == tb::Wdl::Loss) return 0.0;
    return 0.5;
  }
  if (value.score_mate) return *value.score_mate > 0 ? 1.0 : 0.0;
  if (value.score_cp) return 1.0 / (1.0 + std::exp(-*value.score_cp / kScoreScale));
  return 0.5;
}

int centipawns(const PositionValue& value) {
  if (value.exact) {
    if (value.exact->wdl == tb::Wdl::Win) return kCentipawnCap;
    if (value.exact->wdl == tb::Wdl::Loss) return -kCentipawnCap;
    return 0;
  }
  if (value.score_mate) return *value.score_mate > 0 ? kCentipawnCap : -kCentipawnCap;
  if (value.score_cp) return std::clamp(*value.score_cp, -kCentipawnCap, kCentipawnCap);
  return 0;
}

PositionValue other_side(const PositionValue& value) {
  PositionValue other;
  if (value.exact) {
    tb::TbValue exact = *value.exact;
    if (exact.wdl == tb::Wdl::Win)
      exact.wdl = tb::Wdl::Loss;
    else if (exact.wdl == tb::Wdl::Loss)
      exact.wdl = tb::Wdl::Win;
    other.exact = exact;
  }
  if (value.score_cp) other.score_cp = -*value.score_cp;
  if (value.score_mate) other.score_mate = -*value.score_mate;
  return other;
}

MoveMark mark_of_loss(double loss) {
  if (loss >= kBlunderLoss) return MoveMark::Blunder;
  if (loss >= kMistakeLoss) return MoveMark::Mistake;
  if (loss >= kInaccuracyLoss) return MoveMark::Inaccuracy;
  return MoveMark::None;
}

std::optional<MoveAnalysis> analyse_move(std::string_view move, const PositionValue& before,
                                         const PositionValue& after) {
  if (!before.known() || !after.known()) return std::nullopt;
  MoveAnalysis analysis;
  analysis.after = other_side(after);
  analysis.best = before.best;
  if (!before.best.empty() && before.best == move) return analysis;
  analysis.loss = std::max(0.0, expected_score(before) - expected_score(analysis.after));
  analysis.cp_loss = std::max(0, centipawns(before) - centipawns(analysis.after));
  analysis.mark = mark_of_loss(analysis.loss);
  if (before.exact && analysis.after.exact &&
      result_rank(analysis.after.exact->wdl) < result_rank(before.exact->wdl))
    analysis.mark = MoveMark::Blunder;
  return analysis;
}

std::string_view mark_name(MoveMark mark) {
  switch (mark) {
    case MoveMark::Inaccuracy:
      return "inaccuracy";
    case MoveMark::Mistake:
      return "mistake";
    case MoveMark::Blunder:
      return "blunder";
    case MoveMark::None:
      break;
  }
  return "";
}

std::optional<MoveMark> parse_mark_name(std::string_view name) {
  for (const MoveMark mark : {MoveMark::Inaccuracy, MoveMark::Mistake, MoveMark::Blunder})
    if (name == mark_name(mark)) return mark;
  return std::nullopt;
}

std::string mark_comment(const MoveAnalysis& analysis) {
  if (analysis.mark == MoveMark::None) return "";
  const std::string_view symbol = analysis.mark == MoveMark::Blunder   ? "??"
                                  : analysis.mark == MoveMark::Mistake ? "?"
                                                                       : "?!";
  std::string comment = std::string(symbol) + " " + std::string(mark_name(analysis.mark));
  if (!analysis.best.empty()) comment += ", best " + analysis.best;
  return comment;
}

}  // namespace quixo::gui
