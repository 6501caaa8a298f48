"""Behind a reverse proxy at a sub-path (a NAS's web station at /scorepad/, Home Assistant's ingress): every address
a page holds goes under the prefix, from the proxies the owner names only, never from anyone else by default."""

import json
import re

import pytest
from flask import request
from werkzeug.test import Client

from scorepad.web.shell import proxies
from scorepad.web.shell.startup import CannotStart
from tests.helpers import parse
from tests.web.helpers import club_post, csrf, new_game, record

PREFIX = "/scorepad"
BEHIND = {"HTTP_X_FORWARDED_PREFIX": PREFIX + "/", "HTTP_X_FORWARDED_HOST": "nas.example.org",
          "HTTP_X_FORWARDED_PROTO": "https", "HTTP_HOST": "127.0.0.1:8000", "REMOTE_ADDR": "127.0.0.1"}
ADDRESSED = ("href", "src", "action", "hx-get", "hx-post", "hx-put", "hx-delete", "hx-patch", "hx-push-url",
             "data-href", "data-url", "formaction")
HAND = {"bidder": "t0", "bid": "50", "trump": "H", "meld_0": "40", "meld_1": "12", "counters_0": "30",
        "counters_1": "20"}
WIN = {**HAND, "meld_0": "460", "counters_0": "50", "counters_1": "0"}  # 510 of 500 at once


def addresses(page) -> list[str]:
    """Every address on a page that is a path on this site (starts with a single /)."""
    found = [element[name] for name in ADDRESSED for element in page.select(f"[{name}]")]
    return [a for a in found if a.startswith("/") and not a.startswith("//")]


def outside(client, paths) -> dict[str, list[str]]:
    """For each page, the addresses on it that leave the prefix."""
    pages = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        page = parse(response)
        assert page.html["data-root"] == PREFIX, path
        pages[path] = [a for a in addresses(page) if not a.startswith(PREFIX + "/")]
    return {path: found for path, found in pages.items() if found}


class Proxy:
    """A proxy in front of the app (a NAS's web station, Home Assistant's ingress): it passes on what the browser
    asks under `prefix`, without the prefix, with `headers` saying where the browser is; anything else it does
    not have (404). The browser's own request (its path, its cookies) is left as the browser made it."""

    def __init__(self, app, prefix: str, headers: dict):
        self.app, self.prefix, self.headers = app, prefix, headers

    def __call__(self, environ, start_response):
        path = environ["PATH_INFO"]
        if path != self.prefix and not path.startswith(self.prefix + "/"):
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not under the prefix"]
        passed_on = {**environ, **self.headers, "PATH_INFO": path.removeprefix(self.prefix) or "/"}
        return self.app(passed_on, start_response)


class Browser(Client):
    """A browser at `origin` + `prefix`: a path a test names ("/games/new") is asked for under the prefix, as the
    pages' own links are; it names the page a form is sent from (flask-wtf checks it over HTTPS)."""

    def __init__(self, app, prefix: str, headers: dict, origin: str):
        super().__init__(Proxy(app, prefix, headers), response_wrapper=app.response_class, use_cookies=True)
        self.prefix, self.origin = prefix, origin

    def open(self, *args, **kwargs):
        if args and isinstance(args[0], str) and args[0].startswith("/") and not args[0].startswith(self.prefix + "/"):
            args = (self.prefix + args[0], *args[1:])
        kwargs["environ_overrides"] = {"HTTP_REFERER": f"{self.origin}{self.prefix}/",
                                       **kwargs.get("environ_overrides", {})}
        return super().open(*args, **kwargs)


@pytest.fixture
def proxied(app):
    """A browser whose every request reaches the app through the web station on this machine."""
    return Browser(app, PREFIX, BEHIND, "https://nas.example.org")


@pytest.mark.app_config(TRUSTED_PROXIES="127.0.0.1", TRUSTED_HOSTS="nas.example.org")
def test_every_link_form_htmx_address_and_script_of_every_page_goes_under_the_prefix(app, proxied):
    game_id = new_game(proxied, team_0="Grands", team_1="Kids")
    record(proxied, game_id, **HAND)
    won = new_game(proxied)
    record(proxied, won, **WIN)
    assert club_post(proxied, "/club/new", name="Tuesday", kind="progressive", preset="double-deck",
                     round_end="hands", round_size="1", rounds="2").headers["Location"] == f"{PREFIX}/club/1/director"
    [hand] = re.findall(rf"{PREFIX}/games/{game_id}/hands/(\d+)/edit", proxied.get(f"/games/{game_id}").text)
    pages = ["/", "/games/new", f"/games/{game_id}", f"/games/{won}", f"/games/{game_id}/hands/{hand}/edit",
             f"/games/{game_id}/hands/{hand}/delete", f"/games/{game_id}/end", "/history/", f"/history/games/{won}",
             f"/history/games/{game_id}/hands/{hand}", "/players/", "/meld/", "/rules/", "/import", "/about",
             "/club/", "/club/1/director", "/club/1/cards", "/unlock"]
    assert outside(proxied, pages) == {}
    assert proxied.get("/rules").headers["Location"] in (f"{PREFIX}/rules/", f"https://nas.example.org{PREFIX}/rules/")
    manifest = json.loads(proxied.get("/manifest.webmanifest").data)
    assert manifest["start_url"] == f"{PREFIX}/"
    assert all(icon["src"].startswith(f"{PREFIX}/static/") for icon in manifest["icons"])


@pytest.mark.app_config(TRUSTED_PROXIES="127.0.0.1", TRUSTED_HOSTS="nas.example.org")
def test_redirects_the_qr_codes_and_the_cookie_carry_the_prefix_and_the_browsers_own_address(proxied):
    response = proxied.post("/games/new", data={"csrf_token": csrf(proxied), "preset": "double-deck"})
    assert response.status_code == 303 and response.headers["Location"].startswith(f"{PREFIX}/games/")
    cookie = proxied.get_cookie("session", domain="localhost", path=PREFIX)
    assert cookie is not None and cookie.path == PREFIX  # the other apps on the NAS are not sent it
    club_post(proxied, "/club/new", name="Tuesday", kind="progressive", preset="double-deck", round_end="hands",
              round_size="1", rounds="1")
    for name in ("Al", "Bo", "Cy", "Di"):
        assert club_post(proxied, "/club/1/register", player_0=name).status_code == 303
    cards = parse(proxied.get("/club/1/cards")).get_text(" ", strip=True)
    assert f"https://nas.example.org{PREFIX}/club/1/tables/1" in cards  # what each table's QR code opens
    director = parse(proxied.get("/club/1/director")).get_text(" ", strip=True)
    assert f"https://nas.example.org{PREFIX}/club/1/director?key=" in director


@pytest.mark.app_config(TRUSTED_PROXIES="127.0.0.1", PASSCODE="clubs", TRUSTED_HOSTS="nas.example.org")
def test_the_passcode_form_and_where_it_returns_to_stay_under_the_prefix(proxied):
    home = parse(proxied.get("/"))
    unlock = home.select_one(".locked a")["href"]
    assert unlock == f"{PREFIX}/unlock?next={PREFIX}/"
    asked = proxied.post("/games/new", data={"csrf_token": csrf(proxied), "preset": "double-deck"})
    assert asked.status_code == 401
    assert parse(asked).select_one("form")["action"] == f"{PREFIX}/games/new"  # the change is sent on from here
    sent_on = proxied.post("/unlock", data={"csrf_token": csrf(proxied), "passcode": "clubs",
                                            "next": f"{PREFIX}/history/"})
    assert sent_on.headers["Location"] == f"{PREFIX}/history/"
    assert proxied.post("/unlock", data={"csrf_token": csrf(proxied)}).headers["Location"] == f"{PREFIX}/"


@pytest.mark.app_config(TRUSTED_PROXIES="127.0.0.1", TRUSTED_HOSTS="nas.example.org")
def test_count_cards_goes_to_the_calculator_and_back_under_the_prefix(proxied):
    game_id = new_game(proxied)
    response = proxied.post("/meld/start", data={"csrf_token": csrf(proxied), "game_id": str(game_id),
                                                 "count_meld": "0", "bid": "50"})
    assert response.status_code == 303
    assert response.headers["Location"].startswith(f"{PREFIX}/meld/?back={PREFIX}/games/")
    opened = proxied.get(response.headers["Location"], headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert opened.headers["HX-Push-Url"].startswith(f"{PREFIX}/meld/?")
    used = proxied.get(response.headers["Location"] + "&cards=AS+10S+KS+QS+JS&use=1")
    assert used.headers["Location"].startswith(f"{PREFIX}/games/{game_id}?")


def test_without_named_proxies_nobodys_proxy_headers_are_believed(client):
    client.environ_base.update({**BEHIND, "HTTP_HOST": "localhost", "HTTP_X_FORWARDED_FOR": "10.9.8.7"})
    page = parse(client.get("/"))
    assert page.html["data-root"] == ""
    assert all(not a.startswith(PREFIX) for a in addresses(page))
    response = client.post("/games/new", data={"csrf_token": csrf(client), "preset": "double-deck"})
    assert response.headers["Location"].startswith("/games/")


@pytest.mark.app_config(TRUSTED_PROXIES="10.0.0.0/8")
def test_a_phone_that_is_not_a_named_proxy_cannot_move_the_pages_or_say_it_is_someone_else(app):
    seen = {}
    app.before_request(lambda: seen.update(address=request.remote_addr, root=request.script_root,
                                           host=request.host, scheme=request.scheme))
    phone = app.test_client()
    phone.environ_base.update({**BEHIND, "HTTP_HOST": "localhost", "REMOTE_ADDR": "192.168.1.50",
                               "HTTP_X_FORWARDED_FOR": "10.9.8.7"})
    assert phone.get("/").status_code == 200
    assert seen == {"address": "192.168.1.50", "root": "", "host": "localhost", "scheme": "http"}


@pytest.mark.app_config(TRUSTED_PROXIES="172.30.32.0/23")
def test_through_home_assistants_ingress_pages_answer_under_its_path_to_any_name_and_in_its_frame(app):
    seen = {}
    app.before_request(lambda: seen.update(address=request.remote_addr))
    path = "/api/hassio_ingress/Wr7Ds_0-Xq"
    supervisor = {"REMOTE_ADDR": "172.30.32.2", "HTTP_HOST": "homeassistant.local:8123", "HTTP_X_INGRESS_PATH": path,
                  "HTTP_X_FORWARDED_HOST": "homeassistant.local:8123", "HTTP_X_FORWARDED_PROTO": "http",
                  "HTTP_X_FORWARDED_FOR": "192.168.1.23, 172.30.32.1"}
    ingress = Browser(app, path, supervisor, "http://homeassistant.local:8123")
    response = ingress.get("/")
    assert response.status_code == 200
    assert parse(response).html["data-root"] == path
    assert "frame-ancestors 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert seen["address"] == "192.168.1.23"  # the phone, past Home Assistant's two hops
    started = ingress.post("/games/new", data={"csrf_token": csrf(ingress), "preset": "double-deck"},
                           headers={"Origin": "http://homeassistant.local:8123", "Sec-Fetch-Site": "same-origin"})
    assert started.status_code == 303 and started.headers["Location"].startswith(f"{path}/games/")
    # the same headers from anything but Home Assistant: a name Scorepad does not answer to, and never framed
    stranger = Browser(app, path, {**supervisor, "REMOTE_ADDR": "192.168.1.23"}, "http://homeassistant.local:8123")
    refused = stranger.get("/")
    assert refused.status_code == 400 and refused.headers["X-Frame-Options"] == "DENY"


def test_the_middleware_takes_the_client_past_named_proxies_only():
    middleware = proxies.TrustedProxies(lambda environ, start: [], proxies.trusted_networks("172.30.32.0/23", ""))
    assert middleware.client({"REMOTE_ADDR": "172.30.32.2", "HTTP_X_FORWARDED_FOR": "None, 172.30.32.1"}) == \
        "172.30.32.1"  # the supervisor's "None" where nobody said who came before: the nearest address known
    assert middleware.client({"REMOTE_ADDR": "172.30.32.2",
                              "HTTP_X_FORWARDED_FOR": "1.2.3.4, 192.168.1.9, 172.30.32.1"}) == "192.168.1.9"
    assert middleware.client({"REMOTE_ADDR": "172.30.32.2"}) == "172.30.32.2"


@pytest.mark.app_config(TRUSTED_PROXIES="127.0.0.1", TRUSTED_HOSTS="nas.example.org")
@pytest.mark.parametrize("prefix", ['/a"><script>', "scorepad", "/x y", "/\\evil"])
def test_a_prefix_that_is_not_a_path_is_not_used(app, prefix):
    client = app.test_client()
    client.environ_base.update({**BEHIND, "HTTP_X_FORWARDED_PREFIX": prefix})
    assert parse(client.get("/")).html["data-root"] == ""


@pytest.mark.parametrize("setting", ["nas.local", "10.0.0.0/33", "172.30.32.2, everyone"])
def test_a_trusted_proxies_setting_that_names_no_address_stops_the_start_with_a_sentence(make_app, setting):
    with pytest.raises(CannotStart, match="is not an address or a network"):
        make_app(TRUSTED_PROXIES=setting)
