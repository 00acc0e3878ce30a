"""Card art for Tarocchi: paths and sizes (no Pillow import here).

The PNGs are drawn by ``python -m art.generate`` and committed.

``cards/<CODE>.png`` holds one face for each of the 78 cards of the full
Tarocco Piemontese pack (Piedicavallo uses 62 of them) and ``cards/back.png``.
The faces carry point dots by the index; three cards score differently in
Scarto (RULES S3), so Scarto's versions of those faces are in
``cards/scarto/<CODE>.png`` (:data:`SCARTO_OVERRIDES`); every other face is shared.
"""

from pathlib import Path

ART_DIR = Path(__file__).resolve().parent
CARD_SIZE = (320, 592)
CARDS_DIR = ART_DIR / "cards"
SCARTO_CARDS_DIR = CARDS_DIR / "scarto"
TABLE_DIR = ART_DIR / "table"
CONTACT_SHEET = ART_DIR / "contact-sheet.png"

#: Faces drawn again for Scarto, with Scarto's point dots (T20 5, T21 1, Matto 4).
SCARTO_OVERRIDES: tuple[str, ...] = ("T20", "T21", "M")


def face_relpath(code: str, game: str = "piedicavallo") -> str:
    """Where the face of ``code`` (or ``"back"``) for ``game`` lies under the art folder:
    ``face_relpath("T20", "scarto") == "cards/scarto/T20.png"``, otherwise ``cards/<code>.png``."""
    if game not in ("piedicavallo", "scarto"):
        raise ValueError(f"unknown game {game!r}")
    if game == "scarto" and code in SCARTO_OVERRIDES:
        return f"cards/scarto/{code}.png"
    return f"cards/{code}.png"


__all__ = ["ART_DIR", "CARD_SIZE", "CARDS_DIR", "CONTACT_SHEET", "SCARTO_CARDS_DIR",
           "SCARTO_OVERRIDES", "TABLE_DIR", "face_relpath"]
