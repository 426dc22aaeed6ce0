"""sudokud -- a Python client for the sudokud daemon (protocol v1).

``Client`` is the synchronous client, ``AsyncClient`` its asyncio sibling;
both speak docs/protocol.md over the daemon's Unix socket, pipelined.  The
results are the dataclasses of ``sudokud.types`` and every failure is a
``SudokudError`` with the wire's ``code`` (``sudokud.errors``).
"""

from .aio import AsyncClient
from .client import Client, Pending
from .errors import (BadPuzzle, BadRequest, Cancelled, ClientTimeout, ConnectionLost,
                     DaemonUnavailable, Internal, NotUnique, Overloaded, ProtocolError,
                     SudokudError, Timeout, TooLarge, UnknownMethod, UnknownSolver,
                     Unsupported)
from .protocol import SYSTEM_SOCKET, socket_candidates
from .types import (Explanation, GeneratedPuzzle, Rating, SolveResult, SolverInfo,
                    SolverStats, Stats, Step, Version)

__version__ = "1.0.0"

__all__ = [
    "AsyncClient", "Client", "Pending",
    "SudokudError", "BadRequest", "UnknownMethod", "BadPuzzle", "UnknownSolver",
    "Unsupported", "Timeout", "Cancelled", "Overloaded", "TooLarge", "Internal",
    "NotUnique", "DaemonUnavailable", "ConnectionLost", "ProtocolError", "ClientTimeout",
    "SolveResult", "SolverInfo", "SolverStats", "Stats", "Step", "Explanation", "Rating",
    "GeneratedPuzzle", "Version",
    "SYSTEM_SOCKET", "socket_candidates",
]
