#include "mcts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/playout.hpp"

namespace quixo {

namespace {

Color mover_of(const Position& position) {
  return position.side_to_move();
}
Color mover_of(const Position4& position) {
  return position.team_to_move();
}

// The longest proof the scores can say (mate_in and mated_in stay beyond kMateBound).
constexpr int kMaxProvenPlies = 2 * kMaxPly - 1;

}  // namespace

template <class Position>
std::size_t MonteCarloTreeSearch<Position>::node_bytes() {
  return sizeof(Node);
}

template <class Position>
MonteCarloTreeSearch<Position>::MonteCarloTreeSearch(const Position& root,
                                                     std::span<const Move> root_moves,
                                                     std::uint64_t seed, std::size_t max_nodes)
    : root_(root),
      max_nodes_(std::max<std::size_t>(max_nodes, root_moves.size() + 1)),
      random_state_(seed * 0x9E3779B97F4A7C15ull + 1) {
  nodes_.reserve(std::min<std::size_t>(max_nodes_, std::size_t{1} << 16));
  nodes_.push_back(Node{});
  // The root's children are the moves given, not every legal move (`go searchmoves`).
  add_children(0, root, std::vector<Move>(root_moves.begin(), root_moves.end()));
}

template <class Position>
std::uint64_t MonteCarloTreeSearch<Position>::next_random() {
  // xorshift64: the same draws from the same seed on every machine.
  random_state_ ^= random_state_ << 13;
  random_state_ ^= random_state_ >> 7;
  random_state_ ^= random_state_ << 17;
  return random_state_;
}

template <class Position>
bool MonteCarloTreeSearch<Position>::expand(std::uint32_t index, const Position& position) {
  const auto legal = position.legal_moves();
  if (nodes_.size() + legal.size() > max_nodes_) return false;
  add_children(index, position, std::vector<Move>(legal.begin(), legal.end()));
  return true;
}

template <class Position>
void MonteCarloTreeSearch<Position>::add_children(std::uint32_t index, const Position& position,
                                                  std::vector<Move> moves) {
  // Children in a random order, so that ties and the first visits favour no move of the
  // generator's order.
  for (std::size_t i = moves.size(); i > 1; --i) std::swap(moves[i - 1], moves[next_random() % i]);
  const Color mover = mover_of(position);
  const auto first = std::uint32_t(nodes_.size());
  for (const Move move : moves) {
    Node child;
    child.move = move;
    const Position next = position.after(move);
    if (next.is_game_over()) child.proven = next.outcome() == win_for(mover) ? 1 : -1;
    nodes_.push_back(child);
  }
  Node& node = nodes_[index];
  node.first_child = first;
  node.child_count = std::uint16_t(moves.size());
  node.expanded = true;
  update_proof(index);
}

template <class Position>
bool MonteCarloTreeSearch<Position>::update_proof(std::uint32_t index) {
  Node& node = nodes_[index];
  if (node.proven != 0 || !node.expanded || node.child_count == 0) return false;
  bool any_win = false, all_lose = true;
  int shortest_win = kMaxProvenPlies, longest_loss = 0;
  for (std::uint32_t i = node.first_child; i < node.first_child + node.child_count; ++i) {
    const Node& child = nodes_[i];
    if (child.proven > 0) {
      any_win = true;
      shortest_win = std::min<int>(shortest_win, child.proven_plies);
    }
    if (child.proven >= 0)
      all_lose = false;
    else
      longest_loss = std::max<int>(longest_loss, child.proven_plies);
  }
  // A child's result is for the team to move here, which is the other team than the one that
  // moved into this node.
  if (any_win) {
    node.proven = -1;
    node.proven_plies = std::uint16_t(std::min(shortest_win + 1, kMaxProvenPlies));
    return true;
  }
  if (all_lose) {
    node.proven = 1;
    node.proven_plies = std::uint16_t(std::min(longest_loss + 1, kMaxProvenPlies));
    return true;
  }
  return false;
}

template <class Position>
std::uint32_t MonteCarloTreeSearch<Position>::select_child(const Node& node) {
  // Only called on a node that is not proven: some child is not a proven loss for its mover, and
  // none is a proven win.
  const double log_visits = std::log(double(std::max<std::uint32_t>(node.visits, 1)));
  double best_value = -std::numeric_limits<double>::infinity();
  std::uint32_t best = node.first_child;
  for (std::uint32_t i = node.first_child; i < node.first_child + node.child_count; ++i) {
    const Node& child = nodes_[i];
    if (child.proven < 0) continue;
    if (child.visits == 0) return i;
    const double value =
        child.wins / child.visits + kExploration * std::sqrt(log_visits / double(child.visits));
    if (value > best_value) {
      best_value = value;
      best = i;
    }
  }
  return best;
}

template <class Position>
void MonteCarloTreeSearch<Position>::iterate(std::uint64_t count) {
  if (nodes_[0].child_count == 0) return;
  const Color root_mover = mover_of(root_);
  std::vector<std::uint32_t> path;
  for (std::uint64_t done = 0; done < count && !solved(); ++done) {
    path.assign(1, 0);
    Position position = root_;
    std::uint32_t index = 0;
    Outcome result = Outcome::Ongoing;
    while (true) {
      if (nodes_[index].proven != 0) {
        // The team that moved into the node: the root's mover at odd depths.
        const bool odd = (path.size() - 1) % 2 == 1;
        const Color moved = odd ? root_mover : ~root_mover;
        result = win_for(nodes_[index].proven > 0 ? moved : ~moved);
        break;
      }
      if (!nodes_[index].expanded) {
        if (!expand(index, position)) {
          // The tree is full: a playout from here.
          result = random_playout(position, next_random(), kPlayoutPlies);
          break;
        }
        if (nodes_[index].proven != 0) continue;
        // A position without moves (two-player, set up so): counted as a draw.
        if (nodes_[index].child_count == 0) break;
      }
      index = select_child(nodes_[index]);
      position = position.after(nodes_[index].move);
      path.push_back(index);
      if (nodes_[index].visits == 0 && nodes_[index].proven == 0) {
        result = random_playout(position, next_random(), kPlayoutPlies);
        break;
      }
    }
    max_depth_ = std::max(max_depth_, int(path.size()) - 1);
    // The result for each node's mover into it, and the proofs up the path.
    bool proof_changed = nodes_[path.back()].proven != 0;
    for (std::size_t depth = path.size(); depth-- > 0;) {
      Node& node = nodes_[path[depth]];
      const Color moved = depth % 2 == 1 ? root_mover : ~root_mover;
      ++node.visits;
      node.wins += result == Outcome::Ongoing ? 0.5 : result == win_for(moved) ? 1.0 : 0.0;
      if (proof_changed && depth + 1 < path.size()) proof_changed = update_proof(path[depth]);
    }
    ++iterations_;
  }
}

template <class Position>
std::uint32_t MonteCarloTreeSearch<Position>::best_child(std::uint32_t index) const {
  const Node& node = nodes_[index];
  const auto first = node.first_child, last = node.first_child + node.child_count;
  std::optional<std::uint32_t> best;
  // A proven win for the mover: the shortest.
  for (std::uint32_t i = first; i < last; ++i)
    if (nodes_[i].proven > 0 && (!best || nodes_[i].proven_plies < nodes_[*best].proven_plies))
      best = i;
  if (best) return *best;
  // The most visited move that is not lost, the better rate on a tie.
  for (std::uint32_t i = first; i < last; ++i) {
    const Node& child = nodes_[i];
    if (child.proven != 0) continue;
    if (!best || child.visits > nodes_[*best].visits ||
        (child.visits == nodes_[*best].visits &&
         child.wins * nodes_[*best].visits > nodes_[*best].wins * child.visits))
      best = i;
  }
  if (best) return *best;
  // Every move loses: the longest loss.
  best = first;
  for (std::uint32_t i = first; i < last; ++i)
    if (nodes_[i].proven_plies > nodes_[*best].proven_plies) best = i;
  return *best;
}

template <class Position>
auto MonteCarloTreeSearch<Position>::best_move() const -> Move {
  return nodes_[0].child_count == 0 ? Move::none() : nodes_[best_child(0)].move;
}

template <class Position>
auto MonteCarloTreeSearch<Position>::principal_variation() const -> std::vector<Move> {
  std::vector<Move> line;
  std::uint32_t index = 0;
  // Down the best children while the tree has looked at them.
  while (nodes_[index].expanded && nodes_[index].child_count > 0 && line.size() < kMaxPly) {
    const std::uint32_t next = best_child(index);
    if (index != 0 && nodes_[next].visits == 0 && nodes_[next].proven == 0) break;
    line.push_back(nodes_[next].move);
    index = next;
  }
  return line;
}

template <class Position>
Score MonteCarloTreeSearch<Position>::score() const {
  const Node& root = nodes_[0];
  if (root.child_count == 0) return kDrawScore;
  const Node& child = nodes_[best_child(0)];
  if (child.proven > 0) return mate_in(child.proven_plies + 1);
  if (child.proven < 0) return mated_in(child.proven_plies + 1);
  if (child.visits == 0) return kDrawScore;
  const double rate = std::clamp(child.wins / child.visits, 0.001, 0.999);
  return Score(std::lround(400.0 * std::log10(rate / (1.0 - rate))));
}

template class MonteCarloTreeSearch<Position>;
template class MonteCarloTreeSearch<Position4>;

}  // namespace quixo
