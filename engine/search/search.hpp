// The search, written once for both games: iterative deepening negamax with principal variation
// search, aspiration windows, null move pruning, late move reductions, killers and history over the
// shared transposition table, run by one or more threads (lazy SMP: the threads search the same
// root and share the table; only the main one reports and decides the move).
//
// A game enters as a Variant, a class of static members that says what is the game's own (the
// concept SearchVariant in search_variant.hpp checks that a variant has them all):
//   Position, Move, Key (Position::key()), Node (what a node's scan found: `wins`, `safe` moves,
//     `forced_pass`), kHistorySize, kRepetitionCycle (plies between two turns of one mover);
//   scan(position), move_of_slide(position, slide) (the move of a winning or parrying geometry),
//     threats(position) (the opponent's wins in one),
//     Evaluator (the evaluation's settings, a value the search keeps) and
//     evaluate(evaluator, position, node, threats), generate_moves(position, node, slides, visit)
//     (calls visit(move, history index) for the moves of the node's `slides` and its forced pass),
//     history_index(position, move), has_history(move), usable_table_move(position, node, move),
//     table_view(position, key, features) (the key and frame the table keeps the node under);
//   root_candidates(root, scan, search_moves, keep_losses) (the legal moves, without those that
//     lose at once unless keep_losses or every move does), root_scan(root), wins_at_once(scan,
//     move), loses_at_once(scan, move), root_order(evaluator, child), plan(limits, root, overhead,
//     params) (the time plan on the mover's clock), applicable(features), parse(text),
//     kBenchPositions and kBenchLabel for the bench;
//   the endgame tables: Tables and kHasTables, and when it has them table_layers(tables),
//     in_table_layers(position, layers), probe_table(tables, position, ply) (the exact score),
//     table_probe_is_direct(tables, position) (a byte read, not worth the transposition table),
//     prefetch_table(tables, position) (start that read for a child about to be searched),
//     root_table_scores(tables, root, probes) (every root move's exact score) and
//     table_line(tables, root, move, max_plies) (the line the tables play);
//   and the switches below, where the games' searches are tuned differently (each one a
//   difference of behaviour that a match could settle):
//     kMultiPv: several principal variations; kThreatsAtEveryNode: the opponent's threats are
//     found at every node, where they keep late move reductions off and drive the threat
//     extension and parry pruning (else only at the horizon, for the evaluation);
//     kMateDistanceNarrowsWindow: mate distance pruning narrows the window (else it only returns
//     what lies outside it); kSpreadHelperRoots: helper threads start from a rotated root order;
//     kStopOnSingleRootMove: a timed search with one root move stops at depth 4;
//     kEveryThreadChecksLimits: every thread checks the node and time limits at every node (else
//     the main thread does, and helpers check the node limit only every kTimeCheckInterval of
//     their own nodes: less work per node, and a node limit still holds when the main thread is
//     descheduled on a loaded machine); kNullMove: null move pruning may be tried, with
//     after_null_move(position) (the same board with the other side to move).
//
// Endgame tables (a game with kHasTables, given them with set_tables): a node after the root whose
// position is in a loaded layer gets its exact score from the tables at once (and keeps it in the
// transposition table). A root in the tables whose every move is too is played from them: a won
// or lost root plays the fastest win or the slowest loss without a search and reports its exact
// score; a drawn root searches its drawing moves only, without probing, so that the search picks
// the draw that gives the opponent most chances to go wrong, and reports the draw score.
//
// The search's constants that a tune may change (the aspiration window, the reductions, the
// history bonus, the time shares) are EngineOptions::params (search_params.hpp), the same for both
// games; each worker copies them when its search starts.
//
// Only the facades (engine_base.cpp, engine.cpp, engine4.cpp) use this header.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/host_yield.hpp"
#include "core/move_scan.hpp"
#include "core/thread_start.hpp"
#include "engine_options.hpp"
#include "limits.hpp"
#include "mcts.hpp"
#include "root_symmetry.hpp"
#include "score.hpp"
#include "search_control.hpp"
#include "search_types.hpp"
#include "skill.hpp"
#include "time_manager.hpp"
#include "transposition_table.hpp"

namespace quixo {

namespace search_detail {

inline constexpr int kMaxDepth = kMaxPly - 16;
inline constexpr std::uint64_t kTimeCheckInterval = 1024;
// The most moves of a node in either game: two per geometry in the team game (the cube points
// to the mover or to its partner).
inline constexpr int kMaxMoveCount = 2 * kSlideCount;
// Both games' benches: a fixed depth and table size.
inline constexpr int kBenchDepth = 7;
inline constexpr int kBenchHashMb = 16;
// The depth the transposition table keeps an exact score of the endgame tables at: deeper than
// any search, so that every later probe of the position takes it.
inline constexpr int kTableEntryDepth = kMaxDepth + 1;
// What previous_move_ holds at a node that no move with a history index led to.
inline constexpr int kNoPreviousMove = -1;
inline constexpr int kNullMove = -2;

// Late move reductions by remaining depth and move number: base + log(depth) * log(number) /
// divisor, rounded down, the usual shape (by default 0.5 + log * log / 2); moves later in the
// order are less likely to matter. Made from the parameters when a manager is made or they change
// (some 11,000 logarithms, a fraction of a millisecond), not at every search.
struct ReductionTable {
  std::array<std::array<std::uint8_t, kMaxMoveCount + 1>, kMaxPly> plies{};
  explicit ReductionTable(const SearchParams& params) {
    // Per mille to a factor: the defaults give exactly 0.5 and 2.0, so the default table is the
    // one the bench signature was taken with.
    const double base = double(params.lmr_base_permille) / 1000.0;
    const double divisor = double(std::max(params.lmr_divisor_permille, 1)) / 1000.0;
    for (int depth = 1; depth < kMaxPly; ++depth)
      for (int number = 1; number <= kMaxMoveCount; ++number)
        plies[depth][number] = std::uint8_t(std::clamp(
            base + std::log(double(depth)) * std::log(double(number)) / divisor, 0.0, 255.0));
  }
  // Whether `a` and `b` make the same table.
  static bool same(const SearchParams& a, const SearchParams& b) {
    return a.lmr_base_permille == b.lmr_base_permille &&
           a.lmr_divisor_permille == b.lmr_divisor_permille;
  }
};

template <class Key>
struct KeyHasher {
  std::size_t operator()(const Key& key) const { return std::size_t(TableKey<Key>::hash(key)); }
};

}  // namespace search_detail

template <class MoveT>
struct RootMove {
  MoveT move;
  Score score = -kInfiniteScore;
  Score previous_score = -kInfiniteScore;
  Score initial_order = 0;
  int selective_depth = 0;
  std::vector<MoveT> pv;
};

template <class Variant>
class SearchWorker;

// The search's control and shared state: the facade's calls (set_position, start, stop,
// ponderhit, wait) come from the caller's thread; the workers read the configuration, which
// changes only between searches.
template <class Variant>
class SearchManager {
 public:
  using Position = typename Variant::Position;
  using Move = typename Variant::Move;
  using Key = typename Variant::Key;
  using Table = BasicTranspositionTable<Key, Move>;
  using Callbacks = BasicSearchCallbacks<Move>;
  using Tables = typename Variant::Tables;

  SearchManager(const EngineOptions& options, TableAllocation allocation)
      : options_(options), allocation_(allocation), reductions_(options.params) {
    if (allocation == TableAllocation::Now && uses_table(options))
      table_.resize(std::size_t(options.hash_mb));
    if (options.strength.random_seed != 0) random_.seed(options.strength.random_seed);
  }
  ~SearchManager() {
    stop();
    wait();
  }
  SearchManager(const SearchManager&) = delete;
  SearchManager& operator=(const SearchManager&) = delete;

  // Waits for a running search first. Throws TableAllocationError when a new Hash size cannot
  // be allocated; the options and table then stay as they were.
  void set_options(const EngineOptions& options) {
    wait();
    if (!uses_table(options))
      table_.release();
    else if (table_.allocated() ? options.hash_mb != options_.hash_mb
                                : allocation_ == TableAllocation::Now)
      table_.resize(std::size_t(options.hash_mb));
    if (options.strength.random_seed != 0 &&
        options.strength.random_seed != options_.strength.random_seed)
      random_.seed(options.strength.random_seed);
    if (!search_detail::ReductionTable::same(options.params, options_.params))
      reductions_ = search_detail::ReductionTable(options.params);
    options_ = options;
  }
  [[nodiscard]] const EngineOptions& options() const { return options_; }
  [[nodiscard]] std::size_t table_megabytes() const { return table_.megabytes(); }

  void new_game() {
    wait();
    if (table_.allocated()) table_.clear();
    // With a seed set, each game draws the same numbers again: the same game repeats.
    if (options_.strength.random_seed != 0) random_.seed(options_.strength.random_seed);
  }

  // The endgame tables the next searches probe (none: null). Waits for a running search first.
  void set_tables(std::shared_ptr<const Tables> tables) {
    wait();
    tables_ = std::move(tables);
  }

  // The evaluation the next searches use. Waits for a running search first.
  void set_evaluator(typename Variant::Evaluator evaluator) {
    wait();
    evaluator_ = std::move(evaluator);
  }
  [[nodiscard]] const typename Variant::Evaluator& evaluator() const { return evaluator_; }

  // The root and the keys of the game's positions before it, whose repetition is a draw.
  void set_position(const Position& root, const std::vector<Key>& history_keys) {
    wait();
    root_ = root;
    // A blank cube once taken never comes back, so the search meets again only the earlier
    // positions with the root's number of blanks (those since the last blank was taken): the
    // set that the nodes look in keeps only those, and is often empty.
    root_blanks_ = std::popcount(root.blanks());
    history_set_.clear();
    for (const Key& key : history_keys)
      if (Position::blank_count_of(key) == root_blanks_) history_set_.insert(key);
  }

  // Starts a search of the root in the background; `search_moves` restricts the root to those
  // of its moves that are legal (all moves when none is).
  void start(const SearchLimits& limits, Callbacks callbacks, std::vector<Move> search_moves) {
    wait();
    if (uses_table(options_) && !table_.allocated()) table_.resize(std::size_t(options_.hash_mb));
    limits_ = limits;
    search_moves_ = std::move(search_moves);
    multipv_ = Variant::kMultiPv ? options_.multipv : 1;
    // Below full strength (skill.hpp) the search takes the level's lines, depth and nodes, and
    // plays without the endgame tables. The random mover (Player::Random) is its weakest level.
    const bool random_player = options_.player == Player::Random;
    limited_ = random_player || !full_strength(options_.strength);
    if (limited_) {
      skill_ = skill_plan(random_player ? 0.0 : skill_of(options_.strength), random_);
      limits_.nodes = limits_.nodes == 0 ? kSkillNodes : std::min(limits_.nodes, kSkillNodes);
    }
    search_lines_ = limited_ ? skill_.lines : multipv_;
    features_ = Variant::applicable(options_.features);
    budget_ = Variant::plan(limits, root_, options_.move_overhead_ms, options_.params);
    table_layers_ = 0;
    if constexpr (Variant::kHasTables)
      if (tables_ && !limited_) table_layers_ = Variant::table_layers(*tables_);
    control_.begin(limits.ponder, limits.infinite);
    table_.new_search();
    workers_.clear();
    const bool tree_search = options_.player == Player::Mcts;
    // A host without threads searches with one worker, on the caller's thread (host_yield.hpp).
    const int threads = tree_search ? 0 : host::kHasThreads ? std::max(options_.threads, 1) : 1;
    for (int id = 0; id < threads; ++id)
      workers_.push_back(std::make_unique<SearchWorker<Variant>>(*this, id));
    running_ = true;
    const auto run = [this, tree_search](const Callbacks& run_callbacks) {
      if (tree_search)
        run_tree_search(run_callbacks);
      else
        run_main_thread(run_callbacks);
    };
    if constexpr (!host::kHasThreads) {
      run(callbacks);  // the bestmove has been reported when this returns
      return;
    }
    try {
      main_thread_ = start_thread([run, callbacks = std::move(callbacks)] { run(callbacks); });
    } catch (const std::system_error& error) {
      // No search runs: the caller answers (UqiSession plays the first legal move).
      running_ = false;
      throw std::runtime_error(thread_start_failure(0, 1, error));
    }
  }

  void stop() { control_.stop(); }
  void ponderhit() { control_.ponderhit(); }
  void wait() {
    if (main_thread_.joinable()) main_thread_.join();
  }
  [[nodiscard]] bool searching() const { return running_.load(); }

 private:
  friend class SearchWorker<Variant>;

  void run_main_thread(const Callbacks& callbacks) {
    prepare_tables_at_root();
    // A helper that runs out of memory (under a memory limit the threads' stacks may take what
    // is left) stops; the others go on.
    std::atomic<int> out_of_memory{0};
    const auto helper = [this, &out_of_memory](std::size_t i) {
      try {
        workers_[i]->iterative_deepening({});
      } catch (const std::bad_alloc&) {
        ++out_of_memory;
      }
    };
    std::vector<std::thread> helpers;
    helpers.reserve(workers_.size());  // push_back never throws after a thread has started
    for (std::size_t i = 1; i < workers_.size(); ++i) {
      try {
        helpers.push_back(start_thread(helper, i));
      } catch (const std::system_error& error) {
        // The system gives no more threads (a memory limit, too many processes): search with
        // those that started; the workers that did not start count no nodes.
        if (callbacks.on_note)
          callbacks.on_note("error: option Threads: " +
                            thread_start_failure(int(i), int(workers_.size()), error) +
                            "; searching with " + std::to_string(i) + " thread" +
                            (i == 1 ? "" : "s"));
        break;
      }
    }
    try {
      workers_[0]->iterative_deepening(callbacks);
    } catch (const std::bad_alloc&) {
      control_.stop();  // the best move found so far is played
      if (callbacks.on_note) callbacks.on_note("error: the search ran out of memory");
    }
    // In ponder and infinite mode the bestmove waits for ponderhit or stop.
    control_.wait_for_release();
    for (std::thread& helper_thread : helpers) helper_thread.join();
    if (out_of_memory > 0 && callbacks.on_note)
      callbacks.on_note("error: " + std::to_string(out_of_memory.load()) +
                        " search thread(s) ran out of memory and stopped");

    const std::vector<RootMove<Move>>& root_moves = workers_[0]->root_moves();
    Move best = Move::none(), ponder = Move::none();
    if (!root_moves.empty()) {
      best = root_moves[0].move;
      ponder = ponder_move(root_moves[0]);
    }
    if (callbacks.on_bestmove) callbacks.on_bestmove(best, ponder);
    running_ = false;
  }

  // Player::Mcts searches without the transposition table: its tree takes Hash's memory in the
  // table's place, so that Hash bounds the engine's memory for every player.
  static bool uses_table(const EngineOptions& options) { return options.player != Player::Mcts; }

  // Player::Mcts: the Monte Carlo tree search (mcts.hpp) instead of the workers, on this thread.
  // It runs MctsIterations iterations (`go nodes N`: N; `go infinite`: until stop), or fewer when
  // it proves the root, or when `stop` or the hard time limit ends it first: only then does the
  // machine change the move.
  void run_tree_search(const Callbacks& callbacks) {
    using Tree = MonteCarloTreeSearch<Position>;
    const std::vector<Move> moves =
        root_.is_game_over()
            ? std::vector<Move>()
            : Variant::root_candidates(root_, Variant::root_scan(root_), search_moves_, true);
    // The tree takes at most the memory of the transposition table, which it does not use.
    const std::size_t max_nodes = (std::size_t(options_.hash_mb) << 20) / Tree::node_bytes();
    Tree tree(root_, moves, random_(), max_nodes);
    // `go infinite` (analysis) iterates until stop, or until the root's visit count would
    // overflow (hours); pondering keeps to the iterations, so that a ponder hit plays the move
    // the same iterations would.
    const std::uint64_t target = std::min<std::uint64_t>(
        limits_.nodes > 0  ? limits_.nodes
        : limits_.infinite ? std::numeric_limits<std::uint64_t>::max()
                           : std::uint64_t(std::max(options_.mcts_iterations, 1)),
        Tree::kMaxIterations);
    const auto report = [&] {
      if (!callbacks.on_info || moves.empty()) return;
      BasicSearchInfo<Move> info;
      info.depth = info.selective_depth = std::max(tree.max_depth(), 1);
      info.time_ms = control_.elapsed_ms();
      info.nodes = tree.iterations();
      info.nodes_per_second =
          info.time_ms > 0 ? info.nodes * 1000 / std::uint64_t(info.time_ms) : info.nodes * 1000;
      info.hashfull = int(std::min<std::uint64_t>(tree.tree_nodes() * 1000 / max_nodes, 1000));
      info.score = tree.score();
      info.pv = tree.principal_variation();
      callbacks.on_info(info);
    };
    // Chunks of iterations between looks at the clock: a few milliseconds each.
    constexpr std::uint64_t kChunk = 64;
    std::int64_t reported_ms = 0;
    while (!moves.empty() && tree.iterations() < target && !tree.solved() && !control_.stopped()) {
      tree.iterate(std::min(kChunk, target - tree.iterations()));
      const std::int64_t elapsed = control_.elapsed_ms();
      if (budget_.limited() && !control_.pondering() && elapsed >= budget_.hard_ms) break;
      if (elapsed - reported_ms >= 1000) {
        report();
        reported_ms = elapsed;
      }
    }
    report();
    // In ponder and infinite mode the bestmove waits for ponderhit or stop.
    control_.wait_for_release();
    const std::vector<Move> line = tree.principal_variation();
    if (callbacks.on_bestmove)
      callbacks.on_bestmove(tree.best_move(), line.size() > 1 ? line[1] : Move::none());
    running_ = false;
  }

  // What the tables say of the root's moves, before any worker starts: every move's exact score
  // when the root and its children are all in the tables. A drawn root is searched without
  // probes (search_layers_ empty).
  void prepare_tables_at_root() {
    root_table_scores_.reset();
    root_table_probes_ = 0;
    root_table_draw_ = false;
    search_layers_ = table_layers_;
    if constexpr (Variant::kHasTables) {
      if (table_layers_ == 0 || root_.is_game_over() ||
          !Variant::in_table_layers(root_, table_layers_))
        return;
      root_table_scores_ = Variant::root_table_scores(*tables_, root_, root_table_probes_);
      if (!root_table_scores_) return;
      // The best the root moves the search may play (searchmoves) can do.
      root_table_best_ = -kInfiniteScore;
      const MoveScan scan = Variant::root_scan(root_);
      for (const Move move : Variant::root_candidates(root_, scan, search_moves_))
        root_table_best_ = std::max(root_table_best_, root_table_score(move));
      if (!is_mate_score(root_table_best_)) {
        root_table_draw_ = true;
        search_layers_ = 0;
      }
    }
  }
  // A root move's exact score from root_table_scores_ (which holds every legal move).
  Score root_table_score(Move move) const {
    for (const auto& [table_move, score] : *root_table_scores_)
      if (table_move == move) return score;
    return -kInfiniteScore;
  }

  Move ponder_move(const RootMove<Move>& best) const {
    if (best.pv.size() > 1) return best.pv[1];
    // No second move in the line (the search was cut short): ask the table.
    const Position child = root_.after(best.move);
    if (child.is_game_over()) return Move::none();
    const auto view = Variant::table_view(child, child.key(), features_);
    typename Table::Hit hit;
    if (!table_.probe(view.key, hit)) return Move::none();
    const Move move = view.from_table(hit.move);
    return child.is_legal(move) ? move : Move::none();
  }

  [[nodiscard]] std::uint64_t total_nodes() const {
    std::uint64_t nodes = 0;
    for (const auto& worker : workers_) nodes += worker->nodes();
    return nodes;
  }
  // The probes of the endgame tables that answered, the root's included.
  [[nodiscard]] std::uint64_t total_tb_hits() const {
    std::uint64_t hits = root_table_probes_;
    for (const auto& worker : workers_) hits += worker->tb_hits();
    return hits;
  }

  // Configuration, set between searches.
  EngineOptions options_;
  TableAllocation allocation_;
  search_detail::ReductionTable reductions_;  // from options_.params
  Table table_;
  Position root_;
  std::unordered_set<Key, search_detail::KeyHasher<Key>> history_set_;
  int root_blanks_ = 0;
  SearchLimits limits_;
  std::vector<Move> search_moves_;
  TimeBudget budget_;
  SearchFeatures features_;
  int multipv_ = 1;       // the lines reported
  int search_lines_ = 1;  // the lines searched: multipv_, or the level's below full strength
  // Below full strength: the plan of this search and the generator of its choices (used by the
  // main search thread during a search, by the caller's thread between searches).
  bool limited_ = false;
  SkillPlan skill_;
  std::mt19937_64 random_{std::random_device{}()};
  std::shared_ptr<const Tables> tables_;
  typename Variant::Evaluator evaluator_ = Variant::standard_evaluator();
  std::uint32_t table_layers_ = 0;  // the layers loaded when the search started

  // What the tables say at the root, set by the main thread before the workers start.
  std::optional<std::vector<std::pair<Move, Score>>> root_table_scores_;
  Score root_table_best_ = -kInfiniteScore;  // the best of them among the root's candidates
  bool root_table_draw_ = false;             // that best is a draw
  std::uint64_t root_table_probes_ = 0;
  std::uint32_t search_layers_ = 0;  // the layers the nodes after the root probe

  // Control, shared with the caller's thread.
  SearchControl control_;
  std::thread main_thread_;
  std::atomic<bool> running_{false};

  // One per thread; worker 0 (the main one) checks the clock, reports and decides the move.
  std::vector<std::unique_ptr<SearchWorker<Variant>>> workers_;
};

// One thread's search. All its state is its own; it shares only the table and the manager's
// read-only configuration and control.
template <class Variant>
class SearchWorker {
 public:
  using Position = typename Variant::Position;
  using Move = typename Variant::Move;
  using Key = typename Variant::Key;
  using Node = typename Variant::Node;
  using Callbacks = BasicSearchCallbacks<Move>;
  using Table = typename SearchManager<Variant>::Table;

  SearchWorker(SearchManager<Variant>& manager, int id)
      : manager_(manager),
        table_(manager.table_),
        features_(manager.features_),
        params_(manager.options_.params),
        reductions_(manager.reductions_),
        id_(id) {}

  void iterative_deepening(const Callbacks& callbacks);
  [[nodiscard]] std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t tb_hits() const { return tb_hits_.load(std::memory_order_relaxed); }
  [[nodiscard]] const std::vector<RootMove<Move>>& root_moves() const { return root_moves_; }

 private:
  bool is_main() const { return id_ == 0; }
  bool stopped() const { return manager_.control_.stopped(); }
  void count_node() {
    nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  void count_tb_hit() {
    tb_hits_.store(tb_hits_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  void check_limits();
  void check_node_limit();
  [[nodiscard]] bool is_repetition(const Key& key, int ply) const;
  void prepare_root_moves();
  // Keeps the root moves the tables rate best (prepare_root_moves); true when that decides the
  // game (a win or a loss): the root needs no search.
  bool apply_tables_at_root();
  // Reports the root decided by the tables: the exact scores and the lines the tables play.
  void report_tables(const Callbacks& callbacks);
  // The proven score of a node in the tables' layers (a table win or loss, or a draw), or
  // nullopt. A layer without its win/draw/loss file leaves its answers in the transposition table.
  [[nodiscard]] std::optional<Score> probe_tables(const Position& position, const Key& key,
                                                  int ply);
  [[nodiscard]] Score search_root(Score alpha, Score beta, int depth);
  // `cut_node`: a node off the principal variation expected to fail high (the late moves of a
  // node are searched as such, their first replies as the opposite, as in Stockfish), where
  // CutNodeReductions reduces late moves more. `excluded`: a move left out, for the singular
  // extension's search of the other moves (its result, which is not the node's, is neither taken
  // from nor stored in the table).
  [[nodiscard]] Score search(const Position& position, Score alpha, Score beta, int depth, int ply,
                             bool pv_node, bool cut_node, Move excluded = Move::none());
  void update_pv(int ply, Move move);
  void record_cutoff(const Position& position, int ply, Move move, int depth, const Move* tried,
                     int tried_count);
  void report(int depth, const Callbacks& callbacks, Bound bound) const;
  // Below full strength: moves the line the level picks (skill.hpp) to the front of the root
  // moves, the one played.
  void pick_skill_line();
  // After a stop: sends a last info line when the move to be played is not the one the last
  // line showed (or no line was sent), so the GUI's last pv agrees with the bestmove.
  void report_final(int depth, Move reported, const Callbacks& callbacks) const;

  SearchManager<Variant>& manager_;
  Table& table_;
  const SearchFeatures& features_;
  // A copy, so that the nodes read the parameters beside the worker's other state.
  const SearchParams params_;
  const search_detail::ReductionTable& reductions_;
  const int id_;

  // Search state. Ordering statistics start afresh with every search (a worker lives for one
  // search), so that a search depends only on the position, the limits and the table:
  // fixed-node searches after new_game repeat exactly.
  std::atomic<std::uint64_t> nodes_{0};
  std::atomic<std::uint64_t> tb_hits_{0};
  std::vector<RootMove<Move>> root_moves_;
  bool decided_by_tables_ = false;
  MoveScan root_scan_;
  std::size_t pv_index_ = 0;
  int root_depth_ = 0;
  int selective_depth_ = 0;
  std::array<Key, kMaxPly + 2> path_keys_{};
  std::array<std::array<Move, 2>, kMaxPly + 2> killers_{};
  std::array<int, Variant::kHistorySize> history_{};
  // Continuation history: by the history index of the move that led to the node (the opponent's
  // last move) and of the move tried, kHistorySize^2 entries (heap: 160 KB in the team game).
  std::vector<int> continuation_ =
      std::vector<int>(std::size_t(Variant::kHistorySize) * Variant::kHistorySize, 0);
  // The history index of the move that led to each ply's node: kNoPreviousMove at the root and
  // after a move without history (a forced pass), kNullMove after a null move.
  std::array<int, kMaxPly + 2> previous_move_{};
  // The threats of a ply's node when its parent found them already (to decide a reduction): the
  // child's key and its threats, which are the position's alone (the key is exact), so an entry
  // left by an earlier node of the same ply is never wrong, only unused.
  struct KnownThreats {
    Key key{};
    SlideSet threats = 0;
  };
  std::array<KnownThreats, kMaxPly + 2> known_threats_{};
  std::array<std::array<Move, kMaxPly + 2>, kMaxPly + 2> pv_{};
  std::array<int, kMaxPly + 2> pv_length_{};
};

template <class Variant>
void SearchWorker<Variant>::check_node_limit() {
  const std::uint64_t node_limit = manager_.limits_.nodes;
  if (node_limit != 0 && manager_.total_nodes() >= node_limit) manager_.control_.limit_reached();
}

template <class Variant>
void SearchWorker<Variant>::check_limits() {
  check_node_limit();
  if (nodes() % search_detail::kTimeCheckInterval != 0) return;
  const TimeBudget& budget = manager_.budget_;
  if (budget.limited() && !manager_.control_.pondering() &&
      manager_.control_.elapsed_ms() >= budget.hard_ms)
    manager_.control_.limit_reached();
  if constexpr (!host::kHasThreads) host::yield();
}

template <class Variant>
bool SearchWorker<Variant>::is_repetition(const Key& key, int ply) const {
  // The same mover comes back only every kRepetitionCycle plies, and keys include the mover.
  for (int earlier = ply - Variant::kRepetitionCycle; earlier >= 0;
       earlier -= Variant::kRepetitionCycle)
    if (path_keys_[earlier] == key) return true;
  // A node below a move that took a blank cannot be an earlier position of the game.
  return !manager_.history_set_.empty() && Position::blank_count_of(key) == manager_.root_blanks_ &&
         manager_.history_set_.count(key) != 0;
}

template <class Variant>
void SearchWorker<Variant>::prepare_root_moves() {
  const Position& root = manager_.root_;
  root_moves_.clear();
  root_scan_ = Variant::root_scan(root);
  // The random mover draws among the moves in their generation order, so that its games do not
  // depend on the evaluation (a win or loss in one still sorts first and last: it plays any).
  const bool random_mover = manager_.limited_ && manager_.skill_.random_mover;
  // Below full strength the moves that lose at once are candidates too: a weak player may miss
  // that a push completes the opponent's line.
  for (const Move move :
       Variant::root_candidates(root, root_scan_, manager_.search_moves_, manager_.limited_)) {
    RootMove<Move> root_move;
    root_move.move = move;
    if (Variant::wins_at_once(root_scan_, move))
      root_move.initial_order = mate_in(1);
    else if (Variant::loses_at_once(root_scan_, move))
      root_move.initial_order = mated_in(1);
    else if (!random_mover)
      root_move.initial_order = -Variant::root_order(manager_.evaluator_, root.after(move));
    root_move.pv = {move};
    root_moves_.push_back(root_move);
  }
  decided_by_tables_ = apply_tables_at_root();
  if (decided_by_tables_) return;
  std::stable_sort(root_moves_.begin(), root_moves_.end(),
                   [](const RootMove<Move>& a, const RootMove<Move>& b) {
                     return a.initial_order > b.initial_order;
                   });
  // A move worth the same as an earlier one by a symmetry of the root, or making the same
  // position, is not searched when one line is (root_symmetry.hpp): at the start, 3 moves
  // instead of 44. MultiPV's lines show every move, and a level below full strength (whose
  // random mover picks any legal move uniformly) chooses among all of them.
  if (!manager_.limited_ && manager_.search_lines_ == 1 && root_moves_.size() > 1) {
    std::vector<Move> moves;
    moves.reserve(root_moves_.size());
    for (const RootMove<Move>& root_move : root_moves_) moves.push_back(root_move.move);
    const std::vector<bool> duplicate =
        symmetric_duplicates(root, std::span<const Move>(moves), manager_.history_set_);
    std::vector<RootMove<Move>> kept;
    for (std::size_t i = 0; i < root_moves_.size(); ++i)
      if (!duplicate[i]) kept.push_back(std::move(root_moves_[i]));
    root_moves_ = std::move(kept);
  }
  // Helpers start from a different order, so that threads spread over the tree.
  if (Variant::kSpreadHelperRoots && id_ > 0 && root_moves_.size() > 2)
    std::rotate(root_moves_.begin() + 1,
                root_moves_.begin() + 1 + std::size_t(id_) % (root_moves_.size() - 1),
                root_moves_.end());
}

template <class Variant>
bool SearchWorker<Variant>::apply_tables_at_root() {
  if (!manager_.root_table_scores_) return false;
  const Score best = manager_.root_table_best_;
  std::erase_if(root_moves_, [&](const RootMove<Move>& root_move) {
    return manager_.root_table_score(root_move.move) < best;
  });
  if (!is_mate_score(best)) return false;  // a draw: the search chooses among the drawing moves
  // A win or a loss: the first move (in generation order) of those that keep the value.
  for (RootMove<Move>& root_move : root_moves_) root_move.score = best;
  return true;
}

template <class Variant>
void SearchWorker<Variant>::report_tables(const Callbacks& callbacks) {
  const std::size_t lines =
      std::min<std::size_t>(std::max(manager_.multipv_, 1), root_moves_.size());
  for (std::size_t i = 0; i < lines; ++i) {
    RootMove<Move>& root_move = root_moves_[i];
    if constexpr (Variant::kHasTables)
      root_move.pv =
          Variant::table_line(*manager_.tables_, manager_.root_, root_move.move, kMaxPly);
    root_move.selective_depth = int(root_move.pv.size());
  }
  report(1, callbacks, Bound::Exact);
}

template <class Variant>
std::optional<Score> SearchWorker<Variant>::probe_tables(const Position& position, const Key& key,
                                                         int ply) {
  std::optional<Score> score;
  if constexpr (Variant::kHasTables) {
    // A layer with its win/draw/loss file answers with a byte read, cheaper than the
    // transposition table's probe and store, which would also push searched entries out.
    if (Variant::table_probe_is_direct(*manager_.tables_, position)) {
      score = Variant::probe_table(*manager_.tables_, position, ply);
      if (score) count_tb_hit();
      return score;
    }
  }
  // Else a probe may decode a block: the table keeps its answer.
  const auto view = Variant::table_view(position, key, features_);
  const std::uint64_t table_hash = Table::hash(view.key);
  typename Table::Hit hit;
  if (table_.probe(view.key, table_hash, hit) && hit.bound == Bound::Exact &&
      hit.depth >= search_detail::kTableEntryDepth)
    return score_from_tt(hit.score, ply);
  if constexpr (Variant::kHasTables) score = Variant::probe_table(*manager_.tables_, position, ply);
  // None for a block found corrupt: the tables drop its layer and the search goes on without it.
  if (!score) return std::nullopt;
  count_tb_hit();
  table_.store(view.key, table_hash, Move::none(), search_detail::kTableEntryDepth, Bound::Exact,
               score_to_tt(*score, ply));
  return score;
}

template <class Variant>
void SearchWorker<Variant>::update_pv(int ply, Move move) {
  pv_[ply][0] = move;
  const int child_length = pv_length_[ply + 1];
  for (int i = 0; i < child_length; ++i) pv_[ply][i + 1] = pv_[ply + 1][i];
  pv_length_[ply] = child_length + 1;
}

template <class Variant>
void SearchWorker<Variant>::record_cutoff(const Position& position, int ply, Move move, int depth,
                                          const Move* tried, int tried_count) {
  if (killers_[ply][0] != move) {
    killers_[ply][1] = killers_[ply][0];
    killers_[ply][0] = move;
  }
  if (!Variant::has_history(move)) return;  // a forced pass is the only move: nothing to order
  // History with gravity: entries stay within +-16384 however long the search runs.
  const int bonus =
      std::min(depth * depth * params_.history_bonus_percent / 100, params_.history_bonus_max);
  const int previous = previous_move_[ply];
  const bool continuation = features_.continuation_history && previous >= 0;
  const auto gravity = [](int& entry, int delta) {
    entry += delta - entry * std::abs(delta) / 16384;
  };
  auto update = [&](Move m, int delta) {
    const int index = Variant::history_index(position, m);
    gravity(history_[index], delta);
    if (continuation)
      gravity(continuation_[std::size_t(previous) * Variant::kHistorySize + std::size_t(index)],
              delta);
  };
  update(move, bonus);
  for (int i = 0; i < tried_count; ++i)
    if (tried[i] != move) update(tried[i], -bonus);
}

template <class Variant>
Score SearchWorker<Variant>::search_root(Score alpha, Score beta, int depth) {
  assert(-kInfiniteScore <= alpha && alpha < beta && beta <= kInfiniteScore);
  const Position& root = manager_.root_;
  path_keys_[0] = root.key();
  Score best = -kInfiniteScore;
  for (std::size_t i = pv_index_; i < root_moves_.size(); ++i) {
    RootMove<Move>& root_move = root_moves_[i];
    const Move move = root_move.move;
    selective_depth_ = 0;
    pv_length_[1] = 0;
    Score score;
    if (Variant::wins_at_once(root_scan_, move)) {
      score = mate_in(1);
    } else if (Variant::loses_at_once(root_scan_, move)) {
      score = mated_in(1);
    } else {
      const Position child = root.after(move);
      previous_move_[1] = Variant::has_history(move) ? Variant::history_index(root, move)
                                                     : search_detail::kNoPreviousMove;
      if (i == pv_index_) {
        score = -search(child, -beta, -alpha, depth - 1, 1, true, false);
      } else {
        score = -search(child, -alpha - 1, -alpha, depth - 1, 1, false, true);
        if (score > alpha && score < beta)
          score = -search(child, -beta, -alpha, depth - 1, 1, true, false);
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

template <class Variant>
Score SearchWorker<Variant>::search(const Position& position, Score alpha, Score beta, int depth,
                                    int ply, bool pv_node, bool cut_node, Move excluded) {
  assert(-kInfiniteScore <= alpha && alpha < beta && beta <= kInfiniteScore);
  assert(ply > 0 && ply < kMaxPly);
  pv_length_[ply] = 0;
  if (Variant::kEveryThreadChecksLimits || is_main())
    check_limits();
  else if (nodes() % search_detail::kTimeCheckInterval == 0)
    check_node_limit();
  if (stopped()) return kDrawScore;
  count_node();
  selective_depth_ = std::max(selective_depth_, ply);

  const Key key = position.key();
  if (is_repetition(key, ply)) return kDrawScore;
  path_keys_[ply] = key;

  // Every node is a position where the game goes on: a move that ends it is scored here
  // without a child node.
  const Node node = Variant::scan(position);
  if (node.wins) {
    // The winning move ends the principal variation.
    pv_[ply][0] = Variant::move_of_slide(position, SlideIndex(std::countr_zero(node.wins)));
    pv_length_[ply] = 1;
    return mate_in(ply + 1);
  }
  if (node.safe == 0 && !node.forced_pass) return mated_in(ply + 1);

  // A position in the endgame tables has its proven score there. After the scan: a win or loss
  // at once is exact without the probe's memory read, and ranks above the tables' wins.
  if constexpr (Variant::kHasTables) {
    if (manager_.search_layers_ != 0 && Variant::in_table_layers(position, manager_.search_layers_))
      if (const std::optional<Score> score = probe_tables(position, key, ply)) return *score;
  }

  // Mate distance pruning: with no win at once and a move that does not lose at once, the
  // result lies between a loss at the opponent's next move and a win at our (or our
  // partner's) move after.
  if constexpr (Variant::kMateDistanceNarrowsWindow) {
    alpha = std::max(alpha, mated_in(ply + 2));
    beta = std::min(beta, mate_in(ply + 3));
    if (alpha >= beta) return alpha;
  } else {
    // The window is left as it is, so that a line ending in exactly that loss or win still
    // beats alpha and enters the principal variation.
    if (mated_in(ply + 2) >= beta) return mated_in(ply + 2);
    if (mate_in(ply + 3) <= alpha) return mate_in(ply + 3);
  }

  SlideSet threats = 0;
  if constexpr (Variant::kThreatsAtEveryNode)
    threats = known_threats_[ply].key == key ? known_threats_[ply].threats
                                             : Variant::threats(position, node);
  if (depth <= 0 || ply >= kMaxPly - 2) {
    if constexpr (Variant::kThreatsAtEveryNode) {
      // A quiet position is evaluated. A position under threat of a win in one is searched on
      // (like a check extension) so that forced sequences are seen to their end, up to a limit.
      if (ply >= kMaxPly - 2 || threats == 0 || !features_.threat_extension ||
          ply >= 2 * root_depth_ + 8)
        return Variant::evaluate(manager_.evaluator_, position, node, threats);
      depth = 0;
    } else {
      return Variant::evaluate(manager_.evaluator_, position, node,
                               Variant::threats(position, node));
    }
  }

  // The table sees the position itself, or an image of it, in whose frame moves are stored.
  const auto view = Variant::table_view(position, key, features_);
  const std::uint64_t table_hash = Table::hash(view.key);
  typename Table::Hit hit;
  Move tt_move = Move::none();
  const bool excluding = !excluded.is_none();
  if (!excluding && table_.probe(view.key, table_hash, hit)) {
    hit.move = view.from_table(hit.move);
    if (Variant::usable_table_move(position, node, hit.move)) tt_move = hit.move;
    const Score tt_score = score_from_tt(hit.score, ply);
    if (!pv_node && hit.depth >= depth &&
        (hit.bound == Bound::Exact || (hit.bound == Bound::Lower && tt_score >= beta) ||
         (hit.bound == Bound::Upper && tt_score <= alpha)))
      return tt_score;
  }

  // Internal iterative reduction: a node the table knows no move of is likely new to the search
  // and its move order a guess, so it is searched a ply shallower (the next iteration, with the
  // move this one stores, searches it fully).
  if (features_.internal_iterative_reduction && tt_move.is_none() && depth >= params_.iir_min_depth)
    --depth;

  // Pruning at a node off the principal variation where the opponent threatens no win in one and
  // the window is no proven result: only there does a static evaluation say enough. A variant
  // that does not find threats at every node never prunes (threats stays 0 there).
  const bool may_prune = Variant::kThreatsAtEveryNode && !pv_node && threats == 0 && !excluding &&
                         !is_decisive_score(alpha) && !is_decisive_score(beta);
  if (may_prune &&
      (features_.reverse_futility || features_.null_move_pruning || features_.razoring)) {
    const Score static_eval = Variant::evaluate(manager_.evaluator_, position, node, threats);
    // Reverse futility: so far above beta that a shallow search would not come back below it.
    if (features_.reverse_futility && depth <= params_.reverse_futility_max_depth &&
        static_eval - params_.reverse_futility_margin * depth >= beta)
      return static_eval;
    // Razoring, its mirror: so far below alpha that a shallow search would not come back above it.
    if (features_.razoring && depth <= params_.razoring_max_depth &&
        static_eval + params_.razoring_margin * depth < alpha)
      return static_eval;
    // Null move: when the opponent, moving twice, still cannot bring the score below beta by a
    // shallower search, neither can it after a real move; a move in Quixo rarely hurts its mover
    // (zugzwang) once no win in one is threatened. Never two null moves in a row.
    if constexpr (Variant::kNullMove) {
      if (features_.null_move_pruning && depth >= params_.null_move_min_depth &&
          static_eval >= beta && previous_move_[ply] != search_detail::kNullMove) {
        const int reduction =
            params_.null_move_reduction + depth / std::max(params_.null_move_depth_divisor, 1);
        previous_move_[ply + 1] = search_detail::kNullMove;
        const Score score = -search(Variant::after_null_move(position), -beta, -beta + 1,
                                    depth - 1 - reduction, ply + 1, false, !cut_node);
        if (stopped()) return kDrawScore;
        // A proven win found past a null move is not proven: the real moves may not allow it.
        if (score >= beta) return is_decisive_score(score) ? beta : score;
      }
    }
  }

  // Under a threat of a win in one, only the moves that leave the opponent no win in one are
  // worth searching: any other loses at the opponent's next move. This prunes nothing that
  // matters, and when no move parries the result is known at once.
  SlideSet candidates = node.safe;
  if constexpr (Variant::kThreatsAtEveryNode) {
    if (threats != 0 && features_.parry_threats) {
      SlideSet parries = 0;
      for (SlideSet set = node.safe; set != 0; set &= set - 1) {
        const Position child =
            position.after(Variant::move_of_slide(position, SlideIndex(std::countr_zero(set))));
        if (Variant::scan(child).wins == 0) parries |= set & -set;
      }
      if (parries == 0) return mated_in(ply + 2);
      candidates = parries;
    }
  }

  // Order: the table's move, the killers, then by history (and continuation history).
  const bool ordered = features_.killers_and_history;
  const int previous = previous_move_[ply];
  const int* continuation = ordered && features_.continuation_history && previous >= 0
                                ? &continuation_[std::size_t(previous) * Variant::kHistorySize]
                                : nullptr;
  std::array<Move, search_detail::kMaxMoveCount> moves;
  std::array<int, search_detail::kMaxMoveCount> order;
  std::array<int, search_detail::kMaxMoveCount> history_indices;
  int count = 0;
  // Forced inline: this runs for every move of every node.
  Variant::generate_moves(
      position, node, candidates, [&](Move move, int history_index) __attribute__((always_inline)) {
        int value = ordered ? history_[history_index] : 0;
        if (continuation) value += continuation[history_index];
        if (move == tt_move)
          value = 1 << 30;
        else if (ordered && move == killers_[ply][0])
          value = 1 << 20;
        else if (ordered && move == killers_[ply][1])
          value = (1 << 20) - 1;
        moves[count] = move;
        history_indices[count] = history_index;
        order[count++] = value;
      });

  // Singular extension: when the table says the table move reaches tt_score (a lower bound from
  // nearly this depth), search the other moves at half the depth against a little less. If none
  // reaches it the table move is singular, the position's one good move, and is searched a ply
  // deeper; if the others reach even beta, more than one move fails high and so does the node
  // (multi-cut). Only where threats are found at every node (the two-player game), and not
  // beyond twice the root's depth, so that extensions cannot stack without end.
  int singular_extension = 0;
  if constexpr (Variant::kThreatsAtEveryNode) {
    if (features_.singular_extension && !excluding && depth >= params_.singular_min_depth &&
        !tt_move.is_none() && hit.depth >= depth - 3 &&
        (hit.bound == Bound::Lower || hit.bound == Bound::Exact) && ply < 2 * root_depth_) {
      const Score tt_score = score_from_tt(hit.score, ply);
      if (!is_decisive_score(tt_score)) {
        const Score singular_beta = tt_score - params_.singular_margin * depth;
        const Score score = search(position, singular_beta - 1, singular_beta, (depth - 1) / 2, ply,
                                   false, cut_node, tt_move);
        if (stopped()) return kDrawScore;
        pv_length_[ply] = 0;
        if (score < singular_beta)
          singular_extension = 1;
        else if (singular_beta >= beta)
          return singular_beta;
      }
    }
  }

  const Score original_alpha = alpha;
  Score best = -kInfiniteScore;
  Move best_move = Move::none();
  for (int i = 0; i < count; ++i) {
    // Selection sort step: the remaining move with the highest order value goes next (the first
    // of equals). The best value so far stays in a register, so that each comparison waits for
    // no load that the one before it chose.
    int pick = i;
    for (int j = i + 1, best_order = order[i]; j < count; ++j)
      if (order[j] > best_order) {
        best_order = order[j];
        pick = j;
      }
    std::swap(moves[i], moves[pick]);
    std::swap(order[i], order[pick]);
    std::swap(history_indices[i], history_indices[pick]);
    const Move move = moves[i];
    if (move == excluded) continue;

    // Late move pruning: at low depth, the moves late in the order are left out once a move that
    // does not lose has been searched.
    if (features_.late_move_pruning && may_prune && depth <= params_.late_move_pruning_max_depth &&
        i >= params_.late_move_pruning_base + depth * depth && best > -kMateBound)
      break;
    previous_move_[ply + 1] = history_indices[i];

    const Position child = position.after(move);
    // A child in the tables is probed there, not in the transposition table: its table byte is
    // the read to start early.
    bool table_child = false;
    if constexpr (Variant::kHasTables)
      table_child = manager_.search_layers_ != 0 &&
                    Variant::in_table_layers(child, manager_.search_layers_) &&
                    Variant::prefetch_table(*manager_.tables_, child);
    if (!table_child && !features_.symmetric_table) table_.prefetch(child.key());
    Score score;
    if (i == 0) {
      // The table's move comes first when there is one.
      const int extension = move == tt_move ? singular_extension : 0;
      score = -search(child, -beta, -alpha, depth - 1 + extension, ply + 1, pv_node,
                      !pv_node && !cut_node);
    } else {
      // Late moves of a quiet node are first searched shallower; one that then beats alpha
      // is searched again at full depth.
      int reduction = 0;
      if (features_.late_move_reductions && depth >= params_.lmr_min_depth &&
          i >= params_.lmr_min_move_index && threats == 0 && order[i] < (1 << 20) - 1) {
        reduction = reductions_.plies[depth][i + 1] - (pv_node ? params_.lmr_pv_decrease : 0);
        // The order value of a move that is neither the table's nor a killer is its history.
        if (features_.history_reductions) reduction -= order[i] / params_.lmr_history_divisor;
        if (features_.cut_node_reductions && cut_node) reduction += params_.lmr_cut_node;
        reduction = std::clamp(reduction, 0, depth - 2);
        // A move that threatens a win in one forces the answer: searched unreduced.
        if constexpr (Variant::kThreatsAtEveryNode)
          if (features_.threats_unreduced && reduction > 0) {
            known_threats_[ply + 1] = {child.key(), Variant::threats(child)};
            if (known_threats_[ply + 1].threats != 0) reduction = 0;
          }
      }
      score = -search(child, -alpha - 1, -alpha, depth - 1 - reduction, ply + 1, false,
                      reduction > 0 || !cut_node);
      if (reduction > 0 && score > alpha)
        score = -search(child, -alpha - 1, -alpha, depth - 1, ply + 1, false, !cut_node);
      if (pv_node && score > alpha && score < beta)
        score = -search(child, -beta, -alpha, depth - 1, ply + 1, true, false);
    }
    if (stopped()) return kDrawScore;
    if (score > best) {
      best = score;
      best_move = move;
      if (score > alpha) {
        alpha = score;
        if (pv_node) update_pv(ply, move);
        if (alpha >= beta) {
          record_cutoff(position, ply, move, std::max(depth, 1), moves.data(), i);
          break;
        }
      }
    }
  }

  const Bound bound = best >= beta                       ? Bound::Lower
                      : best > original_alpha && pv_node ? Bound::Exact
                                                         : Bound::Upper;
  if (!excluding)
    table_.store(view.key, table_hash, view.to_table(best_move), depth, bound,
                 score_to_tt(best, ply));
  return best;
}

template <class Variant>
void SearchWorker<Variant>::report(int depth, const Callbacks& callbacks, Bound bound) const {
  if (!callbacks.on_info) return;
  const std::int64_t elapsed = manager_.control_.elapsed_ms();
  const std::uint64_t nodes = manager_.total_nodes();
  const std::size_t lines = std::min<std::size_t>(manager_.multipv_, root_moves_.size());
  for (std::size_t i = 0; i < lines; ++i) {
    const RootMove<Move>& root_move = root_moves_[i];
    const bool searched = root_move.score != -kInfiniteScore;
    BasicSearchInfo<Move> info;
    info.depth = searched || i <= pv_index_ ? depth : std::max(depth - 1, 1);
    info.selective_depth = std::max(root_move.selective_depth, info.depth);
    info.time_ms = elapsed;
    info.nodes = nodes;
    info.nodes_per_second = nodes * 1000 / std::uint64_t(std::max<std::int64_t>(elapsed, 1));
    info.hashfull = table_.hashfull();
    info.tb_hits = manager_.total_tb_hits();
    info.score = searched ? root_move.score : root_move.previous_score;
    if (info.score == -kInfiniteScore) info.score = root_move.initial_order;
    info.bound = i == 0 ? bound : Bound::Exact;
    // A root the tables say is drawn: its moves are the drawing ones, whatever the search thinks.
    if (manager_.root_table_draw_ && !is_mate_score(info.score)) {
      info.score = kDrawScore;
      info.bound = Bound::Exact;
    }
    info.multipv = int(i) + 1;
    info.pv = root_move.pv;
    callbacks.on_info(info);
  }
}

template <class Variant>
void SearchWorker<Variant>::report_final(int depth, Move reported,
                                         const Callbacks& callbacks) const {
  if (root_moves_[0].move == reported) return;
  // A move that beat the last iteration's best before the stop: its score is a lower bound of
  // this unfinished iteration. Otherwise nothing was sent yet and the line is an estimate.
  const bool improved = root_moves_[0].score != -kInfiniteScore;
  report(improved ? depth : std::max(depth - 1, 1), callbacks,
         improved ? Bound::Lower : Bound::Exact);
}

template <class Variant>
void SearchWorker<Variant>::iterative_deepening(const Callbacks& callbacks) {
  prepare_root_moves();
  if (root_moves_.empty()) return;
  if (decided_by_tables_) {
    if (is_main()) report_tables(callbacks);
    return;
  }
  if (manager_.limited_ && manager_.skill_.random_mover) {
    // The weakest level searches nothing: any legal move, uniformly.
    if (!is_main()) return;
    pick_skill_line();
    report_final(1, Move::none(), callbacks);
    return;
  }
  const SearchLimits& limits = manager_.limits_;
  const TimeBudget& budget = manager_.budget_;
  const SearchControl& control = manager_.control_;
  const int depth_limit = manager_.limited_ ? std::min(limits.max_depth(search_detail::kMaxDepth),
                                                       manager_.skill_.depth)
                                            : limits.max_depth(search_detail::kMaxDepth);
  const std::size_t multipv =
      std::min<std::size_t>(std::max(manager_.search_lines_, 1), root_moves_.size());
  const auto by_score = [](const RootMove<Move>& a, const RootMove<Move>& b) {
    return a.score > b.score;
  };
  Move reported = Move::none();  // the first move of the last pv sent
  SearchStability stability(params_);
  // Helpers start one ply deeper every other thread, so that threads spread over the depths.
  for (int depth = 1 + (id_ & 1); depth <= depth_limit && !stopped(); ++depth) {
    root_depth_ = depth;
    // Scores of this iteration start unknown, so that a search stopped half-way never
    // compares them with the last iteration's.
    for (RootMove<Move>& root_move : root_moves_) {
      if (root_move.score != -kInfiniteScore) root_move.previous_score = root_move.score;
      root_move.score = -kInfiniteScore;
    }
    for (pv_index_ = 0; pv_index_ < multipv && !stopped(); ++pv_index_) {
      const Score previous = root_moves_[pv_index_].previous_score;
      Score delta = params_.aspiration_delta;
      Score alpha = -kInfiniteScore, beta = kInfiniteScore;
      if (features_.aspiration_windows && depth >= 4 && previous != -kInfiniteScore &&
          !is_decisive_score(previous)) {
        alpha = std::max(previous - delta, -kInfiniteScore);
        beta = std::min(previous + delta, kInfiniteScore);
      }
      while (true) {
        const Score score = search_root(alpha, beta, depth);
        std::stable_sort(root_moves_.begin() + std::ptrdiff_t(pv_index_), root_moves_.end(),
                         by_score);
        if (stopped()) break;
        if (score <= alpha) {
          beta = (alpha + beta) / 2;
          alpha = std::max(score - delta, -kInfiniteScore);
          if (is_main() && control.elapsed_ms() > 1000) report(depth, callbacks, Bound::Upper);
        } else if (score >= beta) {
          beta = std::min(score + delta, kInfiniteScore);
          if (is_main() && control.elapsed_ms() > 1000) report(depth, callbacks, Bound::Lower);
        } else {
          break;
        }
        // At least 1, so that a small window with a small growth still widens.
        delta += std::max(delta * params_.aspiration_growth_percent / 100, 1);
      }
      // Keep the earlier lines in front: sort only the lines after this one.
      std::stable_sort(root_moves_.begin(), root_moves_.begin() + std::ptrdiff_t(pv_index_ + 1),
                       by_score);
    }
    if (stopped()) break;
    if (!is_main()) continue;
    report(depth, callbacks, Bound::Exact);
    const Move previous_best = reported;
    reported = root_moves_[0].move;

    const Score best = root_moves_[0].score;
    if (features_.time_stability)
      stability.iteration_done(!previous_best.is_none() && previous_best != reported,
                               is_decisive_score(best) ? std::nullopt : std::optional<int>(best));
    if (limits.mate > 0 && best >= kMateBound && mate_moves(best) <= limits.mate) break;
    if (control.waiting()) continue;
    // A proven result needs no deeper search once the depth covers it with room to spare.
    if (is_mate_score(best) && depth >= (kMateScore - std::abs(best)) + 2) break;
    if (budget.limited() && !budget.use_all) {
      // A single legal move (often a forced pass) needs no thought beyond a ponder move.
      if (Variant::kStopOnSingleRootMove && root_moves_.size() == 1 && depth >= 4) break;
      // Another iteration takes a few times as long as this one: do not start what the soft
      // limit would cut short.
      const std::int64_t soft_ms =
          features_.time_stability ? stability.scaled(budget.soft_ms) : budget.soft_ms;
      if (control.elapsed_ms() >= soft_ms * params_.iteration_stop_permille / 1000) break;
    }
  }
  if (is_main() && manager_.limited_) {
    // The line picked is reported as it was searched.
    pick_skill_line();
    if (root_moves_[0].move != reported) report(std::max(root_depth_, 1), callbacks, Bound::Exact);
    return;
  }
  if (is_main()) report_final(std::max(root_depth_, 1), reported, callbacks);
}

template <class Variant>
void SearchWorker<Variant>::pick_skill_line() {
  // The lines searched, each by its score in the last iteration that reached it.
  std::vector<Score> scores;
  for (const RootMove<Move>& root_move : root_moves_) {
    const Score score =
        root_move.score != -kInfiniteScore ? root_move.score : root_move.previous_score;
    if (score == -kInfiniteScore && !manager_.skill_.random_mover) break;
    scores.push_back(score);
  }
  if (scores.empty()) return;  // stopped before any line was searched: the first move
  const std::size_t pick =
      manager_.skill_.random_mover
          ? std::uniform_int_distribution<std::size_t>(0, scores.size() - 1)(manager_.random_)
          : pick_line(scores, manager_.skill_.temperature, manager_.random_);
  std::rotate(root_moves_.begin(), root_moves_.begin() + std::ptrdiff_t(pick),
              root_moves_.begin() + std::ptrdiff_t(pick) + 1);
}

// Runs a fixed bench: each position searched to kBenchDepth by one thread with a fresh table, each
// reported to `report` as "<kBenchLabel> i/n (<position>): bestmove m, nodes n". Returns the node
// total, the search's signature: it changes only when the search does.
template <class Variant>
std::uint64_t run_bench(const std::function<void(const std::string&)>& report) {
  const std::span<const std::string_view> positions = Variant::kBenchPositions;
  EngineOptions bench_options;
  bench_options.hash_mb = search_detail::kBenchHashMb;
  bench_options.threads = 1;
  bench_options.multipv = 1;
  // A manager of its own leaves the engine's table and options as they were.
  SearchManager<Variant> manager(bench_options, TableAllocation::AtFirstSearch);
  std::uint64_t total_nodes = 0;
  int index = 0;
  for (const std::string_view text : positions) {
    manager.set_position(Variant::parse(text), {});
    SearchLimits limits;
    limits.depth = search_detail::kBenchDepth;
    std::uint64_t nodes = 0;
    std::string best;
    typename SearchManager<Variant>::Callbacks callbacks;
    callbacks.on_info = [&](const auto& info) { nodes = info.nodes; };
    callbacks.on_bestmove = [&](auto move, auto) { best = to_string(move); };
    manager.start(limits, callbacks, {});
    manager.wait();
    total_nodes += nodes;
    if (report)
      report(std::string(Variant::kBenchLabel) + " " + std::to_string(++index) + "/" +
             std::to_string(positions.size()) + " (" + std::string(text) + "): bestmove " + best +
             ", nodes " + std::to_string(nodes));
  }
  return total_nodes;
}

}  // namespace quixo
