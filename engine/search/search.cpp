#include "search.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

#include "core/symmetry.hpp"
#include "evaluation.hpp"

namespace quixo {

namespace {

constexpr int kMaxDepth = kMaxPly - 16;
constexpr std::uint64_t kTimeCheckInterval = 1024;
constexpr Score kAspirationDelta = 20;

constexpr SlideSet bit_of(Move move) {
  return SlideSet{1} << move.slide();
}

// Late move reductions by remaining depth and move number: log(depth) * log(number) / 2, the
// usual shape; moves later in the order are less likely to matter.
struct ReductionTable {
  std::array<std::array<std::uint8_t, kSlideCount + 1>, kMaxPly> plies{};
  ReductionTable() {
    for (int depth = 1; depth < kMaxPly; ++depth)
      for (int number = 1; number <= kSlideCount; ++number)
        plies[depth][number] =
            std::uint8_t(0.5 + std::log(double(depth)) * std::log(double(number)) / 2.0);
  }
};
const ReductionTable kReductions;

// The form of `position` under which the transposition table keeps it.
CanonicalForm form_for_table(const Position& position, bool symmetric) {
  return symmetric ? canonical_form(position) : CanonicalForm{position, Symmetry::Identity};
}

}  // namespace

struct RootMove {
  Move move;
  Score score = -kInfiniteScore;
  Score previous_score = -kInfiniteScore;
  Score initial_order = 0;
  int selective_depth = 0;
  std::vector<Move> pv;
};

// One thread's search. Helpers of the main worker search the same root through the shared
// table (lazy SMP); only the main worker (id 0) checks the clock and reports.
class SearchWorker {
 public:
  SearchWorker(SearchManager& manager, int id)
      : manager_(manager), shared_(manager.shared()), table_(manager.table()), id_(id) {}

  void iterative_deepening(const SearchCallbacks& callbacks);
  std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  const std::vector<RootMove>& root_moves() const { return root_moves_; }
  int completed_depth() const { return completed_depth_; }

 private:
  bool is_main() const { return id_ == 0; }
  bool stopped() const { return shared_.stop.load(std::memory_order_relaxed); }
  void count_node() {
    nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  void check_limits();
  bool is_repetition(std::uint64_t key, int ply) const;
  void prepare_root_moves();
  Score search_root(Score alpha, Score beta, int depth);
  Score search(const Position& position, Score alpha, Score beta, int depth, int ply, bool pv_node);
  void update_pv(int ply, Move move);
  void record_cutoff(Color side, int ply, Move move, int depth, const Move* tried, int tried_count);
  void report(int depth, const SearchCallbacks& callbacks, Bound bound) const;
  // After a stop: sends a last info line when the move to be played is not the one the last
  // line showed (or no line was sent), so the GUI's last pv agrees with the bestmove.
  void report_final(int depth, Move reported, const SearchCallbacks& callbacks) const;

  SearchManager& manager_;
  SharedSearchState& shared_;
  TranspositionTable& table_;
  const int id_;
  std::atomic<std::uint64_t> nodes_{0};
  std::vector<RootMove> root_moves_;
  MoveScan root_scan_;
  std::size_t pv_index_ = 0;
  int completed_depth_ = 0;
  int root_depth_ = 0;
  int selective_depth_ = 0;
  std::array<std::uint64_t, kMaxPly + 2> path_keys_{};
  std::array<std::array<Move, 2>, kMaxPly + 2> killers_{};
  std::array<std::array<int, kSlideCount>, 2> history_{};
  std::array<std::array<Move, kMaxPly + 2>, kMaxPly + 2> pv_{};
  std::array<int, kMaxPly + 2> pv_length_{};
};

void SearchWorker::check_limits() {
  const std::uint64_t node_limit = shared_.limits.nodes;
  if (node_limit != 0 && manager_.total_nodes() >= node_limit) shared_.stop = true;
  if (nodes() % kTimeCheckInterval != 0) return;
  if (shared_.budget.limited() && !shared_.pondering.load(std::memory_order_relaxed) &&
      manager_.elapsed_ms() >= shared_.budget.hard_ms)
    shared_.stop = true;
}

bool SearchWorker::is_repetition(std::uint64_t key, int ply) const {
  // The same side is to move only every second ply, and keys include the side to move.
  for (int earlier = ply - 2; earlier >= 0; earlier -= 2)
    if (path_keys_[earlier] == key) return true;
  return !shared_.history_set.empty() && shared_.history_set.count(key) != 0;
}

void SearchWorker::prepare_root_moves() {
  const Position& root = shared_.root;
  root_scan_ = scan_moves(root);
  SlideSet candidates = root_scan_.legal;
  SlideSet requested = 0;
  for (const Move move : shared_.limits.search_moves)
    if (!move.is_none()) requested |= bit_of(move);
  if (requested & candidates) candidates &= requested;
  // A move that makes the opponent's line loses at once: only when every move does.
  if (candidates & ~root_scan_.losses) candidates &= ~root_scan_.losses;
  root_moves_.clear();
  for (SlideSet set = candidates; set != 0; set &= set - 1) {
    RootMove root_move;
    root_move.move = Move(SlideIndex(std::countr_zero(set)));
    const Position child = root.after(root_move.move);
    if (root_scan_.wins & bit_of(root_move.move))
      root_move.initial_order = mate_in(1);
    else if (root_scan_.losses & bit_of(root_move.move))
      root_move.initial_order = mated_in(1);
    else
      root_move.initial_order = -evaluate(child, opponent_wins(child));
    root_move.pv = {root_move.move};
    root_moves_.push_back(root_move);
  }
  // Helpers start from a different order, so that threads spread over the tree.
  std::stable_sort(
      root_moves_.begin(), root_moves_.end(),
      [](const RootMove& a, const RootMove& b) { return a.initial_order > b.initial_order; });
  if (id_ > 0 && root_moves_.size() > 2)
    std::rotate(root_moves_.begin() + 1,
                root_moves_.begin() + 1 + std::size_t(id_) % (root_moves_.size() - 1),
                root_moves_.end());
}

void SearchWorker::update_pv(int ply, Move move) {
  pv_[ply][0] = move;
  const int child_length = pv_length_[ply + 1];
  for (int i = 0; i < child_length; ++i) pv_[ply][i + 1] = pv_[ply + 1][i];
  pv_length_[ply] = child_length + 1;
}

void SearchWorker::record_cutoff(Color side, int ply, Move move, int depth, const Move* tried,
                                 int tried_count) {
  if (killers_[ply][0] != move) {
    killers_[ply][1] = killers_[ply][0];
    killers_[ply][0] = move;
  }
  // History with gravity: entries stay within +-16384 however long the search runs.
  const int bonus = std::min(depth * depth, 400);
  auto update = [&](Move m, int delta) {
    int& entry = history_[int(side)][m.slide()];
    entry += delta - entry * std::abs(delta) / 16384;
  };
  update(move, bonus);
  for (int i = 0; i < tried_count; ++i)
    if (tried[i] != move) update(tried[i], -bonus);
}

Score SearchWorker::search_root(Score alpha, Score beta, int depth) {
  const Position& root = shared_.root;
  path_keys_[0] = root.key();
  Score best = -kInfiniteScore;
  for (std::size_t i = pv_index_; i < root_moves_.size(); ++i) {
    RootMove& root_move = root_moves_[i];
    const Move move = root_move.move;
    selective_depth_ = 0;
    pv_length_[1] = 0;
    Score score;
    if (root_scan_.wins & bit_of(move)) {
      score = mate_in(1);
    } else if (root_scan_.losses & bit_of(move)) {
      score = mated_in(1);
    } else {
      const Position child = root.after(move);
      if (i == pv_index_) {
        score = -search(child, -beta, -alpha, depth - 1, 1, true);
      } else {
        score = -search(child, -alpha - 1, -alpha, depth - 1, 1, false);
        if (score > alpha && score < beta)
          score = -search(child, -beta, -alpha, depth - 1, 1, true);
      }
    }
    if (stopped()) break;
    if (i == pv_index_ || score > alpha) {
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

Score SearchWorker::search(const Position& position, Score alpha, Score beta, int depth, int ply,
                           bool pv_node) {
  pv_length_[ply] = 0;
  if (is_main()) check_limits();
  if (stopped()) return kDrawScore;
  count_node();
  selective_depth_ = std::max(selective_depth_, ply);

  const std::uint64_t key = position.key();
  if (is_repetition(key, ply)) return kDrawScore;
  path_keys_[ply] = key;

  // Every node is a position where the game goes on: a move that ends it is scored here
  // without a child node.
  const MoveScan scan = scan_moves(position);
  if (scan.wins) {
    // The winning move ends the principal variation.
    pv_[ply][0] = Move(SlideIndex(std::countr_zero(scan.wins)));
    pv_length_[ply] = 1;
    return mate_in(ply + 1);
  }
  const SlideSet safe = scan.legal & ~scan.losses;
  if (safe == 0) return mated_in(ply + 1);

  // Mate distance pruning: with no win at once and a move that does not lose at once, the
  // result lies between a loss at the opponent's next move and a win at our move after.
  alpha = std::max(alpha, mated_in(ply + 2));
  beta = std::min(beta, mate_in(ply + 3));
  if (alpha >= beta) return alpha;
  if (ply >= kMaxPly - 2) return evaluate(position, opponent_wins(position));

  const SlideSet threats = opponent_wins(position);
  if (depth <= 0) {
    // A quiet position is evaluated. A position under threat of a win in one is searched on
    // (like a check extension) so that forced sequences are seen to their end, up to a limit.
    if (threats == 0 || !shared_.features.threat_extension || ply >= 2 * root_depth_ + 8)
      return evaluate(position, threats);
    depth = 0;
  }

  // The table sees the position itself, or its canonical form, in whose frame moves are stored.
  const CanonicalForm table_form = form_for_table(position, shared_.features.symmetric_table);
  const std::uint64_t table_key = table_form.position.key();
  TTHit hit;
  Move tt_move = Move::none();
  if (table_.probe(table_key, hit)) {
    hit.move = transform(inverse(table_form.symmetry), hit.move);
    tt_move = (safe & bit_of(hit.move)) ? hit.move : Move::none();
    const Score tt_score = score_from_tt(hit.score, ply);
    if (!pv_node && hit.depth >= depth &&
        (hit.bound == Bound::Exact || (hit.bound == Bound::Lower && tt_score >= beta) ||
         (hit.bound == Bound::Upper && tt_score <= alpha)))
      return tt_score;
  }

  // Under a threat of a win in one, only the moves that leave the opponent no win in one are
  // worth searching: any other loses at the opponent's next move. This prunes nothing that
  // matters, and when no move parries the result is known at once.
  SlideSet candidates = safe;
  if (threats != 0 && shared_.features.parry_threats) {
    SlideSet parries = 0;
    for (SlideSet set = safe; set != 0; set &= set - 1) {
      const Position child = position.after(Move(SlideIndex(std::countr_zero(set))));
      if (scan_moves(child).wins == 0) parries |= set & -set;
    }
    if (parries == 0) return mated_in(ply + 2);
    candidates = parries;
  }

  // Order: the table's move, the killers, then by history.
  const Color side = position.side_to_move();
  std::array<Move, kSlideCount> moves;
  std::array<int, kSlideCount> order;
  int count = 0;
  for (SlideSet set = candidates; set != 0; set &= set - 1) {
    const Move move(SlideIndex(std::countr_zero(set)));
    const bool ordered = shared_.features.killers_and_history;
    int value = ordered ? history_[int(side)][move.slide()] : 0;
    if (move == tt_move)
      value = 1 << 30;
    else if (ordered && move == killers_[ply][0])
      value = 1 << 20;
    else if (ordered && move == killers_[ply][1])
      value = (1 << 20) - 1;
    moves[count] = move;
    order[count++] = value;
  }

  const Score original_alpha = alpha;
  Score best = -kInfiniteScore;
  Move best_move = Move::none();
  for (int i = 0; i < count; ++i) {
    // Selection sort step: the remaining move with the highest order value goes next.
    int pick = i;
    for (int j = i + 1; j < count; ++j)
      if (order[j] > order[pick]) pick = j;
    std::swap(moves[i], moves[pick]);
    std::swap(order[i], order[pick]);
    const Move move = moves[i];

    const Position child = position.after(move);
    if (!shared_.features.symmetric_table) table_.prefetch(child.key());
    Score score;
    if (i == 0) {
      score = -search(child, -beta, -alpha, depth - 1, ply + 1, pv_node);
    } else {
      // Late moves of a quiet node are first searched shallower; one that then beats alpha
      // is searched again at full depth.
      int reduction = 0;
      if (shared_.features.late_move_reductions && depth >= 3 && i >= 3 && threats == 0 &&
          order[i] < (1 << 20) - 1)
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
          record_cutoff(side, ply, move, std::max(depth, 1), moves.data(), i);
          break;
        }
      }
    }
  }

  const Bound bound = best >= beta                       ? Bound::Lower
                      : best > original_alpha && pv_node ? Bound::Exact
                                                         : Bound::Upper;
  table_.store(table_key, transform(table_form.symmetry, best_move), depth, bound,
               score_to_tt(best, ply));
  return best;
}

void SearchWorker::report(int depth, const SearchCallbacks& callbacks, Bound bound) const {
  if (!callbacks.on_info) return;
  const std::int64_t elapsed = manager_.elapsed_ms();
  const std::uint64_t nodes = manager_.total_nodes();
  const std::size_t lines = std::min<std::size_t>(shared_.multipv, root_moves_.size());
  for (std::size_t i = 0; i < lines; ++i) {
    const RootMove& root_move = root_moves_[i];
    const bool searched = root_move.score != -kInfiniteScore;
    SearchInfo info;
    info.depth = searched || i <= pv_index_ ? depth : std::max(depth - 1, 1);
    info.selective_depth = std::max(root_move.selective_depth, info.depth);
    info.time_ms = elapsed;
    info.nodes = nodes;
    info.nodes_per_second = nodes * 1000 / std::uint64_t(std::max<std::int64_t>(elapsed, 1));
    info.hashfull = table_.hashfull();
    info.score = searched ? root_move.score : root_move.previous_score;
    if (info.score == -kInfiniteScore) info.score = root_move.initial_order;
    info.bound = i == 0 ? bound : Bound::Exact;
    info.multipv = int(i) + 1;
    info.pv = root_move.pv;
    callbacks.on_info(info);
  }
}

void SearchWorker::report_final(int depth, Move reported, const SearchCallbacks& callbacks) const {
  if (root_moves_[0].move == reported) return;
  // A move that beat the last iteration's best before the stop: its score is a lower bound of
  // this unfinished iteration. Otherwise nothing was sent yet and the line is an estimate.
  const bool improved = root_moves_[0].score != -kInfiniteScore;
  report(improved ? depth : std::max(depth - 1, 1), callbacks,
         improved ? Bound::Lower : Bound::Exact);
}

void SearchWorker::iterative_deepening(const SearchCallbacks& callbacks) {
  prepare_root_moves();
  if (root_moves_.empty()) return;
  const int depth_limit = shared_.limits.max_depth(kMaxDepth);
  const std::size_t multipv =
      std::min<std::size_t>(std::max(shared_.multipv, 1), root_moves_.size());
  Move reported = Move::none();  // the first move of the last pv sent
  for (int depth = 1 + (id_ & 1); depth <= depth_limit && !stopped(); ++depth) {
    root_depth_ = depth;
    // Scores of this iteration start unknown, so that a search stopped half-way never
    // compares them with the last iteration's.
    for (RootMove& root_move : root_moves_) {
      if (root_move.score != -kInfiniteScore) root_move.previous_score = root_move.score;
      root_move.score = -kInfiniteScore;
    }
    for (pv_index_ = 0; pv_index_ < multipv && !stopped(); ++pv_index_) {
      const Score previous = root_moves_[pv_index_].previous_score;
      Score delta = kAspirationDelta;
      Score alpha = -kInfiniteScore, beta = kInfiniteScore;
      if (shared_.features.aspiration_windows && depth >= 4 && previous != -kInfiniteScore &&
          !is_mate_score(previous)) {
        alpha = std::max(previous - delta, -kInfiniteScore);
        beta = std::min(previous + delta, kInfiniteScore);
      }
      while (true) {
        const Score score = search_root(alpha, beta, depth);
        std::stable_sort(root_moves_.begin() + std::ptrdiff_t(pv_index_), root_moves_.end(),
                         [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
        if (stopped()) break;
        if (score <= alpha) {
          beta = (alpha + beta) / 2;
          alpha = std::max(score - delta, -kInfiniteScore);
          if (is_main() && manager_.elapsed_ms() > 1000) report(depth, callbacks, Bound::Upper);
        } else if (score >= beta) {
          beta = std::min(score + delta, kInfiniteScore);
          if (is_main() && manager_.elapsed_ms() > 1000) report(depth, callbacks, Bound::Lower);
        } else {
          break;
        }
        delta += delta / 2;
      }
      // Keep the earlier lines in front: sort only the lines after this one.
      std::stable_sort(root_moves_.begin(), root_moves_.begin() + std::ptrdiff_t(pv_index_ + 1),
                       [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
    }
    if (stopped()) break;
    completed_depth_ = depth;
    if (!is_main()) continue;
    report(depth, callbacks, Bound::Exact);
    reported = root_moves_[0].move;

    const Score best = root_moves_[0].score;
    const bool waiting = shared_.pondering.load() || shared_.infinite.load();
    if (shared_.limits.mate > 0 && best >= kMateBound && mate_moves(best) <= shared_.limits.mate)
      break;
    if (waiting) continue;
    // A proven result needs no deeper search once the depth covers it with room to spare.
    if (is_mate_score(best) && depth >= (kMateScore - std::abs(best)) + 2) break;
    // Another iteration takes a few times as long as this one: do not start what the soft
    // limit would cut short.
    if (shared_.budget.limited() && !shared_.budget.use_all &&
        manager_.elapsed_ms() >= shared_.budget.soft_ms * 6 / 10)
      break;
  }
  if (is_main()) report_final(std::max(root_depth_, 1), reported, callbacks);
}

// ---------------------------------------------------------------------------------------------

SearchManager::SearchManager(const EngineOptions& options)
    : options_(options), table_(std::size_t(options.hash_mb)) {}

SearchManager::~SearchManager() {
  stop();
  wait();
}

void SearchManager::set_options(const EngineOptions& options) {
  wait();
  if (options.hash_mb != options_.hash_mb) table_.resize(std::size_t(options.hash_mb));
  options_ = options;
}

void SearchManager::new_game() {
  wait();
  table_.clear();
}

namespace {
std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

std::int64_t SearchManager::elapsed_ms() const {
  return (now_ns() - shared_.start_ns.load(std::memory_order_relaxed)) / 1000000;
}

std::uint64_t SearchManager::total_nodes() const {
  std::uint64_t nodes = 0;
  for (const auto& worker : workers_) nodes += worker->nodes();
  return nodes;
}

void SearchManager::start(const Position& root, const std::vector<std::uint64_t>& history_keys,
                          const SearchLimits& limits, SearchCallbacks callbacks) {
  wait();
  shared_.root = root;
  shared_.history_keys = history_keys;
  shared_.history_set = std::unordered_set<std::uint64_t>(history_keys.begin(), history_keys.end());
  shared_.limits = limits;
  shared_.multipv = options_.multipv;
  shared_.features = options_.features;
  shared_.budget = plan_time(limits, root.side_to_move(), options_.move_overhead_ms);
  shared_.start_ns = now_ns();
  shared_.stop = false;
  shared_.pondering = limits.ponder;
  shared_.infinite = limits.infinite;
  table_.new_search();
  workers_.clear();
  for (int id = 0; id < std::max(options_.threads, 1); ++id)
    workers_.push_back(std::make_unique<SearchWorker>(*this, id));
  running_ = true;
  main_thread_ =
      std::thread([this, callbacks = std::move(callbacks)] { run_main_thread(callbacks); });
}

void SearchManager::run_main_thread(SearchCallbacks callbacks) {
  std::vector<std::thread> helpers;
  for (std::size_t i = 1; i < workers_.size(); ++i)
    helpers.emplace_back([this, i] { workers_[i]->iterative_deepening({}); });
  workers_[0]->iterative_deepening(callbacks);

  // In ponder and infinite mode the bestmove waits for ponderhit or stop.
  {
    std::unique_lock lock(release_mutex_);
    release_signal_.wait(lock, [this] {
      return shared_.stop.load() || (!shared_.pondering.load() && !shared_.infinite.load());
    });
  }
  shared_.stop = true;
  for (std::thread& helper : helpers) helper.join();

  const auto& root_moves = workers_[0]->root_moves();
  Move best = Move::none(), ponder = Move::none();
  if (!root_moves.empty()) {
    best = root_moves[0].move;
    if (root_moves[0].pv.size() > 1) {
      ponder = root_moves[0].pv[1];
    } else {
      // No second move in the line (the search was cut short): ask the table.
      const Position child = shared_.root.after(best);
      const CanonicalForm form = form_for_table(child, shared_.features.symmetric_table);
      TTHit hit;
      if (!child.is_game_over() && table_.probe(form.position.key(), hit)) {
        const Move move = transform(inverse(form.symmetry), hit.move);
        if (child.is_legal(move)) ponder = move;
      }
    }
  }
  if (callbacks.on_bestmove) callbacks.on_bestmove(best, ponder);
  running_ = false;
}

void SearchManager::notify_release() {
  std::lock_guard lock(release_mutex_);
  release_signal_.notify_all();
}

void SearchManager::stop() {
  shared_.stop = true;
  notify_release();
}

void SearchManager::ponderhit() {
  // From now on the normal limits apply, counted from this moment.
  shared_.start_ns = now_ns();
  shared_.pondering = false;
  notify_release();
}

void SearchManager::wait() {
  if (main_thread_.joinable()) main_thread_.join();
}

}  // namespace quixo
