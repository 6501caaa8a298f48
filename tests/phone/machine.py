"""The phone's save machine (static/save_machine.js) run in V8 from Python: one phone's kept hands and drafts,
driven event by event, as the page's scripts drive it."""

from __future__ import annotations

import itertools
from functools import cache

from py_mini_racer import MiniRacer

from tests.helpers import ROOT

MACHINE = ROOT / "static" / "save_machine.js"


@cache
def engine() -> MiniRacer:
    """V8 with the machine loaded, once per test process (the machine keeps nothing between calls)."""
    js = MiniRacer()
    js.eval(MACHINE.read_text())
    return js


class Phone:
    """One phone: its kept hands and drafts (as localStorage holds them), the effects of its last event, and the
    time on its clock (milliseconds)."""

    def __init__(self, game: str = "G"):
        self.js = engine()
        self.game = game
        self.model: dict = {"kept": [], "drafts": {}}
        self.effects: list[dict] = []
        self.now = 1_000_000
        self.ids = itertools.count(1)
        self.labels: dict[str, str] = {}  # a test's name for a kept hand -> its id

    def on(self, event: str, **fields) -> Phone:
        out = self.js.call("ScorepadSave.step", self.model, {"type": event, "now": self.now, **fields})
        self.model = {"kept": out["kept"], "drafts": out["drafts"]}
        self.effects = out["effects"]
        return self

    def keep(self, label: str, hand: int, game: str | None = None, token: str | None = None, **typed) -> Phone:
        """A save of hand `hand` kept on the phone (no answer, or waiting behind kept hands)."""
        game = game or self.game
        entry_id = f"e{next(self.ids)}"
        self.labels[label] = entry_id
        body = [["token", token or label], ["expected", str(hand)], ["game", game],
                *[[name, str(value)] for name, value in typed.items()]]
        entry = {"id": entry_id, "game": game, "url": "/games/1/hands", "compare": "/games/1/hands/compare",
                 "body": body, "token": token or label, "hand": hand, "summary": label, "at": self.now}
        return self.on("kept", entry=entry)

    def id(self, label: str) -> str:
        return self.labels[label]

    def label(self, entry_id: str) -> str:
        return next(name for name, known in self.labels.items() if known == entry_id)

    def next(self) -> str | None:
        """The label of the kept hand the phone would send now, or None."""
        found = self.js.call("ScorepadSave.next", self.model, self.now)
        return self.label(found["id"]) if found else None

    def send(self, label: str, answer: str | None, **fields) -> Phone:
        """The kept hand `label` is next, is sent, and gets `answer` (None: no answer at all)."""
        assert self.next() == label, (self.next(), label, self.kept())
        self.on("sent", id=self.id(label))
        return self.on("answer", id=self.id(label), kind=answer, **fields)

    def kept(self) -> list[tuple[str, int, str]]:
        """(label, number, state) of every kept hand, in the order they are sent."""
        return [(self.label(e["id"]), e["hand"], e["state"]) for e in self.model["kept"]]

    def entry(self, label: str) -> dict:
        return next(e for e in self.model["kept"] if e["id"] == self.id(label))

    def drafts(self) -> dict[int, str]:
        """{hand: token} of this phone's drafts of its game."""
        prefix = self.game + " "
        return {int(k.removeprefix(prefix)): d["token"] for k, d in self.model["drafts"].items()
                if k.startswith(prefix)}

    def type(self, hand: int, token: str, **values) -> Phone:
        draft = {"values": [[k, str(v)] for k, v in values.items()], "auto": [], "token": token, "at": self.now}
        return self.on("typed", game=self.game, hand=hand, draft=draft)

    def form_number(self, sheet_next: int, lost: int = 0) -> int:
        return self.js.call("ScorepadSave.formNumber", self.model, self.game, sheet_next, lost)

    def queued(self, token: str, number: int) -> bool:
        return self.js.call("ScorepadSave.queued", self.model, self.game, token, number)

    def did(self, what: str) -> list[dict]:
        """The effects of the last event that are `what`."""
        return [effect for effect in self.effects if effect["do"] == what]

    def later(self, ms: int) -> Phone:
        self.now += ms
        return self
