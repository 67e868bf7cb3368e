"""Elo, its interval, the likelihood of superiority and Bradley-Terry fits, checked
against cases worked out by hand (the arithmetic is in the comments)."""

from __future__ import annotations

import math

import pytest

from zerosum.ratings import (
    RatingError,
    bradley_terry,
    elo_estimate,
    elo_from_score,
    format_elo,
    likelihood_of_superiority,
    score_from_elo,
)


def test_elo_of_a_score() -> None:
    # -400 log10(1/p - 1): 60% -> 400 log10(3/2), 75% -> 400 log10 3, 50% -> 0
    assert elo_from_score(0.6) == pytest.approx(70.4365, abs=1e-4)
    assert elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-4)
    assert elo_from_score(0.25) == pytest.approx(-190.8485, abs=1e-4)
    assert elo_from_score(0.5) == 0
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    for elo in (-300.0, -12.5, 0.0, 70.0, 800.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)
    with pytest.raises(RatingError, match="between 0 and 1"):
        elo_from_score(1.2)


def test_sixty_percent_over_a_hundred_games_without_draws() -> None:
    # per-game variance 0.6 * 0.4 = 0.24; standard error sqrt(0.24 / 100) = 0.04899;
    # 1.95996 * 0.04899 = 0.09602, so the score lies in [0.50398, 0.69602]
    estimate = elo_estimate(60, 0, 40)
    assert estimate.games == 100 and estimate.score == 0.6
    assert estimate.elo == pytest.approx(70.44, abs=0.01)
    assert estimate.low == pytest.approx(2.77, abs=0.01)
    assert estimate.high == pytest.approx(143.91, abs=0.01)
    # (60 - 40) / sqrt(100) = 2 standard deviations: Phi(2) = 0.97725
    assert estimate.los == pytest.approx(0.97725, abs=1e-5)
    assert estimate.describe() == "+70.4 (95% interval +2.8 to +143.9)"


def test_draws_narrow_the_interval() -> None:
    # 50 wins, 20 draws, 30 losses: still 60%, but the variance is
    # (50 * 0.4^2 + 20 * 0.1^2 + 30 * 0.6^2) / 100 = 0.19; margin 1.95996 * 0.04359 = 0.08543
    estimate = elo_estimate(50, 20, 30)
    assert estimate.elo == pytest.approx(70.44, abs=0.01)
    assert estimate.low == pytest.approx(10.13, abs=0.01)
    assert estimate.high == pytest.approx(135.30, abs=0.01)
    # draws carry no information: Phi((50 - 30) / sqrt(80)) = Phi(2.2361) = 0.98733
    assert estimate.los == pytest.approx(0.98733, abs=1e-5)
    assert estimate.draw_ratio == 0.2  # 20 draws in 100 games


def test_an_even_score_is_symmetric() -> None:
    # 3/4/3: variance (3 * 0.25 + 0 + 3 * 0.25) / 10 = 0.15, margin 0.24005
    estimate = elo_estimate(3, 4, 3)
    assert estimate.elo == 0 and estimate.los == 0.5
    assert estimate.low == pytest.approx(-181.74, abs=0.01)
    assert estimate.high == pytest.approx(181.74, abs=0.01)
    assert format_elo(estimate.elo) == "+0.0"


def test_the_edges_give_an_exact_one_sided_bound() -> None:
    # 10 wins out of 10: Clopper-Pearson lower bound 0.025 ** (1/10) = 0.69150,
    # i.e. 140.2 Elo; the other end is unbounded
    perfect = elo_estimate(10, 0, 0)
    assert perfect.elo == math.inf and perfect.high == math.inf
    assert perfect.low == pytest.approx(140.22, abs=0.01)
    # Phi(sqrt(10)) = Phi(3.1623) = 0.99922
    assert perfect.los == pytest.approx(0.99922, abs=1e-5)
    assert perfect.describe() == "+inf (95% interval +140.2 to +inf)"
    hopeless = elo_estimate(0, 0, 10)
    assert hopeless.elo == -math.inf and hopeless.low == -math.inf
    assert hopeless.high == pytest.approx(-140.22, abs=0.01)
    assert format_elo(hopeless.elo) == "-inf"


def test_a_normal_interval_that_leaves_the_unit_range_is_unbounded() -> None:
    # 9 wins and a draw: 95%, variance (9 * 0.0025 + 0.2025) / 10 = 0.0225, margin
    # 1.95996 * 0.04743 = 0.09297 > 0.05, so the upper end is +inf
    # 400 log10 19 = 511.50
    estimate = elo_estimate(9, 1, 0)
    assert estimate.elo == pytest.approx(511.50, abs=0.01)
    assert estimate.high == math.inf and math.isfinite(estimate.low)


def test_likelihood_of_superiority_cases() -> None:
    assert likelihood_of_superiority(0, 0) == 0.5
    assert likelihood_of_superiority(5, 5) == 0.5
    assert likelihood_of_superiority(60, 40) == pytest.approx(0.97725, abs=1e-5)
    assert likelihood_of_superiority(40, 60) == pytest.approx(0.02275, abs=1e-5)
    with pytest.raises(RatingError):
        likelihood_of_superiority(-1, 3)


def test_bad_counts_are_refused() -> None:
    with pytest.raises(RatingError, match="no games"):
        elo_estimate(0, 0, 0)
    with pytest.raises(RatingError, match="negative"):
        elo_estimate(1, -1, 0)
    with pytest.raises(RatingError, match="confidence"):
        elo_estimate(1, 1, 1, confidence=1.0)


def test_bradley_terry_of_two_players_is_the_elo_difference() -> None:
    # 60 of 100: the maximum-likelihood difference is elo_from_score(0.6) = 70.44, split
    # +-35.22 around the mean. The information is n p (1 - p) = 24 on the difference; the
    # pseudo-inverse of [[24, -24], [-24, 24]] has 1/96 on the diagonal, so each rating's
    # standard error is (400 / ln 10) * sqrt(1/96) = 17.73
    fit = bradley_terry([[0, 60], [40, 0]], [[0, 100], [100, 0]])
    assert fit.ratings[0] == pytest.approx(35.218, abs=1e-3)
    assert fit.ratings[1] == pytest.approx(-35.218, abs=1e-3)
    assert fit.errors[0] == pytest.approx(17.730, abs=1e-3)
    assert fit.low[0] == pytest.approx(35.218 - 1.95996 * 17.730, abs=1e-2)
    assert fit.high[1] == pytest.approx(-35.218 + 1.95996 * 17.730, abs=1e-2)


def test_bradley_terry_recovers_exact_strengths() -> None:
    # strengths 4 : 2 : 1 predict A-B 2/3, B-C 2/3, A-C 4/5; results that match those
    # exactly (2 of 3, 2 of 3, 4 of 5) have them as the maximum-likelihood fit, so the
    # ratings are 400 log10 2 = 120.41 apart, with mean 0
    scores = [[0, 2, 4], [1, 0, 2], [1, 1, 0]]
    games = [[0, 3, 5], [3, 0, 3], [5, 3, 0]]
    fit = bradley_terry(scores, games)
    assert fit.ratings == pytest.approx((120.412, 0.0, -120.412), abs=1e-3)
    assert sum(fit.ratings) == pytest.approx(0, abs=1e-9)
    assert all(low < r < high for low, r, high in zip(fit.low, fit.ratings, fit.high, strict=True))


def test_bradley_terry_meets_the_likelihood_equations() -> None:
    # at the maximum every player's expected score equals the actual score
    scores = [[0, 7, 3.5, 9], [3, 0, 6, 2.5], [4.5, 4, 0, 5], [1, 7.5, 5, 0]]
    games = [[0, 10, 8, 10], [10, 0, 10, 10], [8, 10, 0, 10], [10, 10, 10, 0]]
    fit = bradley_terry(scores, games)
    strength = [10 ** (r / 400) for r in fit.ratings]
    for i in range(4):
        expected = sum(
            games[i][j] * strength[i] / (strength[i] + strength[j]) for j in range(4) if j != i
        )
        assert expected == pytest.approx(sum(scores[i]), abs=1e-6)


def test_a_cycle_rates_everyone_equal() -> None:
    # A beats B, B beats C, C beats A, each 2 of 3
    scores = [[0, 2, 1], [1, 0, 2], [2, 1, 0]]
    games = [[0, 3, 3], [3, 0, 3], [3, 3, 0]]
    assert bradley_terry(scores, games).ratings == pytest.approx((0, 0, 0), abs=1e-6)


def test_unbounded_fits_need_a_prior() -> None:
    # A won everything: no maximum without a prior; one virtual draw per pairing gives A
    # 10.5 of 11 against B, a finite rating above B's
    scores = [[0, 10], [0, 0]]
    games = [[0, 10], [10, 0]]
    with pytest.raises(RatingError, match="prior"):
        bradley_terry(scores, games)
    fit = bradley_terry(scores, games, prior=1)
    assert fit.ratings[0] - fit.ratings[1] == pytest.approx(elo_from_score(10.5 / 11), abs=1e-6)


def test_inconsistent_or_disconnected_tables_are_refused() -> None:
    with pytest.raises(RatingError, match="add up"):
        bradley_terry([[0, 3], [3, 0]], [[0, 4], [4, 0]])
    with pytest.raises(RatingError, match="do not match"):
        bradley_terry([[0, 1], [1, 0]], [[0, 2], [3, 0]])
    with pytest.raises(RatingError, match="not all connected"):
        bradley_terry(
            [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]],
            [[0, 2, 0, 0], [2, 0, 0, 0], [0, 0, 0, 2], [0, 0, 2, 0]],
            prior=1,
        )
    with pytest.raises(RatingError, match="two players"):
        bradley_terry([[0]], [[0]])
