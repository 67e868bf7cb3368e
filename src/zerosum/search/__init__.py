"""Search algorithms, each written against the Game protocol only.

:mod:`~zerosum.search.reference` holds the textbook algorithms (the oracle);
:mod:`~zerosum.search.trace` records a search for display.
"""
