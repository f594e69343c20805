#include "svg_chart.hpp"

#include <algorithm>
#include <cmath>

#include "html_report.hpp"
#include "report_text.hpp"

namespace quixo::arena::svg {

std::string attribute(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + html_escape(value) + "\"";
}

std::string px(double value) {
  return format_fixed(value, 1);
}

std::string open(const Frame& frame, std::string_view css_class, std::string_view label) {
  return "<svg" + attribute("class", "chart " + std::string(css_class)) +
         attribute("width", px(frame.width)) + attribute("height", px(frame.height)) +
         attribute("viewBox", "0 0 " + px(frame.width) + " " + px(frame.height)) +
         attribute("role", "img") + attribute("aria-label", label) + "><title>" +
         html_escape(label) + "</title>";
}

std::string line(double x1, double y1, double x2, double y2, std::string_view css_class) {
  return "<line" + attribute("class", css_class) + attribute("x1", px(x1)) +
         attribute("y1", px(y1)) + attribute("x2", px(x2)) + attribute("y2", px(y2)) + "/>";
}

std::string text(double x, double y, std::string_view content, std::string_view anchor,
                 std::string_view css_class) {
  return "<text" + (css_class.empty() ? std::string() : attribute("class", css_class)) +
         attribute("x", px(x)) + attribute("y", px(y)) + attribute("text-anchor", anchor) + ">" +
         html_escape(content) + "</text>";
}

std::string rect(double x, double y, double width, double height, std::string_view css_class,
                 std::string_view title, std::int64_t count) {
  return "<rect" + attribute("class", css_class) + attribute("x", px(x)) + attribute("y", px(y)) +
         attribute("width", px(std::max(0.0, width))) +
         attribute("height", px(std::max(0.0, height))) +
         attribute("data-count", std::to_string(count)) + "><title>" + html_escape(title) +
         "</title></rect>";
}

std::string points_text(const Frame& frame, const std::vector<std::pair<double, double>>& points) {
  std::string out;
  for (const auto& [x, y] : points) {
    if (!out.empty()) out += ' ';
    out += px(frame.x(x)) + "," + px(frame.y(y));
  }
  return out;
}

std::string polyline(const Frame& frame, const std::vector<std::pair<double, double>>& points,
                     std::string_view css_class) {
  std::string values;
  for (const auto& [x, y] : points)
    values += (values.empty() ? "" : " ") + format_fixed(x, 0) + ":" + format_fixed(y, 3);
  return "<polyline" + attribute("class", css_class) +
         attribute("points", points_text(frame, points)) + attribute("data-values", values) + "/>";
}

std::vector<double> nice_ticks(double low, double high, int target) {
  std::vector<double> ticks;
  if (!(high > low) || !std::isfinite(low) || !std::isfinite(high)) {
    ticks.push_back(low);
    return ticks;
  }
  const double rough = (high - low) / std::max(1, target);
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  double step = power;
  for (const double factor : {1.0, 2.0, 5.0, 10.0})
    if (factor * power >= rough) {
      step = factor * power;
      break;
    }
  for (double tick = std::ceil(low / step) * step; tick <= high + step * 1e-9; tick += step)
    ticks.push_back(std::fabs(tick) < step * 1e-9 ? 0.0 : tick);
  return ticks;
}

int tick_decimals(const std::vector<double>& ticks) {
  if (ticks.size() < 2) return 0;
  const double step = ticks[1] - ticks[0];
  return step >= 1.0 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
}

std::string axes(const Frame& frame, std::string_view x_label, std::string_view y_label) {
  std::string out = "<g class=\"axes\">";
  const std::vector<double> y_ticks = nice_ticks(frame.y_min, frame.y_max, 5);
  const int y_decimals = tick_decimals(y_ticks);
  for (const double tick : y_ticks) {
    out += line(frame.left, frame.y(tick), frame.plot_right(), frame.y(tick), "grid");
    out += text(frame.left - 4, frame.y(tick) + 4, format_fixed(tick, y_decimals), "end");
  }
  const std::vector<double> x_ticks = nice_ticks(frame.x_min, frame.x_max, 8);
  for (const double tick : x_ticks) {
    if (tick != std::floor(tick)) continue;  // games are whole
    out += line(frame.x(tick), frame.plot_bottom(), frame.x(tick), frame.plot_bottom() + 4, "tick");
    out += text(frame.x(tick), frame.plot_bottom() + 16, format_fixed(tick, 0));
  }
  out += line(frame.left, frame.top, frame.left, frame.plot_bottom(), "axis");
  out += line(frame.left, frame.plot_bottom(), frame.plot_right(), frame.plot_bottom(), "axis");
  out += text((frame.left + frame.plot_right()) / 2, frame.height - 6, x_label);
  out += "<text class=\"axis-name\" x=\"12\" y=\"" + px((frame.top + frame.plot_bottom()) / 2) +
         "\" text-anchor=\"middle\" transform=\"rotate(-90 12 " +
         px((frame.top + frame.plot_bottom()) / 2) + ")\">" + html_escape(y_label) + "</text>";
  return out + "</g>";
}

std::string category_chart(const std::vector<std::string>& labels,
                           const std::vector<std::int64_t>& counts, std::string_view css_class,
                           std::string_view label, std::string_view x_label, double slot_width) {
  Frame frame;
  frame.width = std::max(240.0, slot_width * static_cast<double>(labels.size()) + 72);
  frame.height = 200;
  frame.y_max = 1;
  for (const std::int64_t count : counts)
    frame.y_max = std::max(frame.y_max, static_cast<double>(count));
  std::string out = open(frame, css_class, label) + "<g class=\"axes\">";
  const std::vector<double> y_ticks = nice_ticks(0, frame.y_max, 4);
  for (const double tick : y_ticks) {
    if (tick != std::floor(tick)) continue;  // counts are whole
    out += line(frame.left, frame.y(tick), frame.plot_right(), frame.y(tick), "grid");
    out += text(frame.left - 4, frame.y(tick) + 4, format_fixed(tick, 0), "end");
  }
  out += line(frame.left, frame.plot_bottom(), frame.plot_right(), frame.plot_bottom(), "axis");
  out += text((frame.left + frame.plot_right()) / 2, frame.height - 4, x_label) + "</g>";
  const double slot = (frame.plot_right() - frame.left) / static_cast<double>(labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const double x = frame.left + slot * static_cast<double>(i);
    const double top = frame.y(static_cast<double>(counts[i]));
    out += rect(x + slot * 0.12, top, slot * 0.76, frame.plot_bottom() - top, "bar",
                labels[i] + ": " + std::to_string(counts[i]), counts[i]);
    if (counts[i] > 0) out += text(x + slot / 2, top - 3, std::to_string(counts[i]));
    out += text(x + slot / 2, frame.plot_bottom() + 14, labels[i], "middle", "bar-label");
  }
  return out + "</svg>";
}

std::vector<std::pair<double, double>> thin(std::vector<std::pair<double, double>> points) {
  if (points.size() <= kMaxChartPoints) return points;
  std::vector<std::pair<double, double>> kept;
  const std::size_t n = points.size();
  for (std::size_t i = 0; i < kMaxChartPoints; ++i)
    kept.push_back(points[i * (n - 1) / (kMaxChartPoints - 1)]);  // the first and the last too
  return kept;
}

}  // namespace quixo::arena::svg
