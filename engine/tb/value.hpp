// What an endgame table says about a position: win, loss or draw for the side to move, and the
// distance in plies to the end of the game (the winner playing the fastest win and the loser the
// slowest loss; a finished board has distance 0, a move that wins at once distance 1).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace quixo::tb {

// The codes are the 2-bit codes of the files. A hole is a slot that no board maps to.
enum class Wdl : std::uint8_t { Draw = 0, Win = 1, Loss = 2, Hole = 3 };

struct TbValue {
  Wdl wdl = Wdl::Draw;
  int distance = 0;  // 0 for draws

  constexpr bool operator==(const TbValue&) const = default;

  // The value of the position before a move that leads to this one: the sides swap and the
  // game is one ply longer (a draw stays a draw).
  constexpr TbValue before_move() const {
    if (wdl == Wdl::Win) return {Wdl::Loss, distance + 1};
    if (wdl == Wdl::Loss) return {Wdl::Win, distance + 1};
    return *this;
  }
};

// How much the side to move likes a value: wins by increasing distance, then draws, then losses
// by decreasing distance (the fastest win first, the slowest loss before a faster one).
constexpr int preference(TbValue value) {
  if (value.wdl == Wdl::Win) return 100000 - value.distance;
  if (value.wdl == Wdl::Loss) return -100000 + value.distance;
  return 0;
}

// What a layer file's distances count. GameEnd: plies to the end of the game, as above: the
// tables the search probes. LayerExit: plies until the game leaves the layer (a blank cube taken,
// or the game over) into a position of the same value, the winner hastening that and the loser
// delaying it: how far a won position is from a winning fill, a label for training and analysis
// (`quixo-tb generate --distance-to exit`). Both have the same win/draw/loss values.
enum class DistanceCount : std::uint8_t { GameEnd = 0, LayerExit = 1 };

// The one in-memory form of a value while generating and decoding: the code in bits 14-15 and
// the distance in bits 0-13.
using PackedValue = std::uint16_t;
inline constexpr int kMaxDistance = (1 << 14) - 1;
constexpr PackedValue pack_value(Wdl wdl, int distance) {
  return PackedValue(int(wdl) << 14 | distance);
}
constexpr Wdl wdl_of(PackedValue value) {
  return Wdl(value >> 14);
}
constexpr int distance_of(PackedValue value) {
  return value & kMaxDistance;
}
constexpr TbValue unpack_value(PackedValue value) {
  return {wdl_of(value), distance_of(value)};
}

// "win", "loss", "draw": the word every front end (quixo-tb, the GUI, Python) uses.
constexpr std::string_view wdl_name(Wdl wdl) {
  switch (wdl) {
    case Wdl::Win:
      return "win";
    case Wdl::Loss:
      return "loss";
    case Wdl::Draw:
      return "draw";
    case Wdl::Hole:
      break;
  }
  return "hole";
}

// "win 12", "loss 3", "draw": the form `quixo-tb probe` and the engine's `tb` command print.
inline std::string to_string(TbValue value) {
  if (value.wdl != Wdl::Win && value.wdl != Wdl::Loss) return std::string(wdl_name(value.wdl));
  return std::string(wdl_name(value.wdl)) + " " + std::to_string(value.distance);
}

inline std::ostream& operator<<(std::ostream& out, TbValue value) {
  return out << to_string(value);
}

}  // namespace quixo::tb
