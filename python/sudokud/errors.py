"""errors.py -- the exceptions of the sudokud client.

Every failure is a SudokudError carrying a ``code`` and a ``message``.  The
daemon's codes (docs/protocol.md, "Errors") each have a subclass, so a caller
can catch ``BadPuzzle`` or test ``e.code == "bad_puzzle"``; program against
the code, never the message (the daemon may reword it).  The client adds
codes of its own, the same ones libsudoku-client uses (docs/client.md):
``connect``, ``closed``, ``protocol`` and ``io_timeout``.
"""

__all__ = [
    "SudokudError",
    "BadRequest",
    "UnknownMethod",
    "BadPuzzle",
    "UnknownSolver",
    "Unsupported",
    "Timeout",
    "Cancelled",
    "Overloaded",
    "TooLarge",
    "Internal",
    "NotUnique",
    "DaemonUnavailable",
    "ConnectionLost",
    "ProtocolError",
    "ClientTimeout",
    "error_from_wire",
]


class SudokudError(Exception):
    """Base of every error of this package: ``code`` and ``message``."""

    code = "error"

    def __init__(self, message, code=None):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message

    def __str__(self):
        return "%s: %s" % (self.code, self.message)


class BadRequest(SudokudError):
    """The request is malformed: wrong types, an option out of range."""

    code = "bad_request"


class UnknownMethod(SudokudError):
    """The daemon does not know the method (an older daemon)."""

    code = "unknown_method"


class BadPuzzle(SudokudError):
    """Wrong cell count, a symbol out of range, or givens that break a rule."""

    code = "bad_puzzle"


class UnknownSolver(SudokudError):
    """No plugin of that name is loaded."""

    code = "unknown_solver"


class Unsupported(SudokudError):
    """The solver cannot take this size, cannot count or cannot explain."""

    code = "unsupported"


class Timeout(SudokudError, TimeoutError):
    """The daemon's deadline (``timeout_ms``) passed before an answer."""

    code = "timeout"


class Cancelled(SudokudError):
    """A ``cancel`` notification stopped the request."""

    code = "cancelled"


class Overloaded(SudokudError):
    """The daemon is shutting down, its queue is full, or it refused us."""

    code = "overloaded"


class TooLarge(SudokudError):
    """A message was over the daemon's ``--max-message``."""

    code = "too_large"


class Internal(SudokudError):
    """A solver failed or answered wrongly (the daemon logged it)."""

    code = "internal"


class NotUnique(SudokudError):
    """explain or rate of a puzzle without exactly one solution."""

    code = "not_unique"


class DaemonUnavailable(SudokudError, ConnectionError):
    """No daemon could be reached; the message names every socket tried."""

    code = "connect"


class ConnectionLost(SudokudError, ConnectionError):
    """The daemon closed the connection (also after one reconnect)."""

    code = "closed"


class ProtocolError(SudokudError):
    """The daemon sent something that is not protocol v1."""

    code = "protocol"


class ClientTimeout(SudokudError, TimeoutError):
    """No answer within the client's own ``timeout`` (seconds)."""

    code = "io_timeout"


_BY_CODE = {
    cls.code: cls
    for cls in (
        BadRequest,
        UnknownMethod,
        BadPuzzle,
        UnknownSolver,
        Unsupported,
        Timeout,
        Cancelled,
        Overloaded,
        TooLarge,
        Internal,
        NotUnique,
    )
}


def error_from_wire(err):
    """The exception for a wire error map ``{"code": str, "message": str}``.

    A code this client does not know yet gives a plain SudokudError with that
    code; an error that is not such a map gives a ProtocolError.
    """
    if not isinstance(err, dict) or not isinstance(err.get("code"), str):
        return ProtocolError("malformed error from the daemon: %r" % (err,))
    message = err.get("message")
    if not isinstance(message, str):
        message = ""
    cls = _BY_CODE.get(err["code"])
    if cls is None:
        return SudokudError(message, err["code"])
    return cls(message)
