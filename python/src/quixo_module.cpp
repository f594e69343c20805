// The extension module `quixo._quixo`: the rules core, the search and the endgame tables for
// Python. One class template serves both games (Board and Board4); the Python package around it
// (python/quixo/) adds what is plain Python.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "client_bindings.hpp"
#include "core/game.hpp"
#include "core/notation.hpp"
#include "core/perft.hpp"
#include "core/playout.hpp"
#include "core/position.hpp"
#include "core/position4.hpp"
#include "core/symmetry.hpp"
#include "game_record.hpp"
#include "search/engine.hpp"
#include "search/engine4.hpp"
#include "search/score.hpp"
#include "tb/tablebase.hpp"

namespace py = pybind11;

namespace quixo::python {

namespace {

constexpr int kRows = kBoardSize;
// How often a search in this process looks whether Python asked to give it up (Ctrl-C).
constexpr std::chrono::milliseconds kCancelPoll{20};
// perft and divide up to this depth run on the caller's thread, without Ctrl-C (interruptible).
constexpr int kInlinePerftDepth = 3;

// What differs between the games, for the one Board template.
template <class P>
struct GameTraits;

template <>
struct GameTraits<Position> {
  using MoveT = Move;
  using EngineT = Engine;
  static constexpr std::string_view kStart = kStartPosition;
  static constexpr int kMoveSlots = kSlideCount;
  static Position parse(std::string_view text) { return parse_position(text); }
  static int mover(const Position& position) { return int(position.side_to_move()); }
  // 1 for an X cube, -1 for an O cube.
  static std::int8_t cell(const Position& position, Square square) {
    if (position.cubes(Color::X) & square_bb(square)) return 1;
    if (position.cubes(Color::O) & square_bb(square)) return -1;
    return 0;
  }
  static int slot(const Position&, Move move) { return move.slide(); }
  static auto history_key(const Position& position) { return position.key(); }
};

template <>
struct GameTraits<Position4> {
  using MoveT = Move4;
  using EngineT = Engine4;
  static constexpr std::string_view kStart = kStartPosition4;
  // A slide with the cube pointing to the mover, then the same with it pointing to the partner.
  static constexpr int kMoveSlots = 2 * kSlideCount;
  static Position4 parse(std::string_view text) { return parse_position4(text); }
  // Seats as the notation numbers them, 1-4.
  static int mover(const Position4& position) { return position.seat_to_move() + 1; }
  // The seat the cube points to (1-4).
  static std::int8_t cell(const Position4& position, Square square) {
    for (Seat seat = 0; seat < kSeatCount; ++seat)
      if (position.cubes_pointing_to(seat) & square_bb(square)) return std::int8_t(seat + 1);
    return 0;
  }
  static int slot(const Position4& position, Move4 move) {
    if (move.is_pass()) return -1;
    return move.slide() + (move.point() == position.seat_to_move() ? 0 : kSlideCount);
  }
  static auto history_key(const Position4& position) { return position.key(); }
};

// The squares in the order of a board printed with rank 5 on top: row 0 is rank 5, column 0 file a.
constexpr Square square_at(int row, int column) {
  return make_square(column, kRows - 1 - row);
}

// "1-0", "0-1" or "*", as the arena's PGN writes results.
std::string result_text(Outcome outcome) {
  using arena::GameResult;
  return std::string(arena::result_text(outcome == Outcome::XWins   ? GameResult::XWins
                                        : outcome == Outcome::OWins ? GameResult::OWins
                                                                    : GameResult::Unfinished));
}

// Runs `work(cancel)` on a thread of its own while the calling thread, taking the GIL between
// waits, lets Python see its signals every 50 ms: Ctrl-C sets `cancel`, waits for the work to
// give up and raises KeyboardInterrupt, so a long perft or search from Python can be stopped.
template <class Work>
auto interruptible(Work work) {
  std::atomic<bool> cancel{false};
  auto result = std::async(std::launch::async, [&work, &cancel] { return work(cancel); });
  for (;;) {
    bool done = false;
    {
      py::gil_scoped_release unlocked;
      done = result.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready;
    }
    if (done) return result.get();
    if (PyErr_CheckSignals() != 0) {
      cancel = true;
      {
        py::gil_scoped_release unlocked;
        result.wait();
      }
      throw py::error_already_set();
    }
  }
}

// The Python strings of the moves, made once (interned, and kept for the life of the process):
// a list of legal moves is then references to them rather than new strings, which made up most of
// a Python playout's time.
py::handle move_name(Move move) {
  static const std::vector<py::handle> names = [] {
    std::vector<py::handle> table;
    for (int slide = 0; slide < kSlideCount; ++slide)
      table.push_back(PyUnicode_InternFromString(to_string(Move(SlideIndex(slide))).c_str()));
    return table;
  }();
  return names[move.slide()];
}

py::handle move_name(Move4 move) {
  static const std::vector<py::handle> names = [] {
    std::vector<py::handle> table;
    for (int slide = 0; slide < kSlideCount; ++slide)
      for (Seat point = 0; point < kSeatCount; ++point)
        table.push_back(
            PyUnicode_InternFromString(to_string(Move4(SlideIndex(slide), point)).c_str()));
    table.push_back(PyUnicode_InternFromString(to_string(Move4::pass()).c_str()));
    return table;
  }();
  return names[move.is_pass() ? names.size() - 1
                              : std::size_t(move.slide()) * kSeatCount + std::size_t(move.point())];
}

template <class P>
class BoardOf {
 public:
  using Traits = GameTraits<P>;
  using MoveT = typename Traits::MoveT;

  explicit BoardOf(const std::string& text) : position_(Traits::parse(text)) {}
  explicit BoardOf(const P& position) : position_(position) {}

  const P& position() const { return position_; }
  std::string text() const { return to_string(position_); }
  int turn() const { return Traits::mover(position_); }
  bool is_game_over() const { return position_.is_game_over(); }
  std::string result() const { return result_text(position_.outcome()); }
  std::string outcome() const { return to_string(position_.outcome()); }

  py::list legal_moves() const {
    const auto moves = position_.legal_moves();
    py::list names(moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i)
      names[i] = py::reinterpret_borrow<py::object>(move_name(moves[i]));
    return names;
  }
  bool is_legal(const std::string& text) const {
    try {
      (void)parse_move(position_, text);
      return true;
    } catch (const NotationError&) {
      return false;
    }
  }

  void push(const std::string& text) {
    const MoveT move = parse_move(position_, text);  // NotationError (ValueError) if illegal
    earlier_.push_back(position_);
    moves_.push_back(move);
    position_ = position_.after(move);
  }
  std::string pop() {
    if (moves_.empty()) throw py::index_error("pop from a board with no moves");
    const std::string text = to_string(moves_.back());
    position_ = earlier_.back();
    earlier_.pop_back();
    moves_.pop_back();
    return text;
  }
  // The position before the first move of the stack: with move_stack(), what `position fen ...
  // moves ...` sends an engine.
  BoardOf root() const { return BoardOf(earlier_.empty() ? position_ : earlier_.front()); }

  // A game of random legal moves from here (on a copy) to its end or `max_plies`: the result
  // ("1-0", "0-1", or "*" at the cap), in one call (core/playout.hpp).
  std::string random_playout(std::uint64_t seed, int max_plies) const {
    if (max_plies < 0) throw py::value_error("max_plies must not be negative");
    return result_text(quixo::random_playout(position_, seed, max_plies));
  }

  std::vector<std::string> move_stack() const {
    std::vector<std::string> texts;
    for (const MoveT& move : moves_) texts.push_back(to_string(move));
    return texts;
  }
  // How often the current position has stood on this board, itself included: the arena calls a
  // draw at three.
  int repetition_count() const {
    int count = 1;
    for (const P& earlier : earlier_) count += earlier == position_ ? 1 : 0;
    return count;
  }

  std::uint64_t perft(int depth) const {
    check_depth(depth);
    // A few plies take microseconds: only deeper counts are worth the thread (some 60 us) that
    // lets Ctrl-C stop them.
    if (depth <= kInlinePerftDepth) return quixo::perft(position_, depth);
    const P position = position_;
    return interruptible([position, depth](const std::atomic<bool>& cancel) {
      return quixo::perft(position, depth, cancel);
    });
  }
  std::vector<std::pair<std::string, std::uint64_t>> divide(int depth) const {
    check_depth(depth);
    const P position = position_;
    const auto count_moves = [position, depth](const std::atomic<bool>& cancel) {
      std::vector<std::pair<MoveT, std::uint64_t>> done;
      quixo::divide(position, depth, cancel,
                    [&done](MoveT move, std::uint64_t count) { done.emplace_back(move, count); });
      return done;
    };
    const std::atomic<bool> never{false};
    const auto counts =
        depth <= kInlinePerftDepth ? count_moves(never) : interruptible(count_moves);
    std::vector<std::pair<std::string, std::uint64_t>> named;
    for (const auto& [move, count] : counts) named.emplace_back(to_string(move), count);
    return named;
  }

  BoardOf transform(int symmetry) const {
    if (symmetry < 0 || symmetry >= kSymmetryCount)
      throw py::value_error("symmetry must be 0-7 (quixo.SYMMETRIES)");
    return BoardOf(quixo::transform(kAllSymmetries[std::size_t(symmetry)], position_));
  }

  py::array_t<std::int8_t> to_array() const {
    py::array_t<std::int8_t> array({kRows, kRows});
    auto cells = array.template mutable_unchecked<2>();
    for (int row = 0; row < kRows; ++row)
      for (int column = 0; column < kRows; ++column)
        cells(row, column) = Traits::cell(position_, square_at(row, column));
    return array;
  }

  py::array_t<bool> legal_move_mask() const {
    py::array_t<bool> mask(Traits::kMoveSlots);
    fill_mask(mask.mutable_data());
    return mask;
  }
  void fill_mask(bool* slots) const {
    std::fill(slots, slots + Traits::kMoveSlots, false);
    for (const MoveT& move : position_.legal_moves()) {
      const int slot = Traits::slot(position_, move);
      if (slot >= 0) slots[slot] = true;
    }
  }

  bool operator==(const BoardOf& other) const { return position_ == other.position_; }

  std::vector<decltype(Traits::history_key(std::declval<P>()))> history_keys() const {
    std::vector<decltype(Traits::history_key(std::declval<P>()))> keys;
    for (const P& earlier : earlier_) keys.push_back(Traits::history_key(earlier));
    return keys;
  }

 private:
  static void check_depth(int depth) {
    if (depth < 0 || depth > 12) throw py::value_error("perft depth must be 0-12");
  }

  P position_;
  std::vector<P> earlier_;
  std::vector<MoveT> moves_;
};

using Board2 = BoardOf<Position>;
using Board4 = BoardOf<Position4>;

// The legal-move masks of many boards at once, one row per board.
template <class P>
py::array_t<bool> legal_move_masks(const std::vector<const BoardOf<P>*>& boards) {
  const py::ssize_t slots = GameTraits<P>::kMoveSlots;
  py::array_t<bool> masks({py::ssize_t(boards.size()), slots});
  bool* rows = masks.mutable_data();
  {
    py::gil_scoped_release unlocked;
    for (std::size_t i = 0; i < boards.size(); ++i) boards[i]->fill_mask(rows + i * slots);
  }
  return masks;
}

// A 5x5 array back into a board: the inverse of to_array().
Board2 board_from_array(py::array_t<std::int8_t, py::array::c_style | py::array::forcecast> array,
                        int turn) {
  if (array.ndim() != 2 || array.shape(0) != kRows || array.shape(1) != kRows)
    throw py::value_error("the array must be 5x5");
  if (turn != 0 && turn != 1) throw py::value_error("turn must be 0 (X) or 1 (O)");
  auto cells = array.unchecked<2>();
  Bitboard x = 0, o = 0;
  for (int row = 0; row < kRows; ++row)
    for (int column = 0; column < kRows; ++column) {
      const std::int8_t cell = cells(row, column);
      if (cell == 1)
        x |= square_bb(square_at(row, column));
      else if (cell == -1)
        o |= square_bb(square_at(row, column));
      else if (cell != 0)
        throw py::value_error("cells must be 1 (X), -1 (O) or 0 (blank)");
    }
  return Board2(Position(x, o, Color(turn)));
}

std::optional<int> mate_in_moves(Score score) {
  if (!is_mate_score(score)) return std::nullopt;
  const int plies = kMateScore - (score > 0 ? score : -score);
  const int moves = (plies + 1) / 2;
  return score > 0 ? moves : -moves;
}

// One in-process search: the engine's own, on threads of its own, with the GIL released while
// it runs. Its reports are gathered in C++ and turned into Python objects at the end.
template <class P>
py::dict search(const BoardOf<P>& board, int depth, std::uint64_t nodes,
                std::optional<double> seconds, int multipv, int threads, int hash_mb,
                std::optional<int> skill_level, std::optional<int> elo, std::uint64_t seed) {
  using Traits = GameTraits<P>;
  using MoveT = typename Traits::MoveT;
  if (board.is_game_over()) throw py::value_error("the game is over: there is nothing to search");
  if (depth < 0 || depth > 100) throw py::value_error("depth must be 0-100 (0: no limit)");
  if (multipv < 1 || multipv > 88) throw py::value_error("multipv must be at least 1");
  if (threads < 1 || threads > 256) throw py::value_error("threads must be 1-256");
  if (hash_mb < 1 || hash_mb > 65536) throw py::value_error("hash_mb must be 1-65536");
  if (seconds && !(*seconds > 0)) throw py::value_error("time must be positive seconds");
  if (depth == 0 && nodes == 0 && !seconds)
    throw py::value_error("give a limit: depth, nodes or time");
  if (skill_level && (*skill_level < 0 || *skill_level > kSkillLevelMax))
    throw py::value_error("skill_level must be 0-" + std::to_string(kSkillLevelMax));
  if (elo && (*elo < 0 || *elo > kEloMax))
    throw py::value_error("elo must be 0-" + std::to_string(kEloMax));

  SearchLimits limits;
  limits.depth = depth;
  limits.nodes = nodes;
  if (seconds) limits.move_time_ms = std::max<std::int64_t>(1, std::int64_t(*seconds * 1000));

  std::vector<BasicSearchInfo<MoveT>> infos;
  MoveT best = MoveT::none(), ponder = MoveT::none();
  std::mutex mutex;
  const P position = board.position();
  const auto history = board.history_keys();
  interruptible([&](const std::atomic<bool>& cancel) {
    typename Traits::EngineT engine;
    EngineOptions options;
    options.threads = threads;
    options.hash_mb = hash_mb;
    options.multipv = multipv;
    // A level, as UCI_LimitStrength/UCI_Elo or Skill Level set it (skill.hpp); the seed makes
    // its random choices repeatable (0: different every time).
    if (elo) {
      options.strength.limit_strength = true;
      options.strength.elo = *elo;
    }
    if (skill_level) options.strength.skill_level = *skill_level;
    options.strength.random_seed = seed;
    engine.set_options(options);
    engine.set_position(position, history);
    BasicSearchCallbacks<MoveT> callbacks;
    callbacks.on_info = [&](const BasicSearchInfo<MoveT>& info) {
      const std::lock_guard lock(mutex);
      infos.push_back(info);
    };
    callbacks.on_bestmove = [&](MoveT chosen, MoveT expected) {
      const std::lock_guard lock(mutex);
      best = chosen;
      ponder = expected;
    };
    engine.go(limits, std::move(callbacks));
    while (engine.searching() && !cancel.load()) std::this_thread::sleep_for(kCancelPoll);
    if (cancel.load()) engine.stop();
    engine.wait();
    return true;
  });

  // The last report of each line. The engine reports every line at once, so these are one
  // report's lines: distinct moves, the first the move played. Its first line's score may be a
  // bound (a move that beat the best before the search stopped), and says so, as python-chess
  // does. Only exact reports were kept before: when the first line of the last report was a
  // bound, the lines mixed two iterations, the best move's line left out and another's twice.
  std::vector<const BasicSearchInfo<MoveT>*> lines(std::size_t(multipv), nullptr);
  for (const auto& info : infos)
    if (info.multipv >= 1 && info.multipv <= multipv) lines[std::size_t(info.multipv - 1)] = &info;
  py::list line_list;
  for (const auto* info : lines) {
    if (!info) continue;
    py::dict line;
    std::vector<std::string> pv;
    for (const MoveT& move : info->pv) pv.push_back(to_string(move));
    line["pv"] = pv;
    line["score"] = info->score;
    line["mate"] = mate_in_moves(info->score);
    line["depth"] = info->depth;
    line["seldepth"] = info->selective_depth;
    line["nodes"] = info->nodes;
    line["time"] = double(info->time_ms) / 1000.0;
    line["multipv"] = info->multipv;
    if (info->bound == Bound::Lower) line["lowerbound"] = true;
    if (info->bound == Bound::Upper) line["upperbound"] = true;
    line_list.append(line);
  }
  py::dict result;
  result["bestmove"] = best.is_none() ? py::object(py::none()) : py::str(to_string(best));
  result["ponder"] = ponder.is_none() ? py::object(py::none()) : py::str(to_string(ponder));
  result["lines"] = line_list;
  if (!line_list.empty()) {
    const py::dict best_line = line_list[0];
    for (const char* key :
         {"score", "mate", "depth", "seldepth", "nodes", "time", "pv", "lowerbound", "upperbound"})
      if (best_line.contains(key)) result[key] = best_line[key];
  }
  return result;
}

py::tuple value_tuple(const tb::TbValue& value) {
  return py::make_tuple(std::string(tb::wdl_name(value.wdl)), value.distance);
}

// The endgame tables of a folder, for probing.
class Tables {
 public:
  explicit Tables(const std::string& folder) {
    const tb::Tablebase::LoadReport report = tables_.load(folder);
    if (report.layers.empty()) {
      std::string why = "no endgame table layer could be loaded from '" + folder + "'";
      for (const std::string& problem : report.problems) why += "; " + problem;
      throw py::value_error(why);
    }
    layers_ = report.layers;
    problems_ = report.problems;
  }
  const std::vector<int>& layers() const { return layers_; }
  const std::vector<std::string>& problems() const { return problems_; }
  std::vector<int> exit_layers() const { return tables_.layers_counting_to_exit(); }

  py::object probe(const Board2& board) const {
    std::optional<tb::TbValue> value;
    {
      py::gil_scoped_release unlocked;
      value = tables_.probe(board.position());
    }
    return value ? py::object(value_tuple(*value)) : py::object(py::none());
  }
  py::object probe_moves(const Board2& board) const {
    std::optional<std::vector<tb::MoveValue>> values;
    {
      py::gil_scoped_release unlocked;
      values = tables_.probe_moves(board.position());
    }
    if (!values) return py::none();
    py::dict moves;
    for (const tb::MoveValue& entry : *values)
      moves[py::str(to_string(entry.move))] = value_tuple(entry.value);
    return moves;
  }

 private:
  tb::Tablebase tables_;
  std::vector<int> layers_;
  std::vector<std::string> problems_;
};

template <class P>
py::class_<BoardOf<P>> bind_board(py::module_& module, const char* name, const char* doc) {
  using BoardT = BoardOf<P>;
  py::class_<BoardT> board_class(module, name, doc);
  board_class
      .def(py::init<const std::string&>(), py::arg("text") = std::string(GameTraits<P>::kStart))
      .def("text", &BoardT::text, "The position in the project's notation.")
      .def("__str__", &BoardT::text)
      .def("__repr__",
           [name](const BoardT& board) { return std::string(name) + "('" + board.text() + "')"; })
      .def_property_readonly("turn", &BoardT::turn)
      .def("legal_moves", &BoardT::legal_moves)
      .def("is_legal", &BoardT::is_legal, py::arg("move"))
      .def("push", &BoardT::push, py::arg("move"))
      .def("pop", &BoardT::pop)
      .def_property_readonly("move_stack", &BoardT::move_stack)
      .def("root", &BoardT::root)
      .def("random_playout", &BoardT::random_playout, py::arg("seed") = 0,
           py::arg("max_plies") = 200)
      .def("is_game_over", &BoardT::is_game_over)
      .def("result", &BoardT::result)
      .def("outcome", &BoardT::outcome)
      .def("repetition_count", &BoardT::repetition_count)
      .def("perft", &BoardT::perft, py::arg("depth"))
      .def("divide", &BoardT::divide, py::arg("depth"))
      .def("transform", &BoardT::transform, py::arg("symmetry"))
      .def("to_array", &BoardT::to_array)
      .def("legal_move_mask", &BoardT::legal_move_mask)
      .def("copy", [](const BoardT& board) { return BoardT(board); })
      .def("__copy__", [](const BoardT& board) { return BoardT(board); })
      .def("__deepcopy__", [](const BoardT& board, py::dict) { return BoardT(board); })
      .def("__eq__", [](const BoardT& a, const BoardT& b) { return a == b; })
      .def("__hash__", [](const BoardT& board) { return std::hash<std::string>{}(board.text()); })
      .def(py::pickle([](const BoardT& board) { return board.text(); },
                      [](const std::string& text) { return BoardT(text); }));
  module.def("_legal_move_masks", &legal_move_masks<P>, py::arg("boards"));
  module.def("_search", &search<P>, py::arg("board"), py::arg("depth") = 0, py::arg("nodes") = 0,
             py::arg("time") = py::none(), py::arg("multipv") = 1, py::arg("threads") = 1,
             py::arg("hash_mb") = 16, py::arg("skill_level") = py::none(),
             py::arg("elo") = py::none(), py::arg("seed") = 0);
  return board_class;
}

}  // namespace

}  // namespace quixo::python

PYBIND11_MODULE(_quixo, module) {
  using namespace quixo;
  using namespace quixo::python;
  module.doc() = "The Quixo rules core, search and endgame tables (C++).";
  py::register_exception<NotationError>(module, "NotationError", PyExc_ValueError);

  // Symmetries, keys and arrays back into boards: the two-player game's (the tables and the
  // learning code are two-player).
  bind_board<Position>(module, "Board", "A two-player Quixo position with its move stack.")
      .def_static("from_array", &board_from_array, py::arg("array"), py::arg("turn") = 0)
      .def("key", [](const Board2& board) { return board.position().key(); })
      .def("canonical",
           [](const Board2& board) {
             const CanonicalForm form = canonical_form(board.position());
             return py::make_tuple(Board2(form.position), int(form.symmetry));
           })
      .def("canonical_key", [](const Board2& board) { return canonical(board.position()).key(); });
  bind_board<Position4>(module, "Board4",
                        "A four-player (team) Quixo position with its move stack.");

  std::vector<std::pair<std::string, std::string>> slides;
  for (const Slide& slide : kSlides)
    slides.emplace_back(square_name(slide.from), square_name(slide.to));
  module.attr("SLIDES") = slides;
  module.attr("SKILL_LEVEL_MAX") = kSkillLevelMax;
  module.attr("ELO_MAX") = kEloMax;

  bind_client(module);

  py::class_<Tables>(module, "Tables", "The endgame tables of a folder (quixo-b0.qtb, ...).")
      .def(py::init<const std::string&>(), py::arg("folder"))
      .def_property_readonly("layers", &Tables::layers)
      .def_property_readonly("problems", &Tables::problems)
      .def_property_readonly("exit_layers", &Tables::exit_layers,
                             "The layers whose distances count plies to the layer's exit (a blank "
                             "taken), not to the end: quixo-tb generate --distance-to exit.")
      .def("probe", &Tables::probe, py::arg("board"))
      .def("probe_moves", &Tables::probe_moves, py::arg("board"));
}
