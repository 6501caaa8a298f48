"""The core's errors. Each carries what the web layer needs to answer with: messages for the player and an
HTTP status hint, so the shell maps errors without knowing the rules behind them (h11's habit)."""

from __future__ import annotations


class ScorepadError(ValueError):
    status_hint = 400


class InvalidRules(ScorepadError):
    """A rule set that contradicts itself or holds a value no option has. `options` maps each option to blame to
    its message, so a form can say it next to that option's field."""

    status_hint = 422

    def __init__(self, problems: list[str], options: dict[str, str] | None = None):
        self.problems = list(problems)
        self.options = dict(options or {})
        super().__init__(" ".join(self.problems))


class InvalidHand(ScorepadError):
    """A hand that `validate_hand` refused; `errors` maps each wrong field to its message."""

    status_hint = 422

    def __init__(self, errors: dict[str, str], hand_number: int | None = None):
        self.errors = dict(errors)
        self.hand_number = hand_number
        where = f"Hand {hand_number}: " if hand_number is not None else ""
        super().__init__(where + " ".join(self.errors.values()))


class GameOver(ScorepadError):
    """A hand offered to a game that already has a winner."""

    status_hint = 409


class ImportRefused(ScorepadError):
    """An export that cannot be imported; the message says why, naming the game and the field, in words for
    the person who chose the file. Nothing was written."""

    status_hint = 422

    def __init__(self, message: str, status_hint: int | None = None):
        super().__init__(message)
        if status_hint is not None:
            self.status_hint = status_hint
