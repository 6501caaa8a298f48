"""About → Backups: every backup listed with its games and last hand, and one restored from the browser with the
command's checks and its copy of the database kept first (a household on a NAS has no shell); the table's passcode
typed on the form itself where one is set; nothing a form names is taken as a path."""

import re
from pathlib import Path

import pytest

from tests.helpers import parse, safety_copies
from tests.web.helpers import csrf, hand_ids, new_game, record

HAND = {"bidder": "t0", "bid": "50", "trump": "H", "meld_0": "40", "meld_1": "12", "counters_0": "30",
        "counters_1": "20"}


def backed_up(app) -> Path:
    status = app.extensions["scorepad_backups"].take("daily")
    assert status.problem is None, status.problem
    return Path(status.file)


@pytest.fixture
def two_hands_one_backed_up(app, client):
    """A game of two hands, of which the backup holds the first."""
    game_id = new_game(client, team_0="Grands", team_1="Kids")
    record(client, game_id, **HAND)
    backup = backed_up(app)
    record(client, game_id, **HAND)
    assert len(hand_ids(client, game_id)) == 2
    return game_id, backup


def restore_link(client, name: str) -> str:
    page = parse(client.get("/about/backups/"))
    [item] = [li for li in page.select(".backup-item") if li.select_one(".backup-name").get_text(strip=True) == name]
    return item.select_one("a.button")["href"]


def restore(client, link: str, **fields):
    form = parse(client.get(link)).select_one("form[method=post]")
    data = {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")}
    return client.post(form["action"], data={**data, **fields})


def test_about_leads_to_the_backups_each_with_its_games_and_last_hand(client, two_hands_one_backed_up):
    assert parse(client.get("/about")).select_one("a[href='/about/backups/']") is not None
    page = parse(client.get("/about/backups/"))
    shelves = [s.select_one("h2").get_text() for s in page.select(".backup-shelf")]
    assert shelves == ["Backups", "Kept before an upgrade", "Kept before a restore"]
    [item] = page.select(".backup-shelf")[0].select(".backup-item")
    held = item.get_text(" ", strip=True)
    assert "1 game, 1 hand · last hand: Grands – Kids, hand 1," in held and "(just now)" in held
    assert "1 game, 2 hands · last hand: Grands – Kids, hand 2," in page.select_one("#now-held").get_text(" ")


def test_a_backup_is_restored_from_the_browser_and_the_restore_undone_the_same_way(app, client,
                                                                                   two_hands_one_backed_up):
    game_id, backup = two_hands_one_backed_up
    confirm = parse(client.get(restore_link(client, backup.name)))
    assert "1 game, 1 hand" in confirm.select_one("#backup-held").get_text(" ")
    assert "1 game, 2 hands" in confirm.select_one("#now-held").get_text(" ")
    assert confirm.select_one("input[name=passcode]") is None  # no passcode set: a confirmation is enough
    answer = restore(client, restore_link(client, backup.name))
    assert answer.status_code == 303 and answer.headers["Location"] == "/about/backups/"
    [safety] = safety_copies(Path(app.config["DATABASE"]))
    page = parse(client.get("/about/backups/"))
    said = page.select_one(".flash").get_text(" ", strip=True)
    assert f"kept as {safety.name}" in said and "restore that to undo this" in said
    kept = page.select(".backup-shelf")[-1]
    assert "1 game, 2 hands" in kept.get_text(" ")  # the games as they were, to go back to
    assert len(hand_ids(client, game_id)) == 1
    assert restore(client, restore_link(client, safety.name)).status_code == 303
    assert len(hand_ids(client, game_id)) == 2


def test_a_file_that_is_not_a_sound_backup_is_listed_as_such_and_restores_nothing(app, client,
                                                                                  two_hands_one_backed_up):
    game_id, backup = two_hands_one_backed_up
    broken = backup.with_name("scorepad-20260101-120000.db")
    broken.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    page = parse(client.get("/about/backups/"))
    assert "This file cannot be read" in page.get_text(" ")
    answer = restore(client, restore_link(client, broken.name))
    assert answer.status_code == 422
    assert "Nothing was changed." in parse(answer).select_one("#restore-problem").get_text()
    assert len(hand_ids(client, game_id)) == 2
    assert safety_copies(Path(app.config["DATABASE"])) == []


@pytest.mark.parametrize("key", ["", "0/", "0/../scorepad.db", "0/../../etc/passwd", "9/x.db", "/etc/passwd",
                                 "0/scorepad-20990101-000000.db", "3/before-restore-20260101-000000.db"])
def test_a_backup_not_among_those_listed_is_not_restored(app, client, two_hands_one_backed_up, key):
    game_id, _ = two_hands_one_backed_up
    assert client.get("/about/backups/restore", query_string={"backup": key}).status_code == 404
    answer = client.post("/about/backups/restore", data={"csrf_token": csrf(client), "backup": key})
    assert answer.status_code == 404
    assert len(hand_ids(client, game_id)) == 2


@pytest.mark.app_config(PASSCODE="clubs")
def test_where_a_passcode_is_set_it_is_typed_on_the_restore_form_even_on_an_unlocked_phone(app, client):
    unlocked = client.post("/unlock", data={"csrf_token": csrf(client), "passcode": "clubs", "next": "/"})
    assert unlocked.status_code == 303
    game_id = new_game(client)
    record(client, game_id, **HAND)
    backup = backed_up(app)
    record(client, game_id, **HAND)
    link = restore_link(client, backup.name)
    assert parse(client.get(link)).select_one("input[name=passcode][required]") is not None
    for guess in ("", "nope"):
        refused = restore(client, link, passcode=guess)
        assert refused.status_code == 403
        assert parse(refused).select_one("#restore-problem").get_text() == "That is not the table's passcode."
    assert len(hand_ids(client, game_id)) == 2
    assert restore(client, link, passcode="clubs").status_code == 303
    assert len(hand_ids(client, game_id)) == 1


@pytest.mark.app_config(PASSCODE="clubs")
def test_a_locked_phone_restores_nothing_without_the_passcode(app, client):
    game_id = new_game(client, passcode="clubs")
    record(client, game_id, passcode="clubs", **HAND)
    backup = backed_up(app)
    record(client, game_id, passcode="clubs", **HAND)
    stranger = app.test_client()
    answer = stranger.post("/about/backups/restore", data={"csrf_token": csrf(stranger), "backup": f"0/{backup.name}"})
    assert answer.status_code == 401  # the passcode is asked first, and nothing is restored
    assert re.search("passcode", parse(answer).get_text(), re.I)
    assert len(hand_ids(client, game_id)) == 2
