"""External engines as child processes: start, talk in lines, wait with a timeout, reap.

:class:`EngineProcess` is the layer every engine protocol client (Gomocup, and UCI or
GTP when their games exist) sits on. It knows nothing of any protocol: it starts a
command, sends lines to its standard input, and hands back the lines it writes on
standard output, read on a thread into a queue so that a wait can have a deadline.

* **Command.** A string is split into words as a POSIX shell would (:func:`shlex.split`,
  so a word holding spaces is quoted), a sequence is taken as the words. The program is
  looked for on the ``PATH`` (or relative to ``cwd``, the working directory, when its
  name holds a ``/``) before anything starts, so a typo is one clear error.
* **Output.** Lines are decoded as UTF-8 (bad bytes replaced), their line ends
  stripped; a line longer than :data:`MAX_LINE` characters comes in pieces, so garbage
  cannot exhaust memory. Standard error is read too, never blocking the engine, and
  with standard output it feeds the :attr:`EngineProcess.last_lines` that every
  :class:`EngineError` quotes, so a record says what the engine said before it failed.
* **Errors** are :class:`EngineError` subclasses naming the command: it cannot start
  (:class:`EngineStartError`), it died (:class:`EngineDiedError`), it gave no answer in
  time (:class:`EngineTimeoutError`), it said something the protocol does not allow
  (:class:`EngineProtocolError`) or played a move the rules do not
  (:class:`EngineIllegalMoveError`). Each carries the arena's ``reason`` for the loss.
* **Restart.** :meth:`EngineProcess.start` starts the engine again after it died or
  was closed, with a fresh queue, so no line of the old process reaches the new one.

**Reaping.** Every started process is reaped, whatever happens to the caller:

* :meth:`EngineProcess.close` (also the context manager's exit) sends the protocol's
  quit line, closes the engine's standard input, waits :data:`QUIT_GRACE` seconds, then
  terminates it (SIGTERM), waits again, and kills it (SIGKILL).
* Processes still open when the interpreter exits (``sys.exit``, an uncaught exception,
  a Ctrl-C that ends the program) are closed the same way by an :mod:`atexit` handler.
  (:mod:`multiprocessing` workers skip :mod:`atexit`; the arena closes its agents in a
  ``finally`` instead. An engine nobody refers to any more has its pipes closed by the
  garbage collector, and so sees the end of its input.)
* The engine stays in its parent's process group (``start_new_session=False``), so a
  Ctrl-C typed at the terminal reaches it as it reaches the parent and a pool's workers.
* A parent killed outright (SIGKILL: no handler runs) closes the write end of the
  engine's standard input as the kernel tears it down, so an engine reading its input
  sees the end of it, which every protocol treats as "quit": a well-behaved engine
  exits. **The limit:** an engine that ignores the end of its input and is not in the
  terminal's foreground group outlives a parent killed by SIGKILL; only the Linux-only
  ``prctl(PR_SET_PDEATHSIG)`` could stop it, which this portable layer does not use.
  Likewise a wrapper script that starts the engine as its own child rather than with
  ``exec`` leaves that child to the same end-of-input rule, since only the direct child
  is terminated and killed.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import shlex
import shutil
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import IO, TypeVar

from zerosum.game import ZerosumError, quoted

__all__ = [
    "KEPT_LINES",
    "MAX_LINE",
    "QUIT_GRACE",
    "EngineDiedError",
    "EngineError",
    "EngineIllegalMoveError",
    "EngineProcess",
    "EngineProtocolError",
    "EngineStartError",
    "EngineTimeoutError",
    "split_command",
]

KEPT_LINES = 10
"""How many of the engine's latest output lines are kept for error messages."""

MAX_LINE = 1 << 16
"""The longest line (characters) read at once; a longer one arrives in pieces."""

QUIT_GRACE = 2.0
"""Seconds :meth:`EngineProcess.close` waits after the quit line, and again after
SIGTERM, before the next, harder step."""

_SHOWN = 80  # characters of one output line an error message quotes

T = TypeVar("T")


class EngineError(ZerosumError):
    """An external engine failed; the message names its command and its last lines.

    ``command`` is the command as the user wrote it, ``lines`` the engine's latest
    output lines (standard error ones marked ``stderr:``), ``reason`` how the arena
    should record the loss of a game to it (``crash`` here; ``time`` and ``illegal`` for
    the subclasses that say so)."""

    reason = "crash"

    def __init__(self, message: str, command: str, lines: Sequence[str] = ()) -> None:
        self.command = command
        self.lines = tuple(lines)
        if self.lines:
            shown = " | ".join(quoted(line, _SHOWN) for line in self.lines)
            message = f"{message}; its last lines: {shown}"
        super().__init__(message)


class EngineStartError(EngineError):
    """The engine's command cannot be run: no such program, working directory or
    permission."""


class EngineDiedError(EngineError):
    """The engine exited (or closed its output) while it was expected to answer."""


class EngineTimeoutError(EngineError):
    """The engine gave no answer before the deadline: a loss on time."""

    reason = "time"


class EngineProtocolError(EngineError):
    """The engine answered with a line the protocol does not allow there (garbage, an
    error report, an unknown-command reply)."""


class EngineIllegalMoveError(EngineError):
    """The engine answered with a well-formed move that the rules forbid (a square off
    the board or already taken)."""

    reason = "illegal"


def split_command(command: str | Sequence[str]) -> tuple[str, ...]:
    """The words of ``command``: a string split as a POSIX shell would, a sequence as is.

    Raises :class:`EngineStartError` for an empty command or unbalanced quotes."""
    text = command if isinstance(command, str) else shlex.join(command)
    try:
        words = tuple(shlex.split(command) if isinstance(command, str) else command)
    except ValueError as error:  # shlex: "No closing quotation"
        raise EngineStartError(
            f"cannot read engine command {quoted(text)}: {error}", text
        ) from None
    if not words or not words[0]:
        raise EngineStartError(f"empty engine command {quoted(text)}", text)
    return words


def _find_program(program: str, cwd: str | None, command: str) -> None:
    """Check that ``program`` can be run from ``cwd``; raise :class:`EngineStartError`."""
    if cwd is not None and not os.path.isdir(cwd):
        raise EngineStartError(
            f"cannot start engine {quoted(command)}: working directory {quoted(cwd)} "
            f"is not a directory",
            command,
        )
    if os.sep in program:
        path = program if cwd is None else os.path.join(cwd, program)
        found = os.path.isfile(path) and os.access(path, os.X_OK)
    else:
        found = shutil.which(program) is not None
    if not found:
        raise EngineStartError(
            f"cannot start engine {quoted(command)}: no executable program {quoted(program)}"
            + ("" if os.sep in program else " on the PATH"),
            command,
        )


_OPEN: weakref.WeakSet[EngineProcess] = weakref.WeakSet()
"""Every engine process started and not yet closed, for the exit handler."""


@atexit.register
def _close_all() -> None:
    """Close every engine still open as the interpreter exits: no orphan survives us."""
    for engine in list(_OPEN):
        engine.close()


class EngineProcess:
    """One external engine: a command run as a child process, spoken to in lines.

    ``command`` is a string (split with :func:`shlex.split`) or the words; ``cwd`` the
    working directory; ``env`` variables added to this process's environment;
    ``label`` what error messages call it (default: the command); ``quit_line`` what
    :meth:`close` sends first (``END`` in Gomocup, ``quit`` in UCI and GTP).

    Nothing starts before :meth:`start`. Raises :class:`EngineStartError` at once when
    the command is empty, cannot be read, or names no runnable program."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        label: str | None = None,
        quit_line: str | None = None,
        keep_lines: int = KEPT_LINES,
    ) -> None:
        self.command = command if isinstance(command, str) else shlex.join(command)
        self.argv = split_command(command)
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.label = label if label is not None else f"engine {quoted(self.command)}"
        self.quit_line = quit_line
        _find_program(self.argv[0], cwd, self.command)
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._threads: list[threading.Thread] = []
        self._tail: deque[str] = deque(maxlen=keep_lines)
        self._tail_lock = threading.Lock()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"EngineProcess({self.command!r}, {state})"

    def __enter__(self) -> EngineProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ life

    @property
    def pid(self) -> int | None:
        """The process id of the running engine, ``None`` when none runs."""
        return self._process.pid if self.running and self._process is not None else None

    @property
    def running(self) -> bool:
        """Whether the engine has been started and has not exited."""
        return self._process is not None and self._process.poll() is None

    @property
    def last_lines(self) -> tuple[str, ...]:
        """The engine's latest output lines, oldest first (standard error ones marked
        ``stderr:``)."""
        with self._tail_lock:
            return tuple(self._tail)

    def start(self) -> None:
        """Start the engine if it is not running (again, after it died or was closed).

        Raises :class:`EngineStartError` when the operating system cannot run it."""
        if self.running:
            return
        self._reap()
        environment = {**os.environ, **self.env} if self.env is not None else None
        try:
            process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                env=environment,
                start_new_session=False,  # in our group: the terminal's Ctrl-C reaches it
            )
        except OSError as error:
            raise self.error(EngineStartError, f"cannot start: {error.strerror or error}") from None
        self._process = process
        self._lines = queue.Queue()
        with self._tail_lock:
            self._tail.clear()
        assert process.stdout is not None and process.stderr is not None
        self._threads = [
            threading.Thread(
                target=self._read, args=(process.stdout, self._lines, ""), daemon=True
            ),
            threading.Thread(
                target=self._read, args=(process.stderr, None, "stderr: "), daemon=True
            ),
        ]
        for thread in self._threads:
            thread.start()
        _OPEN.add(self)

    def _read(self, stream: IO[bytes], lines: queue.Queue[str | None] | None, mark: str) -> None:
        """Read ``stream`` to its end: every line to the tail, and to ``lines`` if given;
        ``None`` on ``lines`` marks the end."""
        try:
            while raw := stream.readline(MAX_LINE):
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                with self._tail_lock:
                    self._tail.append(mark + line)
                if lines is not None:
                    lines.put(line)
        except (OSError, ValueError):  # the stream was closed under us by close()
            pass
        finally:
            if lines is not None:
                lines.put(None)

    def close(self, grace: float = QUIT_GRACE) -> None:
        """Stop the engine and reap it: the quit line, the end of its input, then after
        ``grace`` seconds SIGTERM, then SIGKILL. Closing a stopped engine does nothing."""
        _OPEN.discard(self)
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            if self.quit_line is not None:
                self._write(self.quit_line)
            self._close_input()
            try:
                process.wait(grace)
            except subprocess.TimeoutExpired:
                process.terminate()
                try:
                    process.wait(grace)
                except subprocess.TimeoutExpired:
                    process.kill()
        self._reap()

    def kill(self) -> None:
        """Kill the engine at once (SIGKILL) and reap it: for an engine in an unknown
        state, such as one that missed its deadline."""
        _OPEN.discard(self)
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
        self._reap()

    def _close_input(self) -> None:
        assert self._process is not None
        stdin = self._process.stdin
        if stdin is not None:
            # a dead engine's pipe may fail to flush: its data cannot be delivered anyway
            with contextlib.suppress(OSError):
                stdin.close()

    def _reap(self) -> None:
        """Wait for the exited engine, then for its reader threads, and close its pipes."""
        process = self._process
        if process is None:
            return
        process.wait()
        self._close_input()
        ended = True
        for thread in self._threads:
            thread.join(QUIT_GRACE)  # its pipe is at its end once the engine is gone
            ended = ended and not thread.is_alive()
        # a grandchild of a wrapper script may hold the pipes open: closing a stream a
        # thread still reads could block, so such streams are left to end with it
        if ended:
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
        self._threads = []
        self._process = None

    # ------------------------------------------------------------------ talk

    def send(self, line: str) -> None:
        """Send one line to the engine. Raises :class:`EngineDiedError` when it is not
        running or its input is closed."""
        if not self.running:
            raise self._died(f"cannot take {quoted(line)}")
        if not self._write(line):
            raise self._died(f"cannot take {quoted(line)}")

    def _write(self, line: str) -> bool:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(line.encode("utf-8") + b"\n")
            self._process.stdin.flush()
        except (OSError, ValueError):  # a broken pipe: the engine is gone or going
            return False
        return True

    def read_line(self, deadline: float, waiting_for: str) -> str:
        """Return the engine's next output line, waiting until ``deadline`` (a
        :func:`time.monotonic` time) at most; ``waiting_for`` names what the line should
        answer, for the error. Raises :class:`EngineTimeoutError` at the deadline and
        :class:`EngineDiedError` when the engine's output ends."""
        remaining = deadline - time.monotonic()
        try:
            line = self._lines.get(timeout=max(remaining, 0.0))
        except queue.Empty:
            raise self.error(EngineTimeoutError, f"gave no {waiting_for} in time") from None
        if line is None:
            self._lines.put(None)  # the end stays the end for the next reader
            raise self._died(f"stopped before its {waiting_for}")
        return line

    def expect(self, accept: Callable[[str], T | None], timeout: float, waiting_for: str) -> T:
        """Read lines until ``accept`` returns something other than ``None`` for one and
        return that, within ``timeout`` seconds in all. ``accept`` may raise (an
        :class:`EngineError` through :meth:`error`) to refuse a line."""
        deadline = time.monotonic() + timeout
        while True:
            found = accept(self.read_line(deadline, waiting_for))
            if found is not None:
                return found

    def error(self, kind: type[EngineError], message: str) -> EngineError:
        """An error of ``kind`` whose message starts with this engine's label and ends
        with its last lines."""
        return kind(f"{self.label} {message}", self.command, self.last_lines)

    def _died(self, message: str) -> EngineError:
        process = self._process
        status = None
        if process is not None:
            try:
                status = process.wait(QUIT_GRACE)  # it closed its output: it is exiting
            except subprocess.TimeoutExpired:
                status = None
        if status is not None:
            # it exited: its readers reach the end of both streams at once, and what it
            # wrote last (on standard error, most often) belongs in the message
            for thread in self._threads:
                thread.join(QUIT_GRACE)
        if status is None:
            how = "closed its output"
        elif status < 0:
            how = f"was killed by signal {-status}"
        else:
            how = f"exited with status {status}"
        return self.error(EngineDiedError, f"{how}: it {message}")
