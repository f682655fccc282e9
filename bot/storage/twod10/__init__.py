"""The 2d10 system's tables: sheets, items, encounters, survival, magic and the rest."""
