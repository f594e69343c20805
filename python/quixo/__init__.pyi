from typing import Any, Dict, Optional, Sequence, Tuple, Union

import numpy

from ._quixo import ELO_MAX as ELO_MAX
from ._quixo import SKILL_LEVEL_MAX as SKILL_LEVEL_MAX
from ._quixo import SLIDES as SLIDES
from ._quixo import Board as Board
from ._quixo import Board4 as Board4
from ._quixo import NotationError as NotationError
from ._quixo import Tables as Tables

SYMMETRIES: Tuple[str, ...]
AnyBoard = Union[Board, Board4]

def legal_move_masks(boards: Sequence[AnyBoard]) -> numpy.ndarray: ...
def search(board: AnyBoard, *, depth: Optional[int] = ..., nodes: Optional[int] = ...,
           time: Optional[float] = ..., multipv: int = ..., threads: int = ...,
           hash_mb: int = ..., skill_level: Optional[int] = ..., elo: Optional[int] = ...,
           seed: int = ...) -> Dict[str, Any]: ...
