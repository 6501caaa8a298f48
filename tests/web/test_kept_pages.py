"""Pages kept rendered are never stale: a change made on one phone shows on every page every other phone opens
next, and each phone's page carries its own tokens. Each page a phone is given is compared with the same page
rendered afresh (nothing kept), the tokens of that one request aside."""

from __future__ import annotations

import re

import pytest

from scorepad.web.shell import kept_pages
from tests.helpers import parse
from tests.web.helpers import club_post, csrf, form_of, new_game, record

HAND = {"bidder": "t0", "bid": "50", "meld_0": "20", "meld_1": "0", "counters_0": "30", "counters_1": "20"}
POLL = {"HX-Request": "true", "If-None-Match": '"an older sheet"'}


def pages_of(game_id: int, hand_id: int, player_id: int) -> list[tuple[str, dict]]:
    """Every page of a game, and the lists it is on, as a phone asks for them."""
    return [(f"/games/{game_id}", {}), (f"/games/{game_id}/live", POLL),
            (f"/games/{game_id}/hands/{hand_id}/detail", {"HX-Request": "true"}),
            (f"/history/games/{game_id}", {}), (f"/history/games/{game_id}/hands/{hand_id}", {}), ("/", {}),
            ("/history/", {}), ("/players/", {}), (f"/players/{player_id}", {})]


def without_tokens(html: str) -> str:
    """A page with this request's own tokens (CSRF, the form's) taken out: what is left is the same for everyone."""
    tokens = set(re.findall(r'name="csrf-token" content="([^"]+)"', html))
    tokens |= set(re.findall(r'name="token" value="([^"]+)"', html))
    for token in tokens:
        html = html.replace(token, "TOKEN")
    return html


def fresh(client, path: str, headers: dict, **environ) -> str:
    """The page as it would be rendered with nothing kept (what is kept is kept again afterwards)."""
    kept_pages.forget()
    return client.get(path, headers=headers, **environ).get_data(as_text=True)


def assert_fresh(client, path: str, headers: dict, **environ) -> str:
    kept = client.get(path, headers=headers, **environ)
    assert kept.status_code == 200, (path, kept.status_code)
    page = kept.get_data(as_text=True)
    assert "\u27e6kept-" not in page, f"{path}: a marker was left in the page"
    assert without_tokens(page) == without_tokens(fresh(client, path, headers, **environ)), path
    return page


def a_game_with_a_hand(client) -> tuple[int, int, int]:
    game_id = new_game(client, player_0="Ann", player_1="Bob", player_2="Cat", player_3="Dan")
    assert record(client, game_id, **HAND).status_code == 303
    page = parse(client.get(f"/games/{game_id}"))
    hand_id = int(page.select_one(".hands details")["id"].removeprefix("hand-"))
    player_id = int(re.search(r'/players/(\d+)"', client.get("/players/").get_data(as_text=True))[1])
    return game_id, hand_id, player_id


def test_every_page_of_a_game_another_phone_changed_shows_the_change(app):
    one, other = app.test_client(), app.test_client()
    game_id, hand_id, player_id = a_game_with_a_hand(one)
    before = {}
    for path, headers in pages_of(game_id, hand_id, player_id):
        other.get(path, headers=headers)  # kept, as the other phone saw it
        before[path] = without_tokens(other.get(path, headers=headers).get_data(as_text=True))
    # Phone one records the next hand, edits the first, and renames a player
    assert record(one, game_id, **{**HAND, "bid": "60", "counters_0": "40", "counters_1": "10"}).status_code == 303
    edit = parse(one.get(f"/games/{game_id}/hands/{hand_id}/edit"))
    sent = {i["name"]: i.get("value", "") for i in edit.select("#hand-form input[type=hidden]")}
    assert one.post(f"/games/{game_id}/hands/{hand_id}/edit",
                    data={**sent, **HAND, "kind": "played", "meld_0": "30"}).status_code == 303
    assert one.post(f"/players/{player_id}/rename",
                    data={"csrf_token": csrf(one), "name": "Annie"}).status_code == 303
    for path, headers in pages_of(game_id, hand_id, player_id):
        page = assert_fresh(other, path, headers)
        assert without_tokens(page) != before[path], f"{path} still shows the game as it was"


def test_each_phone_gets_its_own_csrf_token_and_a_new_form_token_on_a_kept_page(app):
    one, other = app.test_client(), app.test_client()
    game_id = new_game(one)
    first, second = form_of(one, game_id), form_of(other, game_id)
    again = form_of(other, game_id)
    assert kept_pages.census()["kept"] >= 1
    raw = [form["csrf_token"].split(".")[0] for form in (first, second, again)]  # signed anew at each request
    assert raw[0] != raw[1] and raw[1] == raw[2]
    assert len({first["token"], second["token"], again["token"]}) == 3
    # the token each was given is the one its session takes
    assert record(other, game_id, **HAND).status_code == 303


def test_a_page_under_a_path_prefix_is_not_the_page_at_the_root(app):
    phone = app.test_client()
    game_id = new_game(phone)
    at_root = phone.get(f"/games/{game_id}").get_data(as_text=True)
    under = assert_fresh(phone, f"/games/{game_id}", {}, base_url="http://localhost/scorepad")
    assert f'href="/scorepad/history/games/{game_id}"' in under
    assert f'href="/history/games/{game_id}"' in at_root and 'href="/scorepad/' not in at_root
    assert 'href="/scorepad/' not in phone.get(f"/games/{game_id}").get_data(as_text=True)


@pytest.mark.app_config(PASSCODE="clubs")
def test_a_locked_phone_and_an_unlocked_one_each_see_their_own_page(app):
    unlocked, locked = app.test_client(), app.test_client()
    unlocked.post("/unlock", data={"csrf_token": csrf(unlocked), "passcode": "clubs", "next": "/"})
    game_id = new_game(unlocked)
    assert "Watching" not in assert_fresh(unlocked, f"/games/{game_id}", {})
    assert "Watching" in assert_fresh(locked, f"/games/{game_id}", {})
    assert "Watching" not in unlocked.get(f"/games/{game_id}").get_data(as_text=True)


def test_what_a_change_said_is_said_once_and_not_kept(app):
    phone = app.test_client()
    game_id = new_game(phone)
    form = form_of(phone, game_id)
    data = {**form, **HAND, "kind": "played", "repeat": "1"}
    assert phone.post(f"/games/{game_id}/hands", data=data).status_code == 303
    phone.get(f"/games/{game_id}")
    assert phone.post(f"/games/{game_id}/hands", data=data).status_code == 303  # the same token again
    said = phone.get(f"/games/{game_id}").get_data(as_text=True)
    assert "already saved" in said
    assert "already saved" not in phone.get(f"/games/{game_id}").get_data(as_text=True)
    assert "already saved" not in app.test_client().get(f"/games/{game_id}").get_data(as_text=True)


def test_a_club_tables_page_moves_with_its_night(app):
    director = app.test_client()
    club_post(director, "/club/new", name="Tuesday", kind="progressive", preset="double-deck", round_end="hands",
              round_size="4", rounds="2")
    night = int(re.findall(r'href="/club/(\d+)"', director.get("/club/").get_data(as_text=True))[0])
    for name in ("Ann", "Bob", "Cat", "Dan"):
        club_post(director, f"/club/{night}/register", player_0=name)
    assert club_post(director, f"/club/{night}/start").status_code == 303
    game_id = int(re.findall(r'href="/games/(\d+)"', director.get(f"/club/{night}/director").get_data(as_text=True))[0])
    phone = app.test_client()
    assert_fresh(phone, f"/games/{game_id}", {})
    club_post(director, f"/club/{night}/close")
    assert_fresh(phone, f"/games/{game_id}", {})


def stylesheets(client, path: str) -> list[str]:
    return [link["href"].split("?")[0] for link in parse(client.get(path)).select("link[rel=stylesheet]")]


def test_a_familys_game_page_loads_no_club_styles_and_a_club_page_and_table_do(app):
    phone = app.test_client()
    game_id = new_game(phone)
    assert stylesheets(phone, f"/games/{game_id}") == ["/static/app.css"]
    assert stylesheets(phone, "/club/") == ["/static/app.css", "/static/club.css"]
    club_post(phone, "/club/new", name="Tuesday", kind="progressive", preset="double-deck", round_end="hands",
              round_size="4", rounds="2")
    night = int(re.findall(r'href="/club/(\d+)"', phone.get("/club/").get_data(as_text=True))[0])
    for name in ("Ann", "Bob", "Cat", "Dan"):
        club_post(phone, f"/club/{night}/register", player_0=name)
    club_post(phone, f"/club/{night}/start")
    table = int(re.findall(r'href="/games/(\d+)"', phone.get(f"/club/{night}/director").get_data(as_text=True))[0])
    assert stylesheets(phone, f"/games/{table}") == ["/static/app.css", "/static/club.css"]


def test_no_more_builds_run_at_once_than_there_are_turns_and_a_kept_page_waits_for_none(app):
    """Sixteen server threads folding players' figures at once held 40 MiB more than two turns do. A build that
    renders a page of its own takes no second turn (it would wait for itself), and a kept page takes no turn."""
    import threading
    import time

    running, most, lock = [0], [0], threading.Lock()

    def build():
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return {}

    def nested():
        with app.test_request_context("/inner"):
            kept_pages.render("error.html", versions=("inner",), build=build, title="t", message="m")
        return {}

    def a_page(n: int) -> None:
        with app.test_request_context(f"/page/{n}"):
            kept_pages.render("error.html", versions=(n,), build=nested if n % 2 else build, title="t", message="m")

    threads = [threading.Thread(target=a_page, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert not any(thread.is_alive() for thread in threads), "a build waited for a turn it held itself"
    assert most[0] == kept_pages.BUILDS_AT_ONCE

    holders = [threading.Thread(target=kept_pages._BUILDING.acquire) for _ in range(kept_pages.BUILDS_AT_ONCE)]
    for holder in holders:
        holder.start()
        holder.join()
    try:  # every turn taken: the page kept above is still given at once
        with app.test_request_context("/page/0"):
            assert kept_pages.render("error.html", versions=(0,), build=build, title="t", message="m")
    finally:
        for _ in holders:
            kept_pages._BUILDING.release()


def test_a_game_page_looked_at_again_is_found_before_the_game_is_read(app, monkeypatch):
    from scorepad.services import pages

    phone, other = app.test_client(), app.test_client()
    game_id, _, _ = a_game_with_a_hand(phone)
    first = other.get(f"/games/{game_id}").get_data(as_text=True)

    def unread(*_):
        raise AssertionError("the game was read for a page kept under its version")

    monkeypatch.setattr(pages, "game_page", unread)
    again = other.get(f"/games/{game_id}").get_data(as_text=True)
    assert without_tokens(again) == without_tokens(first)
    assert form_of(other, game_id)["token"] != form_of(other, game_id)["token"]  # a new form token at each look
    monkeypatch.undo()
    # the next hand moves the version: the look after it reads the game again, and shows the hand
    assert record(phone, game_id, **{**HAND, "bid": "60"}).status_code == 303
    assert "60" in parse(other.get(f"/games/{game_id}")).select(".hands details")[0].get_text()
    assert_fresh(other, f"/games/{game_id}", {})


def test_what_this_phone_just_saved_is_said_on_it_though_another_phone_looked_first(app):
    phone, other = app.test_client(), app.test_client()
    game_id = new_game(phone)
    assert record(phone, game_id, **HAND).status_code == 303  # "saved" waits in this phone's session
    assert "Hand 1 recorded" not in other.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Hand 1 recorded" not in other.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Hand 1 recorded" in phone.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Hand 1 recorded" not in phone.get(f"/games/{game_id}").get_data(as_text=True)  # said once


def test_a_page_is_kept_as_rendered_with_the_warnings_it_is_kept_under(app):
    """A warning that comes or goes while a page renders: the page kept under "no warning" must not show one, nor
    the other way round (the context processors were asked once for the key and again for the page)."""
    phone = app.test_client()
    game_id = new_game(phone)
    warning = "⚠ The last backup failed."
    # asked by the plain look (none yet), for the page's key (one now), by the page's rendering (gone again)
    said = iter([None, warning, None])
    app.template_context_processors[None].append(lambda: {"backup_warning": next(said, warning)})
    kept_pages.forget()
    assert "The last backup failed" in phone.get(f"/games/{game_id}").get_data(as_text=True)
    assert "The last backup failed" in phone.get(f"/games/{game_id}").get_data(as_text=True)


def test_zones_and_moments_are_keys_as_they_are_shown():
    from datetime import UTC, datetime, timedelta, timezone

    assert kept_pages._frozen(UTC) != kept_pages._frozen(timezone(timedelta(0), "GMT"))
    noon = datetime(2026, 11, 27, 12, tzinfo=UTC)
    assert kept_pages._frozen(noon) != kept_pages._frozen(noon.astimezone(timezone(timedelta(hours=1))))
    assert kept_pages._frozen(noon) == kept_pages._frozen(datetime(2026, 11, 27, 12, tzinfo=UTC))


def test_a_small_page_is_kept_as_it_is_and_a_large_one_compressed_and_each_comes_back_whole(app):
    """/about is looked at again and again: unpacking it cost a tenth of each look, for the few KB compression
    saved. A game's page stays compressed."""
    phone = app.test_client()
    game_id = new_game(phone)
    kept_pages.forget()
    for path in ("/about", f"/games/{game_id}"):
        first = assert_fresh(phone, path, {})
        again = assert_fresh(phone, path, {})
        assert without_tokens(again) == without_tokens(first)
    for path in ("/about", f"/games/{game_id}"):  # (each fresh look above forgot what was kept)
        phone.get(path)
    compressed = {packed for _, _, packed in kept_pages._PAGES.values()}
    assert compressed == {False, True}
    small = [data for data, _, packed in kept_pages._PAGES.values() if not packed]
    assert small and all(len(data) < kept_pages.SMALL_PAGE for data in small)
    assert kept_pages.census()["bytes"] == sum(len(data) for data, _, _ in kept_pages._PAGES.values())


def _kept_of(game_id: int) -> set[int]:
    """The versions of `game_id` whose pages are kept."""
    return {key[1][3] for key in kept_pages._PAGES if len(key[1]) == 4 and key[1][1] == game_id}


def test_a_hand_recorded_drops_its_games_earlier_pages_and_keeps_every_other_games(app):
    """No look can ask for a game's page at an earlier version: left kept, a club night's recording pushed the games
    looked back at out of the cache (the bench's game pages were three in eight rendered afresh)."""
    phone = app.test_client()
    looked_back, playing = new_game(phone), new_game(phone)
    kept_pages.forget()
    for path in (f"/games/{looked_back}", f"/history/games/{looked_back}"):
        phone.get(path)
    for _ in range(3):
        assert record(phone, playing, **HAND).status_code == 303
        hand_id = int(parse(phone.get(f"/games/{playing}")).select_one(".hands details")["id"].removeprefix("hand-"))
        phone.get(f"/games/{playing}/hands/{hand_id}/detail", headers={"HX-Request": "true"})
        phone.get(f"/games/{playing}/live", headers=POLL)
        assert len(_kept_of(playing)) == 1, "an earlier version's page is still kept"
    assert len(_kept_of(looked_back)) == 1
    assert kept_pages.census()["bytes"] == sum(len(data) for data, _, _ in kept_pages._PAGES.values())
    assert_fresh(phone, f"/games/{playing}", {})
    assert_fresh(phone, f"/games/{looked_back}", {})


def test_a_page_rendered_from_a_version_a_later_one_was_kept_meanwhile_is_not_kept(app):
    page = (b"<p>a page</p>", (), False)

    def key(version: int, path: str = "/games/7") -> tuple:
        return ("games/game.html", ("db", 7, "uid", version), "", path, (), (), ())

    kept_pages.forget()
    kept_pages._keep(key(5), page, line=3)
    kept_pages._keep(key(5, "/games/7?x=1"), page, line=3)
    kept_pages._keep(key(6), page, line=3)
    assert set(kept_pages._PAGES) == {key(6)}
    kept_pages._keep(key(5), page, line=3)  # a render that began before version 6 was written
    assert set(kept_pages._PAGES) == {key(6)} and set(kept_pages._LINE_OF) == {key(6)}
    assert kept_pages.census()["bytes"] == len(page[0])


def test_pages_pushed_out_leave_nothing_of_their_lines_behind(app, monkeypatch):
    monkeypatch.setattr(kept_pages, "PAGES_BYTES", 100)
    kept_pages.forget()
    for game in range(50):
        kept_pages._keep(("games/game.html", ("db", game, "uid", 1), "", f"/games/{game}", (), (), ()),
                         (b"x" * 40, (), False), line=3)
    assert len(kept_pages._PAGES) == 2 and len(kept_pages._LINES) == 2 and len(kept_pages._LINE_OF) == 2
    assert kept_pages.census()["bytes"] == 80


def test_a_game_finished_drops_the_lists_of_before_it_and_each_list_shows_it(app):
    """Home, history and the players' pages are kept under the lists' counters: every game finished moved them and
    left every list of before it kept (on the bench's club night, more than half of all that was kept)."""
    phone = app.test_client()
    game_id = new_game(phone, player_0="Ann", player_1="Bob", player_2="Cat", player_3="Dan")
    kept_pages.forget()
    lists = ["/", "/history/", "/players/"]

    def kept_lists() -> int:
        return sum(1 for key in kept_pages._PAGES if key[0] in ("games/home.html", "history/index.html",
                                                                  "history/players.html", "history/player.html"))
    for path in lists:
        phone.get(path)
    player_id = int(re.search(r'/players/(\d+)"', phone.get("/players/").get_data(as_text=True))[1])
    phone.get(f"/players/{player_id}")
    assert kept_lists() == 4
    versions = {key[1][-2:] for key in kept_pages._PAGES}
    for _ in range(3):
        assert record(phone, game_id, **{**HAND, "meld_0": "200"}).status_code == 303  # 250 a hand: won in 3
        for path in (*lists, f"/players/{player_id}"):
            phone.get(path)
        assert kept_lists() == 4, "a list of before the hand is still kept"
        versions |= {key[1][-2:] for key in kept_pages._PAGES}
    assert "We won the game" in phone.get(f"/games/{game_id}").get_data(as_text=True)
    assert len(versions) >= 2, "the lists' counters never moved: nothing was superseded"
    for path in (*lists, f"/players/{player_id}"):
        assert_fresh(phone, path, {})


def test_the_page_a_save_is_answered_with_is_not_kept_and_its_games_earlier_pages_go(app):
    """The page after a save says what the save did ("Hand 1 recorded … Undo"), to that phone once: no look asks for
    it again, and keeping it cost a compression per save and pushed kept pages out."""
    phone = app.test_client()
    game_id = new_game(phone)
    kept_pages.forget()
    phone.get(f"/games/{game_id}")
    before = _kept_of(game_id)
    assert len(before) == 1
    form = form_of(phone, game_id)
    answer = phone.post(f"/games/{game_id}/hands", data={**form, **HAND}, headers={
        "HX-Request": "true", "HX-Boosted": "true", "HX-Current-URL": f"http://localhost/games/{game_id}"})
    assert answer.headers["Scorepad-Answer"] == "saved" and "Hand 1 recorded" in answer.get_data(as_text=True)
    assert _kept_of(game_id) == set()  # neither the answer nor the page before it
    assert_fresh(phone, f"/games/{game_id}", {})


def test_a_hand_the_outbox_sends_leaves_nothing_for_the_next_page_to_say(app):
    """A hand kept on the phone is sent by its outbox as a plain POST whose answer no page shows: its saved note and
    "That hand was already saved" waited in the session and came up on the next page, over another hand's
    question."""
    phone = app.test_client()
    game_id = new_game(phone)
    data = {**form_of(phone, game_id), **HAND, "kind": "played", "repeat": "1"}
    sent = {"Scorepad-Sent-By": "outbox"}
    assert phone.post(f"/games/{game_id}/hands", data=data, headers=sent).status_code == 303
    assert phone.post(f"/games/{game_id}/hands", data=data, headers=sent).status_code == 303  # sent again
    page = parse(phone.get(f"/games/{game_id}"))
    assert page.select_one("#saved") is None
    assert len(page.select(".hands details")) == 1
