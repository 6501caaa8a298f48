"""A game's page data, built once per game version: the page a change hands over (built from its own fold) is
the page a fresh read of the database builds, after every kind of change, and a page is never shown for another
version than its own."""


import pytest

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import pages
from scorepad.store import games, players
from tests.services.helpers import record

MADE = Hand(0, 50, (0, 0), (50, 0))  # Us +50
OTHERS = Hand(1, 50, (0, 0), (0, 50))  # Them +50
SEATED = ("Ann", "Bob", "Cat", "Dan")


def fresh(db, game_id) -> pages.GamePage:
    pages.forget()
    return pages.game_page(db, game_id)


def _record(db, game_id, ids):
    return record(db, game_id, OTHERS)


def _edit(db, game_id, ids):
    return services.edit_hand(db, game_id, ids[1], MADE)


def _delete(db, game_id, ids):
    return services.delete_hand(db, game_id, ids[0])


def _restore(db, game_id, ids):
    services.delete_hand(db, game_id, ids[0])
    return services.restore_hand(db, game_id, ids[0])


def _win(db, game_id, ids):
    record(db, game_id)
    return record(db, game_id)


CHANGES = [("a recorded hand", _record), ("an edit", _edit), ("a delete", _delete), ("a restore", _restore),
           ("the winning hand", _win)]


@pytest.mark.parametrize("change", [c[1] for c in CHANGES], ids=[c[0] for c in CHANGES])
def test_the_page_a_change_hands_over_is_the_page_the_database_reads(db, change):
    game_id = services.start_game(db, PRESETS["double-deck"], ("Us", "Them"), SEATED, 0)
    for hand in (MADE, OTHERS, MADE):
        record(db, game_id, hand)
    services.edit_hand(db, game_id, games.live_hands(db, game_id)[0].id, Hand(0, 55, (0, 0), (50, 0)))
    ids = [h.id for h in games.live_hands(db, game_id)]
    made = change(db, game_id, ids)
    handed = pages.game_page(db, game_id)
    assert handed is made.page and handed.game.version == made.version  # kept: no read, no fold
    assert handed.sheet == fresh(db, game_id).sheet


def test_a_page_is_shown_for_its_own_version_only(db):
    game_id = services.start_game(db, PRESETS["double-deck"], ("Us", "Them"), SEATED, 0)
    record(db, game_id)
    before = pages.game_page(db, game_id)
    players.rename_player(db, players.seated_players(db, game_id)[0], "Anna")  # no service of games: the trigger
    after = pages.game_page(db, game_id)
    assert after.game.version > before.game.version and after.game.players[0] == "Anna"


def test_a_game_that_is_not_there_has_no_page(db):
    assert pages.game_page(db, 12345) is None and pages.current_game(db, 12345) is None


def test_the_pages_kept_are_bounded(db, monkeypatch):
    monkeypatch.setattr(pages, "PAGES_KEPT", 3)
    pages.forget()
    for _ in range(5):
        pages.game_page(db, services.start_game(db, PRESETS["double-deck"], ("Us", "Them"), SEATED, 0))
    assert len(pages._PAGES) == 3
