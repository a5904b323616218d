"""The interpreter: board model, state machine and game API."""
