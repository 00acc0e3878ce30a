"""AI players (easy, medium, hard); importing this package registers the levels
in :data:`engine.players.LEVELS`."""
