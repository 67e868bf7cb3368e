"""Agent specs: one string names a player, so that commands and worker processes agree.

A spec is ``KIND[:key=value,...]``, like a game spec:

``engine:time=0.1`` / ``engine:depth=6`` / ``engine:nodes=20000``
    the engine (:class:`~zerosum.agents.SearchAgent`) under those limits; several limits
    may be combined. Every field of :class:`~zerosum.search.engine.EngineOptions` is an
    option too (``table_size=65536``, ``killers=off``, ``pvs=no``, ``history=auto``
    for the options the engine may decide itself), so that two versions of the engine
    can be compared. With no limit at all the engine thinks for
    ``default_time`` seconds a move (:data:`DEFAULT_TIME` unless the caller says).
``random`` / ``random:seed=7``
    uniformly random legal moves; without a seed the caller's seed is used.
``human``
    a person typing moves (:class:`~zerosum.agents.HumanAgent`).
``gomocup:COMMAND[,time=S,wait=S,cwd=DIR,name=LABEL]``
    an external Gomocup brain (a ``pbrain-*`` program, or ``zerosum gomocup``) playing
    gomoku (:class:`~zerosum.protocols.gomocup.GomocupAgent`), one process per agent,
    told ``time`` seconds a move (``default_time`` when the spec sets none, which the
    arena then does not adjudicate); ``wait`` is how long past that it may stay silent
    before it is given up (default :data:`~zerosum.protocols.gomocup.DEFAULT_WAIT`), and
    ``cwd`` its working directory. **The command** is the first item, or ``cmd=COMMAND``
    in any place: everything up to the next comma, split into words as a POSIX shell
    would, so ``gomocup:zerosum gomocup,time=0.5`` runs ``zerosum gomocup``, and a word
    holding spaces is quoted (``gomocup:'/opt/my brains/pbrain-x'``). A first item of
    the form ``key=value`` whose key is not an option is a command too
    (``gomocup:pbrain-x --level=3``). A command cannot hold a comma, which ends it: put
    such a command in a script. The program must exist when the spec is made.
``uci:COMMAND[,time=S,depth=N,nodes=N,wait=S,cwd=DIR,name=LABEL,OPTION=VALUE...]``
    an external UCI engine (Stockfish, or ``zerosum uci``) playing chess
    (:class:`~zerosum.protocols.uci.UciAgent`), one process per agent. Its command,
    ``time``, ``wait`` and ``cwd`` are read as a Gomocup brain's; ``time`` is sent as
    ``go movetime`` (unless the game is on a clock), ``depth`` and ``nodes`` limit each
    search too, and with none of the three it has ``default_time`` seconds a move. Any
    other key is an engine option, set with ``setoption`` as written (its name may hold
    spaces: ``uci:stockfish,Skill Level=3``, ``uci:stockfish,UCI_LimitStrength=true,
    UCI_Elo=1500``); an option the engine does not offer loses its games, naming those it
    does.
``gtp:COMMAND[,time=S,level=L,wait=S,cwd=DIR,name=LABEL]``
    an external GTP engine (Debian's ``gtp-rhino`` for othello, or ``zerosum gtp``)
    playing a game whose moves are board points
    (:class:`~zerosum.protocols.gtp.GtpAgent`), one process per agent. Its command,
    ``wait`` and ``cwd`` are read as a Gomocup brain's; ``time`` is sent as GTP's
    ``time_settings`` (unless the game is on a clock), and without it the engine plays
    at its own pace; ``level`` is sent as the ``level`` command, which engines such as
    GNU Go list (an engine that does not loses its games, naming the commands it
    does); others take their level on their command line (``gtp:gtp-rhino -l 1``).
``package.module.attribute[:key=value,...]``
    any importable callable returning an agent, called with the options as keyword
    arguments (integers and numbers converted), and with ``seed=`` when it accepts one
    and the spec gives none.

Every kind accepts ``name=LABEL``, the label tables show. A ``time`` option is the
agent's time per move, which matches use to adjudicate. Bad specs raise
:class:`AgentSpecError`, one line naming the spec and what is wrong with it.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerosum.agents import Agent, HumanAgent, RandomAgent, SearchAgent
from zerosum.game import ZerosumError
from zerosum.importer import import_callable
from zerosum.search.engine import EngineOptions, Limits

__all__ = [
    "AGENT_KINDS",
    "DEFAULT_TIME",
    "ENGINE_KINDS",
    "AgentSpec",
    "AgentSpecError",
    "make_agent",
    "parse_agent_spec",
]

DEFAULT_TIME = 1.0
"""Seconds per move of an engine spec that sets no depth, node or time limit."""

AGENT_KINDS = ("engine", "random", "human", "gomocup", "uci", "gtp")
"""The built-in kinds; any other kind must be a ``module.attribute`` path."""

ENGINE_KINDS = ("gomocup", "uci", "gtp")
"""The kinds that run an external engine, whose spec's first item may be its command."""

_TRUE = frozenset({"on", "yes", "true", "1"})
_FALSE = frozenset({"off", "no", "false", "0"})

_ENGINE_LIMITS: dict[str, type] = {"depth": int, "nodes": int, "time": float}


def _option_type(hint: Any) -> Any:
    """The type an engine option is read as; ``X | None`` options also accept ``auto``."""
    members = typing.get_args(hint)
    if type(None) in members:
        (kind,) = (m for m in members if m is not type(None))
        return (kind, None)
    return hint


_ENGINE_OPTIONS: dict[str, Any] = {
    field.name: _option_type(typing.get_type_hints(EngineOptions)[field.name])
    for field in dataclasses.fields(EngineOptions)
}
_OPTION_TYPES: dict[str, dict[str, Any]] = {
    "engine": {**_ENGINE_LIMITS, **_ENGINE_OPTIONS, "name": str},
    "random": {"seed": int, "name": str},
    "human": {"name": str},
    "gomocup": {"cmd": str, "time": float, "wait": float, "cwd": str, "name": str},
    "uci": {
        "cmd": str,
        "time": float,
        "depth": int,
        "nodes": int,
        "wait": float,
        "cwd": str,
        "name": str,
        "coordinates": str,
    },
    "gtp": {"cmd": str, "time": float, "level": str, "wait": float, "cwd": str, "name": str},
}
_FREE_OPTIONS = frozenset(("uci",))
"""The kinds whose unknown keys are the engine's own options, kept as text."""


class AgentSpecError(ZerosumError):
    """An agent spec names no agent, or gives it an option it does not take."""


def _convert(spec: str, key: str, text: str, kind: Any) -> bool | int | float | str | None:
    """Read the option value ``text`` as ``kind``, naming the spec when it cannot.

    ``kind`` is a type, or ``(type, None)`` for an option that ``auto`` leaves to the
    engine."""
    if isinstance(kind, tuple):
        if text.lower() == "auto":
            return None
        kind = kind[0]
    if kind is bool:
        word = text.lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise AgentSpecError(
            f"bad agent spec {spec!r}: {key} is on or off (or auto where the engine decides), "
            f"not {text!r}"
        )
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise AgentSpecError(
                f"bad agent spec {spec!r}: {key} must be a whole number, not {text!r}"
            ) from None
    if kind is float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise AgentSpecError(
                f"bad agent spec {spec!r}: {key} must be a number of seconds, not {text!r}"
            )
        return value
    return text


def _guess(text: str) -> int | float | str:
    """Convert an option of a custom agent: an integer, else a number, else the text."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """A parsed agent spec: the text it came from, its kind and its typed options."""

    text: str
    kind: str
    options: tuple[tuple[str, Any], ...]

    @property
    def label(self) -> str:
        """The name tables show: the ``name`` option, else the spec as written."""
        return str(self.option("name", self.text))

    def option(self, key: str, default: Any = None) -> Any:
        """Return the option ``key``, or ``default`` when the spec does not set it."""
        for name, value in self.options:
            if name == key:
                return value
        return default

    @property
    def time_limit(self) -> float | None:
        """Seconds per move the spec allows (its ``time`` option), or ``None``."""
        value = self.option("time")
        return float(value) if isinstance(value, int | float) else None

    def limits(self, default_time: float = DEFAULT_TIME) -> Limits:
        """The engine's search limits; ``default_time`` seconds when the spec sets none."""
        values = {key: self.option(key) for key in _ENGINE_LIMITS}
        if all(value is None for value in values.values()):
            values["time"] = default_time
        try:
            return Limits(**values)
        except ValueError as error:
            raise AgentSpecError(f"bad agent spec {self.text!r}: {error}") from None

    def engine_options(self) -> EngineOptions | None:
        """The engine's options, or ``None`` when the spec keeps every default."""
        chosen = {key: value for key, value in self.options if key in _ENGINE_OPTIONS}
        if not chosen:
            return None
        try:
            return EngineOptions(**chosen)
        except ValueError as error:
            raise AgentSpecError(f"bad agent spec {self.text!r}: {error}") from None


def parse_agent_spec(text: str) -> AgentSpec:
    """Parse ``KIND[:key=value,...]`` into an :class:`AgentSpec`, checking every option.

    Raises :class:`AgentSpecError` naming the spec: an unknown kind, an option that is
    not ``key=value``, repeated or unknown, or a value of the wrong type."""
    spec = text.strip()
    kind, _, rest = spec.partition(":")
    kind = kind.strip()
    if not kind:
        raise AgentSpecError(f"empty agent spec {text!r}: use {', '.join(AGENT_KINDS)}")
    custom = kind not in _OPTION_TYPES
    if custom and ("." not in kind or not all(part.isidentifier() for part in kind.split("."))):
        raise AgentSpecError(
            f"unknown agent {kind!r} in spec {text!r}: use {', '.join(AGENT_KINDS)} or a "
            f"module.attribute path"
        )
    accepted = _OPTION_TYPES.get(kind, {})
    options: list[tuple[str, Any]] = []
    for number, item in enumerate(filter(None, (part.strip() for part in rest.split(",")))):
        key, eq, value = (part.strip() for part in item.partition("="))
        if number == 0 and kind in ENGINE_KINDS and key not in accepted:
            key, eq, value = "cmd", "=", item  # the bare first item is the engine's command
        if not eq or not key or not value:
            raise AgentSpecError(f"bad option {item!r} in agent spec {text!r}: use key=value")
        # UCI option names are not case-sensitive: Hash and hash are one option
        free = kind in _FREE_OPTIONS
        if any(key == seen or (free and key.lower() == seen.lower()) for seen, _ in options):
            raise AgentSpecError(f"option {key!r} given twice in agent spec {text!r}")
        if custom:
            options.append((key, value if key == "name" else _guess(value)))
            continue
        if free and key not in accepted:
            options.append((key, value))
            continue
        if key not in accepted:
            raise AgentSpecError(
                f"unknown option {key!r} for {kind} in agent spec {text!r}; accepted: "
                f"{', '.join(accepted)}"
            )
        options.append((key, _convert(text, key, value, accepted[key])))
    parsed = AgentSpec(spec, kind, tuple(options))
    if kind == "engine":
        parsed.limits()
        parsed.engine_options()
    if kind in ENGINE_KINDS:
        _check_engine_spec(parsed)
    return parsed


def _check_engine_spec(spec: AgentSpec) -> None:
    """Check an external engine's spec: a command that reads as words, and times that
    are not negative (``wait`` above zero)."""
    from zerosum.protocols.engines import EngineStartError, split_command  # noqa: PLC0415

    command = spec.option("cmd")
    if command is None:
        raise AgentSpecError(
            f"bad agent spec {spec.text!r}: no engine command; write {spec.kind}:COMMAND "
            f"or {spec.kind}:cmd=COMMAND"
        )
    try:
        split_command(command)
    except EngineStartError as error:
        raise AgentSpecError(f"bad agent spec {spec.text!r}: {error}") from None
    time, wait = spec.option("time"), spec.option("wait")
    if time is not None and time < 0:
        raise AgentSpecError(f"bad agent spec {spec.text!r}: time must be 0 or more seconds")
    if wait is not None and wait <= 0:
        raise AgentSpecError(f"bad agent spec {spec.text!r}: wait must be more than 0 seconds")
    for key in ("depth", "nodes"):
        value = spec.option(key)
        if value is not None and value < 1:
            raise AgentSpecError(f"bad agent spec {spec.text!r}: {key} must be 1 or more")
    coordinates = spec.option("coordinates") if spec.kind == "uci" else None
    if coordinates is not None:
        # imported here: the protocols (and the games they play) load only when used
        from zerosum.protocols.uci import XIANGQI_COORDINATES  # noqa: PLC0415

        if coordinates not in XIANGQI_COORDINATES:
            raise AgentSpecError(
                f"bad agent spec {spec.text!r}: coordinates must be "
                f"{' or '.join(XIANGQI_COORDINATES)}, not {coordinates!r}"
            )


def _import_factory(spec: AgentSpec) -> Callable[..., Any]:
    """Import the callable a ``module.attribute`` spec names."""
    module_name, _, attribute = spec.kind.rpartition(".")
    return import_callable(
        module_name, attribute, context=f"bad agent spec {spec.text!r}", error=AgentSpecError
    )


def make_agent(
    spec: str | AgentSpec,
    *,
    seed: int | None = None,
    default_time: float = DEFAULT_TIME,
    read: Callable[[str], str] = input,
    write: Callable[[str], object] = print,
) -> Agent:
    """Make the agent ``spec`` names.

    ``seed`` seeds a random (or custom) agent whose spec sets none; ``default_time`` is
    the engine's time per move when its spec sets no limit; ``read`` and ``write`` are
    a human agent's input and output. Raises :class:`AgentSpecError`."""
    parsed = spec if isinstance(spec, AgentSpec) else parse_agent_spec(spec)
    label = parsed.label
    if parsed.kind == "engine":
        return SearchAgent(parsed.limits(default_time), parsed.engine_options(), name=label)
    if parsed.kind == "random":
        return RandomAgent(parsed.option("seed", seed), name=label)
    if parsed.kind == "human":
        return HumanAgent(read, write, name=label)
    if parsed.kind == "gomocup":
        return _make_gomocup(parsed, default_time)
    if parsed.kind == "uci":
        return _make_uci(parsed, default_time)
    if parsed.kind == "gtp":
        return _make_gtp(parsed)
    factory = _import_factory(parsed)
    options = {key: value for key, value in parsed.options if key != "name"}
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        parameters = None  # a builtin without a signature takes what the spec gives
    if parameters is not None:
        if "seed" in parameters and "seed" not in options:
            options["seed"] = seed
        if "name" in parameters:
            options["name"] = label
    try:
        agent = factory(**options)
    except TypeError as error:
        raise AgentSpecError(f"bad agent spec {parsed.text!r}: {error}") from None
    if not callable(getattr(agent, "choose", None)):
        raise AgentSpecError(
            f"bad agent spec {parsed.text!r}: {parsed.kind} made {agent!r}, which has no "
            f"choose(game, state)"
        )
    if not isinstance(getattr(agent, "name", None), str):
        agent.name = label
    return agent  # type: ignore[no-any-return]


def _start_engine(spec: AgentSpec, start: Callable[[], Agent]) -> Agent:
    """Return ``start()``, the external engine ``spec`` names; a program that cannot be
    run is a bad spec."""
    from zerosum.protocols.engines import EngineStartError  # noqa: PLC0415

    try:
        return start()
    except EngineStartError as error:
        raise AgentSpecError(f"bad agent spec {spec.text!r}: {error}") from None


def _make_gomocup(spec: AgentSpec, default_time: float) -> Agent:
    """Start the Gomocup brain ``spec`` names."""
    # the protocol clients sit above the agents: imported only when a spec asks for one
    from zerosum.protocols.gomocup import DEFAULT_WAIT, GomocupAgent  # noqa: PLC0415

    time = spec.time_limit
    return _start_engine(
        spec,
        lambda: GomocupAgent(
            spec.option("cmd"),
            time=default_time if time is None else time,
            wait=spec.option("wait", DEFAULT_WAIT),
            cwd=spec.option("cwd"),
            name=spec.label,
        ),
    )


def _make_uci(spec: AgentSpec, default_time: float) -> Agent:
    """Start the UCI engine ``spec`` names, with the spec's other keys as its options."""
    from zerosum.protocols.uci import DEFAULT_WAIT, UciAgent  # noqa: PLC0415

    ours = _OPTION_TYPES["uci"]
    time, depth, nodes = spec.time_limit, spec.option("depth"), spec.option("nodes")
    return _start_engine(
        spec,
        lambda: UciAgent(
            spec.option("cmd"),
            time=default_time if time is None and depth is None and nodes is None else time,
            depth=depth,
            nodes=nodes,
            wait=spec.option("wait", DEFAULT_WAIT),
            options=[(key, str(value)) for key, value in spec.options if key not in ours],
            cwd=spec.option("cwd"),
            name=spec.label,
            coordinates=spec.option("coordinates"),
        ),
    )


def _make_gtp(spec: AgentSpec) -> Agent:
    """Start the GTP engine ``spec`` names."""
    from zerosum.protocols.gtp import DEFAULT_WAIT, GtpAgent  # noqa: PLC0415

    return _start_engine(
        spec,
        lambda: GtpAgent(
            spec.option("cmd"),
            time=spec.time_limit,
            level=spec.option("level"),
            wait=spec.option("wait", DEFAULT_WAIT),
            cwd=spec.option("cwd"),
            name=spec.label,
        ),
    )
