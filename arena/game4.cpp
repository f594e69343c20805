#include "game4.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/position4.hpp"
#include "game_loop.hpp"

namespace quixo::arena {
namespace {

constexpr std::array<const char*, 4> kSeatNames = {"A1", "B1", "A2", "B2"};

// "name" when both seats of a team are the same engine, else "first+second": the team's name as
// PGN's White or Black.
std::string team_name(const std::string& first, const std::string& second) {
  return first == second ? first : first + "+" + second;
}

// The four-player game for the game loop: the mover is the seat (0..3), its side the seat's team
// (0 = team A, X; 1 = team B, O). Every seat has a clock of its own; per team, seats 3 and 4
// answer through the processes of seats 1 and 2, so only those two are processes.
class FourPlayerGame {
 public:
  using Position = Position4;
  using Move = Move4;
  static constexpr std::string_view kRepeatedPosition =
      "the position (board, points and seat to move)";
  static constexpr std::string_view kBothSides = "both teams";

  FourPlayerGame(const GameSetup& setup, const SeatClients& seats)
      : seats_(seats),
        seating_(seating_of(seats)),
        // Seats 1 and 3 are team A (X), seats 2 and 4 team B (O).
        clocks_{Clock(setup.x_control), Clock(setup.o_control), Clock(setup.x_control),
                Clock(setup.o_control)} {}

  static Position parse_position(std::string_view text) { return parse_position4(text); }
  // Repetition needs the board with every cube's point and the seat to move: the position's key.
  static Position4Key repetition_key(const Position& position) { return position.key(); }
  // A pass without a score (a forced pass needs no search) says nothing about the position.
  static bool counts_for_adjudication(Move move, const std::optional<int>& score) {
    return !move.is_pass() || score.has_value();
  }

  void name_sides(GameRecord& record) const {
    FourPlayerSeats four;
    four.seating = seating_;
    for (std::size_t seat = 0; seat < 4; ++seat) four.names[seat] = name(static_cast<Seat>(seat));
    record.x_name = team_name(four.names[0], four.names[2]);
    record.o_name = team_name(four.names[1], four.names[3]);
    record.four_player = four;
  }
  int processes() const { return seating_ == Seating::PerTeam ? 2 : 4; }
  int mover(const Position& position) const { return position.seat_to_move(); }
  int side_of(Seat seat) const { return static_cast<int>(team_of(seat)); }
  EngineClient& client(Seat seat) { return *seats_[index(seat)]; }
  Clock& clock(Seat seat) { return clocks_[index(seat)]; }
  MoveReply go(Seat seat, const std::string& position_arguments,
               std::chrono::milliseconds deadline) {
    GoRequest4 request;
    for (std::size_t other = 0; other < 4; ++other)
      request.seats[other] = clocks_[other].go_limits();
    request.mover = seat;
    return client(seat).go(position_arguments, request, deadline);
  }
  void mark_started(Seat seat, GameIncidents& incidents) const {
    incidents.seat_started[index(seat)] = true;
    if (seating_ == Seating::PerTeam) incidents.seat_started[index(seat + 2)] = true;
    (side_of(seat) == 0 ? incidents.x_restarted : incidents.o_restarted) = true;
  }
  // "seat 1 (A1, name)".
  std::string mover_label(Seat seat) const {
    return "seat " + std::to_string(seat + 1) + " (" + kSeatNames[index(seat)] + ", " + name(seat) +
           ")";
  }
  // Who answers for a seat's process: the seat, or with one process per team the team.
  std::string process_label(Seat seat) const {
    if (seating_ != Seating::PerTeam) return mover_label(seat);
    const int team = side_of(seat);
    return std::string("team ") + team_letter(team) + " (seats " + std::to_string(team + 1) +
           " and " + std::to_string(team + 3) + ", " + name(seat) + ")";
  }
  std::string resign_subject(Seat seat) const {
    return mover_label(seat) + ": team " + team_letter(side_of(seat));
  }
  std::string line_reason(Seat seat, bool mover_wins) const {
    return mover_label(seat) +
           (mover_wins ? " makes five in a row" : " makes a line of the other team's cubes");
  }
  // There are no four-player tables: setup.tablebase does not apply.
  std::optional<detail::TableEnding> table_ending(const Position&) const { return std::nullopt; }

 private:
  static std::size_t index(Seat seat) {
    assert(seat >= 0 && seat < 4);
    return static_cast<std::size_t>(seat);
  }
  static const char* team_letter(int team) { return team == 0 ? "A" : "B"; }
  const std::string& name(Seat seat) const { return seats_[index(seat)]->config().name; }

  SeatClients seats_;
  Seating seating_;
  std::array<Clock, 4> clocks_;
};

}  // namespace

Seating seating_of(const SeatClients& seats) {
  for (const EngineClient* client : seats)
    if (!client) throw std::invalid_argument("play_game4: every seat needs an engine");
  if (seats[0] == seats[2] && seats[1] == seats[3] && seats[0] != seats[1]) return Seating::PerTeam;
  for (std::size_t a = 0; a < 4; ++a)
    for (std::size_t b = a + 1; b < 4; ++b)
      if (seats[a] == seats[b])
        throw std::invalid_argument(
            "play_game4: seats share an engine process other than partners per team");
  return Seating::PerSeat;
}

GameOutcome play_game4(const GameSetup& setup, const SeatClients& seats,
                       const std::atomic<bool>* abort) {
  FourPlayerGame game(setup, seats);
  return detail::play_variant_game(setup, game, abort);
}

}  // namespace quixo::arena
