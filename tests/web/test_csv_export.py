"""Score sheets as CSV: a name is never a formula to a spreadsheet, and a number stays a number."""

import shutil
import uuid

import pytest
from hypothesis import HealthCheck, assume
from hypothesis import strategies as st

from scorepad.core.inputs import name_key
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services.transfer import cell, sheets_csv
from scorepad.store import connection, games
from tests.helpers import csv_sheets, quick_and_in_full
from tests.web.helpers import new_game, record

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def rows_of(text: str) -> list[dict]:
    [(_, rows)] = csv_sheets(text)
    return rows


@pytest.mark.parametrize(("name", "kept"), [
    ('=HYPERLINK("http://evil.example","Go")', '\'=HYPERLINK("http://evil.example","Go")'),  # 38: fits a name
    ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
    ("@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"),
    ("-2+3", "'-2+3"),
    ("=1+1", "'=1+1"),
    ("Anne-Marie", "Anne-Marie"),
    ("Ann", "Ann"),
    ("50", "50"),
])
def test_a_name_that_a_spreadsheet_would_run_is_written_as_text(client, name, kept):
    game_id = new_game(client, team_0=name, player_0=name)
    assert record(client, game_id, bidder="s0", bid=60, counters_0=26).status_code == 303  # set: −60
    [row] = rows_of(client.get(f"/games/{game_id}/export.csv").get_data(as_text=True))
    assert (row["Dealer"], row["Bidder"]) == (kept, kept)
    assert (row[f"{kept} points"], row[f"{kept} total"], row["Them points"]) == ("-60", "-60", "24")  # numbers stay
    [(title, _)] = csv_sheets(client.get(f"/games/{game_id}/export.csv").get_data(as_text=True))
    assert title[1] == cell(f"{name} – Them")


@pytest.mark.parametrize(("value", "written"), [
    ("\t=1+1", "'\t=1+1"), ("\r=1+1", "'\r=1+1"), ("\tAnn", "'\tAnn"), (" =1+1", "' =1+1"),
    ("\u00a0@SUM(A1)", "'\u00a0@SUM(A1)"), ("\n-1", "'\n-1"), ("", ""), ("S", "S"),
    (-50, -50), (0, 0), (526, 526),
])
def test_each_cell_starting_like_a_formula_gets_an_apostrophe_and_numbers_do_not(value, written):
    assert cell(value) == written


NAMES = st.one_of(
    st.text(min_size=1, max_size=40),
    st.builds(lambda start, rest: start + rest, st.sampled_from([*TRIGGERS, " =", " @", "\u00a0+"]),
              st.text(max_size=20)),
)


@quick_and_in_full(quick=15, full=100, options={"deadline": None, "suppress_health_check": [
    HealthCheck.function_scoped_fixture, HealthCheck.too_slow]}, names=st.lists(NAMES, min_size=3, max_size=3))
def test_no_name_is_ever_a_formula_in_the_score_sheets(tmp_path, template_database, names):
    path = str(tmp_path / f"csv-{uuid.uuid4().hex}.db")  # each example its own: names do not meet earlier ones
    shutil.copyfile(template_database, path)  # a copy of today's schema: a millisecond, where migrating is 300
    db = connection.connect(path)
    try:
        team, other, player = names
        assume(name_key(team) != name_key(other))  # the forms and an import give two teams two names
        game_id = games.create_game(db, PRESETS["double-deck"], (team, other), [player, None, None, None], 0)
        with connection.write_lock(db):
            games.insert_hand(db, game_id, f"t-{game_id}", Hand(0, 60, (0, 0), (26, 24), bidder_seat=0))
            games.rescore(db, games.load_game(db, game_id), games.live_hands(db, game_id))
        [row] = rows_of(sheets_csv(db, [game_id]))
    finally:
        db.close()
    written_as = {name: "'" + name if name.lstrip().startswith(TRIGGERS) or name.startswith(TRIGGERS) else name
                  for name in names}
    assert (row["Dealer"], row["Bidder"]) == (written_as[player], written_as[player])
    assert (int(row[f"{written_as[team]} points"]), int(row[f"{written_as[team]} total"])) == (-60, -60)
