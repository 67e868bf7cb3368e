"""zerosum: adversarial search for two-player, zero-sum, perfect-information games.

The core is :mod:`zerosum.game` (the protocol) and :mod:`zerosum.search` (the
algorithms); games live in :mod:`zerosum.games` and are made by name with
:func:`zerosum.games.registry.make`.
"""

__version__ = "0.1.0"
