"""Games: every change to one is a function here. Each takes the database and the core's values (never a
request), runs in one transaction holding the write lock, validates once, folds the game once, and returns what
the page after it needs, or raises one of `errors` (a database that refuses raises `sqlite3.OperationalError`,
and nothing is stored either way)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..core.errors import GameOver, InvalidHand
from ..core.rules import Rules, most_one_hand_melds
from ..core.scoring import (
    Hand,
    HandResult,
    auto_throw_in_reason,
    play_game,
    score_hand,
    validate_hand,
    wrong_for_its_deal,
)
from ..core.seats import dealer_for, seat_label
from ..core.words import MELD_TABLE_NAMES, number, said_of_boxes, trump, won
from ..store import clubs, connection, games
from ..store.games import Game, StoredHand
from . import pages
from .club import game_closed
from .committed import after_commit
from .errors import (
    Conflict,
    EndsTooEarly,
    FormIncomplete,
    GameGone,
    GameIsOver,
    HandChangedElsewhere,
    HandElsewhere,
    HandGone,
    HandTaken,
    LooksRepeated,
    MeldUnlikely,
    NotFound,
    NotLastHand,
    Refused,
    WinTakenAway,
)


@dataclass(frozen=True)
class Change:
    """What a change did to a game, for the page after it."""

    game_id: int
    version: int | None = None  # the game's version this change made; None when nothing was written
    number: int | None = None  # the hand's place on the sheet
    hand_id: int | None = None  # the hand a recording stored
    summary: str = ""  # what an edit changed, in words
    winner_before: int | None = None
    winner: int | None = None
    already: bool = False  # done before (a second tap, a retry, another phone): nothing was written
    page: pages.GamePage | None = field(default=None, repr=False, compare=False)  # the page of `version`

    @property
    def was_won(self) -> bool:
        return self.winner_before is not None

    @property
    def end_moved(self) -> bool:
        """Whether the game is or was finished: its players' records move with it."""
        return self.was_won or self.winner is not None

    @property
    def ended(self) -> bool:
        """Whether this change ended the game: it has a winner it did not have before (or another one)."""
        return self.winner is not None and self.winner != self.winner_before


@dataclass(frozen=True)
class Rematch:
    game_id: int
    already: bool  # started before, on another phone or by a second tap


@dataclass(frozen=True)
class Preview:
    """What a hand would score as typed so far: its result and the totals after it (None while too little is
    typed to score it), and notes on the way, each ("ok" or "warn", sentence). An edit of a hand with hands after
    it says also what the game's totals are now (`game_now`) and will be once they are scored again
    (`game_after`), and what it would do to the game's win (`win_moved`, as `edit_hand` asks it). `refused`: what
    a save of the hand as typed would refuse now, field by field (the core's sentences, blank fields' too), for a
    form that was refused once and follows the typing."""

    result: HandResult | None = None
    totals: tuple[int, ...] | None = None
    notes: tuple[tuple[str, str], ...] = ()
    game_now: tuple[int, ...] | None = None
    game_after: tuple[int, ...] | None = None
    win_moved: str | None = None
    refused: dict[str, str] = field(default_factory=dict)


# --- starting -----------------------------------------------------------------------------------------------

def start_game(db, rules: Rules, teams: tuple[str, ...], players, first_dealer: int) -> int:
    """A new game under `rules`, with its teams (one name per side) and seats (one name, or None, per seat);
    returns its id."""
    with connection.write_lock(db):
        return games.create_game(db, rules, teams, players, first_dealer)


def rematch(db, game_id: int) -> Rematch:
    """The game again, same rules, teams and seats, the deal moved on. Two phones tapping Rematch together (or
    one tapping twice) start one game. Raises NotFound, and Conflict for a club table's game: the night seats
    its players for the next round."""
    with connection.write_lock(db):
        game = _game(db, game_id)
        if clubs.table_of_game(db, game.id) is not None:
            raise Conflict("This game is a table of a club night: the night seats its players for the next "
                           "round, so it has no rematch. Go back to your seat card.")
        if game.rematch:
            return Rematch(game.rematch, already=True)
        next_dealer = dealer_for(game.first_dealer, game.hands_count, game.rules.players)
        return Rematch(games.create_game(db, game.rules, game.teams, game.players, next_dealer, rematch_of=game.id),
                       already=False)


# --- the hands ----------------------------------------------------------------------------------------------

# A hand the same as the one before it, typed within this long after it, is asked about before it is stored.
REPEAT_WINDOW = timedelta(minutes=10)


def record_hand(db, game_id: int, hand: Hand, *, token: str, expected: int | None,
                unreadable: dict[str, str] | None = None, repeat_ok: bool = False, meld_ok: bool = False,
                game_uid: str | None = None) -> Change:
    """`hand` as hand number `expected`, stored once for its form's one-time `token` (a token already used in
    this game comes back `already`). `game_uid`: the identity of the game the form was made for (None: a form
    from before games had one). Raises NotFound, GameGone (the game is another one now), HandElsewhere (the
    token is on another game's sheet), GameIsOver, Refused (every wrong field: the core's, and the ones the
    form could not read, `unreadable`), FormIncomplete (no token or number), HandTaken (the sheet has another
    number of hands than the form was opened on), unless `meld_ok` MeldUnlikely (a side's meld is more than one
    hand can meld) and, unless `repeat_ok`, LooksRepeated (the hand is the one just before it again)."""
    with connection.write_lock(db):
        game = _game(db, game_id, game_uid)
        if token and _saved_before(db, game_id, token):
            return Change(game_id, already=True)
        _still_open(db, game_id)
        over = game.winner is not None or game.abandoned_at is not None
        if over and token and expected is not None and expected <= game.hands_count:
            # sent for a hand the sheet has from another phone (a phone that was offline, say) and it ended the
            # game: which hand it is, is the question, not that the game takes no more
            raise HandTaken(game.hands_count, expected)
        if game.winner is not None:
            raise GameIsOver("The game is over: it takes no more hands. Edit or delete a hand to reopen it, or "
                             "start a rematch.")
        if game.abandoned_at is not None:
            raise GameIsOver("This game was ended unfinished: it takes no more hands. Start a new game.")
        # the hand's number first: a form refused for a typo comes back to be fixed under the number it shows, so
        # a hand another phone recorded meanwhile is asked about now, typo and all, never fixed into a second copy
        if token and expected is not None and game.hands_count + 1 != expected:
            raise HandTaken(game.hands_count, expected)
        _check(game, hand, game.hands_count, unreadable)
        if not token or expected is None:
            raise FormIncomplete()
        if not meld_ok:
            _meld_likely(game, hand)
        before = games.live_hands(db, game_id)
        if not repeat_ok:
            _not_a_repeat(before, hand, expected)
        hand_id = games.insert_hand(db, game_id, token, hand)
        hands = [*before, games.live_hand(db, hand_id)]
        try:
            state = _fold(game, [h.hand for h in hands])
        except GameOver:  # the summary said otherwise: the sheet decides
            raise GameIsOver("The game is over: it takes no more hands.") from None
        games.keep_state(db, game_id, hands, state)
        change = _changed(db, game, hands, state, number=len(hands), hand_id=hand_id)
    return _committed(db, change)


def edit_hand(db, game_id: int, hand_id: int, hand: Hand, *, edits_seen: int | None = None,
              incomplete: bool = False, unreadable: dict[str, str] | None = None, reopen_ok: bool = False) -> Change:
    """Hand `hand_id` becomes `hand`, its change kept in its history; every later hand is scored again.
    `edits_seen` is how many edits the hand had when the form was opened (None: the form did not say, so the
    hand as it is now). A change to nothing, or a retry of one that was saved, comes back `already`.

    Raises NotFound, HandGone (deleted on another phone), FormIncomplete (`incomplete`: the form's own count
    was garbled), Refused (as `record_hand`), HandChangedElsewhere (edited on another phone since the form was
    opened), EndsTooEarly (the game would be won before its last hands) and, unless `reopen_ok`, WinTakenAway
    (the game was won, and would not be, or by another side)."""
    with connection.write_lock(db):
        game = _game(db, game_id)
        hands = games.live_hands(db, game_id)
        place = _place(db, game_id, hands, hand_id)
        stored = hands[place]
        _still_open(db, game_id)
        if incomplete:
            raise FormIncomplete()
        before = stored.hand
        summary = describe_change(before, hand, game)
        if not summary:
            return Change(game_id, number=place + 1, already=True)
        # another phone's change is said before a typo is: refused for the typo alone, the player fixed it and only
        # then heard that the hand had changed under the form, and that the fix was not saved either
        if (stored.edits if edits_seen is None else edits_seen) != stored.edits:
            raise HandChangedElsewhere(_changed_words(db, stored, place),
                                       games.hand_as_opened(db, stored.id, edits_seen))
        _check(game, hand, place, unreadable)
        try:
            state = _fold(game, [hand if i == place else h.hand for i, h in enumerate(hands)])
        except GameOver:
            raise EndsTooEarly("With this change the game would be won before the last hands on the sheet. Delete "
                               "the hands after the winning one first, then make this change.") from None
        taken = _win_moved(db, game, state)
        if taken and not reopen_ok:
            raise WinTakenAway(taken)
        games.update_hand(db, hand_id, hand, summary, before)
        games.keep_state(db, game_id, hands, state)
        hands[place] = games.live_hand(db, hand_id)  # as the sheet shows it now: its new values, one more edit
        change = _changed(db, game, hands, state, number=place + 1, summary=summary)
    return _committed(db, change)


def delete_hand(db, game_id: int, hand_id: int, *, only_if_last: bool = False) -> Change:
    """Hand `hand_id` leaves the sheet (its history stays); every later hand is scored again. A hand already
    deleted (on another phone, or by a second tap) comes back `already`. Raises NotFound, EndsTooEarly, Conflict
    (a later hand, dealt one place up, would not be right there: a stuck dealer's) and with `only_if_last` (an
    Undo of the hand just recorded) NotLastHand when a hand was recorded after it."""
    with connection.write_lock(db):
        game = _game(db, game_id)
        hands = games.live_hands(db, game_id)
        try:
            place = _place(db, game_id, hands, hand_id)
        except HandGone:
            return Change(game_id, already=True)
        _still_open(db, game_id)
        if only_if_last and place != len(hands) - 1:
            raise NotLastHand(place + 1, len(hands))
        _moved_hands_fit(game, hands[place + 1:], place + 1, place, "Deleting this hand")
        games.delete_hand(db, hand_id)
        rest = hands[:place] + hands[place + 1:]
        state = _fold_or_too_early(game, rest, "Without this hand the game would be won before the last hands "
                                               "on the sheet. Delete the later hands first.")
        games.keep_state(db, game_id, rest, state)
        change = _changed(db, game, rest, state, number=place + 1)
    return _committed(db, change)


def restore_hand(db, game_id: int, hand_id: int) -> Change:
    """Deleted hand `hand_id` goes back on the sheet at its place, its history saying so; every later hand is
    scored again. A hand already back (another phone, a second tap) comes back `already`. Raises NotFound,
    Conflict (the hand no longer fits its place: another hand before it was deleted or put back, and the dealer
    it was valid for moved) and EndsTooEarly."""
    with connection.write_lock(db):
        game = _game(db, game_id)
        hands = games.live_hands(db, game_id)
        if any(stored.id == hand_id for stored in hands):
            return Change(game_id, number=_place(db, game_id, hands, hand_id) + 1, already=True)
        _still_open(db, game_id)
        back = games.deleted_hand(db, game_id, hand_id)
        if back is None:
            raise NotFound(NO_SUCH_HAND)
        place = sum(1 for stored in hands if stored.seq < back.seq)
        try:
            _check(game, back.hand, place, None)
        except Refused as refusal:
            raise Conflict(f"Hand {place + 1} cannot go back in its place: the deal moved since it was deleted "
                           f"({'; '.join(refusal.errors.values())}). Record it again as a new hand if it was "
                           "played.") from None
        _moved_hands_fit(game, hands[place:], place, place + 1, "Putting this hand back")
        games.restore_hand(db, hand_id)
        restored = hands[:place] + [games.live_hand(db, hand_id)] + hands[place:]
        state = _fold_or_too_early(game, restored, "With this hand back the game would be won before the last "
                                                   "hands on the sheet. Delete the hands after it first.")
        games.keep_state(db, game_id, restored, state)
        change = _changed(db, game, restored, state, number=place + 1)
    return _committed(db, change)


def abandon_game(db, game_id: int) -> Change:
    """The game, unfinished, is ended: it leaves the games in progress and stays in history as abandoned, won by
    nobody. Ending it again comes back `already`. Raises NotFound, and GameIsOver for a game that has a winner."""
    with connection.write_lock(db):
        game = _game(db, game_id)
        if game.winner is not None:
            raise GameIsOver("This game has a winner: it is finished, not abandoned.")
        _still_open(db, game_id)
        if not games.abandon_game(db, game_id):
            return Change(game_id, already=True)
        return Change(game_id, games.game_version(db, game_id))


def preview_hand(game: Game, hand: Hand | None, *, unreadable: dict[str, str] | None = None,
                 typed_counters: tuple[int, ...] | None = None, typed: Collection[str] = ()) -> Preview | None:
    """What `hand` would score as the game's next hand, against the game's kept totals (no fold, no database);
    None once the game is over. `hand` None: a fresh form, nothing typed (nothing to score, nothing to say).
    `typed_counters`: both teams' counters, when both were typed as numbers. `typed`: the fields with something
    in them, whose mistakes are said before Record (a blank one is still to come, not a mistake)."""
    if game.winner is not None:
        return None
    if hand is None:
        return Preview()
    preview = _preview(game, hand, _next_dealer(game), unreadable, typed_counters, typed)
    if preview.result is None:
        return preview
    totals = tuple(total + points for total, points in zip(game.totals, preview.result.points, strict=True))
    return Preview(preview.result, totals, preview.notes)


def preview_edit(db, game_id: int, hand_id: int, hand: Hand, *, unreadable: dict[str, str] | None = None,
                 typed_counters: tuple[int, ...] | None = None, typed: Collection[str] = ()) -> Preview:
    """What `hand` in place of hand `hand_id` would score, and the game's totals once every later hand is
    scored again after it (nothing is stored). Raises NotFound and HandGone, as `edit_hand`."""
    game = _game(db, game_id)
    hands = games.live_hands(db, game_id)
    place = _place(db, game_id, hands, hand_id)
    preview = _preview(game, hand, dealer_for(game.first_dealer, place, game.rules.players), unreadable,
                       typed_counters, typed)
    if preview.result is None:
        return preview
    try:
        state = _fold(game, [hand if i == place else h.hand for i, h in enumerate(hands)])
    except GameOver:
        return Preview(preview.result, None, (*preview.notes, ("warn", "With this change the game would be won "
                                                                       "before the last hands on the sheet.")))
    taken = _win_moved(db, game, state)
    notes = (*preview.notes, ("warn", taken)) if taken else preview.notes
    # the totals after this hand, as the sheet's row will say them; and the game's own, where later hands move
    later = place < len(hands) - 1
    return Preview(preview.result, state.running[place], notes, game_now=game.totals if later else None,
                   game_after=state.totals if later else None, win_moved=taken)


def _preview(game: Game, hand: Hand, dealer: int, unreadable: dict[str, str] | None,
             typed_counters: tuple[int, ...] | None, typed: Collection[str]) -> Preview:
    """The hand's result dealt by `dealer` (None while it cannot be scored) and the notes on the way."""
    if unreadable:  # not scored, but what the core would say of the counters is said all the same
        result, problems = None, validate_hand(game.rules, hand, dealer=dealer)
    else:
        result, problems = _scored(game, hand, dealer)
    notes = list(_counter_notes(game, hand, typed_counters, problems))
    notes += [("warn", words) for words in _unlikely_melds(game, hand)]
    if result is None:
        notes[:0] = _typed_mistakes(game, problems, unreadable or {}, typed,
                                    counters_judged=typed_counters is not None)
        reason = _early_throw_in(game.rules, hand)
        if reason:
            notes.append(("warn", reason + " No counters are needed."))
        return Preview(notes=tuple(notes), refused={**problems, **(unreadable or {})})
    if result.automatic_throw_in:
        notes.append(("warn", result.explanation[0] + " No counters are needed."))
    return Preview(result, None, tuple(notes))


def _typed_mistakes(game: Game, problems: dict[str, str], unreadable: dict[str, str], typed: Collection[str], *,
                    counters_judged: bool):
    """The save's own words on each field typed so far, saying whose box it is. Counters typed as numbers on every
    side are the counter notes' to judge, together."""
    refused = [(name, message) for name, message in {**problems, **unreadable}.items()
               if name in typed and not (counters_judged and name.startswith("counters"))]
    return [("warn", sentence) for _, sentence in said_of_boxes(refused, game.teams)]


def _counter_notes(game: Game, hand: Hand, typed: tuple[int, ...] | None, problems: dict[str, str]):
    """The preview's word on counters typed on every side: what the save would refuse in them (the core's own
    sentences: steps, range, as the list of what to fix says them), else their sum, green only when it is the
    hand's points."""
    if typed is None or hand.kind != "played":
        return
    refused = [(field, message) for field, message in problems.items() if field.startswith("counters_")]
    if refused:
        yield from (("warn", sentence) for _, sentence in said_of_boxes(refused, game.teams))
        return
    total, points = sum(typed), game.rules.hand_points
    if total != points and "counters" in problems:  # said as the save says it, not in words of its own
        yield ("warn", problems["counters"])
        return
    yield ("ok" if total == points else "warn", f"Counters add up to {total} of {points}.")


# --- words for a change -------------------------------------------------------------------------------------

def describe_change(before: Hand, after: Hand, game: Game) -> str:
    """'Bid 55 → 60; Counters 25 : 25 → 28 : 22' — what an edit changed, for the hand's history; "" for none."""
    old, new = _facts(before, game), _facts(after, game)
    return "; ".join(f"{label} {old[label][1]} → {new[label][1]}" for label in old if old[label][0] != new[label][0])


def _facts(h: Hand, game: Game) -> dict[str, tuple]:
    """Each thing an edit can change: label -> (the value compared, the value in words). A hand still being typed
    may hold text that is no number ("20.5", "2o"): it is shown as typed."""
    teams = game.teams
    if h.bidder_seat is not None:
        bidder = (("seat", h.bidder_seat), seat_label(h.bidder_seat, game.players))
    elif h.bidder is None:  # nobody bids under these rules
        bidder = (None, "—")
    else:
        bidder = (("team", h.bidder), teams[h.bidder])
    meld, counters = h.meld, h.counters or (None,) * len(h.meld)
    return {
        "Kind": (h.kind, h.kind.replace("_", " ")),
        "Bidder": bidder,
        "Bid": (h.bid, _shown(h.bid)),
        "Trump": (h.trump, trump(h.trump)),
        "Reneged": (h.renege_team, "—" if h.renege_team is None else teams[h.renege_team]),
        "Dealer stuck": (h.forced, "yes" if h.forced else "no"),
        "Meld": (meld, _pair_words(meld)),
        "Counters": (counters, _pair_words(counters)),
        "Meld only the dix": (h.dix_only,
                              ", ".join(t for t, flag in zip(teams, h.dix_only, strict=True) if flag) or "no"),
        "Meld counted": (h.counted, counted_words(h.counted, teams)),
    }


def _shown(value) -> str:
    """A hand's amount in words: a number as Scorepad writes it, a blank as a dash, anything else as typed."""
    if value is None:
        return "—"
    return number(value) if isinstance(value, int) else str(value)


@dataclass(frozen=True)
class Difference:
    """One line of two hands side by side: what it is, each hand's value in words, and whether they differ."""

    label: str
    theirs: str
    mine: str
    differs: bool
    filled: str = ""  # where `mine` is not what was typed here (a blank filled in from `theirs`): "not typed here",
    # or for a line of every side's values, whose ("not typed here: Them")


# The lines always shown when two hands are set side by side; the rarer ones only where either hand has them.
_ALWAYS_COMPARED = ("Bidder", "Bid", "Trump", "Meld", "Counters")


def compare_hands(theirs: Hand, mine: Hand, game: Game, typed: Hand | None = None) -> list[Difference]:
    """The hand another phone recorded beside the one typed here, line by line, for the two-phone question.
    `typed`: the hand as typed, where `mine` is it with its blanks filled in from `theirs` (a line it differs in
    is marked `filled`: not what was typed here)."""
    old, new = _facts(theirs, game), _facts(mine, game)
    as_typed = _facts(typed, game) if typed is not None else new
    shown = [label for label in old if label in _ALWAYS_COMPARED or old[label][0] != new[label][0]]
    if not game.rules.bidding:
        shown = [label for label in shown if label not in ("Bidder", "Bid", "Trump")]
    return [Difference(label, old[label][1], new[label][1], old[label][0] != new[label][0],
                       _filled_words(as_typed[label][0], new[label][0], game.teams)) for label in shown]


def _filled_words(typed, mine, teams) -> str:
    """What of a line was not typed here (see `Difference.filled`): nothing, all of it, or the sides of a line of
    every side's values whose value was filled in."""
    if typed == mine:
        return ""
    if isinstance(typed, tuple) and isinstance(mine, tuple) and len(typed) == len(mine) == len(teams):
        sides = [team for team, a, b in zip(teams, typed, mine, strict=True) if a != b]
        if len(sides) < len(teams):
            return "not typed here: " + ", ".join(sides)
    return "not typed here"


def counted_words(counts, teams) -> str:
    """What the meld calculator counted, in a few words: whose hands, how many cards ("Us: 20 + 20 cards")."""
    said = [f"{team}: {' + '.join(str(len(cards.split())) for cards in count[1])} cards"
            for team, count in zip(teams, counts or (), strict=False) if count]
    return "; ".join(said) or "none"


def _pair_words(pair) -> str:
    return " : ".join(_shown(value) for value in pair)


# --- in common ----------------------------------------------------------------------------------------------

def _game(db, game_id: int, uid: str | None = None) -> Game:
    """The game; NotFound when there is none, GameGone when `uid` says the form was made for another game."""
    game = games.load_game(db, game_id)
    if game is None:
        raise NotFound("There is no such game.")
    if uid and uid != game.uid:
        raise GameGone()
    return game


def _saved_before(db, game_id: int, token: str) -> bool:
    """Whether the hand of this one-time `token` is stored in this game (a second tap, a retry); HandElsewhere
    when it is stored in another game."""
    found = games.hand_by_token(db, token)
    if found is None:
        return False
    if found["game_id"] == game_id:
        return True
    other = games.load_game(db, found["game_id"])
    number = next((place for place, stored in enumerate(games.live_hands(db, other.id), start=1)
                   if stored.id == found["id"]), None)
    raise HandElsewhere(other.id, number, other.teams)


def _still_open(db, game_id: int) -> None:
    """A club table's game takes no change once its round is over (see `club.game_closed`)."""
    closed = game_closed(db, game_id)
    if closed:
        raise GameIsOver(closed)


# A hand asked for by an id no hand of the game has (a page opened before a restore took the hand away)
NO_SUCH_HAND = ("This game has no such hand. A restore may have taken it away: the game's page shows its hands as "
                "they are now.")


def _place(db, game_id: int, hands: list[StoredHand], hand_id: int) -> int:
    """Where the hand is on the sheet (from 0). Raises HandGone for a hand of the game that was deleted, and
    NotFound for any other."""
    for place, stored in enumerate(hands):
        if stored.id == hand_id:
            return place
    if any(deleted["id"] == hand_id for deleted in games.deleted_hands(db, game_id)):
        raise HandGone()
    raise NotFound(NO_SUCH_HAND)


def _check(game: Game, hand: Hand, hands_before: int, unreadable: dict[str, str] | None) -> None:
    """The one validation of a change: the core's word on the hand, dealt after `hands_before` hands, beside
    what the form could not read."""
    dealer = dealer_for(game.first_dealer, hands_before, game.rules.players)
    errors = validate_hand(game.rules, hand, dealer=dealer, bidder_seat=hand.bidder_seat)
    errors.update(unreadable or {})  # the form's own words for a field it could not read
    if errors:
        raise Refused(errors=errors)


def _moved_hands_fit(game: Game, moved: list[StoredHand], was: int, now: int, change: str) -> None:
    """The hands after one that leaves (or comes back) are dealt one place up (or down), by someone else: a hand
    right where it was must be right where it goes (a stuck dealer's bid is that dealer's alone). Raises Conflict
    naming the first that is not, nothing changed; a hand that was not right where it was is not asked about."""
    rules, first, seats = game.rules, game.first_dealer, game.rules.players
    for i, stored in enumerate(moved):
        wrong = wrong_for_its_deal(rules, stored.hand, dealer_for(first, now + i, seats))
        if wrong and not wrong_for_its_deal(rules, stored.hand, dealer_for(first, was + i, seats)):
            raise Conflict(f"{change} moves hand {was + i + 1} to hand {now + i + 1}, which someone else deals: "
                           f"{wrong} Fix or delete hand {was + i + 1} first.")


def _fold_or_too_early(game: Game, hands: list[StoredHand], too_early: str):
    """The game folded over `hands` after a hand left or came back; EndsTooEarly when the game would then be
    won before its last hand."""
    try:
        return _fold(game, [h.hand for h in hands])
    except GameOver:
        raise EndsTooEarly(too_early) from None


def _fold(game: Game, hands: list[Hand]):
    # every hand was validated on its way in (the new one by `_check` just now): the fold only scores
    return play_game(game.rules, hands, names=game.teams, checked=True)


def _changed(db, game: Game, hands: list[StoredHand], state, **what) -> Change:
    """What a change did, with the page of the version it made (inside its transaction, all written)."""
    page = pages.written(db, game.id, hands, state)
    return Change(game.id, page.game.version, winner_before=game.winner, winner=state.winner, page=page, **what)


def _committed(db, change: Change) -> Change:
    """The change is committed: set going what follows it (see `committed`)."""
    after_commit(db, page=change.page, ended=[change.game_id] if change.ended else (),
                 moved=[change.game_id] if change.end_moved else ())
    return change


def _changed_words(db, stored: StoredHand, place: int) -> str:
    history = games.edits_of_hand(db, stored.id)
    latest = f" ({history[-1]['summary']})" if history else ""
    return f"Hand {place + 1} was just changed on another phone{latest}: your change was NOT saved."


def _unlikely_melds(game: Game, hand: Hand) -> list[str]:
    """A sentence for each side whose meld is more than one hand can meld under the game's meld table; none past
    the most any meld field takes (`rules.max_value`): that is refused, in words that say the same most."""
    if hand.kind == "redeal":
        return []
    most = most_one_hand_melds(game.rules)
    table = MELD_TABLE_NAMES[game.rules.meld_table]
    return [f"{game.teams[side]} meld {number(meld)} is more than any one hand can meld under the {table} (at most "
            f"{number(most)}). Check it was typed right."
            for side, meld in enumerate(hand.meld) if isinstance(meld, int) and not isinstance(meld, bool)
            and most < meld <= game.rules.max_value]


def _meld_likely(game: Game, hand: Hand) -> None:
    """MeldUnlikely when a side's meld is more than one hand can meld: asked before it is recorded."""
    unlikely = _unlikely_melds(game, hand)
    if unlikely:
        raise MeldUnlikely(" ".join(unlikely))


def _win_moved(db, game: Game, state) -> str | None:
    """What a change does to a finished game's win, in words, when it takes it away or gives it to another side
    (said in the preview and asked before saving); None when the win stays (or there was none)."""
    if game.winner is None or state.winner == game.winner:
        return None
    if state.winner is None:
        said = (f"With this change nobody has won yet: the game won by {game.teams[game.winner]} takes hands "
                "again.")
    else:
        said = f"With this change {won(game.teams[state.winner])} instead of {game.teams[game.winner]}."
    if game.rematch:
        said += " Its rematch is under way: both games would then be in progress."
    return said


def _not_a_repeat(hands: list[StoredHand], hand: Hand, number: int) -> None:
    """LooksRepeated when `hand` is the hand recorded just before it (the last of `hands`, the game's live
    hands), again, within REPEAT_WINDOW."""
    if number < 2 or not hands:
        return
    last = hands[-1]
    if same_hand(last.hand, hand) and _since(last.created_at) < REPEAT_WINDOW:
        raise LooksRepeated(number - 1)


def same_hand(a: Hand, b: Hand) -> bool:
    """Whether two hands were typed alike: the same bidder (and seat), bid, kind, and every meld and counter."""
    return (a.kind, a.bidder, a.bidder_seat, a.bid, a.meld, a.counters) == \
        (b.kind, b.bidder, b.bidder_seat, b.bid, b.meld, b.counters)


def _since(stamp: str) -> timedelta:
    try:
        return datetime.fromisoformat(connection.now()) - datetime.fromisoformat(stamp)
    except (TypeError, ValueError):  # a time no clock wrote (an import's): not "just now"
        return REPEAT_WINDOW


def _scored(game: Game, hand: Hand, dealer: int) -> tuple[HandResult | None, dict[str, str]]:
    """(The hand's result dealt by `dealer`, or None; what the core refuses in it)."""
    try:
        return score_hand(game.rules, hand, dealer=dealer, bidder_seat=hand.bidder_seat, names=game.teams), {}
    except InvalidHand as refused:
        return None, refused.errors


def _next_dealer(game: Game) -> int:
    return dealer_for(game.first_dealer, game.hands_count, game.rules.players)


def _early_throw_in(rules: Rules, hand: Hand) -> str | None:
    """An automatic throw-in told from the bidder, the bid and the meld alone, before the rest is typed."""
    whole = [value for value in (hand.bid, *hand.meld) if isinstance(value, int) and not isinstance(value, bool)]
    if hand.bidder not in range(rules.sides) or len(whole) != 1 + rules.sides or min(hand.meld) < 0:
        return None
    return auto_throw_in_reason(rules, hand)
