"""Piedicavallo Tarocchi: the rules as an event-sourced core (no UI imports)."""
