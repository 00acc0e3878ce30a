"""The Arcade table of Tarocchi (presentation only; the rules live in ``engine``)."""
