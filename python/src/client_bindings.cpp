// The engine client and the PGN code of quixo-arena (client/), for quixo.engine and quixo.pgn:
// Python reaches engines through the same process handling, UQI parsing and timeouts as the
// arena, and reads and writes the arena's PGN with its own reader and writer.
#include "client_bindings.hpp"

#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine_client.hpp"
#include "game_record.hpp"
#include "pgn_reader.hpp"
#include "pgn_writer.hpp"

namespace py = pybind11;

namespace quixo::python {

namespace {

using arena::EngineClient;
using arena::EngineConfig;
using arena::MoveReply;

py::dict info_dict(const uqi::InfoLine& info) {
  py::dict out;
  if (info.depth) out["depth"] = *info.depth;
  if (info.selective_depth) out["seldepth"] = *info.selective_depth;
  if (info.multipv) out["multipv"] = *info.multipv;
  if (info.time_ms) out["time"] = double(*info.time_ms) / 1000.0;
  if (info.nodes) out["nodes"] = *info.nodes;
  if (info.nodes_per_second) out["nps"] = *info.nodes_per_second;
  if (info.hashfull) out["hashfull"] = *info.hashfull;
  if (info.tbhits) out["tbhits"] = *info.tbhits;
  if (info.score_cp) out["score"] = *info.score_cp;
  if (info.score_mate) out["mate"] = *info.score_mate;
  if (info.bound == uqi::ScoreBound::Lower) out["lowerbound"] = true;
  if (info.bound == uqi::ScoreBound::Upper) out["upperbound"] = true;
  if (info.currmove) out["currmove"] = *info.currmove;
  if (info.currmovenumber) out["currmovenumber"] = *info.currmovenumber;
  if (!info.pv.empty()) out["pv"] = info.pv;
  if (info.string) out["string"] = *info.string;
  return out;
}

template <class T>
std::optional<T> optional_item(const py::dict& limits, const char* key) {
  if (!limits.contains(key) || limits[key].is_none()) return std::nullopt;
  return limits[key].cast<T>();
}

arena::GoLimits fixed_limits(const py::dict& limits) {
  arena::GoLimits own;
  own.move_time_ms = optional_item<std::int64_t>(limits, "move_time_ms");
  own.depth = optional_item<int>(limits, "depth");
  own.nodes = optional_item<std::uint64_t>(limits, "nodes");
  own.moves_to_go = optional_item<int>(limits, "moves_to_go");
  own.infinite = optional_item<bool>(limits, "infinite").value_or(false);
  return own;
}

// One engine process behind quixo-arena's client. Every call that waits for the engine releases
// the GIL; the `info` lines are gathered in C++ and handed over at the end.
class EngineHandle {
 public:
  EngineHandle(std::vector<std::string> command, std::string working_directory, std::string name)
      : config_(make_config(std::move(command), std::move(working_directory), std::move(name))),
        client_(std::make_unique<EngineClient>(config_)) {}

  void start(double timeout_s) {
    bool started = false;
    {
      py::gil_scoped_release unlocked;
      started = client_->start(milliseconds(timeout_s));
    }
    if (!started) throw EngineFailure(client_->last_error());
  }

  std::string id_name() const { return client_->id_name(); }

  std::vector<py::dict> options() const {
    std::vector<py::dict> options;
    for (const uqi::OptionLine& line : client_->declared_options()) {
      py::dict option;
      option["name"] = line.name;
      option["type"] = line.type;
      option["default"] =
          line.default_value ? py::object(py::str(*line.default_value)) : py::object(py::none());
      option["min"] = line.min ? py::object(py::int_(*line.min)) : py::object(py::none());
      option["max"] = line.max ? py::object(py::int_(*line.max)) : py::object(py::none());
      option["var"] = line.vars;
      options.push_back(option);
    }
    return options;
  }

  void set_option(const std::string& name, const std::string& value) {
    bool sent = false;
    {
      py::gil_scoped_release unlocked;
      sent = client_->set_option(name, value);
    }
    if (!sent) throw EngineFailure(client_->last_error());
  }

  void new_game(double timeout_s) {
    bool ready = false;
    {
      py::gil_scoped_release unlocked;
      ready = client_->new_game(milliseconds(timeout_s));
    }
    if (!ready) throw EngineFailure(client_->last_error());
  }

  // `position <position_arguments>` and a `go` with `limits` (move_time_ms, depth, nodes,
  // infinite, moves_to_go, and the clocks: x_time_ms, o_time_ms, x_increment_ms,
  // o_increment_ms for two players; seat_time_ms, seat_increment_ms lists for four). Returns
  // (status, move, ponder, infos); status is "move", "timeout" or "disconnected".
  py::tuple go(const std::string& position_arguments, const py::dict& limits, int seat_count,
               int mover, double deadline_s) {
    std::vector<uqi::InfoLine> infos;
    arena::SearchWatch watch;
    watch.on_info = [&infos](const uqi::InfoLine& info) { infos.push_back(info); };
    MoveReply reply;
    if (seat_count == 2) {
      arena::GoRequest request;
      request.own = fixed_limits(limits);
      request.mover_is_x = mover == 0;
      const auto x_time = optional_item<std::int64_t>(limits, "x_time_ms");
      const auto o_time = optional_item<std::int64_t>(limits, "o_time_ms");
      const auto x_increment = optional_item<std::int64_t>(limits, "x_increment_ms");
      const auto o_increment = optional_item<std::int64_t>(limits, "o_increment_ms");
      arena::GoLimits& x_side = request.mover_is_x ? request.own : request.other;
      arena::GoLimits& o_side = request.mover_is_x ? request.other : request.own;
      x_side.time_ms = x_time;
      o_side.time_ms = o_time;
      if (x_time) x_side.increment_ms = x_increment.value_or(0);
      if (o_time) o_side.increment_ms = o_increment.value_or(0);
      py::gil_scoped_release unlocked;
      reply = client_->go(position_arguments, request, milliseconds(deadline_s), &watch);
    } else {
      arena::GoRequest4 request;
      request.mover = mover;
      const auto times = optional_item<std::vector<std::int64_t>>(limits, "seat_time_ms");
      const auto increments = optional_item<std::vector<std::int64_t>>(limits, "seat_increment_ms");
      for (std::size_t seat = 0; seat < 4; ++seat) {
        if (times && seat < times->size()) {
          request.seats[seat].time_ms = (*times)[seat];
          request.seats[seat].increment_ms =
              increments && seat < increments->size() ? (*increments)[seat] : 0;
        }
      }
      const arena::GoLimits fixed = fixed_limits(limits);
      arena::GoLimits& own = request.seats[std::size_t(mover)];
      own.move_time_ms = fixed.move_time_ms;
      own.depth = fixed.depth;
      own.nodes = fixed.nodes;
      own.infinite = fixed.infinite;
      py::gil_scoped_release unlocked;
      reply = client_->go(position_arguments, request, milliseconds(deadline_s), &watch);
    }
    const char* status = reply.status == MoveReply::Status::Move      ? "move"
                         : reply.status == MoveReply::Status::Timeout ? "timeout"
                                                                      : "disconnected";
    py::list info_list;
    for (const uqi::InfoLine& info : infos) info_list.append(info_dict(info));
    return py::make_tuple(status, reply.move, reply.ponder, info_list, client_->last_error());
  }

  bool stop(double grace_s) {
    py::gil_scoped_release unlocked;
    return client_->stop_search(milliseconds(grace_s));
  }
  bool alive() {
    py::gil_scoped_release unlocked;
    return client_->alive();
  }
  void quit() {
    py::gil_scoped_release unlocked;
    client_->quit();
  }

 private:
  static EngineConfig make_config(std::vector<std::string> command, std::string directory,
                                  std::string name) {
    if (command.empty()) throw py::value_error("the engine's command is empty");
    EngineConfig config;
    config.name = name.empty() ? command.front() : std::move(name);
    config.process.command = command.front();
    config.process.args.assign(command.begin() + 1, command.end());
    config.process.working_directory = std::move(directory);
    return config;
  }
  static std::chrono::milliseconds milliseconds(double seconds) {
    if (!(seconds > 0)) throw py::value_error("timeouts must be positive seconds");
    return std::chrono::milliseconds(std::int64_t(seconds * 1000.0));
  }

  EngineConfig config_;
  std::unique_ptr<EngineClient> client_;
};

// PGN games as dicts: the arena's GameRecord, field by field.
py::dict move_dict(const arena::MoveRecord& move) {
  py::dict out;
  out["move"] = move.move;
  out["score"] = move.score_cp ? py::object(py::int_(*move.score_cp)) : py::object(py::none());
  out["mate"] = move.score_mate ? py::object(py::int_(*move.score_mate)) : py::object(py::none());
  out["depth"] = move.depth ? py::object(py::int_(*move.depth)) : py::object(py::none());
  out["time"] = double(move.time_ms) / 1000.0;
  out["nodes"] = move.nodes ? py::object(py::int_(*move.nodes)) : py::object(py::none());
  out["comment"] = move.comment;
  return out;
}

py::dict game_dict(const arena::GameRecord& game) {
  py::dict out;
  out["event"] = game.event;
  out["site"] = game.site;
  out["date"] = game.date;
  out["round"] = game.round;
  out["x"] = game.x_name;
  out["o"] = game.o_name;
  out["start_position"] = game.start_position;
  out["opening_moves"] = game.opening_moves;
  py::list moves;
  for (const arena::MoveRecord& move : game.moves) moves.append(move_dict(move));
  out["moves"] = moves;
  out["time_control"] = game.time_control;
  out["result"] = std::string(arena::result_text(game.result));
  out["termination"] = std::string(arena::termination_name(game.termination));
  out["reason"] = game.reason;
  if (game.four_player) {
    out["seating"] = std::string(arena::seating_name(game.four_player->seating));
    out["seats"] =
        std::vector<std::string>(game.four_player->names.begin(), game.four_player->names.end());
  }
  return out;
}

template <class T>
T item_or(const py::dict& dict, const char* key, T fallback) {
  if (!dict.contains(key) || dict[key].is_none()) return fallback;
  return dict[key].cast<T>();
}

arena::GameRecord game_record(const py::dict& game) {
  arena::GameRecord record;
  record.event = item_or<std::string>(game, "event", record.event);
  record.site = item_or<std::string>(game, "site", "");
  record.date = item_or<std::string>(game, "date", "");
  record.round = item_or<std::string>(game, "round", "");
  record.x_name = item_or<std::string>(game, "x", "");
  record.o_name = item_or<std::string>(game, "o", "");
  record.start_position = item_or<std::string>(game, "start_position", "5/5/5/5/5 x");
  record.opening_moves = item_or<std::vector<std::string>>(game, "opening_moves", {});
  if (game.contains("moves"))
    for (const py::handle& item : game["moves"].cast<py::list>()) {
      arena::MoveRecord move;
      if (py::isinstance<py::str>(item)) {
        move.move = item.cast<std::string>();
      } else {
        const py::dict entry = item.cast<py::dict>();
        move.move = item_or<std::string>(entry, "move", "");
        if (entry.contains("score") && !entry["score"].is_none())
          move.score_cp = entry["score"].cast<int>();
        if (entry.contains("mate") && !entry["mate"].is_none())
          move.score_mate = entry["mate"].cast<int>();
        if (entry.contains("depth") && !entry["depth"].is_none())
          move.depth = entry["depth"].cast<int>();
        move.time_ms = std::int64_t(item_or<double>(entry, "time", 0.0) * 1000.0);
        if (entry.contains("nodes") && !entry["nodes"].is_none())
          move.nodes = entry["nodes"].cast<std::uint64_t>();
        move.comment = item_or<std::string>(entry, "comment", "");
      }
      if (move.move.empty()) throw py::value_error("a move of the game has no text");
      record.moves.push_back(std::move(move));
    }
  record.time_control = item_or<std::string>(game, "time_control", "");
  const std::string result = item_or<std::string>(game, "result", "*");
  const auto parsed_result = arena::parse_result_text(result);
  if (!parsed_result) throw py::value_error("result must be 1-0, 0-1, 1/2-1/2 or *: " + result);
  record.result = *parsed_result;
  const std::string termination = item_or<std::string>(
      game, "termination",
      record.result == arena::GameResult::Unfinished ? "unterminated" : "line");
  const auto parsed_termination = arena::parse_termination(termination);
  if (!parsed_termination) throw py::value_error("unknown termination: " + termination);
  record.termination = *parsed_termination;
  record.reason = item_or<std::string>(game, "reason", "");
  if (game.contains("seats") && !game["seats"].is_none()) {
    const auto names = game["seats"].cast<std::vector<std::string>>();
    if (names.size() != 4) throw py::value_error("seats must name the four seats' players");
    arena::FourPlayerSeats seats;
    const auto seating = arena::parse_seating(item_or<std::string>(game, "seating", "per-seat"));
    if (!seating) throw py::value_error("seating must be per-seat or per-team");
    seats.seating = *seating;
    for (std::size_t i = 0; i < 4; ++i) seats.names[i] = names[i];
    record.four_player = seats;
  }
  return record;
}

}  // namespace

void bind_client(py::module_& module) {
  py::register_exception<EngineFailure>(module, "EngineError", PyExc_RuntimeError);
  py::register_exception<arena::PgnError>(module, "PgnError", PyExc_ValueError);

  py::class_<EngineHandle>(module, "_EngineHandle")
      .def(py::init<std::vector<std::string>, std::string, std::string>(), py::arg("command"),
           py::arg("working_directory") = std::string(), py::arg("name") = std::string())
      .def("start", &EngineHandle::start, py::arg("timeout"))
      .def("id_name", &EngineHandle::id_name)
      .def("options", &EngineHandle::options)
      .def("set_option", &EngineHandle::set_option, py::arg("name"), py::arg("value"))
      .def("new_game", &EngineHandle::new_game, py::arg("timeout"))
      .def("go", &EngineHandle::go, py::arg("position"), py::arg("limits"), py::arg("seat_count"),
           py::arg("mover"), py::arg("deadline"))
      .def("stop", &EngineHandle::stop, py::arg("grace"))
      .def("alive", &EngineHandle::alive)
      .def("quit", &EngineHandle::quit);

  module.def(
      "_parse_pgn",
      [](const std::string& text) {
        std::vector<arena::GameRecord> games;
        {
          py::gil_scoped_release unlocked;
          games = arena::parse_pgn(text, arena::PgnReading::Annotated);
        }
        py::list out;
        for (const arena::GameRecord& game : games) out.append(game_dict(game));
        return out;
      },
      py::arg("text"));
  // The full form (each move's report as a comment, as the arena writes its games) or, with
  // `reports` false, the short one.
  module.def(
      "_format_pgn",
      [](const py::dict& game, bool reports) {
        return arena::format_pgn(game_record(game),
                                 reports ? arena::PgnStyle::Full : arena::PgnStyle::Min);
      },
      py::arg("game"), py::arg("reports") = true);
}

}  // namespace quixo::python
