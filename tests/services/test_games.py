"""The use cases of a game, called as the web shell calls them but with no HTTP: one transaction, one
validation, one fold each, a typed error for every refusal, and nothing stored on a refusal."""

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad import services
from scorepad.core.rules import PRESETS, most_one_hand_melds
from scorepad.core.scoring import Hand, play_game
from scorepad.store import connection, games
from tests.services.helpers import everything, hand_ids, record, start
from tests.store.helpers import random_hand

DD = PRESETS["double-deck"]
SEATED = ("Ann", "Bob", "Cat", "Dan")
MADE = Hand(0, 50, (0, 0), (50, 0))  # Us +50
OTHERS_MADE = Hand(1, 50, (0, 0), (0, 50))  # Them +50


# --- recording ----------------------------------------------------------------------------------------------

def test_a_recorded_hand_comes_back_with_the_games_new_state(db):
    game_id = start(db)
    change = record(db, game_id, Hand(0, 55, (30, 12), (28, 22), trump="H"))
    game = games.load_game(db, game_id)
    assert (change.number, change.winner, change.version, change.already) == (1, None, game.version, False)
    assert (game.totals, game.hands_count) == ((58, 22), 1)
    assert games.live_hands(db, game_id)[0].kept == (58, 22, "made")


def test_the_same_token_records_a_hand_once(db):
    game_id = start(db)
    record(db, game_id, token="once")
    again = services.record_hand(db, game_id, MADE, token="once", expected=1)
    assert again.already and again.version is None
    assert games.load_game(db, game_id).hands_count == 1


def test_the_winning_hand_says_the_game_is_won_and_the_next_one_is_refused(db):
    game_id = start(db, replace(DD, target=100))
    record(db, game_id)
    won = record(db, game_id)
    assert (won.winner, won.end_moved) == (0, True)
    with pytest.raises(services.GameIsOver, match="it takes no more hands. Edit or delete a hand") as refused:
        record(db, game_id)
    assert refused.value.status_hint == 409


def refusals_of_a_new_hand():
    """(what, the call's changes, the error, its status, its fields, its words)"""
    return [
        ("a hand the core refuses", {"entry": Hand(0, 63, (0, 0), (20, 20))}, services.Refused, 422,
         {"bid": "Bids from 60 go up in steps of 5: 60 or 65, not 63.",
          "counters": "Counters must add up to 50; these add up to 40."}, ""),
        ("a field the form could not read, beside the core's", {"unreadable": {"trump": "Trump is one of the four "
         "suits, or left blank."}, "entry": Hand(0, 45, (0, 0), (50, 0))}, services.Refused, 422,
         {"trump": "Trump is one of the four suits, or left blank.", "bid": "Bid must be at least 50."}, ""),
        ("no one-time token", {"token": ""}, services.FormIncomplete, 422, {},
         "This form is incomplete; check the hand and save it again."),
        ("no hand number", {"expected": None}, services.FormIncomplete, 422, {}, "This form is incomplete"),
        ("a form opened before another phone recorded", {"expected": 1}, services.HandTaken, 409, {},
         "Hand 1 was just recorded on another phone: it is on the sheet below. If yours is a different hand, "
         "save it again as hand 2."),
        ("a form opened before another phone deleted", {"expected": 3}, services.HandTaken, 409, {},
         "The sheet has fewer hands than when this hand was typed (a hand was deleted on another phone, or an older "
         "copy of the games was put back), so this one is now hand 2. Check the sheet below, then save it again "
         "as hand 2."),
    ]


@pytest.mark.parametrize(("given", "error", "status", "fields", "words"), [r[1:] for r in refusals_of_a_new_hand()],
                         ids=[r[0] for r in refusals_of_a_new_hand()])
def test_a_refused_hand_says_why_with_its_status_and_stores_nothing(db, given, error, status, fields, words):
    game_id = start(db)
    record(db, game_id)
    before = everything(db)
    with pytest.raises(error) as refused:
        record(db, game_id, **given)
    assert (refused.value.status_hint, refused.value.errors) == (status, fields)
    assert str(refused.value).startswith(words)
    assert everything(db) == before
    assert not db.conn.in_transaction


@pytest.mark.parametrize(("first_dealer", "bidder_seat", "refused"), [(2, 2, False), (2, 0, True), (1, 3, True),
                                                                      (3, 3, False)])
def test_only_the_dealer_of_this_hand_can_be_stuck(db, first_dealer, bidder_seat, refused):
    game_id = start(db, players=SEATED, first_dealer=first_dealer)
    entry = Hand(bidder_seat % 2, 50, (20, 20), (25, 25), forced=True, bidder_seat=bidder_seat)
    if not refused:
        assert record(db, game_id, entry).number == 1
        return
    with pytest.raises(services.Refused) as caught:
        record(db, game_id, entry)
    assert caught.value.errors == {"forced": "Only the dealer can be stuck with the bid when everyone passes."}


def test_the_dealer_moves_on_with_every_hand_for_the_stuck_check(db):
    game_id = start(db, players=SEATED, first_dealer=0)
    record(db, game_id)  # North dealt hand 1: East deals hand 2
    stuck_east = Hand(1, 50, (20, 20), (25, 25), forced=True, bidder_seat=1)
    assert record(db, game_id, stuck_east).number == 2


# --- one validation, one fold ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("change", "folds", "validations"), [
    (lambda db, g, h: record(db, g), 1, 1),
    (lambda db, g, h: services.edit_hand(db, g, h[1], Hand(0, 55, (0, 0), (50, 0))), 1, 1),
    (lambda db, g, h: services.delete_hand(db, g, h[1]), 1, 0),
])
def test_each_change_validates_once_and_folds_once(db, calls, change, folds, validations):
    game_id = start(db)
    for _ in range(4):
        record(db, game_id)
    calls.update(play_game=0, validate_hand=0)
    change(db, game_id, hand_ids(db, game_id))
    assert calls == {"play_game": folds, "validate_hand": validations}


# --- editing and deleting -------------------------------------------------------------------------------------

PLAIN = Hand(0, 50, (0, 0), (50, 0))
CHANGES = [
    ("the bid", PLAIN, replace(PLAIN, bid=55), "Bid 50 → 55"),
    ("the counters", PLAIN, replace(PLAIN, counters=(45, 5)), "Counters 50 : 0 → 45 : 5"),
    ("the kind, from played to a throw-in", PLAIN, replace(PLAIN, counters=None, kind="throw_in"),
     "Kind played → throw in; Counters 50 : 0 → — : —"),
    ("the bidder, by seat", replace(PLAIN, bidder_seat=0), replace(PLAIN, bidder_seat=2), "Bidder Ann → Cat"),
    ("the bidder, from a team to a seat", PLAIN, replace(PLAIN, bidder_seat=0), "Bidder Us → Ann"),
    ("trump", PLAIN, replace(PLAIN, trump="H"), "Trump none → ♥ hearts"),
    ("who reneged", Hand(0, 50, (0, 0), kind="renege", renege_team=0),
     Hand(0, 50, (0, 0), kind="renege", renege_team=1), "Reneged Us → Them"),
    ("a stuck dealer", replace(PLAIN, bidder_seat=0), replace(PLAIN, forced=True, bidder_seat=0),
     "Dealer stuck no → yes"),
    ("the meld, a zero shown as one", replace(PLAIN, meld=(0, 20)), replace(PLAIN, meld=(30, 0)),
     "Meld 0 : 20 → 30 : 0"),
    ("nothing", replace(PLAIN, trump="S", bidder_seat=1), replace(PLAIN, trump="S", bidder_seat=1), ""),
]


@pytest.mark.parametrize(("before", "after", "words"), [c[1:] for c in CHANGES], ids=[c[0] for c in CHANGES])
def test_an_edit_is_said_in_words_for_the_hands_history(before, after, words):
    game = games.Game(1, "", DD, ("Us", "Them"), SEATED, 0, 0, (0, 0), 0, None, None, None)
    assert services.describe_change(before, after, game) == words


def test_an_edit_rescores_the_sheet_and_keeps_its_words(db):
    game_id = start(db)
    record(db, game_id)
    record(db, game_id, OTHERS_MADE)
    first = hand_ids(db, game_id)[0]
    change = services.edit_hand(db, game_id, first, Hand(0, 50, (20, 0), (40, 10)), edits_seen=0)
    words = "Meld 0 : 0 → 20 : 0; Counters 50 : 0 → 40 : 10"
    assert (change.number, change.summary) == (1, words)
    assert games.load_game(db, game_id).totals == (60, 50)
    assert [e["summary"] for e in games.edits_of_hand(db, first)] == ["Recorded.", words]


def test_an_edit_sent_again_is_done_and_writes_nothing(db):
    game_id = start(db)
    record(db, game_id)
    hand_id = hand_ids(db, game_id)[0]
    edited = Hand(0, 55, (0, 0), (50, 0))
    services.edit_hand(db, game_id, hand_id, edited, edits_seen=0)
    before = everything(db)
    again = services.edit_hand(db, game_id, hand_id, edited, edits_seen=0)
    assert again.already and everything(db) == before


def test_an_edit_of_a_hand_changed_on_another_phone_says_what_changed_and_writes_nothing(db):
    game_id = start(db)
    record(db, game_id)
    hand_id = hand_ids(db, game_id)[0]
    services.edit_hand(db, game_id, hand_id, Hand(0, 55, (0, 0), (50, 0)), edits_seen=0)
    before = everything(db)
    with pytest.raises(services.HandChangedElsewhere) as stale:
        services.edit_hand(db, game_id, hand_id, Hand(0, 60, (0, 0), (50, 0)), edits_seen=0)
    assert str(stale.value) == "Hand 1 was just changed on another phone (Bid 50 → 55): your change was NOT saved."
    assert stale.value.status_hint == 409 and everything(db) == before


def test_a_hand_deleted_on_another_phone_cannot_be_edited_and_is_deleted_once(db):
    game_id = start(db)
    record(db, game_id)
    hand_id = hand_ids(db, game_id)[0]
    assert services.delete_hand(db, game_id, hand_id).number == 1
    before = everything(db)
    with pytest.raises(services.HandGone, match="was just deleted on another phone") as gone:
        services.edit_hand(db, game_id, hand_id, Hand(0, 55, (0, 0), (50, 0)))
    assert gone.value.status_hint == 409
    assert services.delete_hand(db, game_id, hand_id).already
    assert everything(db) == before


@pytest.mark.parametrize("change", [
    lambda db, g: services.edit_hand(db, g, 999, MADE),
    lambda db, g: services.delete_hand(db, g, 999),
    lambda db, g: services.rematch(db, 999),
    lambda db, g: services.record_hand(db, 999, MADE, token="t", expected=1),
], ids=["edit", "delete", "rematch", "record"])
def test_a_game_or_hand_that_is_not_there_is_a_404(db, change):
    game_id = start(db)
    with pytest.raises(services.NotFound) as missing:
        change(db, game_id)
    assert missing.value.status_hint == 404


def game_won_early_without_its_first_hand(db) -> int:
    """To 100: Us are set (−100), make 150, then Them are set. Without the first hand Us win on the second."""
    game_id = start(db, replace(DD, target=100))
    for hand in (Hand(0, 100, (0, 0), (0, 50)), Hand(0, 150, (100, 0), (50, 0)), Hand(1, 50, (0, 0), (30, 20))):
        record(db, game_id, hand)
    assert games.load_game(db, game_id).totals == (80, 0)
    return game_id


@pytest.mark.parametrize(("change", "words"), [
    (lambda db, g, h: services.delete_hand(db, g, h), "Without this hand the game would be won before the last "
                                                       "hands on the sheet. Delete the later hands first."),
    (lambda db, g, h: services.edit_hand(db, g, h, Hand(0, 100, (50, 0), (50, 0))),
     "With this change the game would be won before the last hands on the sheet. Delete the hands after the "
     "winning one first, then make this change."),
])
def test_a_change_that_would_end_the_game_before_its_last_hands_is_refused(db, change, words):
    game_id = game_won_early_without_its_first_hand(db)
    before = everything(db)
    with pytest.raises(services.EndsTooEarly) as refused:
        change(db, game_id, hand_ids(db, game_id)[0])
    assert (str(refused.value), refused.value.status_hint) == (words, 409)
    assert everything(db) == before


def test_a_rematch_is_started_once(db):
    game_id = start(db, players=SEATED)
    record(db, game_id)
    first = services.rematch(db, game_id)
    again = services.rematch(db, game_id)
    assert (first.already, again.already, again.game_id) == (False, True, first.game_id)
    rematch = games.load_game(db, first.game_id)
    assert (rematch.players, rematch.first_dealer, rematch.rematch_of) == (SEATED, 1, game_id)


# --- the preview ----------------------------------------------------------------------------------------------

def test_the_preview_scores_against_the_kept_totals_without_a_fold(db, calls):
    game_id = start(db)
    record(db, game_id)
    calls.update(play_game=0, validate_hand=0)
    preview = services.preview_hand(games.load_game(db, game_id), Hand(1, 50, (0, 0), (0, 50)),
                                     typed_counters=(0, 50))
    assert (preview.result.points, preview.totals) == ((0, 50), (50, 50))
    assert preview.notes == (("ok", "Counters add up to 50 of 50."),)
    assert calls == {"play_game": 0, "validate_hand": 1}


AUTOMATIC = ("warn", "Automatic throw-in: a bid of 80 is more than the bidders' meld 25 + 50, so it cannot be "
                     "made. No counters are needed.")


@pytest.mark.parametrize(("entry", "unreadable", "scored", "notes"), [
    (Hand(0, 80, (25, 30)), {}, True, (AUTOMATIC,)),
    (Hand(0, 80, (25, 30)), {"trump": "Trump is one of the four suits, or left blank."}, False,
     (AUTOMATIC,)),
    (Hand(None, 80, (25, 30)), {"bidder": "Tap the team that won the bid."}, False, ()),
    (Hand(0, 80, (25, "x")), {}, False, ()),
])
def test_the_preview_announces_an_automatic_throw_in_once_bidder_bid_and_meld_are_known(db, entry, unreadable,
                                                                                       scored, notes):
    game = games.load_game(db, start(db, PRESETS["double-deck-shg"]))
    preview = services.preview_hand(game, entry, unreadable=unreadable)
    assert (preview.result is not None, preview.notes) == (scored, notes)


@pytest.mark.parametrize(("meld", "said"), [
    (999, "Us meld 999 is more than any one hand can meld under the family double-deck values (at most 914). "
          "Check it was typed right."),
    (5000, "Us meld: 5,000 is more than any hand can hold; one hand melds at most 914 under the family double-deck "
           "values."),
])
def test_a_meld_past_every_limit_is_told_its_one_most_not_two(db, meld, said):
    """Past what a hand can meld (914) the preview asks whether it was typed right; past what the field takes at
    all (1,000) that is the one thing it says, not "the most is 1,000" and "at most 914" side by side."""
    game = games.load_game(db, start(db))
    preview = services.preview_hand(game, Hand(0, 50, (meld, 0), (30, 20)), typed_counters=(30, 20),
                                    typed={"bidder", "bid", "meld_0", "meld_1", "counters_0", "counters_1"})
    warned = [words for kind, words in preview.notes if kind == "warn"]
    assert warned == [said]


def test_a_meld_off_its_step_and_past_what_a_hand_melds_is_told_both(db):
    """Scores ×10 (the Bicycle book): meld 9,555 is off the step of 10 and more than a hand melds; both are said
    (only a meld past what the field takes at all is told that one thing)."""
    rules = PRESETS["double-pack-bicycle"]
    meld = (most_one_hand_melds(rules) // 10 + 1) * 10 + 5
    assert meld < rules.max_value
    game = games.load_game(db, start(db, rules))
    preview = services.preview_hand(game, Hand(0, rules.min_bid, (meld, 0)), typed={"bidder", "bid", "meld_0"})
    warned = " ".join(words for kind, words in preview.notes if kind == "warn")
    assert "steps of 10" in warned and "more than any one hand can meld" in warned, warned


def test_a_finished_game_has_no_preview(db):
    game_id = start(db, replace(DD, target=50))
    record(db, game_id)
    assert services.preview_hand(games.load_game(db, game_id), MADE) is None


# --- any sequence of changes --------------------------------------------------------------------------------

HANDS = st.integers(0, 2**32).map(lambda seed: random_hand(random.Random(seed), DD))
CHANGE = st.one_of(
    st.tuples(st.just("record"), HANDS),
    st.tuples(st.just("edit"), st.integers(0, 5), HANDS),
    st.tuples(st.just("delete"), st.integers(0, 5)),
)


@given(changes=st.lists(CHANGE, max_size=8))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_after_any_changes_the_kept_sheet_is_the_fold_of_its_hands(db, changes):
    game_id = start(db, replace(DD, target=300))
    for change in changes:
        ids = hand_ids(db, game_id)
        before = everything(db)
        try:
            if change[0] == "record":
                record(db, game_id, change[1])
            elif ids:
                target = ids[change[1] % len(ids)]
                if change[0] == "edit":
                    services.edit_hand(db, game_id, target, change[2])
                else:
                    services.delete_hand(db, game_id, target)
        except services.Declined:
            assert everything(db) == before
    game, hands = games.load_game(db, game_id), games.live_hands(db, game_id)
    state = play_game(game.rules, [h.hand for h in hands])
    assert (game.totals, game.winner, game.hands_count) == (state.totals, state.winner, len(hands))
    assert [h.kept[:2] for h in hands] == [r.points for r in state.results]


# --- the same hand twice --------------------------------------------------------------------------------------

def test_the_hand_just_recorded_typed_again_is_asked_about_and_stored_only_when_meant(db):
    game_id = start(db)
    record(db, game_id, Hand(0, 55, (30, 12), (28, 22)))
    with pytest.raises(services.LooksRepeated) as asked:
        record(db, game_id, Hand(0, 55, (30, 12), (28, 22)), repeat_ok=False)
    assert (asked.value.number, str(asked.value)) == (1, "This looks like hand 1 again — record it anyway?")
    assert games.load_game(db, game_id).hands_count == 1
    record(db, game_id, Hand(0, 55, (30, 12), (28, 22)), repeat_ok=True)
    assert games.load_game(db, game_id).hands_count == 2


@pytest.mark.parametrize("other", [Hand(1, 55, (30, 12), (28, 22)), Hand(0, 60, (30, 12), (28, 22)),
                                   Hand(0, 55, (30, 10), (28, 22)), Hand(0, 55, (30, 12), (30, 20)),
                                   Hand(0, 55, (30, 12), None, kind="throw_in")])
def test_a_hand_differing_in_anything_typed_is_not_a_repeat(db, other):
    game_id = start(db)
    record(db, game_id, Hand(0, 55, (30, 12), (28, 22)))
    record(db, game_id, other, repeat_ok=False)
    assert games.load_game(db, game_id).hands_count == 2


def test_the_same_numbers_long_after_are_a_new_hand(db, monkeypatch):
    game_id = start(db)
    record(db, game_id, MADE)
    later = (datetime.now(UTC) + services.games.REPEAT_WINDOW + timedelta(seconds=5)).isoformat(timespec="seconds")
    monkeypatch.setattr(connection, "now", lambda: later)
    record(db, game_id, MADE, repeat_ok=False)
    assert games.load_game(db, game_id).hands_count == 2


def test_two_hands_side_by_side_mark_what_differs(db):
    game = games.load_game(db, start(db))
    lines = services.compare_hands(Hand(0, 50, (20, 10), (30, 20), trump="H"),
                                   Hand(0, 55, (20, 10), (30, 20), trump="H", renege_team=1), game)
    assert [(d.label, d.theirs, d.mine, d.differs) for d in lines] == [
        ("Bidder", "Us", "Us", False), ("Bid", "50", "55", True), ("Trump", "♥ hearts", "♥ hearts", False),
        ("Reneged", "—", "Them", True), ("Meld", "20 : 10", "20 : 10", False),
        ("Counters", "30 : 20", "30 : 20", False)]


def test_an_edits_preview_scores_the_hand_in_its_place_and_the_totals_after_every_later_hand(db):
    game_id = start(db)
    record(db, game_id, MADE)
    record(db, game_id, OTHERS_MADE)
    first = hand_ids(db, game_id)[0]
    preview = services.preview_edit(db, game_id, first, Hand(0, 50, (0, 0), (20, 30)))
    assert preview.result.points == (-50, 30)
    assert preview.totals == (-50, 30)  # after the hand itself, as its row on the sheet will say
    assert (preview.game_now, preview.game_after) == ((50, 50), (-50, 80))  # the game, once the later hands follow
    assert games.load_game(db, game_id).totals == (50, 50)  # nothing stored


def test_an_edits_preview_says_when_the_change_would_end_the_game_early(db):
    game_id = start(db, replace(DD, target=100))
    record(db, game_id, MADE)
    record(db, game_id, OTHERS_MADE)
    first = hand_ids(db, game_id)[0]
    preview = services.preview_edit(db, game_id, first, Hand(0, 50, (60, 0), (50, 0)))
    assert preview.totals is None
    assert ("warn", "With this change the game would be won before the last hands on the sheet.") in preview.notes
