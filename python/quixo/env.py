"""A reinforcement-learning environment for two-player Quixo with the Gymnasium API
(``reset``, ``step``, ``action_masks``, ``render``), which does not need Gymnasium installed.

    env = quixo.env.QuixoEnv(opponent="engine", depth=2, seed=1)
    observation, info = env.reset()
    while True:
        action = numpy.random.choice(numpy.flatnonzero(env.action_masks()))
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The agent plays one side against a built-in opponent. An action is a move's index in
quixo.SLIDES (44 actions); action_masks() marks the legal ones (the form MaskablePPO of
sb3-contrib takes). The observation is the 5x5 board from the agent's side: 1 its cubes, -1 the
opponent's, 0 blank, row 0 rank 5 (Board.to_array() with the signs turned for O). The reward is
1 for a win, -1 for a loss, 0 otherwise; a game longer than `max_plies` is truncated (a draw).

Opponents: "engine" (the project's search at `depth`, in this process), "random" (a uniformly
random legal move), an int level 0-SKILL_LEVEL_MAX (the engine's Skill Level), or any callable
taking a quixo.Board and returning a legal move's text.
"""
import random
from typing import Any, Callable, Dict, Optional, Tuple, Union

import numpy

from . import SKILL_LEVEL_MAX, SLIDES, Board, search

try:  # Gymnasium's spaces when it is installed, so that its tools and wrappers accept the env
    from gymnasium import spaces as _gym_spaces  # type: ignore[import]
except ImportError:
    _gym_spaces = None

ACTION_COUNT = len(SLIDES)
_ACTION_OF_MOVE = {from_square + to_square: index for index, (from_square, to_square)
                   in enumerate(SLIDES)}


class Discrete:
    """The action space without Gymnasium: `n` actions 0..n-1."""

    def __init__(self, n: int, seed: Optional[int] = None) -> None:
        self.n = n
        self.shape = ()
        self.dtype = numpy.int64
        self._rng = numpy.random.default_rng(seed)

    def sample(self, mask: Optional[numpy.ndarray] = None) -> int:
        if mask is not None:
            return int(self._rng.choice(numpy.flatnonzero(mask)))
        return int(self._rng.integers(self.n))

    def contains(self, x: Any) -> bool:
        return isinstance(x, (int, numpy.integer)) and 0 <= int(x) < self.n


class Box:
    """The observation space without Gymnasium: int8 arrays of `shape` in [low, high]."""

    def __init__(self, low: int, high: int, shape: Tuple[int, ...]) -> None:
        self.low, self.high, self.shape, self.dtype = low, high, shape, numpy.int8

    def contains(self, x: Any) -> bool:
        array = numpy.asarray(x)
        return array.shape == self.shape and bool(((array >= self.low) &
                                                   (array <= self.high)).all())


Opponent = Union[str, int, Callable[[Board], str]]


class QuixoEnv:
    """Two-player Quixo against a built-in opponent (see the module's text)."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, opponent: Opponent = "engine", *, agent_side: str = "x", depth: int = 2,
                 max_plies: int = 200, render_mode: Optional[str] = None,
                 seed: Optional[int] = None) -> None:
        if agent_side not in ("x", "o", "random"):
            raise ValueError("agent_side must be 'x', 'o' or 'random'")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError("render_mode must be None, 'ansi' or 'human'")
        if depth < 1 or max_plies < 1:
            raise ValueError("depth and max_plies must be at least 1")
        self._opponent = self._opponent_function(opponent, depth)
        self.agent_side = agent_side
        self.max_plies = max_plies
        self.render_mode = render_mode
        if _gym_spaces is not None:
            self.action_space = _gym_spaces.Discrete(ACTION_COUNT, seed=seed)
            self.observation_space = _gym_spaces.Box(-1, 1, (5, 5), numpy.int8, seed=seed)
        else:
            self.action_space = Discrete(ACTION_COUNT, seed)
            self.observation_space = Box(-1, 1, (5, 5))
        self._rng = random.Random(seed)
        self.board = Board()
        self._agent = 0

    def _opponent_function(self, opponent: Opponent, depth: int) -> Callable[[Board], str]:
        if callable(opponent):
            return opponent
        if opponent == "random":
            return lambda board: self._rng.choice(board.legal_moves())
        if opponent == "engine":
            return lambda board: search(board, depth=depth)["bestmove"]
        if isinstance(opponent, int) and not isinstance(opponent, bool):
            level: int = opponent
            if not 0 <= level <= SKILL_LEVEL_MAX:
                raise ValueError("a level is 0-%d" % SKILL_LEVEL_MAX)
            return lambda board: search(board, depth=max(depth, 4), skill_level=level,
                                        seed=self._rng.randrange(1, 2**63))["bestmove"]
        raise ValueError("opponent must be 'engine', 'random', a level or a callable")

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
              ) -> Tuple[numpy.ndarray, Dict[str, Any]]:
        """A new game: the opponent moves first when the agent plays O. options may hold a
        start "position" in the project's notation."""
        if seed is not None:
            self._rng.seed(seed)
        options = options or {}
        self.board = Board(options.get("position", "5/5/5/5/5 x"))
        side = self.agent_side if self.agent_side != "random" else self._rng.choice("xo")
        self._agent = 0 if side == "x" else 1
        if self.board.turn != self._agent and not self.board.is_game_over():
            self._opponent_moves()
        return self._observation(), self._info()

    def step(self, action: int) -> Tuple[numpy.ndarray, float, bool, bool, Dict[str, Any]]:
        """Plays the agent's move SLIDES[action], then the opponent's reply."""
        if self.board.is_game_over():
            raise RuntimeError("the game is over: call reset()")
        if not isinstance(action, (int, numpy.integer)) or not 0 <= int(action) < ACTION_COUNT:
            raise ValueError("an action is a move's index, 0-%d" % (ACTION_COUNT - 1))
        move = "".join(SLIDES[int(action)])
        if not self.board.is_legal(move):
            raise ValueError("action %d (%s) is not legal here; use action_masks()"
                             % (action, move))
        self.board.push(move)
        if not self.board.is_game_over():
            self._opponent_moves()
        terminated = self.board.is_game_over()
        reward = 0.0
        if terminated:
            reward = 1.0 if self.board.result() == ("1-0" if self._agent == 0 else "0-1") else -1.0
        truncated = not terminated and len(self.board.move_stack) >= self.max_plies
        if self.render_mode == "human":
            print(self.render())
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> numpy.ndarray:
        """The legal actions: 44 bools."""
        return self.board.legal_move_mask()

    def render(self) -> str:
        """The board as text, rank 5 on top, and whose move it is."""
        rows = []
        for rank, row in zip(range(5, 0, -1), self.board.to_array()):
            rows.append("%d %s" % (rank, " ".join(".xo"[cell] for cell in row)))
        rows.append("  a b c d e   %s" % ("game over: " + self.board.result()
                                           if self.board.is_game_over()
                                           else "x to move" if self.board.turn == 0
                                           else "o to move"))
        return "\n".join(rows)

    def close(self) -> None:
        pass

    def _opponent_moves(self) -> None:
        move = self._opponent(self.board.copy())
        if not self.board.is_legal(move):
            raise RuntimeError("the opponent chose an illegal move: %r" % move)
        self.board.push(move)

    def _observation(self) -> numpy.ndarray:
        array = self.board.to_array()
        return array if self._agent == 0 else -array

    def _info(self) -> Dict[str, Any]:
        return {"position": self.board.text(), "agent": "xo"[self._agent],
                "action_mask": self.action_masks()}


def action_of(move: str) -> int:
    """The action index of a move's text (the two-player notation)."""
    try:
        return _ACTION_OF_MOVE[move]
    except KeyError:
        raise ValueError("not a two-player move: %r" % move) from None
