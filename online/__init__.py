"""Online play: the server that holds the games, its store, the wire protocol and
the headless client (PROTOCOL.md describes the messages).

Arrows: ``game/ -> online/ -> engine/``.  Nothing here imports arcade, pyglet,
PIL or ``game``: the server, the bot and the bench run anywhere.
"""
