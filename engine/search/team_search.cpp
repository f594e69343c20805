#include "team_search.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_set>

#include "core/move_scan.hpp"
#include "core/notation.hpp"
#include "core/packed_slides.hpp"
#include "evaluation4.hpp"
#include "time_manager.hpp"
#include "transposition_table.hpp"

namespace quixo {

namespace {

constexpr int kMaxDepth = kMaxPly - 16;
constexpr std::uint64_t kTimeCheckInterval = 1024;
constexpr Score kAspirationDelta = 20;
// Two moves per geometry (the cube points to the mover or to its partner).
constexpr int kMaxMoves = 2 * kSlideCount;

// The bench: fixed positions (the start, then positions of seeded random games), a fixed
// depth, a fixed table size. Its node total is the team search's signature.
constexpr std::string_view kBenchPositions[] = {
    "5/5/5/5/5 1",
    "O2XO/4O/5/o3x/X2XO 3",
    "oX2X/4o/x4/x4/O1Oox 4",
    "1Ox1O/xO2o/OX3/XO2X/oX1xo 1",
    "OoXOo/xxX1o/O2Xo/XX2x/oOXox 2",
    "oXOOo/XxOXo/O3x/X1XxX/OooOx 3",
    "xXoOo/O1O1X/o1X1O/XX1Xo/oxXOX 2",
    "xxOxo/ooX1O/o2xo/xoX1O/xooxX 1",
};
constexpr int kBenchDepth = 7;
constexpr int kBenchHashMb = 16;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct TeamKeyHash {
  std::size_t operator()(const Position4Key& key) const {
    return std::size_t(TeamTranspositionTable::hash(key));
  }
};

// Late move reductions by remaining depth and move number, the shape of the two-player search:
// log(depth) * log(number) / 2.
struct ReductionTable {
  std::array<std::array<std::uint8_t, kMaxMoves + 1>, kMaxPly> plies{};
  ReductionTable() {
    for (int depth = 1; depth < kMaxPly; ++depth)
      for (int number = 1; number <= kMaxMoves; ++number)
        plies[depth][number] =
            std::uint8_t(0.5 + std::log(double(depth)) * std::log(double(number)) / 2.0);
  }
};
const ReductionTable kReductions;

constexpr bool has_slide(SlideSet set, Move4 move) {
  return !move.is_pass() && !move.is_none() && ((set >> move.slide()) & 1) != 0;
}

// 0 when the placed cube points to the mover, 1 when to its partner.
constexpr int point_index(Move4 move, Seat mover) {
  return move.point() == mover ? 0 : 1;
}

struct TeamRootMove {
  Move4 move;
  Score score = -kInfiniteScore;
  Score previous_score = -kInfiniteScore;
  Score initial_order = 0;
  int selective_depth = 0;
  std::vector<Move4> pv;
};

}  // namespace

class TeamWorker;

// The search's control and shared state: the facade's calls (start, stop, ponderhit, wait) come
// from the caller's thread; the workers (one per thread, lazy SMP: they search the same root
// and share the table) read the configuration, which changes only between searches.
class TeamSearcher {
 public:
  explicit TeamSearcher(const EngineOptions& options) : options_(options) {}
  ~TeamSearcher();

  void set_options(const EngineOptions& options) {
    wait();
    if (table_.allocated() && options.hash_mb != options_.hash_mb)
      table_.resize(std::size_t(options.hash_mb));
    options_ = options;
  }
  const EngineOptions& options() const { return options_; }

  void new_game() {
    wait();
    table_.clear();
  }

  void set_position(const Position4& position, std::vector<Position4> history) {
    wait();
    root_ = position;
    history_set_.clear();
    for (const Position4& earlier : history) history_set_.insert(earlier.key());
  }

  void start(const SearchLimits& limits, TeamSearchCallbacks callbacks,
             std::vector<Move4> search_moves);
  void stop() {
    stop_ = true;
    notify_release();
  }
  void ponderhit() {
    // From now on the normal limits apply, counted from this moment.
    start_ns_ = now_ns();
    pondering_ = false;
    notify_release();
  }
  void wait() {
    if (thread_.joinable()) thread_.join();
  }
  bool searching() const { return running_.load(); }

 private:
  friend class TeamWorker;

  void run(const TeamSearchCallbacks& callbacks);
  void notify_release() {
    std::lock_guard lock(release_mutex_);
    release_signal_.notify_all();
  }
  std::int64_t elapsed_ms() const {
    return (now_ns() - start_ns_.load(std::memory_order_relaxed)) / 1000000;
  }
  bool stopped() const { return stop_.load(std::memory_order_relaxed); }
  std::uint64_t total_nodes() const;
  Move4 ponder_move(const TeamRootMove& best) const;

  // Configuration, set between searches.
  EngineOptions options_;
  TeamTranspositionTable table_;
  Position4 root_;
  std::unordered_set<Position4Key, TeamKeyHash> history_set_;
  SearchLimits limits_;
  std::vector<Move4> search_moves_;
  TimeBudget budget_;

  // Control, shared with the caller's thread.
  std::thread thread_;
  std::atomic<bool> running_{false};
  std::atomic<bool> stop_{false};
  // While pondering (or in infinite mode) time does not count and the bestmove waits for
  // ponderhit or stop.
  std::atomic<bool> pondering_{false};
  std::atomic<bool> infinite_{false};
  std::atomic<std::int64_t> start_ns_{0};
  std::mutex release_mutex_;
  std::condition_variable release_signal_;

  // One per thread; worker 0 (the main one) checks the clock, reports and decides the move.
  std::vector<std::unique_ptr<TeamWorker>> workers_;
};

// One thread's search. All its state is its own; it shares only the table and the searcher's
// read-only configuration and stop flags.
class TeamWorker {
 public:
  TeamWorker(TeamSearcher& searcher, int id)
      : searcher_(searcher),
        table_(searcher.table_),
        limits_(searcher.limits_),
        budget_(searcher.budget_),
        features_(searcher.options_.features),
        id_(id) {}

  void iterative_deepening(const TeamSearchCallbacks& callbacks);
  std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  const std::vector<TeamRootMove>& root_moves() const { return root_moves_; }

 private:
  bool is_main() const { return id_ == 0; }
  bool stopped() const { return searcher_.stopped(); }
  void count_node() {
    nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  void check_limits();
  bool is_repetition(const Position4Key& key, int ply) const;
  void prepare_root_moves();
  Score search_root(Score alpha, Score beta, int depth);
  Score search(const Position4& position, Score alpha, Score beta, int depth, int ply,
               bool pv_node);
  void update_pv(int ply, Move4 move);
  void record_cutoff(Seat seat, int ply, Move4 move, int depth, const Move4* tried,
                     int tried_count);
  void report(int depth, const TeamSearchCallbacks& callbacks, Bound bound) const;

  TeamSearcher& searcher_;
  TeamTranspositionTable& table_;
  const SearchLimits& limits_;
  const TimeBudget& budget_;
  const SearchFeatures& features_;
  const int id_;

  // Search state. Ordering statistics start afresh with every search (a worker lives for one
  // search), so that a search depends only on the position, the limits and the table:
  // fixed-node searches after new_game repeat exactly.
  std::atomic<std::uint64_t> nodes_{0};
  std::vector<TeamRootMove> root_moves_;
  MoveScan root_scan_;
  int selective_depth_ = 0;
  std::array<Position4Key, kMaxPly + 2> path_keys_{};
  std::array<std::array<Move4, 2>, kMaxPly + 2> killers_{};
  // By seat, geometry and point (0: to the mover, 1: to its partner).
  std::array<std::array<std::array<int, 2>, kSlideCount>, kSeatCount> history_{};
  std::array<std::array<Move4, kMaxPly + 2>, kMaxPly + 2> pv_{};
  std::array<int, kMaxPly + 2> pv_length_{};
};

TeamSearcher::~TeamSearcher() {
  stop();
  wait();
}

std::uint64_t TeamSearcher::total_nodes() const {
  std::uint64_t nodes = 0;
  for (const auto& worker : workers_) nodes += worker->nodes();
  return nodes;
}

void TeamSearcher::start(const SearchLimits& limits, TeamSearchCallbacks callbacks,
                         std::vector<Move4> search_moves) {
  wait();
  if (!table_.allocated()) table_.resize(std::size_t(options_.hash_mb));
  limits_ = limits;
  search_moves_ = std::move(search_moves);
  budget_ = plan_time(limits, root_.team_to_move(), options_.move_overhead_ms);
  start_ns_ = now_ns();
  stop_ = false;
  pondering_ = limits.ponder;
  infinite_ = limits.infinite;
  table_.new_search();
  workers_.clear();
  for (int id = 0; id < std::max(options_.threads, 1); ++id)
    workers_.push_back(std::make_unique<TeamWorker>(*this, id));
  running_ = true;
  thread_ = std::thread([this, callbacks = std::move(callbacks)] { run(callbacks); });
}

void TeamSearcher::run(const TeamSearchCallbacks& callbacks) {
  std::vector<std::thread> helpers;
  for (std::size_t i = 1; i < workers_.size(); ++i)
    helpers.emplace_back([this, i] { workers_[i]->iterative_deepening({}); });
  workers_[0]->iterative_deepening(callbacks);
  // In ponder and infinite mode the bestmove waits for ponderhit or stop.
  {
    std::unique_lock lock(release_mutex_);
    release_signal_.wait(
        lock, [this] { return stop_.load() || (!pondering_.load() && !infinite_.load()); });
  }
  stop_ = true;
  for (std::thread& helper : helpers) helper.join();
  const std::vector<TeamRootMove>& root_moves = workers_[0]->root_moves();
  Move4 best = Move4::none(), ponder = Move4::none();
  if (!root_moves.empty()) {
    best = root_moves[0].move;
    ponder = ponder_move(root_moves[0]);
  }
  if (callbacks.on_bestmove) callbacks.on_bestmove(best, ponder);
  running_ = false;
}

Move4 TeamSearcher::ponder_move(const TeamRootMove& best) const {
  if (best.pv.size() > 1) return best.pv[1];
  // No second move in the line (the search was cut short): ask the table.
  const Position4 child = root_.after(best.move);
  if (child.is_game_over()) return Move4::none();
  const Position4Key key = child.key();
  TeamTranspositionTable::Hit hit;
  if (table_.allocated() && table_.probe(key, TeamTranspositionTable::hash(key), hit) &&
      child.is_legal(hit.move))
    return hit.move;
  return Move4::none();
}

void TeamWorker::check_limits() {
  if (limits_.nodes != 0 && searcher_.total_nodes() >= limits_.nodes) searcher_.stop_ = true;
  if (nodes() % kTimeCheckInterval != 0) return;
  if (budget_.limited() && !searcher_.pondering_.load(std::memory_order_relaxed) &&
      searcher_.elapsed_ms() >= budget_.hard_ms)
    searcher_.stop_ = true;
}

bool TeamWorker::is_repetition(const Position4Key& key, int ply) const {
  // The same seat is to move only every fourth ply (a pass also hands the move on), and keys
  // include the seat to move.
  for (int earlier = ply - 4; earlier >= 0; earlier -= 4)
    if (path_keys_[earlier] == key) return true;
  return !searcher_.history_set_.empty() && searcher_.history_set_.count(key) != 0;
}

void TeamWorker::prepare_root_moves() {
  root_moves_.clear();
  const Position4& root = searcher_.root_;
  if (root.is_game_over()) return;
  root_scan_ = team_scan(root);
  const MoveList4 legal = root.legal_moves();
  std::vector<Move4> candidates(legal.begin(), legal.end());
  std::vector<Move4> requested;
  const std::vector<Move4>& search_moves = searcher_.search_moves_;
  for (const Move4 move : candidates)
    if (std::find(search_moves.begin(), search_moves.end(), move) != search_moves.end())
      requested.push_back(move);
  if (!requested.empty()) candidates = requested;
  // A move that makes the other team's line loses at once: only when every move does.
  const auto loses = [this](Move4 move) { return has_slide(root_scan_.losses, move); };
  if (!std::all_of(candidates.begin(), candidates.end(), loses)) std::erase_if(candidates, loses);
  for (const Move4 move : candidates) {
    TeamRootMove root_move;
    root_move.move = move;
    if (has_slide(root_scan_.wins, move))
      root_move.initial_order = mate_in(1);
    else if (loses(move))
      root_move.initial_order = mated_in(1);
    else
      root_move.initial_order = -evaluate(root.after(move));
    root_move.pv = {move};
    root_moves_.push_back(root_move);
  }
  std::stable_sort(root_moves_.begin(), root_moves_.end(),
                   [](const TeamRootMove& a, const TeamRootMove& b) {
                     return a.initial_order > b.initial_order;
                   });
}

void TeamWorker::update_pv(int ply, Move4 move) {
  pv_[ply][0] = move;
  const int child_length = pv_length_[ply + 1];
  for (int i = 0; i < child_length; ++i) pv_[ply][i + 1] = pv_[ply + 1][i];
  pv_length_[ply] = child_length + 1;
}

void TeamWorker::record_cutoff(Seat seat, int ply, Move4 move, int depth, const Move4* tried,
                               int tried_count) {
  if (killers_[ply][0] != move) {
    killers_[ply][1] = killers_[ply][0];
    killers_[ply][0] = move;
  }
  if (move.is_pass()) return;  // a forced pass is the only move: nothing to order
  // History with gravity: entries stay within +-16384 however long the search runs.
  const int bonus = std::min(depth * depth, 400);
  auto update = [&](Move4 m, int delta) {
    int& entry = history_[seat][m.slide()][point_index(m, seat)];
    entry += delta - entry * std::abs(delta) / 16384;
  };
  update(move, bonus);
  for (int i = 0; i < tried_count; ++i)
    if (tried[i] != move) update(tried[i], -bonus);
}

Score TeamWorker::search_root(Score alpha, Score beta, int depth) {
  path_keys_[0] = searcher_.root_.key();
  Score best = -kInfiniteScore;
  for (std::size_t i = 0; i < root_moves_.size(); ++i) {
    TeamRootMove& root_move = root_moves_[i];
    const Move4 move = root_move.move;
    selective_depth_ = 0;
    pv_length_[1] = 0;
    Score score;
    if (has_slide(root_scan_.wins, move)) {
      score = mate_in(1);
    } else if (has_slide(root_scan_.losses, move)) {
      score = mated_in(1);
    } else {
      const Position4 child = searcher_.root_.after(move);
      if (i == 0) {
        score = -search(child, -beta, -alpha, depth - 1, 1, true);
      } else {
        score = -search(child, -alpha - 1, -alpha, depth - 1, 1, false);
        if (score > alpha && score < beta)
          score = -search(child, -beta, -alpha, depth - 1, 1, true);
      }
    }
    if (stopped()) break;
    if (i == 0 || score > alpha) {
      root_move.score = score;
      root_move.selective_depth = selective_depth_;
      root_move.pv.assign(1, move);
      for (int j = 0; j < pv_length_[1]; ++j) root_move.pv.push_back(pv_[1][j]);
    } else {
      root_move.score = -kInfiniteScore;  // only known to be worse than the best
    }
    best = std::max(best, score);
    if (score > alpha) {
      alpha = score;
      if (alpha >= beta) break;
    }
  }
  return best;
}

Score TeamWorker::search(const Position4& position, Score alpha, Score beta, int depth, int ply,
                         bool pv_node) {
  pv_length_[ply] = 0;
  check_limits();
  if (stopped()) return kDrawScore;
  count_node();
  selective_depth_ = std::max(selective_depth_, ply);

  const Position4Key key = position.key();
  if (is_repetition(key, ply)) return kDrawScore;
  path_keys_[ply] = key;

  // Every node is a position where the game goes on: a move that ends it is scored here
  // without a child node. Wins and losses are properties of the geometry (points do not
  // matter for lines); the seat's takeable set says which geometries it may play.
  const Seat seat = position.seat_to_move();
  const SlideSet slides = slides_from(position.takeable());
  const MoveScan scan = team_scan(position);
  if (const SlideSet wins = scan.wins & slides) {
    pv_[ply][0] = Move4(SlideIndex(std::countr_zero(wins)), seat);
    pv_length_[ply] = 1;
    return mate_in(ply + 1);
  }
  // No geometry at all is a forced pass, which never loses at once.
  const SlideSet safe = slides & ~scan.losses;
  if (slides != 0 && safe == 0) return mated_in(ply + 1);

  // Mate distance pruning: with no win at once and a move that does not lose at once, the
  // result lies between a loss at the next opponent's move and a win at our partner's. The
  // window itself is left as it is, so that a line ending in exactly that loss or win still
  // beats alpha and enters the principal variation.
  if (mated_in(ply + 2) >= beta) return mated_in(ply + 2);
  if (mate_in(ply + 3) <= alpha) return mate_in(ply + 3);
  if (depth <= 0 || ply >= kMaxPly - 2)
    return evaluate(position, scan.wins, opponent_team_wins(position));

  const std::uint64_t hash = TeamTranspositionTable::hash(key);
  TeamTranspositionTable::Hit hit;
  Move4 tt_move = Move4::none();
  if (table_.probe(key, hash, hit)) {
    const bool usable =
        slides == 0 ? hit.move.is_pass()
                    : has_slide(safe, hit.move) &&
                          (hit.move.point() == seat || hit.move.point() == partner_of(seat));
    if (usable) tt_move = hit.move;
    const Score tt_score = score_from_tt(hit.score, ply);
    if (!pv_node && hit.depth >= depth &&
        (hit.bound == Bound::Exact || (hit.bound == Bound::Lower && tt_score >= beta) ||
         (hit.bound == Bound::Upper && tt_score <= alpha)))
      return tt_score;
  }

  // Order: the table's move, the killers, then by history.
  std::array<Move4, kMaxMoves> moves;
  std::array<int, kMaxMoves> order;
  int count = 0;
  if (slides == 0) {
    moves[0] = Move4::pass();
    order[0] = 0;
    count = 1;
  }
  for (SlideSet set = safe; set != 0; set &= set - 1) {
    const SlideIndex slide = SlideIndex(std::countr_zero(set));
    for (int point = 0; point < 2; ++point) {
      const Move4 move(slide, point == 0 ? seat : partner_of(seat));
      const bool ordered = features_.killers_and_history;
      int value = ordered ? history_[seat][slide][point] : 0;
      if (move == tt_move)
        value = 1 << 30;
      else if (ordered && move == killers_[ply][0])
        value = 1 << 20;
      else if (ordered && move == killers_[ply][1])
        value = (1 << 20) - 1;
      moves[count] = move;
      order[count++] = value;
    }
  }

  const Score original_alpha = alpha;
  Score best = -kInfiniteScore;
  Move4 best_move = Move4::none();
  for (int i = 0; i < count; ++i) {
    // Selection sort step: the remaining move with the highest order value goes next.
    int pick = i;
    for (int j = i + 1; j < count; ++j)
      if (order[j] > order[pick]) pick = j;
    std::swap(moves[i], moves[pick]);
    std::swap(order[i], order[pick]);
    const Move4 move = moves[i];

    const Position4 child = position.after(move);
    Score score;
    if (i == 0) {
      score = -search(child, -beta, -alpha, depth - 1, ply + 1, pv_node);
    } else {
      // Late moves are first searched shallower; one that then beats alpha is searched again
      // at full depth.
      int reduction = 0;
      if (features_.late_move_reductions && depth >= 3 && i >= 3 && order[i] < (1 << 20) - 1)
        reduction = std::clamp(kReductions.plies[depth][i + 1] - int(pv_node), 0, depth - 2);
      score = -search(child, -alpha - 1, -alpha, depth - 1 - reduction, ply + 1, false);
      if (reduction > 0 && score > alpha)
        score = -search(child, -alpha - 1, -alpha, depth - 1, ply + 1, false);
      if (pv_node && score > alpha && score < beta)
        score = -search(child, -beta, -alpha, depth - 1, ply + 1, true);
    }
    if (stopped()) return kDrawScore;
    if (score > best) {
      best = score;
      best_move = move;
      if (score > alpha) {
        alpha = score;
        if (pv_node) update_pv(ply, move);
        if (alpha >= beta) {
          record_cutoff(seat, ply, move, std::max(depth, 1), moves.data(), i);
          break;
        }
      }
    }
  }

  const Bound bound = best >= beta                       ? Bound::Lower
                      : best > original_alpha && pv_node ? Bound::Exact
                                                         : Bound::Upper;
  table_.store(key, hash, best_move, depth, bound, score_to_tt(best, ply));
  return best;
}

void TeamWorker::report(int depth, const TeamSearchCallbacks& callbacks, Bound bound) const {
  if (!callbacks.on_info || root_moves_.empty()) return;
  const std::int64_t elapsed = searcher_.elapsed_ms();
  const std::uint64_t nodes = searcher_.total_nodes();
  const TeamRootMove& root_move = root_moves_[0];
  TeamSearchInfo info;
  info.depth = depth;
  info.selective_depth = std::max(root_move.selective_depth, depth);
  info.time_ms = elapsed;
  info.nodes = nodes;
  info.nodes_per_second = nodes * 1000 / std::uint64_t(std::max<std::int64_t>(elapsed, 1));
  info.hashfull = searcher_.table_.hashfull();
  info.score = root_move.score != -kInfiniteScore ? root_move.score : root_move.previous_score;
  if (info.score == -kInfiniteScore) info.score = root_move.initial_order;
  info.bound = bound;
  info.pv = root_move.pv;
  callbacks.on_info(info);
}

void TeamWorker::iterative_deepening(const TeamSearchCallbacks& callbacks) {
  prepare_root_moves();
  if (root_moves_.empty()) return;
  const int depth_limit = limits_.max_depth(kMaxDepth);
  Move4 reported = Move4::none();  // the first move of the last pv sent
  // Helpers start one ply deeper every other thread, so that threads spread over the depths.
  int depth = 1 + (id_ & 1);
  for (; depth <= depth_limit && !stopped(); ++depth) {
    // Scores of this iteration start unknown, so that a search stopped half-way never
    // compares them with the last iteration's.
    for (TeamRootMove& root_move : root_moves_) {
      if (root_move.score != -kInfiniteScore) root_move.previous_score = root_move.score;
      root_move.score = -kInfiniteScore;
    }
    const Score previous = root_moves_[0].previous_score;
    Score delta = kAspirationDelta;
    Score alpha = -kInfiniteScore, beta = kInfiniteScore;
    if (features_.aspiration_windows && depth >= 4 && previous != -kInfiniteScore &&
        !is_mate_score(previous)) {
      alpha = std::max(previous - delta, -kInfiniteScore);
      beta = std::min(previous + delta, kInfiniteScore);
    }
    while (true) {
      const Score score = search_root(alpha, beta, depth);
      std::stable_sort(
          root_moves_.begin(), root_moves_.end(),
          [](const TeamRootMove& a, const TeamRootMove& b) { return a.score > b.score; });
      if (stopped()) break;
      if (score <= alpha) {
        beta = (alpha + beta) / 2;
        alpha = std::max(score - delta, -kInfiniteScore);
        if (is_main() && searcher_.elapsed_ms() > 1000) report(depth, callbacks, Bound::Upper);
      } else if (score >= beta) {
        beta = std::min(score + delta, kInfiniteScore);
        if (is_main() && searcher_.elapsed_ms() > 1000) report(depth, callbacks, Bound::Lower);
      } else {
        break;
      }
      delta += delta / 2;
    }
    if (stopped()) break;
    if (!is_main()) continue;
    report(depth, callbacks, Bound::Exact);
    reported = root_moves_[0].move;

    const Score best = root_moves_[0].score;
    const bool waiting = searcher_.pondering_.load() || searcher_.infinite_.load();
    if (limits_.mate > 0 && best >= kMateBound && mate_moves(best) <= limits_.mate) break;
    if (waiting) continue;
    // A proven result needs no deeper search once the depth covers it with room to spare.
    if (is_mate_score(best) && depth >= (kMateScore - std::abs(best)) + 2) break;
    if (budget_.limited() && !budget_.use_all) {
      // A single legal move (often a forced pass) needs no thought beyond a ponder move.
      if (root_moves_.size() == 1 && depth >= 4) break;
      // Another iteration takes a few times as long as this one: do not start what the soft
      // limit would cut short.
      if (searcher_.elapsed_ms() >= budget_.soft_ms * 6 / 10) break;
    }
  }
  // The last info line must show the move to be played. One that beat the best of the last
  // iteration before a stop is reported with its score as a lower bound of the unfinished
  // iteration; when nothing was sent yet, the line is an estimate.
  if (is_main() && root_moves_[0].move != reported) {
    const bool improved = root_moves_[0].score != -kInfiniteScore;
    report(std::clamp(improved ? depth : depth - 1, 1, depth_limit), callbacks,
           improved ? Bound::Lower : Bound::Exact);
  }
}

// ---------------------------------------------------------------------------------------------

TeamEngine::TeamEngine() : searcher_(std::make_unique<TeamSearcher>(EngineOptions{})) {}

TeamEngine::~TeamEngine() = default;

void TeamEngine::set_options(const EngineOptions& options) {
  searcher_->set_options(options);
}

const EngineOptions& TeamEngine::options() const {
  return searcher_->options();
}

void TeamEngine::new_game() {
  searcher_->new_game();
}

void TeamEngine::set_position(const Position4& position, std::vector<Position4> history) {
  searcher_->set_position(position, std::move(history));
}

void TeamEngine::go(const SearchLimits& limits, TeamSearchCallbacks callbacks,
                    std::vector<Move4> search_moves) {
  searcher_->start(limits, std::move(callbacks), std::move(search_moves));
}

void TeamEngine::stop() {
  searcher_->stop();
}

void TeamEngine::ponderhit() {
  searcher_->ponderhit();
}

void TeamEngine::wait() {
  searcher_->wait();
}

bool TeamEngine::searching() const {
  return searcher_->searching();
}

std::uint64_t TeamEngine::bench(const std::function<void(const std::string&)>& report) {
  searcher_->wait();
  EngineOptions bench_options;
  bench_options.hash_mb = kBenchHashMb;
  bench_options.threads = 1;
  // A separate searcher leaves this engine's table and options as they were.
  TeamSearcher bench_searcher(bench_options);
  std::uint64_t total_nodes = 0;
  int index = 0;
  for (const std::string_view text : kBenchPositions) {
    bench_searcher.set_position(parse_position4(text), {});
    SearchLimits limits;
    limits.depth = kBenchDepth;
    std::uint64_t nodes = 0;
    std::string best;
    TeamSearchCallbacks callbacks;
    callbacks.on_info = [&](const TeamSearchInfo& info) { nodes = info.nodes; };
    callbacks.on_bestmove = [&](Move4 move, Move4) { best = to_string(move); };
    bench_searcher.start(limits, callbacks, {});
    bench_searcher.wait();
    total_nodes += nodes;
    if (report)
      report("Four-player position " + std::to_string(++index) + "/" +
             std::to_string(std::size(kBenchPositions)) + " (" + std::string(text) +
             "): bestmove " + best + ", nodes " + std::to_string(nodes));
  }
  return total_nodes;
}

}  // namespace quixo
