"""A module that fails while it is imported, as a user's module with a bug does."""

RATIO = 1 // 0
