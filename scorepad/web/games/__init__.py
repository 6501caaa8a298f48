"""A game's pages: the new-game and hand forms, the sheet, meld and the rules."""
