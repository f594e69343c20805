// Root moves that a symmetry of the board makes worth the same. When a rotation or reflection
// maps the root onto itself, it maps the child of one root move onto the child of another, and
// the rules commute with it (core/symmetry.hpp): the two moves have the same value, and a search
// that looks for the best move needs only one of them. So do two moves that make the same
// position (the identity among the symmetries). The start position, which all eight symmetries
// keep, has 44 moves of only 3 kinds: each puts one cube on the empty board's border, on a
// corner, next to one, or mid-edge.
//
// A search scores a repetition of the game's earlier positions as a draw, so only symmetries that
// also map those positions onto earlier positions count: with any other, a line from one child
// could repeat a position where its image from the other does not.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "core/symmetry.hpp"

namespace quixo {

// For each of `moves` (legal in `root`), whether the child of an earlier one is its child or the
// image of its child under a symmetry that keeps the root and maps every key of `history` (the
// game's earlier positions; a set with count()) onto a key of it.
template <class PositionT, class MoveT, class KeySet>
std::vector<bool> symmetric_duplicates(const PositionT& root, std::span<const MoveT> moves,
                                       const KeySet& history) {
  std::vector<Symmetry> symmetries;
  for (const Symmetry symmetry : kAllSymmetries) {
    if (!(transform(symmetry, root) == root)) continue;
    if (std::all_of(history.begin(), history.end(), [&](const auto& key) {
          return history.count(transform_key(symmetry, key)) != 0;
        }))
      symmetries.push_back(symmetry);
  }
  // Those symmetries (the identity among them) form a group, so a child is the image of a kept
  // child exactly when one of them maps it onto that child.
  using Key = decltype(root.key());
  std::vector<bool> duplicate(moves.size(), false);
  std::vector<Key> kept;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Key child = root.after(moves[i]).key();
    duplicate[i] = std::any_of(symmetries.begin(), symmetries.end(), [&](Symmetry symmetry) {
      return std::find(kept.begin(), kept.end(), transform_key(symmetry, child)) != kept.end();
    });
    if (!duplicate[i]) kept.push_back(child);
  }
  return duplicate;
}

}  // namespace quixo
