"""The SPRT of :mod:`zerosum.ratings`, checked against the exact generalised SPRT
computed here from first principles, against hand arithmetic, and by simulating many
matches whose true Elo difference is known."""

from __future__ import annotations

import math
import random

import pytest

from zerosum.ratings import (
    NELO_PER_T,
    Pentanomial,
    RatingError,
    SprtSettings,
    score_from_elo,
    sprt,
)

PAIR_POINTS = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's score per game, cell by cell
GAME_POINTS = (0.0, 0.5, 1.0)


def constrained_log_likelihood(counts: list[int], points: tuple[float, ...], mean: float) -> float:
    """The largest log-likelihood ``sum n_i log p_i`` of a distribution ``p`` on the
    cells with expected score ``mean``.

    Lagrange: ``n_i / p_i = N (a + b (x_i - mean))``; summing ``p_i`` gives ``a = 1``, so
    ``p_i = f_i / (1 + b (x_i - mean))`` with ``f_i = n_i / N``, and ``b`` is the root of
    ``sum f_i (x_i - mean) / (1 + b (x_i - mean)) = 0``, which decreases in ``b`` on the
    interval where every denominator of an observed cell is positive: bisection."""
    total = sum(counts)
    cells = [(n / total, x - mean) for n, x in zip(counts, points, strict=True) if n]
    low = max((-1 / d for _, d in cells if d > 0), default=-1e9)
    high = min((-1 / d for _, d in cells if d < 0), default=1e9)
    for _ in range(200):
        middle = (low + high) / 2
        if sum(f * d / (1 + middle * d) for f, d in cells) > 0:
            low = middle
        else:
            high = middle
    multiplier = (low + high) / 2
    probabilities = [f / (1 + multiplier * d) for f, d in cells]
    assert sum(probabilities) == pytest.approx(1, abs=1e-9)  # the root was found
    return sum(f * total * math.log(p) for (f, _), p in zip(cells, probabilities, strict=True))


def exact_llr(counts: list[int], elo0: float, elo1: float) -> float:
    """The generalised SPRT statistic: the log-likelihood ratio of the best distribution
    with the score of ``elo1`` over the best one with the score of ``elo0``."""
    points = PAIR_POINTS if len(counts) == 5 else GAME_POINTS
    return constrained_log_likelihood(
        counts, points, score_from_elo(elo1)
    ) - constrained_log_likelihood(counts, points, score_from_elo(elo0))


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1", "tolerance"),
    [
        # the quadratic approximation is exact to second order in (s - mu) / sigma: a
        # fraction of a percent when the bounds are close to the data's score ...
        ([5, 30, 60, 30, 10], 0, 5, 0.006),
        ([5, 30, 60, 30, 10], -3, 3, 0.006),
        ([9, 31, 64, 27, 12], -1, 1, 0.002),
        # ... and a few percent when they are further off
        ([3, 10, 20, 12, 6], 0, 5, 0.015),
        ([30, 50, 20], 0, 5, 0.025),
        ([20, 60, 150, 80, 30], 0, 10, 0.015),
        ([40, 10, 30, 15, 20], 0, 20, 0.04),
    ],
)
def test_the_llr_approximates_the_exact_generalised_sprt(
    counts: list[int], elo0: float, elo1: float, tolerance: float
) -> None:
    exact = exact_llr(counts, elo0, elo1)
    approximate = sprt(counts, SprtSettings(elo0, elo1)).llr
    assert approximate == pytest.approx(exact, rel=tolerance)


def test_an_llr_worked_by_hand() -> None:
    # pairs scoring 0, 1/2, 1, 3/2, 2: 1, 2, 4, 3, 2 (12 pairs, no empty cell);
    # per game: mean = (2 * 0.25 + 4 * 0.5 + 3 * 0.75 + 2 * 1) / 12 = 6.75 / 12 = 0.5625
    # E[x^2] = (2 * 0.0625 + 4 * 0.25 + 3 * 0.5625 + 2) / 12 = 4.8125 / 12 = 0.4010417
    # var = 0.4010417 - 0.5625^2 = 0.0846354
    # elo1 = 5: s1 = 1 / (1 + 10^(-5/400)) = 1 / 1.9716284 = 0.5071951; s0 = 0.5
    # LLR = 12 * 0.0071951 * (1.125 - 1.0071951) / (2 * 0.0846354) = 0.060089
    result = sprt([1, 2, 4, 3, 2], SprtSettings(0, 5))
    assert result.llr == pytest.approx(0.060089, abs=1e-6)
    assert result.model == "pentanomial" and result.decision is None
    # the bounds: log(0.05 / 0.95) = -2.944439 and log(0.95 / 0.05) = +2.944439;
    # alpha 0.05, beta 0.1: log(0.1 / 0.95) = -2.251292 and log(0.9 / 0.05) = 2.890372
    assert (result.lower, result.upper) == pytest.approx((-2.944439, 2.944439), abs=1e-6)
    uneven = sprt([1, 2, 4, 3, 2], SprtSettings(0, 5, alpha=0.05, beta=0.1))
    assert (uneven.lower, uneven.upper) == pytest.approx((-2.251292, 2.890372), abs=1e-6)


def test_empty_cells_get_half_a_count_each() -> None:
    # 3 pairs scoring 2 and one scoring 3/2: every cell + 0.5 gives 0.5, 0.5, 0.5, 1.5,
    # 3.5 (N = 6.5); mean = (0.125 + 0.25 + 1.125 + 3.5) / 6.5 = 0.7692308;
    # E[x^2] = (0.03125 + 0.125 + 0.84375 + 3.5) / 6.5 = 0.6923077; var = 0.1005917
    # LLR = 6.5 * 0.0071951 * (1.5384615 - 1.0071951) / (2 * 0.1005917) = 0.123501
    assert sprt([0, 0, 0, 1, 3], SprtSettings(0, 5)).llr == pytest.approx(0.123501, abs=1e-6)
    # one lopsided pair decides nothing; no pairs at all give 0
    assert sprt([0, 0, 0, 0, 1], SprtSettings(0, 5)).decision is None
    assert sprt([0, 0, 0, 0, 0], SprtSettings(0, 5)).llr == 0.0


def test_the_normalized_llr_is_the_t_value_form() -> None:
    # with s_k = 1/2 + nt_k sigma and var = sigma^2 / 2 per pair, the LLR is
    # N (nt1 - nt0) (2 t - nt0 - nt1) with t = (mu - 1/2) / sigma, nt = nElo / (800 / ln 10)
    counts = [4, 18, 50, 20, 8]
    total = sum(counts)
    mean = sum(n * x for n, x in zip(counts, PAIR_POINTS, strict=True)) / total
    variance = sum(n * (x - mean) ** 2 for n, x in zip(counts, PAIR_POINTS, strict=True)) / total
    t = (mean - 0.5) / math.sqrt(2 * variance)
    nt0, nt1 = -2 / NELO_PER_T, 6 / NELO_PER_T
    expected = total * (nt1 - nt0) * (2 * t - nt0 - nt1)
    assert sprt(counts, SprtSettings(-2, 6, model="normalized")).llr == pytest.approx(expected)
    # from games the standard deviation of a game is sqrt(var) and N counts games
    games = [30, 40, 50]
    total = sum(games)
    mean = sum(n * x for n, x in zip(games, GAME_POINTS, strict=True)) / total
    variance = sum(n * (x - mean) ** 2 for n, x in zip(games, GAME_POINTS, strict=True)) / total
    t = (mean - 0.5) / math.sqrt(variance)
    expected = total / 2 * (nt1 - nt0) * (2 * t - nt0 - nt1)
    result = sprt(games, SprtSettings(-2, 6, model="normalized"))
    assert result.llr == pytest.approx(expected) and result.model == "trinomial"
    # no draws: one game's sigma is 1/2 at an even score, where normalised Elo is Elo
    even = [50, 0, 50]
    logistic = sprt(even, SprtSettings(-1, 1)).llr
    assert sprt(even, SprtSettings(-1, 1, model="normalized")).llr == pytest.approx(
        logistic, rel=1e-4
    )


@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_mirrored_results_mirror_the_llr(model: str) -> None:
    # the other player's view: cells reversed, H0 and H1 swapped and negated
    for counts in ([4, 18, 50, 20, 8], [1, 0, 3, 9, 2], [12, 30, 9]):
        forward = sprt(counts, SprtSettings(0, 5, model=model)).llr
        backward = sprt(counts[::-1], SprtSettings(-5, 0, model=model)).llr
        assert backward == pytest.approx(-forward)


def test_sign_and_growth_with_evidence() -> None:
    settings = SprtSettings(0, 10)
    # at the midpoint score of s0 and s1 the evidence is balanced; above it favours H1
    assert sprt([10, 20, 40, 20, 10], settings).llr < 0
    assert sprt([10, 20, 40, 20, 10], SprtSettings(-10, 10)).llr == pytest.approx(0, abs=1e-12)
    assert sprt([8, 20, 40, 20, 12], settings).llr > 0
    # the same frequencies over k times the pairs give k times the LLR
    base = sprt([3, 9, 20, 11, 5], settings).llr
    for k in (2, 5, 40):
        scaled = sprt([3 * k, 9 * k, 20 * k, 11 * k, 5 * k], settings).llr
        assert scaled == pytest.approx(k * base)
    many = sprt([30, 90, 200, 110, 50], settings)
    more = sprt([300, 900, 2000, 1100, 500], settings)
    assert many.decision is None and more.decision == "H1 accepted"
    assert sprt([500, 1100, 2000, 900, 300], settings).decision == "H0 accepted"


def tilted(base: tuple[float, ...], score: float) -> list[float]:
    """The distribution ``p_i ~ base_i exp(theta x_i)`` over pair scores whose mean per
    game is ``score``: ``theta`` by bisection (the mean increases with it)."""
    low, high = -60.0, 60.0
    for _ in range(200):
        theta = (low + high) / 2
        weights = [b * math.exp(theta * x) for b, x in zip(base, PAIR_POINTS, strict=True)]
        mean = sum(w * x for w, x in zip(weights, PAIR_POINTS, strict=True)) / sum(weights)
        low, high = (theta, high) if mean < score else (low, theta)
    total = sum(weights)
    return [w / total for w in weights]


def accepted_h1(elo: float, settings: SprtSettings, runs: int, rng: random.Random) -> float:
    """The fraction of ``runs`` simulated matches, each stopped when its SPRT decides,
    that accept H1 when pairs are drawn from a pentanomial with true Elo ``elo``."""
    # a drawish pentanomial, like engines of similar strength from balanced openings
    probabilities = tilted((0.01, 0.09, 0.8, 0.09, 0.01), score_from_elo(elo))
    cumulative = [sum(probabilities[: i + 1]) for i in range(5)]
    cells = range(5)
    accepted = 0
    for _ in range(runs):
        counts = [0] * 5
        while True:
            for cell in rng.choices(cells, cum_weights=cumulative, k=1):
                counts[cell] += 1
            decision = sprt(counts, settings).decision
            if decision is not None:
                accepted += decision == "H1 accepted"
                break
    return accepted / runs


def test_error_rates_hold_in_simulated_matches() -> None:
    # 250 matches a side: the standard error of a rate near 0.05 is sqrt(0.05 * 0.95 /
    # 250) = 0.014, so a margin of 0.04 (about three of them) flags a real excess
    rng = random.Random(20240611)
    settings = SprtSettings(0, 10, alpha=0.05, beta=0.05)
    false_positives = accepted_h1(0, settings, 250, rng)
    power = accepted_h1(10, settings, 250, rng)
    assert false_positives <= 0.05 + 0.04
    assert power >= 1 - 0.05 - 0.04
    # and a difference half-way between the hypotheses is a coin toss
    assert 0.3 <= accepted_h1(5, settings, 100, rng) <= 0.7


def test_pentanomial_counts_pair_scores() -> None:
    pairs = Pentanomial.from_scores([2, 1.5, 1, 1, 0.5, 2, 1])
    assert pairs.counts == (0, 1, 3, 1, 2) and pairs.pairs == 7
    assert pairs.score == pytest.approx(9 / 14)
    assert pairs.describe() == "0: 0, 1/2: 1, 1: 3, 3/2: 1, 2: 2"
    with pytest.raises(RatingError, match=r"not 0\.75"):
        Pentanomial.from_scores([0.75])
    with pytest.raises(RatingError, match="no complete pairs"):
        _ = Pentanomial((0, 0, 0, 0, 0)).score
    with pytest.raises(RatingError, match="five counts"):
        Pentanomial((1, 2, 3))  # type: ignore[arg-type]


def test_settings_are_read_and_checked() -> None:
    settings = SprtSettings.parse("elo0=-1.5 elo1=4,alpha=0.1  beta=0.2 model=normalized")
    assert settings == SprtSettings(-1.5, 4, 0.1, 0.2, "normalized")
    assert SprtSettings.parse(settings.describe()) == settings
    assert SprtSettings.parse("elo1=5 elo0=0") == SprtSettings(0, 5, 0.05, 0.05, "logistic")
    for text, message in [
        ("elo0=0", "needs elo1"),
        ("elo1=3", "needs elo0"),
        ("elo0=0 elo1=5 elo1=6", "given twice"),
        ("elo0=0 elo1=5 gamma=1", "'gamma=1' is not one of"),
        ("elo0=0 elo1=5 alpha", "'alpha' is not one of"),
        ("elo0=0 elo1=five", "elo1='five': not a number"),
        ("elo0=5 elo1=5", "elo0 < elo1"),
        ("elo0=0 elo1=inf", "elo0 < elo1"),
        ("elo0=0 elo1=5 alpha=0", "alpha is an error rate"),
        ("elo0=0 elo1=5 beta=0.5", "beta is an error rate"),
        ("elo0=0 elo1=5 model=bayes", "logistic or normalized"),
    ]:
        with pytest.raises(RatingError, match=message):
            SprtSettings.parse(text)
    with pytest.raises(RatingError, match="3 game counts or 5 pair counts"):
        sprt([1, 2, 3, 4], SprtSettings(0, 5))
    with pytest.raises(RatingError, match="3 game counts or 5 pair counts"):
        sprt([1, -2, 3], SprtSettings(0, 5))
