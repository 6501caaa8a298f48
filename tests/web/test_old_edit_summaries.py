"""An edit's summary stored before numbers had their thousands separated ("Bid 1000 → 1050") reads as every
other number does ("Bid 1,000 → 1,050") on the sheet and on the hand's page; the stored text stays as it was."""

import pytest

from scorepad.store import connection, games
from tests.helpers import parse
from tests.web.helpers import csrf, new_game, record

OLD = "Bidder Table 1000 → Them; Bid 1000 → 1050; Meld 600 : 1200 → 650 : 1200"
SHOWN = "Bidder Table 1000 → Them; Bid 1,000 → 1,050; Meld 600 : 1,200 → 650 : 1,200"


def stored_summaries(app, hand_id: int) -> list[str]:
    db = connection.connect(app.config["DATABASE"])
    try:
        return [edit["summary"] for edit in games.edits_of_hand(db, hand_id)]
    finally:
        db.close()


@pytest.fixture
def edited_the_old_way(client, app) -> tuple[int, int]:
    """A hand edited before the format change: its summary as it was written then."""
    game_id = new_game(client, preset="double-pack-bicycle", team_0="Table 1000")
    assert record(client, game_id, bidder="t0", bid=1000, meld_0=600, meld_1=1200, counters_0=400,
                  counters_1=100).status_code == 303
    hand_id = int(parse(client.get(f"/games/{game_id}")).select_one(".hands details")["id"].split("-")[1])
    edited = client.post(f"/games/{game_id}/hands/{hand_id}/edit", data={
        "csrf_token": csrf(client), "kind": "played", "bidder": "t1", "bid": "1050", "meld_0": "650",
        "meld_1": "1200", "counters_0": "400", "counters_1": "100"})
    assert edited.status_code == 303
    db = connection.connect(app.config["DATABASE"])
    db.execute("UPDATE hand_edits SET summary = ? WHERE hand_id = ? AND action = 'edited'", [OLD, hand_id])
    db.conn.commit()
    db.close()
    return game_id, hand_id


def test_an_old_summary_reads_with_its_thousands_separated_on_the_sheet(client, app, edited_the_old_way):
    game_id, hand_id = edited_the_old_way
    history = parse(client.get(f"/games/{game_id}")).select(f"#hand-{hand_id} .history li")
    assert " ".join(history[-1].get_text(" ").split()).endswith(" " + SHOWN)
    assert OLD in stored_summaries(app, hand_id)


def test_an_old_summary_reads_with_its_thousands_separated_on_the_hands_page(client, app, edited_the_old_way):
    game_id, hand_id = edited_the_old_way
    page = parse(client.get(f"/history/games/{game_id}/hands/{hand_id}"))
    edited = [" ".join(p.get_text(" ").split()) for p in page.select(".edit > p") if "Edited" in p.get_text()]
    assert len(edited) == 1 and edited[0].endswith("· " + SHOWN)
    assert OLD in stored_summaries(app, hand_id)
