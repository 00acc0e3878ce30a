"""Every tunable number of the table in one place (logical 1280x720 coordinates)."""

from __future__ import annotations

# Logical screen: everything is laid out at this size, then letterboxed 16:9.
WIDTH = 1280
HEIGHT = 720
TITLE = "Tarocchi"

# Card art is 320x592.  A card's on-screen size is ``scale`` x 320 logical pixels.
# Each size the table uses has its own texture, downscaled once with Lanczos, so a
# card at rest is drawn 1:1 and can be sampled "nearest" (half the fill cost of
# linear filtering on llvmpipe, and sharper).
CARD_W, CARD_H = 320, 592
HAND_SCALE = 96 / 320  # South's hand: 96x178
TRICK_SCALE = 84 / 320  # cards in the trick: 84x156
OPEN_SCALE = 68 / 320  # other hands shown face up (watch mode): 68x126
SMALL_SCALE = 54 / 320  # face-down hands of the others: 54x100
DECK_SCALE = 58 / 320  # the pack while dealing: 58x108
PILE_SCALE = 48 / 320  # trick piles and the discard: 48x88
FACE_SIZES = ((96, 178), (84, 156), (68, 126))
# South's resting hand overlaps by SOUTH_STEP: each card but the last is drawn as
# its visible strip (the step plus the corner's partly clear columns) and, where the arc lifts its
# right neighbour, a thin band under that neighbour: 45% fewer pixels to fill.
SOUTH_STEP = 56
STRIP_W = SOUTH_STEP + 5
BAND_H = 4
BACK_SIZES = ((96, 178), (84, 156), (68, 126), (58, 108), (54, 100), (48, 88))

# The viewer's seat: South, at the bottom of the table (R2, S1).
HUMAN_SEAT = 0

# Colours
FELT = (22, 84, 50)
FELT_DARK = (14, 56, 34)
INK = (245, 240, 225)
GOLD = (236, 196, 92)
DIM = (88, 88, 88)  # the cards of the hand that cannot be played: clearly darker
PANEL = (10, 28, 18, 215)
PANEL_EDGE = (236, 196, 92, 255)
RED = (255, 128, 110)
BUTTON = (38, 92, 60)
BUTTON_HOVER = (60, 126, 84)
BUTTON_FOCUS = (236, 196, 92)
TEAM_COLOURS = ((120, 190, 255), (255, 150, 120))  # partnerships only
PILE_EDGE = (200, 190, 150)  # a pile's outline where each plays alone

# Timing (seconds at speed 1.0); the speed setting divides them.
T_SHUFFLE = 0.9
T_CUT = 0.6
T_PACKET = 0.28  # one packet's flight
T_PACKET_GAP = 0.09  # between packets
T_PLAY = 0.35
T_TRICK_SHOW = 0.9  # the trick stays in view with its winner marked
T_SWEEP = 0.4
T_DISCARD = 0.5
T_ANNOUNCE = 1.6
T_AI_MIN = 0.35  # an AI "thinks" at least this long, so play is followable
T_AI_READ = 1.0  # the same at a reading pace (a trick waits for a click): one card a second
T_COUNT = 1.8  # the scoring count-up
RAISE = 22  # how far South's legal cards are raised

#: the animation speeds of the table, the theatre and the settings (one table)
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
FONT = ("DejaVu Sans", "Liberation Sans", "Arial")
