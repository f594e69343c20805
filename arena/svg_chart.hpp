// Inline SVG charts made as text, for the --report-html page (html_report.cpp): a chart's frame
// (its plot area and the value ranges mapped onto it), the elements it is drawn with, axes with
// round ticks, a bar chart of counts, and the thinning of long lines. Every text and attribute is
// escaped, and numbers never print as text an SVG attribute would choke on (no -0, "nan", "inf").
// A chart carries its values for a reader of the page as well as for the eye: a bar's count in
// `data-count`, a line's points in `data-values`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace quixo::arena::svg {

// ` name="value"`, the value escaped (html_escape): an attribute of the charts and of the page.
[[nodiscard]] std::string attribute(std::string_view name, std::string_view value);

// A coordinate: a tenth of a pixel is finer than any screen draws it.
[[nodiscard]] std::string px(double value);

// A chart's plot area inside its picture, and the value ranges it maps onto it (y grows upwards).
struct Frame {
  double width = 640;
  double height = 240;
  double left = 56;
  double right = 16;
  double top = 14;
  double bottom = 40;
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;

  [[nodiscard]] double x(double value) const {
    const double span = x_max - x_min;
    return left + (span > 0 ? (value - x_min) / span : 0.5) * (width - left - right);
  }
  [[nodiscard]] double y(double value) const {
    const double span = y_max - y_min;
    return top + (span > 0 ? (y_max - value) / span : 0.5) * (height - top - bottom);
  }
  [[nodiscard]] double plot_bottom() const { return height - bottom; }
  [[nodiscard]] double plot_right() const { return width - right; }
};

// The <svg> element's opening, of classes "chart CSS_CLASS", with `label` as its accessible name
// and title; the chart ends with "</svg>".
[[nodiscard]] std::string open(const Frame& frame, std::string_view css_class,
                               std::string_view label);

[[nodiscard]] std::string line(double x1, double y1, double x2, double y2,
                               std::string_view css_class);
[[nodiscard]] std::string text(double x, double y, std::string_view content,
                               std::string_view anchor = "middle", std::string_view css_class = "");
// A bar with its value: `data-count` for a reader of the page, the title for a person's pointer.
[[nodiscard]] std::string rect(double x, double y, double width, double height,
                               std::string_view css_class, std::string_view title,
                               std::int64_t count);

// The points in the frame's coordinates, "x,y x,y ...", for a polyline or polygon.
[[nodiscard]] std::string points_text(const Frame& frame,
                                      const std::vector<std::pair<double, double>>& points);
// A line through the points, with their values in data-values (x:y, three decimals) so that a
// reader of the page need not invert the drawing.
[[nodiscard]] std::string polyline(const Frame& frame,
                                   const std::vector<std::pair<double, double>>& points,
                                   std::string_view css_class);

// Round tick values between low and high: steps of 1, 2 or 5 times a power of ten, about
// `target` of them.
[[nodiscard]] std::vector<double> nice_ticks(double low, double high, int target);
// The decimals the ticks' step needs.
[[nodiscard]] int tick_decimals(const std::vector<double>& ticks);

// The axes of a line chart (x: games, whole numbers), with grid lines at the ticks and the axis
// names.
[[nodiscard]] std::string axes(const Frame& frame, std::string_view x_label,
                               std::string_view y_label);

// A whole bar chart: vertical bars, one per label (zero counts too, so that every bin is there),
// with the counts above them and the labels below, `slot_width` pixels a bar.
[[nodiscard]] std::string category_chart(const std::vector<std::string>& labels,
                                         const std::vector<std::int64_t>& counts,
                                         std::string_view css_class, std::string_view label,
                                         std::string_view x_label, double slot_width = 44);

// At most this many points per line: a long tournament's page stays small and quick to make.
inline constexpr std::size_t kMaxChartPoints = 400;
// The points, or kMaxChartPoints of them evenly spread, the first and the last among them.
[[nodiscard]] std::vector<std::pair<double, double>> thin(
    std::vector<std::pair<double, double>> points);

}  // namespace quixo::arena::svg
