"""The browser app: play every registered game against the engine, and the alpha-beta lab.

:mod:`zerosum.web.app` is the server (FastAPI; ``zerosum serve`` runs it on uvicorn),
:mod:`zerosum.web.sessions` the games in play, :mod:`zerosum.web.pool` the engine's
worker pool, :mod:`zerosum.web.lab` the recorded searches, and ``static/`` the page.
This package imports none of them itself, so that a worker process loads only what a
search needs.
"""
