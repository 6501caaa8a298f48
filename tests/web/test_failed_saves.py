"""A change the database refuses (disk full, read-only, locked, gone, failing) is said in a family's words, with
what was typed kept and nothing stored: never a generic 500, never silent."""

import sqlite3
from types import SimpleNamespace

import pytest

from scorepad.store import connection, games
from scorepad.web.shell.faults import fault_of
from tests.helpers import parse
from tests.web.helpers import csrf, form_of, hands_stored, new_game, record

TYPED = {"bidder": "t0", "bid": "55", "trump": "H", "meld_0": "30", "meld_1": "12", "counters_0": "28",
         "counters_1": "22"}

FAULTS = [  # (SQLite's words, status, the cause the family reads)
    ("database or disk is full", 507, "The disk of the machine running Scorepad is full"),
    ("attempt to write a readonly database", 503,
     "Scorepad is not allowed to write to its database file (it is read-only)"),
    ("database is locked", 503,
     "Scorepad waited too long for another change to finish (another phone, an import or a backup)"),
    ("unable to open database file", 503,
     "Scorepad cannot open its database file (was a disk or memory card unplugged?)"),
    ("disk I/O error", 503, "The disk of the machine running Scorepad failed to read or write"),
]


def refusing(words):
    def refuse(*args, **kwargs):
        raise sqlite3.OperationalError(words)
    return refuse


def banner(page) -> str:
    alert = page.select_one("#alert")
    assert alert["role"] == "alert" and not alert.has_attr("hidden")
    return alert.select_one("#alert-text").get_text(" ", strip=True)


def typed_values(page) -> dict:
    values = {name: page.select_one(f"input[name={name}]")["value"]
              for name in ("bid", "meld_0", "meld_1", "counters_0", "counters_1")}
    for name in ("bidder", "trump"):
        values[name] = page.select_one(f"input[name={name}][checked]")["value"]
    return values


def edits(app, hand_id) -> list[str]:
    db = connection.connect(app.config["DATABASE"])
    try:
        return [e["action"] for e in games.edits_of_hand(db, hand_id)]
    finally:
        db.close()


def only_hand(client, game_id) -> int:
    return int(parse(client.get(f"/games/{game_id}")).select_one(".hands details")["id"].split("-")[1])


@pytest.mark.parametrize(("words", "status", "cause"), FAULTS)
def test_a_hand_the_database_refuses_is_said_at_the_top_with_everything_typed_kept_and_nothing_stored(
        client, app, monkeypatch, words, status, cause):
    game_id = new_game(client)
    form = form_of(client, game_id)
    monkeypatch.setattr(games, "insert_hand", refusing(words))
    response = client.post(f"/games/{game_id}/hands", data={**form, "kind": "played", **TYPED})
    assert response.status_code == status
    page = parse(response)
    said = banner(page)
    assert said.startswith(cause + ": this hand was NOT saved.")
    assert said.endswith("then tap Record again — it will be saved once.")
    assert typed_values(page) == TYPED
    assert page.select_one("input[name=token]")["value"] == form["token"]  # tapping again stores it once
    assert hands_stored(app, game_id) == 0


def test_a_full_disk_says_so_in_the_words_a_family_understands(client, monkeypatch):
    game_id = new_game(client)
    monkeypatch.setattr(games, "insert_hand", refusing("database or disk is full"))
    said = banner(parse(record(client, game_id, **TYPED)))
    assert said == ("The disk of the machine running Scorepad is full: this hand was NOT saved. Free some space, "
                    "then tap Record again — it will be saved once.")


def test_tapping_record_again_after_the_fault_is_cleared_stores_the_hand_once(client, app, monkeypatch):
    game_id = new_game(client)
    monkeypatch.setattr(games, "insert_hand", refusing("database is locked"))
    refused = parse(record(client, game_id, **TYPED))
    monkeypatch.undo()
    again = {i["name"]: i.get("value", "") for i in refused.select("#hand-form input[type=hidden]")}
    for _ in range(2):  # the retry, and a second tap on it
        assert client.post(f"/games/{game_id}/hands", data={**again, "kind": "played", **TYPED}).status_code == 303
    assert hands_stored(app, game_id) == 1


@pytest.mark.parametrize(("words", "status", "cause"), FAULTS)
def test_an_edit_the_database_refuses_keeps_what_was_typed_and_changes_nothing(
        client, app, monkeypatch, words, status, cause):
    game_id = new_game(client)
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    hand_id = only_hand(client, game_id)
    monkeypatch.setattr(games, "update_hand", refusing(words))
    response = client.post(f"/games/{game_id}/hands/{hand_id}/edit",
                           data={"csrf_token": csrf(client), "kind": "played", "edits_seen": "0", **TYPED})
    assert response.status_code == status
    page = parse(response)
    assert banner(page).startswith(cause + ": this change was NOT saved.")
    assert typed_values(page) == TYPED
    assert page.select_one("input[name=edits_seen]")["value"] == "0"
    assert edits(app, hand_id) == ["recorded"]


@pytest.mark.parametrize(("words", "status", "cause"), FAULTS)
def test_a_delete_the_database_refuses_says_so_and_keeps_the_hand(client, app, monkeypatch, words, status, cause):
    game_id = new_game(client)
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    hand_id = only_hand(client, game_id)
    monkeypatch.setattr(games, "delete_hand", refusing(words))
    response = client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"csrf_token": csrf(client)})
    assert response.status_code == status
    page = parse(response)
    assert banner(page).startswith(cause + ": the hand was NOT deleted.")
    assert page.h1.get_text() == "Delete hand 1?"
    assert hands_stored(app, game_id) == 1


@pytest.mark.parametrize(("words", "status", "cause"), FAULTS)
def test_a_new_game_or_rematch_the_database_refuses_is_an_error_page_in_words(
        client, app, monkeypatch, words, status, cause):
    game_id = new_game(client)
    token = csrf(client)
    monkeypatch.setattr(games, "create_game", refusing(words))
    for url, data in ((f"/games/{game_id}/rematch", {}), ("/games/new", {"preset": "double-deck"})):
        response = client.post(url, data={"csrf_token": token, **data})
        assert response.status_code == status
        page = parse(response)
        assert page.h1.get_text() == "Not saved"
        assert page.select_one(".error-message").get_text().startswith(cause + ": that change was NOT saved.")
    monkeypatch.undo()
    db = connection.connect(app.config["DATABASE"])
    assert len(games.list_games(db, finished=False)) == 1
    db.close()


def test_a_page_the_database_cannot_read_says_why_and_to_reload(client, monkeypatch):
    monkeypatch.setattr(games, "list_games", refusing("unable to open database file"))
    response = client.get("/")
    assert response.status_code == 503
    message = parse(response).select_one(".error-message").get_text()
    assert message == ("Scorepad cannot open its database file (was a disk or memory card unplugged?). Check the "
                       "machine running Scorepad, then reload this page.")


def test_any_other_database_error_is_a_bug_and_not_dressed_up_as_a_fault(client, monkeypatch):
    game_id = new_game(client)
    monkeypatch.setattr(games, "insert_hand", refusing("no such table: hands"))
    with pytest.raises(sqlite3.OperationalError, match="no such table"):  # a 500 in production
        record(client, game_id, **TYPED)


def real_errors(tmp_path):
    """SQLite's own errors, with their result codes: read-only, locked, and a file that cannot be opened."""
    path = tmp_path / "real.db"
    setup = sqlite3.connect(path)
    setup.execute("CREATE TABLE t (x)")
    setup.commit()
    setup.close()

    def readonly():
        sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute("INSERT INTO t VALUES (1)")

    def locked():
        holder = sqlite3.connect(path)
        holder.execute("BEGIN IMMEDIATE")
        try:
            sqlite3.connect(path, timeout=0).execute("BEGIN IMMEDIATE")
        finally:
            holder.rollback()
            holder.close()

    def cannot_open():
        sqlite3.connect(tmp_path / "no-such-folder" / "x.db")

    return {"readonly": readonly, "locked": locked, "cannot_open": cannot_open}


@pytest.mark.parametrize(("which", "status", "title"), [
    ("readonly", 503, "Scorepad may not write"),
    ("locked", 503, "Scorepad was busy"),
    ("cannot_open", 503, "Scorepad cannot open its data"),
])
def test_sqlites_own_errors_are_known_by_their_result_codes(tmp_path, which, status, title):
    with pytest.raises(sqlite3.OperationalError) as raised:
        real_errors(tmp_path)[which]()
    assert raised.value.sqlite_errorcode is not None
    fault = fault_of(raised.value)
    assert (fault.status, fault.title) == (status, title)


class _RefusesCommit:
    """A connection whose COMMIT fails, as it does when the disk fills while the change is written out."""

    def __init__(self, conn):
        self.real = conn

    def execute(self, sql, *args):
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, *args)

    def rollback(self):
        self.real.rollback()

    @property
    def in_transaction(self):
        return self.real.in_transaction


def test_a_refused_commit_leaves_no_transaction_open_to_show_its_writes(tmp_path):
    conn = sqlite3.connect(tmp_path / "commit.db")
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    db = SimpleNamespace(conn=_RefusesCommit(conn))
    with pytest.raises(sqlite3.OperationalError), connection.write_lock(db):
        conn.execute("INSERT INTO t VALUES (1)")
    assert not conn.in_transaction
    assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 0  # the page after it shows nothing unsaved
    conn.close()
