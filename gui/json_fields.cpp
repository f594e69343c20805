#include "json_fields.hpp"

#include <cmath>

namespace quixo::gui {
namespace json = boost::json;

json::object tb_value_json(const tb::TbValue& value) {
  json::object entry{{"value", tb::wdl_name(value.wdl)}};
  entry["distance"] =
      value.wdl == tb::Wdl::Draw ? json::value(nullptr) : json::value(value.distance);
  return entry;
}

json::object move_analysis_json(const MoveAnalysis& analysis, bool exact_loss) {
  const PositionValue& after = analysis.after;
  return json::object{
      {"score", score_json(after.score_cp, after.score_mate)},
      {"tb", after.exact ? json::value(tb_value_json(*after.exact)) : json::value(nullptr)},
      {"best", analysis.best.empty() ? json::value(nullptr) : json::value(analysis.best)},
      {"loss", exact_loss ? analysis.loss : std::round(analysis.loss * 1000) / 1000},
      {"cp_loss", analysis.cp_loss},
      {"mark", analysis.mark == MoveMark::None ? json::value(nullptr)
                                               : json::value(mark_name(analysis.mark))}};
}

}  // namespace quixo::gui
