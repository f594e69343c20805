#include "gui_game.hpp"

#include <algorithm>
#include <ctime>
#include <stdexcept>

#include "core/notation.hpp"

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

// "2026.11.28": today in UTC, PGN's Date.
std::string today_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof text, "%Y.%m.%d", &utc);
  return text;
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
  positions_.push_back(start_);
  levels_.assign(seats, std::nullopt);
  tags_.event = "quixo-gui";
  tags_.date = today_utc();
  if (is_game_clock(time_control_)) clocks_.assign(seats, arena::Clock(*time_control_));
  check_ending();
  restart_clock(now);
}

int GuiGame::mover_index_at(int ply) const {
  const Game& position = positions_[static_cast<std::size_t>(ply)];
  if (const GameLine<Position4>* four = position.four_player())
    return int(four->position.seat_to_move());
  return position.team_to_move() == Color::X ? 0 : 1;
}

bool GuiGame::human_to_move() const {
  if (paused_ || (at_end() && result_)) return false;
  if (shown().is_game_over()) return false;
  return mover() == kHuman;
}

bool GuiGame::engine_to_move() const {
  return !paused_ && at_end() && !result_ && mover() != kHuman;
}

std::vector<LegalMove> GuiGame::legal_moves() const {
  std::vector<LegalMove> legal;
  if (shown().is_game_over() || (at_end() && result_)) return legal;
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

void GuiGame::truncate_after_shown() {
  if (at_end()) return;
  moves_.resize(static_cast<std::size_t>(ply_));
  positions_.resize(static_cast<std::size_t>(ply_) + 1);
  result_.reset();
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
  if (at_end() && result_) throw NotationError("the game is over: " + result_->reason);
  if (paused_) throw NotationError("the game is paused");
  Game next = shown();
  details.move = next.play(text);  // throws NotationError, leaving everything as it was
  details.position = next.text();
  const bool branching = !at_end();
  truncate_after_shown();
  if (!branching && running_) {
    // The mover's clock stops with its move; a late move loses on time.
    arena::Clock& clock = clocks_[static_cast<std::size_t>(*running_)];
    const int mover = *running_;
    running_.reset();
    if (!clock.stop_move(elapsed_ms(turn_started_, clock_now(now)))) {
      moves_.push_back(std::move(details));
      positions_.push_back(std::move(next));
      ply_ = length();
      finish({mover % 2 == 0 ? GameResult::OWins : GameResult::XWins, Termination::TimeForfeit,
              player_label(players_[static_cast<std::size_t>(mover)],
                           positions_[positions_.size() - 2]) +
                  " lost on time"});
      return;
    }
  }
  moves_.push_back(std::move(details));
  positions_.push_back(std::move(next));
  ply_ = length();
  check_ending();
  restart_clock(now);
}

void GuiGame::check_ending() {
  const Game& last = positions_.back();
  switch (last.outcome()) {
    case Outcome::XWins:
    case Outcome::OWins: {
      const GameResult winner =
          last.outcome() == Outcome::XWins ? GameResult::XWins : GameResult::OWins;
      // The rules' outcome names the winner; the mover may have made the other side's line.
      const bool mover_won = moves_.empty()
                                 ? true
                                 : positions_[positions_.size() - 2].team_to_move() ==
                                       (winner == GameResult::XWins ? Color::X : Color::O);
      result_ = GuiResult{
          winner, Termination::Line,
          mover_won ? side_name(variant(), winner) + " makes five in a row"
                    : side_name(variant(), winner == GameResult::XWins ? GameResult::OWins
                                                                       : GameResult::XWins) +
                          " makes a line of the other side's cubes"};
      return;
    }
    case Outcome::Ongoing:
      break;
  }
  const std::string text = last.text();
  const auto repeated = std::count_if(positions_.begin(), positions_.end(),
                                      [&](const Game& p) { return p.text() == text; });
  if (repeated >= 3)
    result_ = GuiResult{GameResult::Draw, Termination::Repetition, "the position occurred 3 times"};
}

void GuiGame::finish(GuiResult result) {
  result_ = std::move(result);
  running_.reset();
  for (arena::Clock& clock : clocks_)
    if (clock.thinking()) clock.stop_move(0);
}

void GuiGame::restart_clock(SteadyTime now) {
  if (clocks_.empty() || running_ || !at_end() || result_) return;
  const int mover = mover_index();
  clocks_[static_cast<std::size_t>(mover)].start_move();
  running_ = mover;
  turn_started_ = clock_now(now);
}

void GuiGame::go_to(int ply, SteadyTime now) {
  if (ply < 0 || ply > length())
    throw std::out_of_range("ply " + std::to_string(ply) + " is not in the game (0.." +
                            std::to_string(length()) + ")");
  if (running_ && ply != length()) {
    // Looking back pauses the game: the time so far is charged, the clock stops.
    arena::Clock& clock = clocks_[static_cast<std::size_t>(*running_)];
    running_.reset();
    if (!clock.stop_move(elapsed_ms(turn_started_, clock_now(now)))) {
      finish({mover_index() % 2 == 0 ? GameResult::OWins : GameResult::XWins,
              Termination::TimeForfeit, player_label(mover(), shown()) + " lost on time"});
    }
  }
  ply_ = ply;
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
  ply_ = target;
  truncate_after_shown();
  result_.reset();
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
  for (const GuiMove& move : moves_) {
    arena::MoveRecord record;
    record.move = move.move;
    record.score_cp = move.score_cp;
    record.score_mate = move.score_mate;
    record.depth = move.depth;
    record.time_ms = move.time_ms;
    game.moves.push_back(std::move(record));
  }
  if (result_) {
    game.result = result_->result;
    game.termination = result_->termination;
    game.reason = result_->reason;
  } else {
    game.result = GameResult::Unfinished;  // "*"
    game.termination = Termination::Unterminated;
  }
  return game;
}

GuiGame GuiGame::from_record(const arena::GameRecord& record) {
  const Game start = Game::parse(record.start_position);
  const std::size_t seats = start.variant() == Variant::TwoPlayer ? 2 : 4;
  std::optional<arena::TimeControl> control;
  GuiGame game(start.variant(), std::vector<std::string>(seats, std::string(kHuman)), control,
               record.start_position);
  const SteadyTime now = std::chrono::steady_clock::now();
  for (const std::string& move : record.opening_moves) game.play(move, move_by("book"), now);
  for (const arena::MoveRecord& move : record.moves) {
    GuiMove details;
    details.by = "pgn";
    details.time_ms = move.time_ms;
    details.score_cp = move.score_cp;
    details.score_mate = move.score_mate;
    details.depth = move.depth;
    game.play(move.move, details, now);
  }
  // The PGN's own ending (an adjudication, a forfeit) wins over what the moves alone show; an
  // unfinished game ("*") has none, and may be played on.
  if (record.result != GameResult::Unfinished)
    game.result_ = GuiResult{record.result, record.termination, record.reason};
  game.ply_ = 0;
  game.tags_ = record;
  game.tags_.opening_moves.clear();
  game.tags_.moves.clear();
  game.loaded_ = true;
  if (record.four_player)
    game.names_.assign(record.four_player->names.begin(), record.four_player->names.end());
  else
    game.names_ = {record.x_name, record.o_name};
  return game;
}

}  // namespace quixo::gui
