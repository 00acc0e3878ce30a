"""Card art for Tarocchi: paths and sizes (no Pillow import here).

The PNGs are drawn by ``python -m art.generate`` and committed.
"""

from pathlib import Path

ART_DIR = Path(__file__).resolve().parent
CARD_SIZE = (320, 592)
CARDS_DIR = ART_DIR / "cards"
TABLE_DIR = ART_DIR / "table"
CONTACT_SHEET = ART_DIR / "contact-sheet.png"

__all__ = ["ART_DIR", "CARD_SIZE", "CARDS_DIR", "CONTACT_SHEET", "TABLE_DIR"]
