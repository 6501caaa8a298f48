"""What a change got for an answer, said as data: the `Scorepad-Answer` header on the response, and `data-answer`
on the record card it brings. The phone's scripts act on these words and never guess the kind of an answer from
its status or from the ids of the elements in the page (a 409 is a clash, a sheet a hand short, another game or
a game over alike).

- saved: the hand or change is stored (or was, by a second tap);
- clash: another phone recorded the hand this one was typed for: the two-phone question;
- repeat: the hand is the one before it again: asked before it is stored;
- behind: the sheet has fewer hands than the form was opened on (a hand deleted elsewhere, or a restore);
- refused: what was sent cannot be taken (a wrong field, the game over): the page says why;
- gone: the game the hand was typed for is no longer here (another game has its number now);
- elsewhere: the hand is stored already, in another game;
- passcode: the table's passcode is asked for first;
- fault: the database could not take it now (full, locked): the same tap again stores it once.
"""

from __future__ import annotations

HEADER = "Scorepad-Answer"
KINDS = ("saved", "clash", "repeat", "behind", "refused", "gone", "elsewhere", "passcode", "fault")


def answered(response, kind: str):
    """`response` (a Response, or a (body, status) pair) marked with the kind of answer it is."""
    assert kind in KINDS, kind
    if isinstance(response, tuple):
        body, status = response
        return body, status, {HEADER: kind}
    response.headers[HEADER] = kind
    return response
