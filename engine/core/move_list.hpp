// A fixed-capacity list of moves, so move generation never allocates.
#pragma once

#include <array>
#include <cstddef>

namespace quixo {

template <class MoveT, std::size_t Capacity>
class MoveList {
 public:
  void push_back(MoveT move) { moves_[size_++] = move; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const MoveT& operator[](std::size_t i) const { return moves_[i]; }
  MoveT& operator[](std::size_t i) { return moves_[i]; }
  const MoveT* begin() const { return moves_.data(); }
  const MoveT* end() const { return moves_.data() + size_; }
  MoveT* begin() { return moves_.data(); }
  MoveT* end() { return moves_.data() + size_; }
  bool contains(MoveT move) const {
    for (const MoveT& m : *this)
      if (m == move) return true;
    return false;
  }

 private:
  std::array<MoveT, Capacity> moves_{};
  std::size_t size_ = 0;
};

}  // namespace quixo
