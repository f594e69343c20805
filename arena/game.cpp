#include "game.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/position.hpp"
#include "game_loop.hpp"
#include "tb/tablebase.hpp"

namespace quixo::arena {
namespace {

// The two-player game for the game loop: mover and side are both 0 for X and 1 for O, each an
// engine process of its own on a clock of its own; the endgame tables, when given, decide every
// position they hold.
class TwoPlayerGame {
 public:
  using Position = quixo::Position;
  using Move = quixo::Move;
  static constexpr std::string_view kRepeatedPosition = "the position";
  static constexpr std::string_view kBothSides = "both engines";

  TwoPlayerGame(const GameSetup& setup, EngineClient& x, EngineClient& o)
      : clients_{&x, &o},
        clocks_{Clock(setup.x_control), Clock(setup.o_control)},
        tables_(setup.tablebase) {}

  static Position parse_position(std::string_view text) { return quixo::parse_position(text); }
  // The board and the side to move.
  static std::uint64_t repetition_key(const Position& position) { return position.key(); }
  static bool counts_for_adjudication(Move, const std::optional<int>&) { return true; }

  void name_sides(GameRecord& record) const {
    record.x_name = clients_[0]->config().name;
    record.o_name = clients_[1]->config().name;
  }
  int processes() const { return 2; }
  int mover(const Position& position) const { return position.side_to_move() == Color::X ? 0 : 1; }
  int side_of(int mover) const { return mover; }
  EngineClient& client(int mover) { return *clients_[index(mover)]; }
  Clock& clock(int mover) { return clocks_[index(mover)]; }
  MoveReply go(int mover, const std::string& position_arguments,
               std::chrono::milliseconds deadline) {
    const GoRequest request{clocks_[index(mover)].go_limits(),
                            clocks_[index(1 - mover)].go_limits(), mover == 0};
    return client(mover).go(position_arguments, request, deadline);
  }
  void mark_started(int mover, GameIncidents& incidents) const {
    (mover == 0 ? incidents.x_restarted : incidents.o_restarted) = true;
  }
  // "X (name)", "O (name)".
  std::string mover_label(int mover) const {
    return std::string(mover == 0 ? "X" : "O") + " (" + clients_[index(mover)]->config().name + ")";
  }
  std::string process_label(int mover) const { return mover_label(mover); }
  std::string resign_subject(int mover) const { return mover_label(mover); }
  std::string line_reason(int mover, bool mover_wins) const {
    return mover_label(mover) +
           (mover_wins ? " makes five in a row" : " makes a line of the opponent's cubes");
  }
  // The tables' value is the side to move's: it wins, loses, or neither side can force a win.
  std::optional<detail::TableEnding> table_ending(const Position& position) const {
    if (!tables_ || position.outcome() != Outcome::Ongoing) return std::nullopt;
    const std::optional<tb::TbValue> value = tables_->probe(position);
    if (!value || value->wdl == tb::Wdl::Hole) return std::nullopt;
    if (value->wdl == tb::Wdl::Draw)
      return detail::TableEnding{GameResult::Draw, "tablebase: draw"};
    const int to_move = mover(position);
    const int winner = value->wdl == tb::Wdl::Win ? to_move : 1 - to_move;
    return detail::TableEnding{winner == 0 ? GameResult::XWins : GameResult::OWins,
                               "tablebase: " + mover_label(winner) + " wins in " +
                                   std::to_string(value->distance) +
                                   (value->distance == 1 ? " ply" : " plies")};
  }

 private:
  static std::size_t index(int mover) {
    assert(mover == 0 || mover == 1);
    return static_cast<std::size_t>(mover);
  }

  std::array<EngineClient*, 2> clients_;
  std::array<Clock, 2> clocks_;
  const tb::Tablebase* tables_;
};

}  // namespace

GameOutcome play_game(const GameSetup& setup, EngineClient& x, EngineClient& o,
                      const std::atomic<bool>* abort) {
  TwoPlayerGame game(setup, x, o);
  return detail::play_variant_game(setup, game, abort);
}

}  // namespace quixo::arena
