// A Monte Carlo tree search player for either game (`Player mcts`): a reference opponent of
// another kind than the alpha-beta search, whose strength is set by its number of iterations and
// not by the machine (issue 31).
//
// UCT (Kocsis and Szepesvári 2006, "Bandit based Monte-Carlo planning"): each iteration walks from
// the root to a leaf choosing at every node the child of highest
//     wins / visits + C * sqrt(ln(parent visits) / visits)     (UCB1, C = kExploration)
// with every child tried once before any is tried twice, expands the leaf (all its children at
// once), plays one uniformly random game from the child it then picks (random_playout, capped at
// kPlayoutPlies: a draw at the cap), and adds the result to every node of the path, each counting
// it for the team that made the move into it (1 a win, 1/2 a draw, 0 a loss). Both games are
// two-sided: in the team game the teams alternate at every ply, a pass included.
//
// Light guidance, and the only knowledge beyond the rules: a solver (Winands, Björnsson and
// Saito 2008, "Monte-Carlo tree search solver"). A child whose move ends the game is a proven win
// or loss at once; a node with a child that wins for its mover is a proven win for that mover, and
// a node whose children all lose for it a proven loss. Proven children are never explored again,
// and the root plays a proven win at once. So it never misses a win in one nor walks into a line
// for the other side, as a pure random-playout player would.
//
// Determinism: the same root, root moves, seed and number of iterations give the same tree and
// the same move, on any machine (xorshift draws, no clock, no threads). Memory: the tree stops
// growing at max_nodes (the engine's Hash); iterations then go on from its leaves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "core/position.hpp"
#include "core/position4.hpp"
#include "score.hpp"

namespace quixo {

template <class Position>
class MonteCarloTreeSearch {
 public:
  using Move = std::remove_cvref_t<decltype(Position().legal_moves()[0])>;

  // UCB1's exploration constant, with results in [0, 1].
  static constexpr double kExploration = 1.0;
  // The most iterations one tree takes: its visit counts are 32 bits.
  static constexpr std::uint64_t kMaxIterations = 0xffff'fffe;
  // A random game still going after this many plies counts as a draw.
  static constexpr int kPlayoutPlies = 200;
  // Bytes the tree takes per node, to size it from a budget in bytes.
  static std::size_t node_bytes();

  // `root_moves`: the moves the root may play (legal ones; empty: none, the search does nothing).
  MonteCarloTreeSearch(const Position& root, std::span<const Move> root_moves, std::uint64_t seed,
                       std::size_t max_nodes);

  // Runs up to `count` iterations; fewer when the root is proven (more would change nothing).
  void iterate(std::uint64_t count);

  [[nodiscard]] std::uint64_t iterations() const { return iterations_; }
  [[nodiscard]] std::size_t tree_nodes() const { return nodes_.size(); }
  [[nodiscard]] int max_depth() const { return max_depth_; }
  [[nodiscard]] bool solved() const { return nodes_[0].proven != 0; }

  // The move to play: a proven win (the shortest found), else the most visited move that is not
  // a proven loss, else (every move loses) the longest loss. none() without root moves.
  [[nodiscard]] Move best_move() const;
  // The line of best moves from the root while the tree holds it.
  [[nodiscard]] std::vector<Move> principal_variation() const;
  // The root's score for the side to move: a proven result as a win or loss in its plies, else
  // the best move's winning rate as centi-cubes (a logistic scale: 75 % is about +190).
  [[nodiscard]] Score score() const;

 private:
  struct Node {
    Move move;
    std::uint32_t first_child = 0;  // index of the first child in nodes_; children are contiguous
    std::uint16_t child_count = 0;
    bool expanded = false;
    // For the team that moved into this node: +1 a proven win, -1 a proven loss, 0 unknown, in
    // proven_plies plies from here (a win: at most that many).
    std::int8_t proven = 0;
    std::uint16_t proven_plies = 0;
    std::uint32_t visits = 0;
    double wins = 0;  // for the team that moved into this node
  };

  // The child of `node` to explore next (never a proven loss for its mover while another exists).
  std::uint32_t select_child(const Node& node);
  // Adds the children of `index` (at `position`); false when the tree is full.
  bool expand(std::uint32_t index, const Position& position);
  // Adds `moves` as the children of `index` (at `position`), in a random order, each a proven
  // win or loss when it ends the game.
  void add_children(std::uint32_t index, const Position& position, std::vector<Move> moves);
  // The child of an expanded `index` its mover would play: best_move's rule at any node.
  [[nodiscard]] std::uint32_t best_child(std::uint32_t index) const;
  // Sets `index` proven from its children when they prove it; true when it became proven.
  bool update_proof(std::uint32_t index);
  std::uint64_t next_random();

  Position root_;
  std::vector<Node> nodes_;
  std::size_t max_nodes_;
  std::uint64_t random_state_;
  std::uint64_t iterations_ = 0;
  int max_depth_ = 0;
};

extern template class MonteCarloTreeSearch<Position>;
extern template class MonteCarloTreeSearch<Position4>;

}  // namespace quixo
