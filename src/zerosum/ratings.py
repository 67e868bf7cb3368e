"""Ratings from game results: Elo differences with error bars, and Bradley-Terry fits.

Pure arithmetic on counts, standard library only.

**One pairing** (:func:`elo_estimate`). A score fraction ``p`` (wins plus half the
draws, over the games) maps to an Elo difference ``-400 log10(1/p - 1)``. The 95%
interval comes from the standard error of the mean per-game score, whose variance is
the trinomial one (each game scores 1, 1/2 or 0), mapped through the same function.
When the normal interval of the score leaves (0, 1), its end is infinite. At the two
edges (every game won, or every game lost) the normal approximation says nothing, so
the finite end of the interval is the exact Clopper-Pearson bound ``(alpha/2)**(1/n)``
for ``n`` wins out of ``n`` (or its mirror). The likelihood of superiority is
``Phi((W - L) / sqrt(W + L))`` (draws carry no information about who is stronger) and
1/2 when every game was drawn.

**Several players** (:func:`bradley_terry`). The Bradley-Terry model gives each player a
strength ``g`` with ``P(i beats j) = g_i / (g_i + g_j)``; a draw counts as half a win for
each side. The maximum-likelihood strengths are found by the MM iteration of Hunter
(2004), ``g_i <- W_i / sum_j n_ij / (g_i + g_j)``, and reported as Elo ratings
``400 log10 g_i`` **anchored so that their mean is 0**. The maximum-likelihood fit exists
only when no group of players scored everything (or nothing) against the others; a
``prior`` of virtual draws, added to every pairing that was played, always makes it
exist and shrinks ratings slightly towards each other (BayesElo does the same). The
intervals come from the observed information matrix at the fit, whose pseudo-inverse is
the covariance of the mean-anchored ratings.

**Game pairs** (:class:`Pentanomial`). A match plays every opening twice, colours
swapped; the two games form a *pair* whose score for the player is 0, 1/2, 1, 3/2 or 2.
The five frequencies of those scores are the pentanomial counts. Pairs are independent
where single games are not (an opening that favours one colour helps both players once),
so the variance of the mean score is estimated from the pairs:
``var = sum_i f_i (x_i - mu)**2`` over the pair scores ``x_i`` in {0, 1/4, 1/2, 3/4, 1}
(a pair's score per game) with empirical frequencies ``f_i``.

**SPRT** (:func:`sprt`). The sequential probability ratio test of H0: "the expected
score per game is ``s0``" against H1: "it is ``s1``" is run as the generalised SPRT of
Michel Van den Bergh (as fishtest, fastchess and OpenBench run it), whose statistic,
the log-likelihood ratio of the maximum-likelihood distributions with mean ``s1`` and
with mean ``s0`` is, to second order in ``s1 - s0``,

    ``LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var)``

with ``N`` the number of pairs (or of games, for the trinomial model of unpaired
games), ``mu`` and ``var`` the mean and variance of the per-game score of one pair (or
one game). When a cell is empty, every cell gets half a count more before ``N``, ``mu``
and ``var`` are computed (as fastchess does): a prior that keeps the variance away from
0. Fishtest's smaller ``1e-3`` for empty cells suits its batches of hundreds of games,
but checked after every pair it lets the first lopsided pairs decide (in simulation,
three times in ten at ``elo0=0, elo1=10`` when the true difference is 0); half counts
keep both error rates near ``alpha`` and ``beta``. The test accepts H1 when
``LLR >= log((1 - beta) / alpha)`` and H0 when ``LLR <= log(beta / (1 - alpha))``.
In the **logistic** model the bounds ``elo0`` and ``elo1`` are Elo differences,
``s = 1 / (1 + 10**(-elo / 400))``. In the **normalized** model they are normalised Elo,
``nElo = (mu - 1/2) / sigma * 800 / ln 10`` with ``sigma`` the standard deviation of
one game's score (``sqrt(2 var)`` from pairs, ``sqrt(var)`` from games), which is
Elo when nothing is drawn and is independent of the draw rate; so
``s = 1/2 + nElo * sigma * ln 10 / 800``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

__all__ = [
    "ELO_PER_NATURAL_LOG",
    "NELO_PER_T",
    "SPRT_DECISIONS",
    "SPRT_MODELS",
    "BradleyTerryFit",
    "EloEstimate",
    "Pentanomial",
    "RatingError",
    "SprtResult",
    "SprtSettings",
    "bradley_terry",
    "elo_estimate",
    "elo_from_score",
    "format_elo",
    "likelihood_of_superiority",
    "score_from_elo",
    "sprt",
]

ELO_PER_NATURAL_LOG = 400 / math.log(10)
"""Elo points per unit of natural-log strength: ``400 log10 g = 173.7... ln g``."""

NELO_PER_T = 800 / math.log(10)
"""Normalised Elo per unit of t-value ``(mu - 1/2) / sigma``: ``347.4...``; with no draws
(``sigma = 1/2``) a small normalised Elo difference equals the logistic one."""

SPRT_MODELS = ("logistic", "normalized")
"""What an SPRT's ``elo0`` and ``elo1`` measure: logistic Elo or normalised Elo."""

SPRT_DECISIONS = ("H0 accepted", "H1 accepted")
"""The two ways an SPRT ends: the player is not ``elo1`` better, or not ``elo0``."""

_PRIOR_COUNT = 0.5  # added to every cell when one is empty (see the module's notes)

_NORMAL = NormalDist()


class RatingError(ValueError):
    """Results from which a rating cannot be computed (no games, an unbounded fit)."""


def elo_from_score(score: float) -> float:
    """Return the Elo difference that predicts the score fraction ``score``.

    ``0`` and ``1`` give ``-inf`` and ``+inf``; a score outside [0, 1] raises
    :class:`RatingError`."""
    if not 0.0 <= score <= 1.0:
        raise RatingError(f"a score fraction lies between 0 and 1, not {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Return the expected score fraction of a player ``elo`` points stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """Return the probability that the player with ``wins`` and ``losses`` is stronger.

    It is ``Phi((W - L) / sqrt(W + L))``; 1/2 when there are neither wins nor losses."""
    if wins < 0 or losses < 0:
        raise RatingError(f"counts cannot be negative: {wins} wins, {losses} losses")
    if wins + losses == 0:
        return 0.5
    return _NORMAL.cdf((wins - losses) / math.sqrt(wins + losses))


def format_elo(elo: float, digits: int = 1) -> str:
    """Write an Elo value with its sign, ``+inf`` and ``-inf`` for the unbounded ends."""
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    text = f"{elo:+.{digits}f}"
    return "+0" + text[2:] if text.startswith("-0") and float(text) == 0 else text


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """The Elo difference of one player over another from their games, with its interval.

    ``score`` is the fraction of the points the player took; ``low`` and ``high`` bound
    ``elo`` at the given ``confidence``; ``los`` is the likelihood of superiority."""

    wins: int
    draws: int
    losses: int
    score: float
    elo: float
    low: float
    high: float
    los: float
    confidence: float = 0.95

    @property
    def games(self) -> int:
        """The number of games."""
        return self.wins + self.draws + self.losses

    @property
    def draw_ratio(self) -> float:
        """The fraction of the games that were drawn."""
        return self.draws / self.games

    def describe(self) -> str:
        """Return ``+70.4 (95% interval +2.8 to +143.0)``, with ``+inf`` where unbounded."""
        level = f"{self.confidence * 100:g}%"
        return (
            f"{format_elo(self.elo)} ({level} interval {format_elo(self.low)} to "
            f"{format_elo(self.high)})"
        )


def elo_estimate(wins: int, draws: int, losses: int, confidence: float = 0.95) -> EloEstimate:
    """Return the Elo difference implied by ``wins``, ``draws`` and ``losses``.

    Raises :class:`RatingError` for negative counts, no games, or a confidence outside
    (0, 1)."""
    if min(wins, draws, losses) < 0:
        raise RatingError(f"counts cannot be negative: {wins}/{draws}/{losses}")
    games = wins + draws + losses
    if games == 0:
        raise RatingError("no games played: the Elo difference is undefined")
    if not 0.0 < confidence < 1.0:
        raise RatingError(f"confidence must lie strictly between 0 and 1, not {confidence}")
    alpha = 1.0 - confidence
    score = (wins + 0.5 * draws) / games
    if score == 1.0:
        low_score, high_score = (alpha / 2) ** (1 / games), 1.0
    elif score == 0.0:
        low_score, high_score = 0.0, 1.0 - (alpha / 2) ** (1 / games)
    else:
        variance = (
            wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2
        ) / games
        margin = _NORMAL.inv_cdf(1.0 - alpha / 2) * math.sqrt(variance / games)
        low_score = max(0.0, score - margin)
        high_score = min(1.0, score + margin)
    return EloEstimate(
        wins=wins,
        draws=draws,
        losses=losses,
        score=score,
        elo=elo_from_score(score),
        low=elo_from_score(low_score),
        high=elo_from_score(high_score),
        los=likelihood_of_superiority(wins, losses),
        confidence=confidence,
    )


@dataclass(frozen=True, slots=True)
class BradleyTerryFit:
    """Bradley-Terry ratings of several players, in Elo points with mean 0.

    ``ratings[i]`` is player ``i``'s rating, ``errors[i]`` its standard error (Elo),
    and ``low``/``high`` the interval at ``confidence``. ``iterations`` counts the MM
    steps the fit took."""

    ratings: tuple[float, ...]
    errors: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    iterations: int
    prior: float
    confidence: float = 0.95


def _strongly_connected(scores: Sequence[Sequence[float]]) -> bool:
    """Tell whether every player reaches every other through "scored against" edges."""
    size = len(scores)

    def reach(forward: bool) -> set[int]:
        seen = {0}
        stack = [0]
        while stack:
            here = stack.pop()
            for there in range(size):
                points = scores[here][there] if forward else scores[there][here]
                if there not in seen and points > 0:
                    seen.add(there)
                    stack.append(there)
        return seen

    return len(reach(True)) == size and len(reach(False)) == size


def _pseudo_inverse_of_laplacian(matrix: list[list[float]]) -> list[list[float]]:
    """Invert a connected graph's weighted Laplacian on the sum-zero subspace.

    For such a matrix ``L`` the pseudo-inverse is ``(L + J/n)^-1 - J/n`` with ``J`` all
    ones; the inverse is taken by Gauss-Jordan elimination with partial pivoting."""
    size = len(matrix)
    shift = 1.0 / size
    work = [
        [matrix[i][j] + shift for j in range(size)] + [1.0 if i == j else 0.0 for j in range(size)]
        for i in range(size)
    ]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(work[row][column]))
        if abs(work[pivot][column]) < 1e-12:
            raise RatingError("the results do not connect every player: ratings are undefined")
        work[column], work[pivot] = work[pivot], work[column]
        lead = work[column][column]
        work[column] = [value / lead for value in work[column]]
        for row in range(size):
            if row != column and work[row][column] != 0.0:
                factor = work[row][column]
                work[row] = [a - factor * b for a, b in zip(work[row], work[column], strict=True)]
    return [[work[i][size + j] - shift for j in range(size)] for i in range(size)]


def bradley_terry(
    scores: Sequence[Sequence[float]],
    games: Sequence[Sequence[int]],
    *,
    prior: float = 0.0,
    confidence: float = 0.95,
    tolerance: float = 1e-10,
    max_iterations: int = 100_000,
) -> BradleyTerryFit:
    """Fit Bradley-Terry ratings by maximum likelihood.

    ``scores[i][j]`` is what player ``i`` scored against ``j`` (wins plus half the
    draws) and ``games[i][j]`` how many games they played (symmetric). ``prior`` adds
    that many virtual draws to every pairing that was played. Ratings are Elo points
    with mean 0. Raises :class:`RatingError` for inconsistent tables, players who are
    not connected by games, or (with no prior) results for which the likelihood has no
    maximum because some group of players won or lost all its games against the rest.
    """
    size = len(scores)
    if size < 2 or len(games) != size:
        raise RatingError("a rating needs at least two players and a square results table")
    for i in range(size):
        if len(scores[i]) != size or len(games[i]) != size:
            raise RatingError("the results table must be square")
        for j in range(size):
            if games[i][j] != games[j][i] or games[i][j] < 0:
                raise RatingError(f"games between players {i} and {j} do not match")
            if i != j and abs(scores[i][j] + scores[j][i] - games[i][j]) > 1e-9:
                raise RatingError(
                    f"players {i} and {j} scored {scores[i][j]} + {scores[j][i]} in "
                    f"{games[i][j]} games: the points must add up to the games"
                )
    if prior < 0:
        raise RatingError(f"the prior is a number of virtual draws, 0 or more, not {prior}")
    count = [[float(games[i][j]) if i != j else 0.0 for j in range(size)] for i in range(size)]
    points = [[float(scores[i][j]) if i != j else 0.0 for j in range(size)] for i in range(size)]
    for i in range(size):
        for j in range(size):
            if count[i][j] > 0:
                count[i][j] += prior
                points[i][j] += prior / 2
    connected = [[count[i][j] for j in range(size)] for i in range(size)]
    if not _strongly_connected(connected):
        raise RatingError("the players are not all connected by games: ratings are undefined")
    if not _strongly_connected(points):
        raise RatingError(
            "some players won (or lost) every game against the rest, so their maximum-"
            "likelihood ratings are unbounded; add a prior of virtual draws"
        )
    totals = [sum(row) for row in points]
    strengths = [1.0] * size
    iterations = 0
    for iterations in range(1, max_iterations + 1):  # noqa: B007 - the count is reported
        updated = [
            totals[i]
            / sum(count[i][j] / (strengths[i] + strengths[j]) for j in range(size) if count[i][j])
            for i in range(size)
        ]
        centre = math.exp(sum(math.log(g) for g in updated) / size)
        updated = [g / centre for g in updated]
        change = max(abs(math.log(a / b)) for a, b in zip(updated, strengths, strict=True))
        strengths = updated
        if change < tolerance:
            break
    logs = [math.log(g) for g in strengths]
    information = [[0.0] * size for _ in range(size)]
    for i in range(size):
        for j in range(size):
            if i != j and count[i][j]:
                p = strengths[i] / (strengths[i] + strengths[j])
                weight = count[i][j] * p * (1.0 - p)
                information[i][j] -= weight
                information[i][i] += weight
    covariance = _pseudo_inverse_of_laplacian(information)
    z = _NORMAL.inv_cdf(0.5 + confidence / 2)
    ratings = tuple(ELO_PER_NATURAL_LOG * value for value in logs)
    errors = tuple(ELO_PER_NATURAL_LOG * math.sqrt(max(covariance[i][i], 0.0)) for i in range(size))
    return BradleyTerryFit(
        ratings=ratings,
        errors=errors,
        low=tuple(r - z * e for r, e in zip(ratings, errors, strict=True)),
        high=tuple(r + z * e for r, e in zip(ratings, errors, strict=True)),
        iterations=iterations,
        prior=prior,
        confidence=confidence,
    )


# --------------------------------------------------------------------------- pairs and SPRT

_PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)


@dataclass(frozen=True, slots=True)
class Pentanomial:
    """How many game pairs (one opening, colours swapped) the player scored 0, 1/2, 1,
    3/2 and 2 points in: ``counts[i]`` pairs scored ``i / 2``."""

    counts: tuple[int, int, int, int, int]

    def __post_init__(self) -> None:
        if len(self.counts) != len(_PAIR_SCORES) or min(self.counts) < 0:
            raise RatingError(f"pentanomial counts are five counts, 0 or more, not {self.counts}")

    @classmethod
    def from_scores(cls, scores: Iterable[float]) -> Pentanomial:
        """Count pair scores (each 0, 0.5, 1, 1.5 or 2: the player's points in a pair).

        Raises :class:`RatingError` for any other score."""
        counts = [0] * len(_PAIR_SCORES)
        for score in scores:
            if score not in _PAIR_SCORES:
                raise RatingError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {score}")
            counts[int(2 * score)] += 1
        return cls((counts[0], counts[1], counts[2], counts[3], counts[4]))

    @property
    def pairs(self) -> int:
        """The number of pairs."""
        return sum(self.counts)

    @property
    def score(self) -> float:
        """The mean score per game over the pairs; raises :class:`RatingError` without pairs."""
        if not self.pairs:
            raise RatingError("no complete pairs: the pair score is undefined")
        return sum(n * x for n, x in zip(self.counts, _PAIR_SCORES, strict=True)) / (2 * self.pairs)

    def describe(self) -> str:
        """Return ``0: 1, 1/2: 0, 1: 6, 3/2: 2, 2: 3`` (pair score: pairs)."""
        names = ("0", "1/2", "1", "3/2", "2")
        return ", ".join(f"{name}: {n}" for name, n in zip(names, self.counts, strict=True))


@dataclass(frozen=True, slots=True)
class SprtSettings:
    """What an SPRT tests: H0 ``elo = elo0`` against H1 ``elo = elo1`` (``elo0 < elo1``,
    in the ``model``'s units, see :data:`SPRT_MODELS`), with error rates ``alpha``
    (accepting H1 when H0 holds) and ``beta`` (accepting H0 when H1 holds)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1) and self.elo0 < self.elo1):
            raise RatingError(
                f"the SPRT needs finite elo0 < elo1, not elo0={self.elo0:g} elo1={self.elo1:g}"
            )
        for name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < rate < 0.5:
                raise RatingError(f"{name} is an error rate between 0 and 0.5, not {rate:g}")
        if self.model not in SPRT_MODELS:
            raise RatingError(f"the SPRT model is {' or '.join(SPRT_MODELS)}, not {self.model!r}")

    @classmethod
    def parse(cls, text: str) -> SprtSettings:
        """Read ``elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized`` (spaces or commas
        between settings; ``elo0`` and ``elo1`` are required, the rest default to 0.05,
        0.05 and logistic). Raises :class:`RatingError` naming the bad setting."""
        values: dict[str, str] = {}
        for word in filter(None, re.split(r"[\s,]+", text)):
            key, equals, value = word.partition("=")
            if not equals or key not in _SETTING_KEYS:
                raise RatingError(
                    f"SPRT setting {word!r} is not one of "
                    f"{', '.join(k + '=...' for k in _SETTING_KEYS)}"
                )
            if key in values:
                raise RatingError(f"SPRT setting {key} is given twice")
            values[key] = value
        missing = [key for key in ("elo0", "elo1") if key not in values]
        if missing:
            raise RatingError(f"the SPRT needs {' and '.join(missing)} (e.g. elo0=0 elo1=5)")
        numbers: dict[str, float] = {}
        for key in ("elo0", "elo1", "alpha", "beta"):
            if key in values:
                try:
                    numbers[key] = float(values[key])
                except ValueError:
                    raise RatingError(f"SPRT setting {key}={values[key]!r}: not a number") from None
        return cls(**numbers, model=values.get("model", "logistic"))

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: ``log(beta / (1 - alpha))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: ``log((1 - beta) / alpha)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    def describe(self) -> str:
        """Return ``elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic``: the settings as
        :meth:`parse` reads them."""
        return (
            f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g} "
            f"model={self.model}"
        )


_SETTING_KEYS = ("elo0", "elo1", "alpha", "beta", "model")


@dataclass(frozen=True, slots=True)
class SprtResult:
    """The state of an SPRT: its log-likelihood ratio ``llr``, the bounds ``lower`` and
    ``upper`` it is compared with, and the ``decision`` (one of :data:`SPRT_DECISIONS`,
    or ``None`` while the test goes on). ``model`` says whether the frequencies were of
    pairs (``"pentanomial"``) or of games (``"trinomial"``)."""

    llr: float
    lower: float
    upper: float
    decision: str | None
    settings: SprtSettings
    model: str

    def describe(self) -> str:
        """Return ``LLR 1.23 (-2.94, 2.94)``."""
        return f"LLR {self.llr:.2f} ({self.lower:.2f}, {self.upper:.2f})"


def sprt(frequencies: Sequence[int], settings: SprtSettings) -> SprtResult:
    """Run the SPRT of ``settings`` on counts of results **in increasing score order**:
    five counts of pairs scoring 0, 1/2, 1, 3/2 and 2 (the pentanomial model, see
    :class:`Pentanomial`), or three counts of games lost, drawn and won (the trinomial
    model, for games that are not paired).

    The LLR is ``N (s1 - s0) (2 mu - s0 - s1) / (2 var)``, with half a count added to
    every cell when one is empty (see the module's notes); it is 0 without results.
    Raises :class:`RatingError` for another number of counts or a negative count."""
    size = len(frequencies)
    if size not in (3, 5) or min(frequencies) < 0:
        raise RatingError(
            f"an SPRT needs 3 game counts or 5 pair counts, 0 or more, not {tuple(frequencies)}"
        )
    model = "pentanomial" if size == 5 else "trinomial"
    llr = 0.0
    if sum(frequencies):
        prior = _PRIOR_COUNT if min(frequencies) == 0 else 0.0
        counts = [n + prior for n in frequencies]
        total = sum(counts)
        points = [i / (size - 1) for i in range(size)]  # the score per game of each cell
        mean = sum(n * x for n, x in zip(counts, points, strict=True)) / total
        variance = sum(n * (x - mean) ** 2 for n, x in zip(counts, points, strict=True)) / total
        if settings.model == "logistic":
            s0, s1 = score_from_elo(settings.elo0), score_from_elo(settings.elo1)
        else:
            # one game's standard deviation: a pair's score per game averages two games
            sigma = math.sqrt(variance * (2 if size == 5 else 1))
            s0, s1 = (0.5 + elo / NELO_PER_T * sigma for elo in (settings.elo0, settings.elo1))
        llr = total * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    lower, upper = settings.lower, settings.upper
    decision = SPRT_DECISIONS[1] if llr >= upper else SPRT_DECISIONS[0] if llr <= lower else None
    return SprtResult(llr, lower, upper, decision, settings, model)
