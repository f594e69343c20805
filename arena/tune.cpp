#include "tune.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "core/notation.hpp"
#include "file_io.hpp"
#include "game.hpp"
#include "html_report.hpp"
#include "svg_chart.hpp"
#include "tb/tablebase.hpp"
#include "tournament.hpp"

namespace quixo::arena {

namespace json = boost::json;

namespace {

constexpr std::string_view kJournalKind = "quixo-arena tune";

json::object parameter_json(const SpsaParameter& parameter) {
  return {{"name", parameter.name}, {"start", parameter.start}, {"min", parameter.min},
          {"max", parameter.max},   {"c_end", parameter.c_end}, {"r_end", parameter.r_end}};
}

SpsaParameter parameter_of(const json::value& value) {
  const json::object& object = value.as_object();
  SpsaParameter parameter;
  parameter.name = std::string(object.at("name").as_string());
  parameter.start = json::value_to<double>(object.at("start"));
  parameter.min = json::value_to<double>(object.at("min"));
  parameter.max = json::value_to<double>(object.at("max"));
  parameter.c_end = json::value_to<double>(object.at("c_end"));
  parameter.r_end = json::value_to<double>(object.at("r_end"));
  return parameter;
}

std::string fixed(double value, int decimals) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(decimals);
  out << (value == 0 ? 0.0 : value);  // never "-0.00"
  return out.str();
}

std::string theta_text(const Spsa& spsa, const std::vector<double>& theta) {
  std::string text;
  for (std::size_t i = 0; i < theta.size(); ++i)
    text += (i ? ", " : "") + spsa.parameters()[i].name + "=" + fixed(theta[i], 2);
  return text;
}

// The journal files of the run: this process's, and with shards every shard's (source = the
// shard's number).
struct JournalFile {
  std::string path;
  int source = 0;
};

std::vector<JournalFile> journal_files(const TuneConfig& config) {
  if (!config.games.shard) return {{config.state_path, 0}};
  std::vector<JournalFile> files;
  for (int index = 1; index <= config.games.shard->count; ++index) {
    Shard shard = *config.games.shard;
    shard.index = index;
    files.push_back({shard_file_path(config.state_path, shard), index});
  }
  return files;
}

}  // namespace

std::string tune_header_line(const Spsa& spsa) {
  json::array parameters;
  for (const SpsaParameter& parameter : spsa.parameters())
    parameters.push_back(parameter_json(parameter));
  const SpsaSchedule& schedule = spsa.schedule();
  const json::object header{{"kind", kJournalKind},
                            {"version", 1},
                            {"parameters", std::move(parameters)},
                            {"iterations", schedule.iterations},
                            {"A", schedule.A},
                            {"alpha", schedule.alpha},
                            {"gamma", schedule.gamma}};
  return json::serialize(header) + "\n";
}

std::string tune_report_line(const SpsaReport& report) {
  std::string flips;
  for (const int flip : report.flips) flips += flip > 0 ? '+' : '-';
  const json::object line{{"k", report.k},           {"flips", flips},
                          {"result", report.result}, {"wins", report.wins},
                          {"losses", report.losses}, {"draws", report.draws},
                          {"serial", report.serial}};
  return json::serialize(line) + "\n";
}

SpsaReport parse_tune_report_line(const std::string& line, std::size_t parameters) {
  try {
    const json::object object = json::parse(line).as_object();
    SpsaReport report;
    report.k = object.at("k").to_number<std::int64_t>();
    for (const char flip : object.at("flips").as_string()) {
      if (flip != '+' && flip != '-') throw std::runtime_error("a flip is + or -");
      report.flips.push_back(flip == '+' ? 1 : -1);
    }
    report.result = object.at("result").to_number<int>();
    report.wins = object.at("wins").to_number<int>();
    report.losses = object.at("losses").to_number<int>();
    report.draws = object.at("draws").to_number<int>();
    report.serial = object.at("serial").to_number<std::int64_t>();
    if (report.flips.size() != parameters)
      throw std::runtime_error(std::to_string(report.flips.size()) + " flips for " +
                               std::to_string(parameters) + " parameters");
    if (report.k < 1 || report.result < -2 || report.result > 2 ||
        report.result != report.wins - report.losses)
      throw std::runtime_error("its numbers do not make a game pair's report");
    return report;
  } catch (const std::exception& error) {
    throw std::runtime_error(std::string("not a report: ") + error.what());
  }
}

std::optional<TuneJournal> read_tune_journal(const std::string& path, int source) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  if (text.empty()) return std::nullopt;
  TuneJournal journal;
  std::size_t begin = 0;
  int line_number = 0;
  while (begin < text.size()) {
    const std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) break;  // cut short by a kill: the pair is not counted
    const std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    ++line_number;
    try {
      if (line_number == 1) {
        const json::object header = json::parse(line).as_object();
        if (!header.contains("kind") || header.at("kind").as_string() != kJournalKind)
          throw std::runtime_error("it does not start with a tune header");
        for (const json::value& parameter : header.at("parameters").as_array())
          journal.parameters.push_back(parameter_of(parameter));
        journal.schedule.iterations = header.at("iterations").to_number<std::int64_t>();
        journal.schedule.A = json::value_to<double>(header.at("A"));
        journal.schedule.alpha = json::value_to<double>(header.at("alpha"));
        journal.schedule.gamma = json::value_to<double>(header.at("gamma"));
      } else {
        SpsaReport report = parse_tune_report_line(line, journal.parameters.size());
        report.source = source;
        journal.reports.push_back(std::move(report));
      }
    } catch (const std::exception& error) {
      throw std::runtime_error("the tune state file " + path + ", line " +
                               std::to_string(line_number) + ": " + error.what());
    }
  }
  if (line_number == 0) return std::nullopt;  // not even a whole header: a run killed at once
  return journal;
}

std::string tune_csv(const Spsa& spsa, const std::vector<SpsaReport>& reports) {
  std::string csv = "iteration,k,result";
  for (const SpsaParameter& parameter : spsa.parameters()) {
    // A name with a comma or quote is quoted, as RFC 4180 writes it.
    std::string name = parameter.name;
    if (name.find_first_of(",\"") != std::string::npos) {
      std::string quoted = "\"";
      for (const char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      name = quoted + "\"";
    }
    csv += "," + name;
  }
  csv += "\n0,0,0";
  std::vector<double> theta = spsa.start();
  for (const double value : theta) csv += "," + fixed(value, 4);
  csv += "\n";
  std::int64_t iteration = 0;
  for (const SpsaReport& report : reports) {
    spsa.apply(theta, report);
    csv += std::to_string(++iteration) + "," + std::to_string(report.k) + "," +
           std::to_string(report.result);
    for (const double value : theta) csv += "," + fixed(value, 4);
    csv += "\n";
  }
  return csv;
}

std::string tune_html(const Spsa& spsa, const std::vector<SpsaReport>& reports,
                      const std::string& engine_name) {
  const std::size_t count = spsa.parameters().size();
  std::vector<std::vector<std::pair<double, double>>> lines(count);
  std::vector<double> theta = spsa.start();
  for (std::size_t i = 0; i < count; ++i) lines[i].emplace_back(0, theta[i]);
  // At most about 600 points a line: a long run's every pair would make the page heavy and draw
  // no better.
  const std::size_t every = std::max<std::size_t>(1, reports.size() / 600);
  for (std::size_t r = 0; r < reports.size(); ++r) {
    spsa.apply(theta, reports[r]);
    if ((r + 1) % every == 0 || r + 1 == reports.size())
      for (std::size_t i = 0; i < count; ++i) lines[i].emplace_back(double(r + 1), theta[i]);
  }
  std::int64_t wins = 0, losses = 0, draws = 0;
  for (const SpsaReport& report : reports) {
    wins += report.wins;
    losses += report.losses;
    draws += report.draws;
  }
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>SPSA tuning "
      "of " +
      html_escape(engine_name) +
      "</title>\n<style>\nbody{font-family:sans-serif;margin:2em;color:#222}\n"
      "svg.chart{display:block;margin:0 0 1.5em}\n.axis{stroke:#444}\n.grid{stroke:#ddd}\n"
      ".theta{fill:none;stroke:#1f5fbf;stroke-width:1.5}\n.bound{stroke:#bf3f1f;"
      "stroke-dasharray:4 3}\ntext{font-size:12px}\ntable{border-collapse:collapse}\n"
      "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}\n</style>\n</head>\n<body>\n";
  page += "<h1>SPSA tuning of " + html_escape(engine_name) + "</h1>\n<p>" +
          std::to_string(reports.size()) + " of " + std::to_string(spsa.schedule().iterations) +
          " game pairs; the theta+ side scored +" + std::to_string(wins) + " -" +
          std::to_string(losses) + " =" + std::to_string(draws) +
          ". A = " + fixed(spsa.stability_constant(), 1) +
          ", alpha = " + fixed(spsa.schedule().alpha, 3) +
          ", gamma = " + fixed(spsa.schedule().gamma, 3) + ".</p>\n";
  page +=
      "<table class=\"parameters\">\n<tr><th>parameter</th><th>start</th><th>now</th>"
      "<th>min</th><th>max</th><th>c_end</th><th>r_end</th></tr>\n";
  for (std::size_t i = 0; i < count; ++i) {
    const SpsaParameter& parameter = spsa.parameters()[i];
    page += "<tr><th>" + html_escape(parameter.name) + "</th><td>" + fixed(parameter.start, 2) +
            "</td><td class=\"now\">" + fixed(theta[i], 2) + "</td><td>" + fixed(parameter.min, 2) +
            "</td><td>" + fixed(parameter.max, 2) + "</td><td>" + fixed(parameter.c_end, 3) +
            "</td><td>" + fixed(parameter.r_end, 4) + "</td></tr>\n";
  }
  page += "</table>\n";
  for (std::size_t i = 0; i < count; ++i) {
    const SpsaParameter& parameter = spsa.parameters()[i];
    svg::Frame frame;
    frame.x_min = 0;
    frame.x_max = std::max<double>(1, double(reports.size()));
    double low = parameter.start, high = parameter.start;
    for (const auto& point : lines[i]) {
      low = std::min(low, point.second);
      high = std::max(high, point.second);
    }
    const double margin = std::max((high - low) * 0.1, parameter.c_end);
    frame.y_min = std::max(parameter.min, low - margin);
    frame.y_max = std::min(parameter.max, high + margin);
    page += "<h2>" + html_escape(parameter.name) + "</h2>\n";
    page += svg::open(frame, "tune", parameter.name + " after each game pair");
    page += svg::axes(frame, "game pairs", parameter.name);
    // The range's ends when the line comes near them: a parameter stuck at a bound says the
    // range was too narrow.
    for (const double bound : {parameter.min, parameter.max})
      if (bound >= frame.y_min && bound <= frame.y_max)
        page += svg::line(frame.left, frame.y(bound), frame.plot_right(), frame.y(bound), "bound");
    page += svg::polyline(frame, lines[i], "theta");
    page += "</svg>\n";
  }
  page += "</body>\n</html>\n";
  return page;
}

namespace {

// One slot of play: the tuned engine twice, as the plus and the minus side, kept between pairs.
class TuneSlot {
 public:
  TuneSlot(const TuneConfig& config, const ProcessLauncher& launcher)
      : config_(config),
        plus_(named(config.games.engines.front(), "+"), launcher),
        minus_(named(config.games.engines.front(), "-"), launcher) {}
  ~TuneSlot() {
    plus_.quit();
    minus_.quit();
  }

  // Plays the pair; nullopt when `halt` stopped it.
  std::optional<SpsaReport> play(const SpsaProbe& probe, const Opening& opening, std::int64_t pair,
                                 const std::atomic<bool>& halt) {
    SpsaReport report;
    report.k = probe.k;
    report.flips = probe.flips;
    for (int game = 0; game < 2; ++game) {
      // Each side gets its values right before its game, once it runs: a side restarted after a
      // crash would otherwise play the next game with the engine's defaults.
      prepare(plus_, probe.plus);
      prepare(minus_, probe.minus);
      const bool plus_is_x = game == 0;
      GameSetup setup;
      setup.opening = opening;
      const TimeControl control =
          config_.games.engines.front().time_control.value_or(config_.games.time_control);
      setup.x_control = control;
      setup.o_control = control;
      setup.rules = config_.games.rules;
      setup.event = config_.games.event;
      setup.round = std::to_string(pair + 1) + "." + std::to_string(game + 1);
      setup.tablebase = tables_;
      const GameOutcome outcome =
          play_game(setup, plus_is_x ? plus_ : minus_, plus_is_x ? minus_ : plus_, &halt);
      if (outcome.aborted) return std::nullopt;
      const GameResult result = outcome.record.result;
      if (result == GameResult::Draw || result == GameResult::Unfinished) {
        ++report.draws;
      } else if ((result == GameResult::XWins) == plus_is_x) {
        ++report.wins;
      } else {
        ++report.losses;
      }
    }
    report.result = report.wins - report.losses;
    return report;
  }

  void set_tables(const tb::Tablebase* tables) { tables_ = tables; }

 private:
  static EngineConfig named(EngineConfig engine, const std::string& side) {
    engine.name += side;
    return engine;
  }

  void prepare(EngineClient& client, const std::vector<double>& values) {
    if (!client.alive() && !client.start(config_.games.rules.stall_timeout)) {
      // play_game starts it again and records the failure as the game's loss.
      return;
    }
    check_declared(client);
    for (std::size_t i = 0; i < values.size(); ++i)
      client.set_option(config_.parameters[i].name, std::to_string(spin_value(values[i])));
  }

  // Every tuned parameter must be a spin option of the engine whose range holds the parameter's:
  // a name the engine does not know would tune nothing, and silently.
  void check_declared(const EngineClient& client) {
    if (checked_) return;
    for (const SpsaParameter& parameter : config_.parameters) {
      const auto& declared = client.declared_options();
      const auto found = std::find_if(
          declared.begin(), declared.end(),
          [&](const uqi::OptionLine& option) { return option.name == parameter.name; });
      if (found == declared.end())
        throw std::invalid_argument("--param " + parameter.name + ": the engine \"" +
                                    config_.games.engines.front().name +
                                    "\" declares no such option (a search parameter may need "
                                    "the engine's tuning switch, e.g. args=--tune)");
      if (found->type != "spin")
        throw std::invalid_argument("--param " + parameter.name + ": the engine's option is a " +
                                    found->type + ", not a spin option");
      if ((found->min && parameter.min < double(*found->min)) ||
          (found->max && parameter.max > double(*found->max)))
        throw std::invalid_argument("--param " + parameter.name + ": the range [" +
                                    fixed(parameter.min, 0) + ", " + fixed(parameter.max, 0) +
                                    "] is wider than the engine's [" +
                                    std::to_string(found->min.value_or(0)) + ", " +
                                    std::to_string(found->max.value_or(0)) + "]");
    }
    checked_ = true;
  }

  const TuneConfig& config_;
  EngineClient plus_;
  EngineClient minus_;
  const tb::Tablebase* tables_ = nullptr;
  bool checked_ = false;
};

}  // namespace

TuneOutcome run_tune(const TuneConfig& config, const TuneProgress& progress,
                     const std::atomic<bool>& interrupt) {
  if (config.games.engines.size() != 1)
    throw std::invalid_argument("tune plays one engine against itself: give exactly one --engine");
  if (config.games.variant != Variant::TwoPlayer)
    throw std::invalid_argument("tune plays the two-player game only");
  if (config.state_path.empty()) throw std::invalid_argument("tune needs --state FILE");
  if (config.games.concurrency < 1) throw std::invalid_argument("--concurrency must be at least 1");
  const Spsa spsa(config.parameters, config.schedule);
  const std::vector<JournalFile> files = journal_files(config);
  const int own_source = config.games.shard ? config.games.shard->index : 0;
  const std::string own_path = config.games.shard
                                   ? shard_file_path(config.state_path, *config.games.shard)
                                   : config.state_path;

  // Our journal: continued when it is this run's, begun when there is none.
  std::vector<SpsaReport> own_reports;
  if (const std::optional<TuneJournal> journal = read_tune_journal(own_path, own_source)) {
    if (journal->parameters != config.parameters || journal->schedule != config.schedule)
      throw std::invalid_argument("the state file " + own_path +
                                  " is another tuning run's (other parameters or schedule): "
                                  "give another --state, or remove it to start again");
    own_reports = journal->reports;
    // A cut last line is dropped from the file too, so that the next line starts on its own.
    std::string whole = tune_header_line(spsa);
    for (const SpsaReport& report : own_reports) whole += tune_report_line(report);
    replace_file(own_path, whole);
  } else {
    replace_file(own_path, tune_header_line(spsa));
  }
  std::int64_t serial = 0;
  for (const SpsaReport& report : own_reports) serial = std::max(serial, report.serial + 1);

  const std::uint64_t shard_seed = config.seed ^ (std::uint64_t(own_source) * 0x9E3779B97F4A7C15u) ^
                                   std::uint64_t(serial) * 0xBF58476D1CE4E5B9u;
  std::mt19937_64 random(shard_seed);
  std::unique_ptr<tb::Tablebase> tables;
  if (!config.games.tablebase_path.empty()) {
    tables = std::make_unique<tb::Tablebase>();
    for (const std::string& refused : load_tables(config.games.tablebase_path, *tables))
      progress("warning: --tb: " + refused);
  }
  const std::int64_t total = config.schedule.iterations;
  const std::vector<std::size_t> opening_order =
      config.games.openings.empty()
          ? std::vector<std::size_t>()
          : opening_sequence(config.games.openings.size(), config.games.opening_order,
                             config.games.opening_seed, config.games.opening_offset,
                             std::size_t(total));

  std::mutex mutex;
  std::int64_t in_play = 0;
  std::int64_t played = 0;
  std::atomic<bool> halt{false};
  std::exception_ptr failure;
  // Every shard's reports, ours from memory and the others' from their journals.
  const auto all_reports = [&] {
    std::vector<SpsaReport> reports = own_reports;
    for (const JournalFile& file : files) {
      if (file.source == own_source) continue;
      try {
        if (const auto journal = read_tune_journal(file.path, file.source))
          if (journal->parameters == config.parameters && journal->schedule == config.schedule)
            reports.insert(reports.end(), journal->reports.begin(), journal->reports.end());
      } catch (const std::exception&) {
        // A shard's file caught mid-write on a network file system: read again next time.
      }
    }
    sort_reports(reports);
    return reports;
  };
  const auto write_outputs = [&](const std::vector<SpsaReport>& reports) {
    if (!config.csv_path.empty()) replace_file(config.csv_path, tune_csv(spsa, reports));
    if (!config.html_path.empty())
      replace_file(config.html_path, tune_html(spsa, reports, config.games.engines.front().name));
  };

  {
    const std::vector<SpsaReport> reports = all_reports();
    progress(
        "Tuning " + std::to_string(config.parameters.size()) + " parameters of " +
        config.games.engines.front().name + " over " + std::to_string(total) + " game pairs" +
        (reports.empty() ? std::string() : ", resumed after " + std::to_string(reports.size())) +
        ": " + theta_text(spsa, spsa.replay(reports)));
  }

  const auto slot_loop = [&] {
    try {
      TuneSlot slot(config, default_launcher());
      slot.set_tables(tables.get());
      for (;;) {
        SpsaProbe probe;
        std::int64_t pair = 0;
        {
          const std::lock_guard lock(mutex);
          if (halt || interrupt) return;
          const std::vector<SpsaReport> reports = all_reports();
          const std::int64_t done = std::int64_t(reports.size());
          if (done + in_play >= total) return;
          // fishtest's dispatch: the pair is played around the theta of the reports in, with the
          // schedule at the next iteration.
          probe = spsa.probe(spsa.replay(reports), done + 1, random);
          pair = done + in_play;
          ++in_play;
        }
        const Opening opening =
            opening_order.empty()
                ? Opening{std::string(kStartPosition), {}}
                : config.games.openings[opening_order[std::size_t(pair) % opening_order.size()]];
        std::optional<SpsaReport> report = slot.play(probe, opening, pair, halt);
        const std::lock_guard lock(mutex);
        --in_play;
        if (!report || interrupt) return;
        report->source = own_source;
        report->serial = serial++;
        write_durably(own_path, tune_report_line(*report), true);
        own_reports.push_back(*report);
        ++played;
        const std::vector<SpsaReport> reports = all_reports();
        const bool last = std::int64_t(reports.size()) >= total;
        if (last || (config.report_interval > 0 &&
                     std::int64_t(reports.size()) % config.report_interval == 0)) {
          write_outputs(reports);
          progress("Pairs " + std::to_string(reports.size()) + "/" + std::to_string(total) + ": " +
                   theta_text(spsa, spsa.replay(reports)));
        }
      }
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      halt = true;
    }
  };
  // The interrupt is watched here too, so that games in play stop between moves.
  std::vector<std::thread> threads;
  for (int i = 0; i < config.games.concurrency; ++i) threads.emplace_back(slot_loop);
  std::thread watcher([&] {
    while (!halt) {
      if (interrupt) halt = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  for (std::thread& thread : threads) thread.join();
  halt = true;
  watcher.join();
  if (failure) std::rethrow_exception(failure);

  TuneOutcome outcome;
  outcome.reports = all_reports();
  outcome.theta = spsa.replay(outcome.reports);
  outcome.pairs_played = played;
  outcome.end =
      std::int64_t(outcome.reports.size()) >= total ? TuneEnd::Completed : TuneEnd::Interrupted;
  write_outputs(outcome.reports);
  return outcome;
}

}  // namespace quixo::arena
