#include "gui_game.hpp"

#include <algorithm>
#include <ctime>
#include <stdexcept>

#include "core/notation.hpp"
#include "utc_text.hpp"

namespace quixo::gui {
namespace {

std::int64_t elapsed_ms(SteadyTime from, SteadyTime to) {
  return std::max<std::int64_t>(
      0, std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count());
}

bool is_game_clock(const std::optional<arena::TimeControl>& control) {
  return control && control->kind() == arena::TimeControl::Kind::Clock;
}

// "X", "O", "team A (seats 1 and 3)" ...: who the rules' outcome names.
std::string side_name(Variant variant, GameResult winner) {
  const bool x = winner == GameResult::XWins;
  if (variant == Variant::TwoPlayer) return x ? "X" : "O";
  return x ? "team A (X)" : "team B (O)";
}

}  // namespace

std::optional<std::string> unreachable_reason(const Game& position) {
  // The board from the position text (spec.md §3.3): rows of letters and digits, then the side.
  const std::string text = position.text();
  std::string cells;
  std::size_t i = 0;
  for (; i < text.size() && text[i] != ' '; ++i) {
    const char c = text[i];
    if (c >= '1' && c <= '9')
      cells.append(static_cast<std::size_t>(c - '0'), '.');
    else if (c != '/')
      cells += c;
  }
  const std::string side = i < text.size() ? text.substr(i + 1, 1) : "";
  const auto count = [&](std::string_view letters) {
    return std::count_if(cells.begin(), cells.end(),
                         [&](char c) { return letters.find(c) != std::string_view::npos; });
  };
  const bool blank = count(".") == static_cast<std::ptrdiff_t>(cells.size());
  if (position.four_player()) {
    if (blank && side != "1")
      return "seat " + side + " is to move on the empty board: seat 1 moves first";
    if (!blank && count("xX") == 0)
      return std::string("team A has no cube, but seat 1 moved first and its cubes stay");
    return std::nullopt;
  }
  if (blank) {
    if (side == "o") return std::string("O is to move on the empty board: X moves first");
    return std::nullopt;
  }
  if (count("x") == 0)
    return "there is no X cube (" + std::to_string(count("o")) +
           " O cubes): X moves first, and a side's cubes never become fewer";
  if (side == "x" && count("o") == 0)
    return std::string("X is to move, so O has moved, but there is no O cube");
  const char last = side == "x" ? 'o' : 'x';
  bool on_border = false;
  for (std::size_t cell = 0; cell < cells.size(); ++cell) {
    const std::size_t row = cell / 5, column = cell % 5;
    if ((row == 0 || row == 4 || column == 0 || column == 4) && cells[cell] == last)
      on_border = true;
  }
  if (!on_border)
    return std::string(last == 'x' ? "X" : "O") +
           " moved last but has no cube on the border, where the moved cube lands";
  return std::nullopt;
}

std::string player_label(std::string_view player, const Game& position) {
  const std::string name = player == kHuman ? "Person" : std::string(player);
  if (position.four_player()) return name + " (seat " + to_move_text(position) + ")";
  return name + (position.team_to_move() == Color::X ? " (X)" : " (O)");
}

std::string to_move_text(const Game& position) {
  if (const GameLine<Position4>* four = position.four_player())
    return std::to_string(int(four->position.seat_to_move()) + 1);
  return position.team_to_move() == Color::X ? "x" : "o";
}

GuiGame::GuiGame(Variant variant, std::vector<std::string> players,
                 std::optional<arena::TimeControl> time_control, std::string_view start,
                 SteadyTime now)
    : start_(start.empty() ? Game::start(variant) : Game::parse(start)),
      players_(std::move(players)),
      time_control_(std::move(time_control)) {
  if (start_.variant() != variant)
    throw std::invalid_argument("the position \"" + std::string(start) + "\" is not a " +
                                std::string(variant_name(variant)) + " position");
  const std::size_t seats = variant == Variant::TwoPlayer ? 2 : 4;
  if (players_.size() != seats)
    throw std::invalid_argument("a " + std::string(variant_name(variant)) + " game needs " +
                                std::to_string(seats) + " players, not " +
                                std::to_string(players_.size()));
  GuiNode root;
  root.position = start_;
  nodes_.push_back(std::move(root));
  line_.push_back(0);
  levels_.assign(seats, std::nullopt);
  tags_.event = "quixo-gui";
  tags_.date = arena::utc_date();
  if (is_game_clock(time_control_)) clocks_.assign(seats, arena::Clock(*time_control_));
  check_ending();
  restart_clock(now);
}

int GuiGame::mover_index_at(int ply) const {
  const Game& position =
      nodes_[static_cast<std::size_t>(line_[static_cast<std::size_t>(ply)])].position;
  if (const GameLine<Position4>* four = position.four_player())
    return int(four->position.seat_to_move());
  return position.team_to_move() == Color::X ? 0 : 1;
}

bool GuiGame::human_to_move() const {
  if (paused_ || (at_end() && result())) return false;
  if (shown().is_game_over()) return false;
  return mover() == kHuman;
}

bool GuiGame::engine_to_move() const {
  return !paused_ && at_end() && !result() && mover() != kHuman;
}

std::vector<LegalMove> GuiGame::legal_moves() const {
  std::vector<LegalMove> legal;
  if (shown().is_game_over() || (at_end() && result())) return legal;
  if (const GameLine<Position4>* four = shown().four_player()) {
    for (const Move4 move : four->position.legal_moves()) {
      LegalMove entry{to_string(move), {}, {}, {}};
      if (!move.is_pass()) {
        entry.from = square_name(move.from());
        entry.to = square_name(move.to());
        entry.point = std::string(1, cube_letter(move.point()));
      }
      legal.push_back(std::move(entry));
    }
    return legal;
  }
  const Position position = parse_position(shown().text());
  for (const Move move : position.legal_moves())
    legal.push_back({to_string(move), square_name(move.from()), square_name(move.to()), {}});
  return legal;
}

void GuiGame::set_line(int end) {
  line_.clear();
  for (int id = end; id >= 0; id = nodes_[static_cast<std::size_t>(id)].parent) line_.push_back(id);
  std::reverse(line_.begin(), line_.end());
  for (int id = end; !nodes_[static_cast<std::size_t>(id)].children.empty();) {
    id = nodes_[static_cast<std::size_t>(id)].children.front();
    line_.push_back(id);
  }
  moves_.clear();
  for (std::size_t i = 1; i < line_.size(); ++i)
    moves_.push_back(nodes_[static_cast<std::size_t>(line_[i])].move);
}

int GuiGame::depth(int id) const {
  int plies = 0;
  for (; nodes_[static_cast<std::size_t>(id)].parent >= 0;
       id = nodes_[static_cast<std::size_t>(id)].parent)
    ++plies;
  return plies;
}

const GuiNode& GuiGame::checked_node(int id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= nodes_.size() ||
      nodes_[static_cast<std::size_t>(id)].removed)
    throw std::out_of_range("there is no move " + std::to_string(id) + " in the game");
  return nodes_[static_cast<std::size_t>(id)];
}

int GuiGame::add_move(int parent, std::string_view text, GuiMove details) {
  checked_node(parent);
  Game next = nodes_[static_cast<std::size_t>(parent)].position;
  details.move = next.play(text);  // throws NotationError, leaving everything as it was
  details.position = next.text();
  for (const int child : nodes_[static_cast<std::size_t>(parent)].children)
    if (nodes_[static_cast<std::size_t>(child)].move.move == details.move) return child;
  GuiNode entry;
  entry.parent = parent;
  entry.move = std::move(details);
  entry.position = std::move(next);
  const int id = static_cast<int>(nodes_.size());
  nodes_.push_back(std::move(entry));
  nodes_[static_cast<std::size_t>(parent)].children.push_back(id);
  nodes_[static_cast<std::size_t>(id)].result = ending_at(id);
  // A new continuation of the current line's end extends the line.
  if (parent == line_.back()) set_line(node());
  return id;
}

void GuiGame::pause(SteadyTime now) {
  if (paused_) return;
  paused_ = true;
  paused_at_ = now;
}

void GuiGame::resume(SteadyTime now) {
  if (!paused_) return;
  paused_ = false;
  // The running clock's turn started that much later: the pause is not charged.
  if (running_) turn_started_ += now - paused_at_;
}

void GuiGame::play(std::string_view text, GuiMove details, SteadyTime now) {
  if (at_end() && result()) throw NotationError("the game is over: " + result()->reason);
  if (paused_) throw NotationError("the game is paused");
  const int parent = node();
  const std::size_t before = nodes_.size();
  const bool branching = !at_end();
  const int id = add_move(parent, text, std::move(details));  // throws when illegal
  if (nodes_.size() == before) {
    // The move is already in the game: show it.
    go_to_node(id, now);
    return;
  }
  set_line(id);
  if (!branching && running_) {
    // The mover's clock stops with its move; a late move loses on time.
    arena::Clock& clock = clocks_[static_cast<std::size_t>(*running_)];
    const int mover = *running_;
    running_.reset();
    if (!clock.stop_move(elapsed_ms(turn_started_, clock_now(now)))) {
      ply_ = length();
      finish({mover % 2 == 0 ? GameResult::OWins : GameResult::XWins, Termination::TimeForfeit,
              player_label(players_[static_cast<std::size_t>(mover)],
                           nodes_[static_cast<std::size_t>(parent)].position) +
                  " lost on time"});
      return;
    }
  }
  ply_ = length();
  check_ending();
  restart_clock(now);
}

void GuiGame::check_ending() {
  GuiNode& last = nodes_[static_cast<std::size_t>(line_.back())];
  if (!last.result) last.result = ending_at(line_.back());
}

std::optional<GuiResult> GuiGame::ending_at(int id) const {
  const GuiNode& node = nodes_[static_cast<std::size_t>(id)];
  const Game& last = node.position;
  switch (last.outcome()) {
    case Outcome::XWins:
    case Outcome::OWins: {
      const GameResult winner =
          last.outcome() == Outcome::XWins ? GameResult::XWins : GameResult::OWins;
      // The rules' outcome names the winner; the mover may have made the other side's line.
      const bool mover_won =
          node.parent < 0 ? true
                          : nodes_[static_cast<std::size_t>(node.parent)].position.team_to_move() ==
                                (winner == GameResult::XWins ? Color::X : Color::O);
      return GuiResult{winner, Termination::Line,
                       mover_won
                           ? side_name(variant(), winner) + " makes five in a row"
                           : side_name(variant(), winner == GameResult::XWins ? GameResult::OWins
                                                                              : GameResult::XWins) +
                                 " makes a line of the other side's cubes"};
    }
    case Outcome::Ongoing:
      break;
  }
  const std::string text = last.text();
  int repeated = 0;
  for (int at = id; at >= 0; at = nodes_[static_cast<std::size_t>(at)].parent)
    if (nodes_[static_cast<std::size_t>(at)].position.text() == text) ++repeated;
  if (repeated >= 3)
    return GuiResult{GameResult::Draw, Termination::Repetition, "the position occurred 3 times"};
  return std::nullopt;
}

void GuiGame::set_analysis(int index, std::optional<MoveAnalysis> analysis) {
  // moves_ is a copy of the line's nodes: the node keeps it when the line is rebuilt.
  moves_.at(static_cast<std::size_t>(index)).analysis = analysis;
  nodes_[static_cast<std::size_t>(line_[static_cast<std::size_t>(index) + 1])].move.analysis =
      std::move(analysis);
}

void GuiGame::finish(GuiResult result) {
  nodes_[static_cast<std::size_t>(line_.back())].result = std::move(result);
  running_.reset();
  for (arena::Clock& clock : clocks_)
    if (clock.thinking()) clock.stop_move(0);
}

void GuiGame::restart_clock(SteadyTime now) {
  if (clocks_.empty() || running_ || !at_end() || result()) return;
  const int mover = mover_index();
  clocks_[static_cast<std::size_t>(mover)].start_move();
  running_ = mover;
  turn_started_ = clock_now(now);
}

void GuiGame::go_to(int ply, SteadyTime now) {
  if (ply < 0 || ply > length())
    throw std::out_of_range("ply " + std::to_string(ply) + " is not in the game (0.." +
                            std::to_string(length()) + ")");
  if (ply != length()) pause_clock(now);
  ply_ = ply;
  restart_clock(now);
}

void GuiGame::pause_clock(SteadyTime now) {
  if (!running_) return;
  // Looking back pauses the game: the time so far is charged, the clock stops.
  arena::Clock& clock = clocks_[static_cast<std::size_t>(*running_)];
  running_.reset();
  if (!clock.stop_move(elapsed_ms(turn_started_, clock_now(now)))) {
    finish({mover_index() % 2 == 0 ? GameResult::OWins : GameResult::XWins,
            Termination::TimeForfeit, player_label(mover(), shown()) + " lost on time"});
  }
}

void GuiGame::go_to_node(int id, SteadyTime now) {
  checked_node(id);
  const int plies = depth(id);
  if (plies < static_cast<int>(line_.size()) && line_[static_cast<std::size_t>(plies)] == id) {
    go_to(plies, now);
    return;
  }
  pause_clock(now);
  set_line(id);
  ply_ = plies;
  restart_clock(now);
}

void GuiGame::promote(int id) {
  checked_node(id);
  for (int at = id; nodes_[static_cast<std::size_t>(at)].parent >= 0;
       at = nodes_[static_cast<std::size_t>(at)].parent) {
    std::vector<int>& siblings =
        nodes_[static_cast<std::size_t>(nodes_[static_cast<std::size_t>(at)].parent)].children;
    std::rotate(siblings.begin(), std::find(siblings.begin(), siblings.end(), at),
                std::find(siblings.begin(), siblings.end(), at) + 1);
  }
  set_line(line_.back());  // the same line; the main line's order changed around it
}

void GuiGame::remove(int id, SteadyTime now) {
  const GuiNode& target = checked_node(id);
  if (target.parent < 0) throw std::out_of_range("the start of the game cannot be deleted");
  const int parent = target.parent;
  const auto below = [&](int at) {  // `at` is `id` or after it
    for (; at >= 0; at = nodes_[static_cast<std::size_t>(at)].parent)
      if (at == id) return true;
    return false;
  };
  const int shown_id = node();
  const bool shown_goes = below(shown_id);
  const bool line_goes = below(line_.back());
  if (shown_goes) pause_clock(now);
  std::vector<int> stack{id};
  while (!stack.empty()) {
    GuiNode& gone = nodes_[static_cast<std::size_t>(stack.back())];
    stack.pop_back();
    gone.removed = true;
    stack.insert(stack.end(), gone.children.begin(), gone.children.end());
  }
  std::vector<int>& siblings = nodes_[static_cast<std::size_t>(parent)].children;
  siblings.erase(std::find(siblings.begin(), siblings.end(), id));
  if (shown_goes) {
    set_line(parent);
    ply_ = depth(parent);
    restart_clock(now);
  } else {
    set_line(line_goes ? shown_id : line_.back());
  }
}

void GuiGame::set_comment(int id, std::string comment) {
  checked_node(id);
  nodes_[static_cast<std::size_t>(id)].comment = std::move(comment);
}

void GuiGame::set_players(std::vector<std::string> players) {
  if (players.size() != players_.size())
    throw std::invalid_argument("a " + std::string(variant_name(variant())) + " game needs " +
                                std::to_string(players_.size()) + " players, not " +
                                std::to_string(players.size()));
  players_ = std::move(players);
}

void GuiGame::set_result(int id, std::optional<GuiResult> result) {
  checked_node(id);
  nodes_[static_cast<std::size_t>(id)].result = std::move(result);
}

void GuiGame::restore_clocks(const std::vector<std::int64_t>& remaining_ms,
                             const std::vector<int>& moves_to_go, SteadyTime now) {
  if (remaining_ms.size() != clocks_.size() || moves_to_go.size() != clocks_.size())
    throw std::invalid_argument("the saved clocks are not one per player");
  running_.reset();
  for (std::size_t i = 0; i < clocks_.size(); ++i)
    clocks_[i].restore(remaining_ms[i], moves_to_go[i]);
  restart_clock(now);
}

bool GuiGame::take_back(bool to_human_turn, SteadyTime now) {
  int target = length() - 1;
  if (to_human_turn)
    while (target > 0 && players_[static_cast<std::size_t>(mover_index_at(target))] != kHuman)
      --target;
  if (target < 0) return false;
  // The running clock is charged for its time; the side that is to move again starts afresh.
  if (running_) {
    clocks_[static_cast<std::size_t>(*running_)].stop_move(
        elapsed_ms(turn_started_, clock_now(now)));
    running_.reset();
  }
  for (arena::Clock& clock : clocks_)
    if (clock.flagged()) clock = arena::Clock(*time_control_);  // a flag is taken back too
  const int kept = line_[static_cast<std::size_t>(target)];
  const int gone = line_[static_cast<std::size_t>(target) + 1];
  std::vector<int> stack{gone};
  while (!stack.empty()) {
    GuiNode& node = nodes_[static_cast<std::size_t>(stack.back())];
    stack.pop_back();
    node.removed = true;
    stack.insert(stack.end(), node.children.begin(), node.children.end());
  }
  std::vector<int>& siblings = nodes_[static_cast<std::size_t>(kept)].children;
  siblings.erase(std::find(siblings.begin(), siblings.end(), gone));
  // The line ends where the take-back ends, even where the position has other continuations.
  line_.resize(static_cast<std::size_t>(target) + 1);
  moves_.resize(static_cast<std::size_t>(target));
  ply_ = target;
  nodes_[static_cast<std::size_t>(kept)].result.reset();
  check_ending();
  restart_clock(now);
  return true;
}

bool GuiGame::has_clock() const {
  return !clocks_.empty();
}

std::vector<std::int64_t> GuiGame::remaining_ms(SteadyTime now) const {
  std::vector<std::int64_t> left;
  for (std::size_t i = 0; i < clocks_.size(); ++i) {
    std::int64_t ms = clocks_[i].remaining_ms();
    if (running_ && static_cast<std::size_t>(*running_) == i)
      ms -= elapsed_ms(turn_started_, clock_now(now));
    left.push_back(std::max<std::int64_t>(0, ms));
  }
  return left;
}

std::optional<int> GuiGame::running_clock() const {
  return paused_ ? std::nullopt : running_;
}

bool GuiGame::tick(SteadyTime now) {
  if (!running_ || paused_) return false;
  const arena::Clock& clock = clocks_[static_cast<std::size_t>(*running_)];
  if (elapsed_ms(turn_started_, now) <= clock.remaining_ms() + clock.control().margin_ms())
    return false;
  // The time used is charged, so the flagged clock shows nothing left (not its turn's start).
  const int flagged = *running_;
  clocks_[static_cast<std::size_t>(flagged)].stop_move(elapsed_ms(turn_started_, now));
  running_.reset();
  finish({flagged % 2 == 0 ? GameResult::OWins : GameResult::XWins, Termination::TimeForfeit,
          player_label(mover(), shown()) + " lost on time"});
  return true;
}

uqi::GoLimits GuiGame::limits_of(int player, SteadyTime now) const {
  if (!time_control_) {
    uqi::GoLimits limits;
    limits.move_time_ms = 1000;  // no control given: an engine gets a second a move
    return limits;
  }
  if (clocks_.empty()) return arena::Clock(*time_control_).go_limits();
  uqi::GoLimits limits = clocks_.at(static_cast<std::size_t>(player)).go_limits();
  if (limits.time_ms) limits.time_ms = remaining_ms(now)[static_cast<std::size_t>(player)];
  return limits;
}

std::vector<uqi::GoLimits> GuiGame::clock_limits(SteadyTime now) const {
  std::vector<uqi::GoLimits> all;
  const std::vector<std::int64_t> left = remaining_ms(now);
  for (std::size_t i = 0; i < clocks_.size(); ++i) {
    uqi::GoLimits limits = clocks_[i].go_limits();
    limits.time_ms = left[i];
    all.push_back(limits);
  }
  return all;
}

void GuiGame::set_levels(std::vector<std::optional<int>> levels) {
  if (levels.size() != players_.size())
    throw std::invalid_argument("one level per player: " + std::to_string(players_.size()));
  levels_ = std::move(levels);
}

arena::GameRecord GuiGame::record() const {
  arena::GameRecord game = tags_;
  game.start_position = start_.text();
  if (loaded_) {
    // The file's players, tags and time control stay as they were.
  } else if (variant() == Variant::TwoPlayer) {
    game.x_elo = levels_[0];
    game.o_elo = levels_[1];
    game.x_name = players_[0];
    game.o_name = players_[1];
  } else {
    arena::FourPlayerSeats seats;
    for (std::size_t i = 0; i < 4; ++i) seats.names[i] = players_[i];
    game.x_name = players_[0] + "+" + players_[2];
    game.o_name = players_[1] + "+" + players_[3];
    game.four_player = seats;
  }
  if (!loaded_) game.time_control = time_control_ ? time_control_->to_string() : "";
  // The main line (each position's first continuation), the other continuations as variations.
  int last = 0;
  for (int id = 0; !nodes_[static_cast<std::size_t>(id)].children.empty();) {
    id = nodes_[static_cast<std::size_t>(id)].children.front();
    game.moves.push_back(record_move(id));
    last = id;
  }
  if (const std::optional<GuiResult>& result = nodes_[static_cast<std::size_t>(last)].result) {
    game.result = result->result;
    game.termination = result->termination;
    game.reason = result->reason;
  } else {
    game.result = GameResult::Unfinished;  // "*"
    game.termination = Termination::Unterminated;
  }
  return game;
}

arena::MoveRecord GuiGame::record_move(int id) const {
  const GuiNode& node = nodes_[static_cast<std::size_t>(id)];
  arena::MoveRecord record;
  record.move = node.move.move;
  record.score_cp = node.move.score_cp;
  record.score_mate = node.move.score_mate;
  record.depth = node.move.depth;
  record.time_ms = node.move.time_ms;
  record.comment = node.comment;
  // Whole-game analysis's mark, after the person's comment (once: a game read back from its PGN
  // has it in the comment already).
  if (const std::string mark = node.move.analysis ? mark_comment(*node.move.analysis) : "";
      !mark.empty() && !record.comment.ends_with(mark))
    record.comment += (record.comment.empty() ? "" : " ") + mark;
  const std::vector<int>& siblings = nodes_[static_cast<std::size_t>(node.parent)].children;
  if (siblings.front() == id) record.variations = record_variations(node.parent, id);
  return record;
}

std::vector<std::vector<arena::MoveRecord>> GuiGame::record_variations(int parent, int skip) const {
  std::vector<std::vector<arena::MoveRecord>> lines;
  for (const int first : nodes_[static_cast<std::size_t>(parent)].children) {
    if (first == skip) continue;
    std::vector<arena::MoveRecord>& line = lines.emplace_back();
    for (int id = first;;) {
      line.push_back(record_move(id));
      const std::vector<int>& next = nodes_[static_cast<std::size_t>(id)].children;
      if (next.empty()) break;
      id = next.front();
    }
  }
  return lines;
}

void GuiGame::add_variations(int parent, const std::vector<std::vector<arena::MoveRecord>>& lines) {
  for (const std::vector<arena::MoveRecord>& line : lines) {
    int at = parent;
    for (const arena::MoveRecord& move : line) {
      GuiMove details;
      details.by = "pgn";
      details.time_ms = move.time_ms;
      details.score_cp = move.score_cp;
      details.score_mate = move.score_mate;
      details.depth = move.depth;
      const int id = add_move(at, move.move, details);
      if (!move.comment.empty()) set_comment(id, move.comment);
      add_variations(at, move.variations);
      at = id;
    }
  }
}

GuiGame GuiGame::from_record(const arena::GameRecord& record) {
  const Game start = Game::parse(record.start_position);
  const std::size_t seats = start.variant() == Variant::TwoPlayer ? 2 : 4;
  std::optional<arena::TimeControl> control;
  GuiGame game(start.variant(), std::vector<std::string>(seats, std::string(kHuman)), control,
               record.start_position);
  int at = 0;
  for (const std::string& move : record.opening_moves)
    at = game.add_move(at, move, move_by("book"));
  game.add_variations(at, {record.moves});
  game.set_line(0);
  // The PGN's own ending (an adjudication, a forfeit) wins over what the moves alone show; an
  // unfinished game ("*") has none, and may be played on.
  if (record.result != GameResult::Unfinished)
    game.nodes_[static_cast<std::size_t>(game.line_.back())].result =
        GuiResult{record.result, record.termination, record.reason};
  game.ply_ = 0;
  game.set_tags(record, true);
  return game;
}

void GuiGame::set_tags(arena::GameRecord tags, bool loaded) {
  // What record() takes from the game itself is not kept: its start, moves and result.
  const arena::GameRecord blank;
  tags_ = std::move(tags);
  tags_.start_position = blank.start_position;
  tags_.opening_moves.clear();
  tags_.moves.clear();
  tags_.result = blank.result;
  tags_.termination = blank.termination;
  tags_.reason.clear();
  loaded_ = loaded;
  names_.clear();
  if (!loaded_) return;
  if (tags_.four_player)
    names_.assign(tags_.four_player->names.begin(), tags_.four_player->names.end());
  else
    names_ = {tags_.x_name, tags_.o_name};
}

}  // namespace quixo::gui
