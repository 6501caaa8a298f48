"""The export document read as a stranger's: pure checks, no database. Hostile cases through the app are in
tests/web/test_import_hostile.py."""

import json
from dataclasses import fields
from datetime import UTC, datetime

import pytest
from hypothesis import strategies as st

from scorepad.core import document
from scorepad.core.errors import ImportRefused
from scorepad.core.rules import DECKS, MELD_TABLES, PRESETS, Rules
from tests.helpers import quick_and_in_full

NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


def a_game(**changes) -> dict:
    """A game with no hands yet, as an export holds it."""
    return {"id": 1, "created_at": "2026-11-01T19:00:00+00:00", "rules": PRESETS["double-deck"].to_dict(),
            "teams": ["Us", "Them"], "players": [None] * 4, "first_dealer": 0, "rematch_of": None,
            "finished_at": None, "totals": [0, 0], "winner": None, "hands": [], **changes}


def an_export(*games) -> dict:
    return {"format": "scorepad", "version": 1, "games": list(games)}


def test_every_option_of_a_rule_set_is_checked_by_its_kind():
    checked = (document.RULE_TEXTS + document.RULE_NUMBERS + document.RULE_OPTIONAL_NUMBERS + document.RULE_FLAGS
               + ("bid_steps",))
    assert sorted(checked) == sorted(f.name for f in fields(Rules))
    assert set(document.DECK_OF_MELD_TABLE) == set(MELD_TABLES)
    assert set(document.DECK_OF_MELD_TABLE.values()) == set(DECKS)


@pytest.mark.parametrize(("written", "kept"), [
    ("2026-11-01T19:00:00+00:00", "2026-11-01T19:00:00+00:00"),
    ("2026-11-01T20:30:00+01:00", "2026-11-01T19:30:00+00:00"),
    ("2026-11-01T19:00:00Z", "2026-11-01T19:00:00+00:00"),
    ("2026-11-01T19:00:00.999999+00:00", "2026-11-01T19:00:00+00:00"),
    ("2026-11-02T05:00:00+14:00", "2026-11-01T15:00:00+00:00"),
    ("2026-11-23T19:59:59+00:00", "2026-11-23T19:59:59+00:00"),  # up to a day ahead: a clock a little fast
])
def test_dates_are_kept_in_utc_to_the_second_as_the_app_writes_them(written, kept):
    [game] = document.check(an_export(a_game(created_at=written)), NOW)
    assert game.created_at == kept


@pytest.mark.parametrize("written", [
    "2026-11-23T20:00:01+00:00", "1999-12-31T23:59:59+00:00", "9999-12-31T23:59:59-14:00",
    "0001-01-01T00:00:00+14:00", "2026-11-01T19:00:00", "2026-11-01", "tomorrow", "", "2026-11-01T19:00:00+00:00" * 2,
])
def test_a_date_out_of_range_or_without_its_zone_is_refused(written):
    with pytest.raises(ImportRefused, match="Game 1: created_at"):
        document.check(an_export(a_game(created_at=written)), NOW)


@pytest.mark.parametrize(("players", "kept"), [
    ([" Ann   Lee ", None, "", "Bob"], ("Ann Lee", None, None, "Bob")),
    (["Zoe\u0308", None, None, None], ("Zoë", None, None, None)),  # NFC, as the forms keep a name
    (["Emoji \U0001f468\u200d\U0001f469\u200d\U0001f467", None, None, None],
     ("Emoji \U0001f468\u200d\U0001f469\u200d\U0001f467", None, None, None)),
])
def test_names_are_cleaned_as_the_forms_clean_them(players, kept):
    [game] = document.check(an_export(a_game(players=players)), NOW)
    assert game.players == kept


def test_a_rematch_names_an_earlier_game_of_the_file_or_nothing():
    games = document.check(an_export(a_game(id=5), a_game(id=9, rematch_of=5), a_game(id=12, rematch_of=3)), NOW)
    assert [g.rematch_index for g in games] == [None, 0, None]


def test_an_export_made_in_memory_is_checked_like_one_read_from_a_file():
    made = an_export(a_game())
    read = document.read(json.dumps(made).encode())
    assert document.check(made, NOW) == document.check(read, NOW)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
HAND = {"seq": 1, "token": "t-1", "kind": "played", "bidder": 0, "bidder_seat": 2, "bid": 50, "trump": "S",
        "meld": [0, 0], "counters": [50, 0], "renege_team": None, "forced": False,
        "created_at": "2026-11-01T19:00:00+00:00", "updated_at": "2026-11-01T19:00:00+00:00", "deleted_at": None,
        "edits": [{"at": "2026-11-01T19:00:00+00:00", "action": "recorded", "before": None, "summary": "Recorded.",
                   "after": json.dumps({"kind": "played", "bidder": 0, "bidder_seat": 2, "bid": 50, "trump": "S",
                                        "meld_0": 0, "meld_1": 0, "counters_0": 50, "counters_1": 0,
                                        "renege_team": None, "forced": 0})}]}
PLACES = st.sampled_from([("game", f) for f in document.GAME_FIELDS] + [("hand", f) for f in document.HAND_FIELDS]
                         + [("edit", f) for f in document.EDIT_FIELDS])


def test_the_game_the_property_below_changes_is_taken_as_it_is():
    [game] = document.check(an_export(a_game(hands=[HAND], totals=[50, 0])), NOW)
    assert game.state.totals == (50, 0)


@quick_and_in_full(quick=60, full=500, options={"deadline": None}, value=JSON, place=PLACES)
def test_any_value_anywhere_in_a_game_is_refused_in_words_or_taken(value, place):
    game = json.loads(json.dumps(a_game(hands=[HAND], totals=[50, 0])))
    level, field = place
    target = {"game": game, "hand": game["hands"][0], "edit": game["hands"][0]["edits"][0]}[level]
    target[field] = value
    try:
        document.check(an_export(game), NOW)
    except ImportRefused as refused:
        assert str(refused).startswith(("Game 1: ", "Game 1, hand 1: ")), str(refused)
        assert str(refused).endswith("Nothing was imported.")


@quick_and_in_full(quick=50, full=300, options={"deadline": None},
                   raw=st.binary(max_size=200) | JSON.map(lambda v: json.dumps(v).encode()))
def test_any_file_is_read_or_refused_in_words(raw):
    try:
        document.check(document.read(raw), NOW)
    except ImportRefused as refused:
        assert str(refused).endswith("Nothing was imported.")


def test_a_snapshot_that_is_the_hand_as_its_history_writes_it_is_taken_as_judging_it_would_take_it():
    """The shortcut (a snapshot exactly the live hand's text is not read and judged again) gives what judging it
    in full gives, and a snapshot that differs by a space, or from the hand, is still judged."""
    [game] = document.check(an_export(a_game(hands=[HAND], totals=[50, 0])), NOW)
    hand = game.hands[0]
    written = json.dumps(document.hand_to_history(hand.hand))
    assert hand.edits[0].after == written
    assert document._snapshot(game.rules, written, "after") == written  # the long way: the same text
    spaced = json.loads(json.dumps(HAND))
    spaced["edits"][0]["after"] = written.replace(", ", ",  ")
    [again] = document.check(an_export(a_game(hands=[spaced], totals=[50, 0])), NOW)
    assert again.hands[0].edits[0].after == written  # read, judged and written anew
    wrong = json.loads(json.dumps(HAND))
    wrong["edits"][0]["after"] = written.replace('"bid": 50', '"bid": 5')
    with pytest.raises(ImportRefused, match="after"):
        document.check(an_export(a_game(hands=[wrong], totals=[50, 0])), NOW)
