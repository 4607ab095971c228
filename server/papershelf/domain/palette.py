"""The highlight palette: the colours' names in menu order, the default, each one's background.

``tests/shared/palette.json`` states it and ``extension/lib/palette.js`` answers the same; on the
server this is the one place the colours are listed (the library page's ``.hl-*`` classes, the
highlight schema, imports and the JSON-LD stylesheet all read them from here).
"""

BACKGROUNDS = {
    "yellow": "#fde68a",
    "green": "#bbf7d0",
    "blue": "#bfdbfe",
    "pink": "#fbcfe8",
    "purple": "#ddd6fe",
}
NAMES = tuple(BACKGROUNDS)
DEFAULT = "yellow"
