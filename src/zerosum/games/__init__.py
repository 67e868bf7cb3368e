"""Built-in games, one module each, registered by name in :mod:`zerosum.games.registry`."""
