"""Any UQI engine from Python, in the manner of python-chess's ``chess.engine.SimpleEngine``.

    import quixo, quixo.engine
    with quixo.engine.SimpleEngine.popen_uqi("build/release/bin/quixo-engine") as engine:
        board = quixo.Board()
        while not board.is_game_over():
            board.push(engine.play(board, quixo.engine.Limit(time=0.1)).move)
        info = engine.analyse(board.root(), quixo.engine.Limit(depth=8), multipv=2)

The engine runs behind quixo-arena's own client (C++): the same process handling, `info`
parsing and timeouts as in tournaments. An engine that exits or closes its output raises
EngineTerminatedError; one that does not answer in time, refuses an option or sends an illegal
move raises EngineError. Either way the process is ended cleanly on close().
"""
import dataclasses
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _quixo
from ._quixo import Board, Board4

EngineError = _quixo.EngineError

# How long an engine has for `uqi` and `isready`, and for a search without a time limit to
# answer (depth and node limits, infinite analysis stopped by the caller).
DEFAULT_TIMEOUT = 10.0
SEARCH_TIMEOUT = 600.0
# Beyond a `go movetime` or the clock, the time a reply may take to arrive.
TIME_MARGIN = 1.0


class EngineTerminatedError(EngineError):
    """The engine exited or closed its output."""


@dataclasses.dataclass
class Limit:
    """When a search ends, as python-chess's Limit: at most `time` seconds, `depth` plies or
    `nodes`; or the clocks: `x_clock`/`o_clock` seconds left with `x_inc`/`o_inc` increments
    (four players: `seat_clocks` and `seat_incs`, four each), `remaining_moves` to the next
    time control."""

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    x_clock: Optional[float] = None
    o_clock: Optional[float] = None
    x_inc: Optional[float] = None
    o_inc: Optional[float] = None
    seat_clocks: Optional[Sequence[float]] = None
    seat_incs: Optional[Sequence[float]] = None
    remaining_moves: Optional[int] = None

    def _go_limits(self) -> Dict[str, Any]:
        def ms(seconds):
            return None if seconds is None else int(round(seconds * 1000))

        limits = {"move_time_ms": ms(self.time), "depth": self.depth, "nodes": self.nodes,
                  "x_time_ms": ms(self.x_clock), "o_time_ms": ms(self.o_clock),
                  "x_increment_ms": ms(self.x_inc), "o_increment_ms": ms(self.o_inc),
                  "moves_to_go": self.remaining_moves}
        if self.seat_clocks is not None:
            limits["seat_time_ms"] = [ms(seconds) for seconds in self.seat_clocks]
            limits["seat_increment_ms"] = [ms(seconds) for seconds in (self.seat_incs or
                                                                       [0, 0, 0, 0])]
        return limits

    def _deadline(self, mover_clock: Optional[float]) -> float:
        if self.time is not None:
            return self.time + TIME_MARGIN
        if mover_clock is not None:
            return mover_clock + TIME_MARGIN
        return SEARCH_TIMEOUT

    def _check(self) -> None:
        for name in ("time", "x_clock", "o_clock", "x_inc", "o_inc"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError("Limit.%s must not be negative" % name)
        for name in ("depth", "nodes", "remaining_moves"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError("Limit.%s must be at least 1" % name)


@dataclasses.dataclass
class PlayResult:
    """The engine's move, the reply it expects (or None) and its last `info`."""

    move: str
    ponder: Optional[str]
    info: Dict[str, Any]


@dataclasses.dataclass
class Option:
    """An option the engine declares: `option name ... type ... default ...`."""

    name: str
    type: str
    default: Optional[str]
    min: Optional[int]
    max: Optional[int]
    var: List[str]


AnyBoard = Union[Board, Board4]


def _position_arguments(board: AnyBoard) -> str:
    moves = board.move_stack
    text = "fen " + board.root().text()
    return text + (" moves " + " ".join(moves) if moves else "")


class SimpleEngine:
    """One UQI engine process. Use popen_uqi() to start one, and close it with quit() or a
    `with` block."""

    def __init__(self, handle: "_quixo._EngineHandle", timeout: float) -> None:
        self._handle = handle
        self._timeout = timeout
        self._closed = False
        self._multipv = 1  # the engine's MultiPV now, so that play() and analyse() set it as needed
        self.id = {"name": handle.id_name()}
        self.options = {option["name"]: Option(**option) for option in handle.options()}

    @classmethod
    def popen_uqi(cls, command: Union[str, Sequence[str]], *, cwd: Optional[str] = None,
                  timeout: float = DEFAULT_TIMEOUT, name: str = "") -> "SimpleEngine":
        """Starts `command` (the engine's path, or a list of the path and its arguments, as
        python-chess takes them) in `cwd` and does the UQI handshake within `timeout` seconds."""
        if isinstance(command, str):
            command = [command]
        handle = _quixo._EngineHandle(list(command), cwd or "", name)
        try:
            handle.start(timeout)
        except EngineError:
            handle.quit()
            raise
        return cls(handle, timeout)

    def configure(self, options: Dict[str, Any]) -> None:
        """Sets options (`setoption name N value V`) by name; booleans become true/false."""
        self._check_open()
        for option_name, value in options.items():
            if option_name not in self.options:
                raise EngineError("the engine declares no option %r" % option_name)
            if isinstance(value, bool):
                value = "true" if value else "false"
            self._handle.set_option(option_name, str(value))

    def new_game(self) -> None:
        """`uqinewgame`, then waits for `readyok`."""
        self._check_open()
        self._handle.new_game(self._timeout)

    def play(self, board: AnyBoard, limit: Limit) -> PlayResult:
        """The engine's move in `board` (its move stack is sent as the game's moves)."""
        self._set_multipv(1)
        move, ponder, infos = self._go(board, limit)
        if not board.is_legal(move):
            raise EngineError("the engine played an illegal move: %r in %s" % (move, board.text()))
        info = infos[-1] if infos else {}
        return PlayResult(move, ponder or None, info)

    def analyse(self, board: AnyBoard, limit: Limit, *, multipv: Optional[int] = None
                ) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
        """The engine's analysis: the last `info` of the search (a dict: depth, seldepth, score or
        mate, nodes, nps, time, pv, ...); with `multipv`, a list with the last `info` of each
        line, best first, as python-chess gives it: a score that is only a bound keeps its
        ``lowerbound`` or ``upperbound`` key."""
        if multipv is not None and multipv < 1:
            raise ValueError("multipv must be at least 1")
        self._set_multipv(multipv or 1)
        _move, _ponder, infos = self._go(board, limit)
        scored = [info for info in infos if "score" in info or "mate" in info]
        if multipv is None:
            return scored[-1] if scored else (infos[-1] if infos else {})
        lines: Dict[int, Dict[str, Any]] = {}
        # Every line's last report, bound or not: the project's engine reports all its lines at
        # once, so skipping a bound mixed two reports (the best move left out, a move twice).
        for info in scored:
            lines[info.get("multipv", 1)] = info
        return [lines[index] for index in sorted(lines)][:multipv]

    def quit(self) -> None:
        """Ends the engine (`quit`, then the process is ended if it lingers)."""
        if not self._closed:
            self._closed = True
            self._handle.quit()

    close = quit

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.quit()

    def __del__(self) -> None:
        try:
            self.quit()
        except Exception:  # an interpreter shutting down may have lost the module already
            pass

    def _set_multipv(self, lines: int) -> None:
        if lines == self._multipv:
            return
        if "MultiPV" not in self.options:
            raise EngineError("the engine declares no MultiPV option")
        self.configure({"MultiPV": lines})
        self._multipv = lines

    def _check_open(self) -> None:
        if self._closed:
            raise EngineError("the engine has been closed")

    def _go(self, board: AnyBoard, limit: Limit):
        self._check_open()
        limit._check()
        if board.is_game_over():
            raise ValueError("the game is over: there is nothing to search")
        four_players = isinstance(board, Board4)
        mover = board.turn - 1 if four_players else board.turn
        if four_players:
            mover_clock = limit.seat_clocks[mover] if limit.seat_clocks else None
        else:
            mover_clock = limit.x_clock if mover == 0 else limit.o_clock
        status, move, ponder, infos, error = self._handle.go(
            _position_arguments(board), limit._go_limits(), 4 if four_players else 2, mover,
            limit._deadline(mover_clock))
        if status == "disconnected":
            self.quit()
            raise EngineTerminatedError(error or "the engine exited during the search")
        if status == "timeout":
            if not self._handle.stop(TIME_MARGIN):
                self.quit()
            raise EngineError(error or "the engine did not answer in time")
        return move, ponder, infos
