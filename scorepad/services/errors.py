"""What a use case refuses, and why, in the family's words. Each error carries the status the web layer answers
with (`status_hint`), so no view decides it: 404 for something not there, 409 for a conflict with another
phone's change or with the state of the game, 422 for a form refused as sent (with a message for each field)."""

from __future__ import annotations

from ..core.errors import ScorepadError


class ServiceError(ScorepadError):
    """A change refused; nothing was stored. `str()` is a sentence for the page (may be empty), `errors` maps a
    field to its message."""

    status_hint = 400

    def __init__(self, message: str = "", errors: dict[str, str] | None = None):
        self.errors = dict(errors or {})
        super().__init__(message)


class NotFound(ServiceError):
    """The game, hand or player asked for is not there."""

    status_hint = 404


class Declined(ServiceError):
    """The change was not made, for a reason the page shows beside the form as it was sent."""


class Refused(Declined):
    """What was sent cannot be taken: the fields that are wrong, each with what is allowed."""

    status_hint = 422


class FormIncomplete(Refused):
    """A form that lacks what it was made with (its one-time token, the hand it was opened on)."""

    def __init__(self):
        super().__init__("This form is incomplete; check the hand and save it again.")


class Conflict(Declined):
    """The change no longer fits the game as it is now (another phone changed it, or the game is over)."""

    status_hint = 409


class HandTaken(Conflict):
    """A new hand was offered as hand `expected`, but the sheet has `count` hands now."""

    def __init__(self, count: int, expected: int):
        self.count, self.expected = count, expected
        if self.recorded_elsewhere:
            message = (f"Hand {expected} was just recorded on another phone: it is on the sheet below. If yours "
                       f"is a different hand, save it again as hand {count + 1}.")
        else:
            message = (f"The sheet has fewer hands than when this hand was typed (a hand was deleted on another "
                       f"phone, or an older copy of the games was put back), so this one is now hand {count + 1}. "
                       f"Check the sheet below, then save it again as hand {count + 1}.")
        super().__init__(message)

    @property
    def recorded_elsewhere(self) -> bool:
        """Whether the hand the form was started for is on the sheet now (recorded on another phone), rather
        than the sheet having lost a hand."""
        return self.count + 1 > self.expected


class GameGone(Conflict):
    """A hand sent for a game that is not this one: the game it was typed for is gone (a restored older backup
    took it away, and a new game was given its number since). Never recorded here, never dropped unsaid."""

    def __init__(self):
        super().__init__("The game this hand was typed for is no longer here (an older backup was put back since, "
                         "and this is another game under its number): it was not saved, here or anywhere.")


class HandElsewhere(Conflict):
    """A hand whose one-time token is already on another game's sheet: it was saved there, not here."""

    def __init__(self, game_id: int, number: int | None, teams: tuple[str, ...]):
        self.game_id, self.number = game_id, number
        place = f"as hand {number}" if number else "and deleted since"
        super().__init__(f"This hand was saved already, in another game ({' : '.join(teams)}, game {game_id}) "
                         f"{place}: nothing was added to this game.")


class LooksRepeated(Conflict):
    """A new hand equal to the hand recorded just before it, a few minutes ago: most likely the same hand typed
    twice (on two phones, or once more after a save whose answer was lost). Asked, never refused."""

    def __init__(self, number: int):
        self.number = number
        super().__init__(f"This looks like hand {number} again — record it anyway?")


class MeldUnlikely(Conflict):
    """A meld above what one hand can meld under the game's meld table: most likely a slip of the finger (999 for
    99). Asked, never refused: the table can say yes."""

    def __init__(self, words: str):
        self.words = words
        super().__init__(words)


class WinTakenAway(Conflict):
    """An edit of a finished game that would take its win away, or give it to another side: asked, as the preview
    says it, before it is saved (the rematch may be under way)."""

    def __init__(self, words: str):
        self.words = words
        super().__init__(words)


class NotLastHand(Conflict):
    """An Undo of hand `number` after another hand was recorded behind it (on another phone)."""

    def __init__(self, number: int, count: int):
        super().__init__(f"Hand {number} was not undone: hand {count} was recorded after it (on another phone). "
                         f"If hand {number} is wrong, open it on the sheet to edit or delete it.")


class GameIsOver(Conflict):
    """A hand offered to a game that has a winner."""


class HandGone(Conflict):
    """The hand to change was deleted on another phone."""

    def __init__(self):
        super().__init__("The hand you were editing was just deleted on another phone: your change was NOT "
                         "saved. The sheet below is as it is now.")


class HandChangedElsewhere(Conflict):
    """The hand to change was edited on another phone after this form was opened: a change nobody saw is never
    written over. `opened`: the hand as the form was opened on it (None where its history does not say), so the
    page can tell this phone's change from the other's."""

    def __init__(self, message: str, opened=None):
        self.opened = opened
        super().__init__(message)


class EndsTooEarly(Conflict):
    """With this change the game would be won before the last hands on its sheet."""


class CannotMerge(Conflict):
    """Two players who sat in one game are two people."""
