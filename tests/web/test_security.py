"""A stranger on the same Wi-Fi, or a web page a guest opens: no redirect to another site, no answer to a name
this machine does not have, no change sent from another site's page, and a passcode that cannot be guessed fast."""

import ipaddress
import logging
import re
from urllib.parse import urljoin, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.web.shell import passcode
from scorepad.web.shell.guards import OwnHosts, machine_names
from scorepad.web.shell.paths import safe_path
from scorepad.web.shell.serve import banner
from tests.helpers import parse
from tests.web.helpers import csrf, form_of, hands_stored, new_game

# --- redirects: only to a page of this site --------------------------------------------------------------------

BROWSER_TRIMS = "".join(map(chr, range(0x21)))


def browser_reads(location: str) -> str:
    """What a browser makes of a Location (the WHATWG URL parser's first steps, for an http page)."""
    return re.sub("[\t\n\r]", "", location.strip(BROWSER_TRIMS)).replace("\\", "/")


def stays_on_this_site(location: str) -> bool:
    read = browser_reads(location)
    leaves_for_a_browser = read.startswith("//") or re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", read)
    parts = urlsplit(location)
    return (not leaves_for_a_browser and parts.scheme == "" and parts.netloc == ""
            and urlsplit(urljoin("http://scorepad.local/", location)).netloc == "scorepad.local")


TRICKS = ["/", "\\", "\t", "\n", "\r", " ", "\x00", "\x1f", "\x7f", "evil.example", "http:", "javascript:",
          "@", ".", "?", "#", "%0A", "%2F", "%5C", "é", "\u3000", "／"]


@given(st.one_of(st.text(), st.lists(st.sampled_from(TRICKS), max_size=8).map("".join)))
def test_a_safe_path_is_the_home_page_or_a_path_that_python_and_a_browser_both_keep_on_this_site(text):
    path = safe_path(text)
    assert path == "/" or (path.startswith("/") and stays_on_this_site(path))
    assert path.isascii() and path.isprintable()  # fits a Location or HX-Redirect header as it is
    assert safe_path(path) == path


@pytest.mark.parametrize("text, path", [
    ("/games/7", "/games/7"),
    ("/games/7?meld_0=8&bid=55#record", "/games/7?meld_0=8&bid=55#record"),
    (" /games/7\n", "/games/7"),
    ("/ga\tmes/7", "/games/7"),
    ("/joueurs/é", "/joueurs/%C3%A9"),
    ("/\t/evil.example", "/"),
    ("/\n/x", "/"),
    ("/\\evil.example", "/"),
    ("\\/evil.example", "/"),
    (" //evil.example", "/"),
    ("\x00//evil.example", "/"),
    ("https://evil.example/", "/"),
    ("javascript:alert(1)", "/"),
    ("games/7", "/"),
    ("/a\x07b", "/"),
    ("/" + "a" * 5000, "/"),
    (None, "/"),
])
def test_a_path_is_kept_as_a_browser_reads_it_or_replaced_by_the_home_page(text, path):
    assert safe_path(text) == path


NEXT_BODIES = ["next=/%09/evil.example", "next=/%0A/x", "next=/%0D%0A/evil.example", "next=%5C/evil.example",
               "next=/%5Cevil.example", "next=%20//evil.example", "next=http://evil.example"]


@pytest.mark.parametrize("body", NEXT_BODIES)
@pytest.mark.parametrize("passcode_set", [None, "clubs"])
def test_unlocking_goes_back_only_to_a_page_of_this_site(make_app, body, passcode_set):
    app = make_app(PASSCODE=passcode_set)
    client = app.test_client()
    sent = f"{body}&passcode=clubs&csrf_token={csrf(client)}"
    response = client.post("/unlock", data=sent, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_the_unlock_page_carries_only_a_path_of_this_site(client):
    page = parse(client.get("/unlock", query_string={"next": "/\t/evil.example"}))
    assert page.select_one("input[name=next]")["value"] == "/"


@pytest.mark.parametrize("query", ["back=/%09/evil.example", "back=/%0A/evil.example", "back=%09//evil.example",
                                   "back=%5C%5Cevil.example", "back=/%5C/evil.example"])
@pytest.mark.parametrize("htmx", [False, True])
def test_the_meld_calculator_never_carries_back_to_another_site(client, query, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get(f"/meld/?{query}&cards=QS+JD&use=1", headers=headers)
    assert response.status_code == 200
    assert "Location" not in response.headers and "HX-Redirect" not in response.headers
    assert parse(response).select_one("input[name=back]") is None


def test_the_meld_calculator_carries_back_as_plain_ascii(client):
    response = client.get("/meld/", query_string={"back": "/games/é", "cards": "QS JD", "use": "1"},
                          headers={"HX-Request": "true"})
    assert response.headers["HX-Redirect"].startswith("/games/%C3%A9?meld_0=4")


# --- DNS rebinding: only this machine's names and addresses, and the configured ones ----------------------------

LAN = ipaddress.ip_address("192.168.1.20")


class Clock:
    def __init__(self, now: float = 1000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def lan_app(app):
    """The app on a machine whose network address is 192.168.1.20 (until a test changes it)."""
    app.extensions["scorepad_hosts"] = OwnHosts([], addresses=lambda: frozenset({LAN}))
    return app


NAME = sorted(machine_names() - {"localhost"})[0]


@pytest.mark.parametrize("host, status", [
    ("localhost", 200), ("LOCALHOST:8000", 200), ("127.0.0.1", 200), ("127.0.0.1:5000", 200), ("127.0.1.1", 200),
    ("[::1]", 200), ("[::1]:8000", 200), (NAME, 200), (f"{NAME}.local:8000", 200), ("192.168.1.20:8000", 200),
    ("evil.example", 400), ("evil.example:8000", 400), ("localhost.evil.example", 400), ("192.168.1.21:8000", 400),
    ("[fe80::1]:8000", 400), ("", 400), ("localhost@evil.example", 400), ("evil.example/localhost", 400),
])
def test_only_this_machines_names_and_addresses_are_answered(lan_app, host, status):
    response = lan_app.test_client().get("/", headers={"Host": host})
    assert response.status_code == status


def test_a_refused_address_says_which_setting_to_change_and_changes_nothing(lan_app, caplog):
    caplog.set_level(logging.WARNING)
    client = lan_app.test_client()
    token = csrf(client)
    response = client.post("/games/new", data={"csrf_token": token}, headers={"Host": "rebound.evil.example"})
    assert response.status_code == 400
    words = parse(response).select_one("main").get_text()
    assert "rebound.evil.example" in words and "TRUSTED_HOSTS" in words and "SCOREPAD_TRUSTED_HOSTS" in words
    assert parse(client.get("/")).select_one(".game-item") is None
    assert any("rebound.evil.example" in r.message for r in caplog.records)


def test_names_can_be_configured_in_the_instance_config_or_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("SCOREPAD_TRUSTED_HOSTS", " pinochle.lan , 10.8.0.1,[fd00::7]")
    app = make_app(TRUSTED_HOSTS=["scores.example.org", ".home.arpa"])
    client = app.test_client()
    for host in ("scores.example.org", "pinochle.lan:8000", "10.8.0.1", "[fd00:0::7]:80", "pi.home.arpa"):
        assert client.get("/", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example", "home.arpa.evil.example", "scores.example.org.evil.example"):
        assert client.get("/", headers={"Host": host}).status_code == 400, host


def test_a_new_address_from_dhcp_is_answered_within_seconds_and_the_old_one_no_longer():
    clock, now_has, reads = Clock(), {LAN}, []

    def addresses():
        reads.append(clock.now)
        return frozenset(now_has)

    hosts = OwnHosts([], addresses=addresses, clock=clock)
    assert hosts.accepts("192.168.1.20:8000") and not hosts.accepts("192.168.1.57:8000")
    assert hosts.accepts("localhost") and hosts.accepts("evil.example") is False
    assert len(reads) == 1  # read once, then kept for a few seconds
    now_has = {ipaddress.ip_address("192.168.1.57")}
    clock.now += 5
    assert hosts.accepts("192.168.1.57:8000") and not hosts.accepts("192.168.1.20:8000")
    assert len(reads) == 2


@pytest.mark.parametrize("host", ["0.0.0.0", "127.0.0.1", "::1", "localhost"])
def test_every_address_the_server_prints_opens_the_app(app, host):
    urls = re.findall(r"http://\S+", banner(host, 8000, qr=False))
    assert urls
    client = app.test_client()
    for url in urls:
        assert client.get("/", base_url=url).status_code == 200, url


def test_the_server_answers_to_the_name_it_was_told_to_listen_on(tmp_path, monkeypatch):
    from types import SimpleNamespace

    from scorepad.web.shell import serve

    served = {}
    monkeypatch.setenv("SCOREPAD_DATABASE", str(tmp_path / "x.db"))
    monkeypatch.setattr(serve, "create_server", lambda app, **kw: served.update(app=app, **kw) or SimpleNamespace(
        print_listen=lambda _: None, run=lambda: None))
    serve.main(["--host", "scorepad.example", "--port", "8123", "--no-qr"])
    client = served["app"].test_client()
    assert client.get("/", base_url="http://scorepad.example:8123/").status_code == 200
    assert client.get("/", base_url="http://evil.example:8123/").status_code == 400


# --- changes sent from another site's page -----------------------------------------------------------------------

REFUSED = [{"Origin": "http://evil.example"}, {"Origin": "null"}, {"Origin": "http://localhost:8000"},
           {"Origin": "https://localhost"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
           {"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost"}]
ALLOWED = [{}, {"Origin": "http://localhost"}, {"Origin": "HTTP://LOCALHOST"},
           {"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"}, {"Sec-Fetch-Site": "none"}]


@pytest.mark.parametrize("headers, refused", [(h, True) for h in REFUSED] + [(h, False) for h in ALLOWED])
def test_a_change_sent_from_another_sites_page_is_refused_in_words_and_watching_stays_open(app, client, headers,
                                                                                            refused):
    game_id = new_game(client)
    data = {**form_of(client, game_id), "kind": "played", "bidder": "t0", "bid": "50", "counters_0": "50"}
    response = client.post(f"/games/{game_id}/hands", data=data, headers=headers)
    if refused:
        assert response.status_code == 403
        assert "another website" in parse(response).select_one("main").get_text()
        assert hands_stored(app, game_id) == 0
    else:
        assert response.status_code == 303
        assert hands_stored(app, game_id) == 1
    assert client.get(f"/games/{game_id}", headers=headers).status_code == 200  # watching needs nothing


@pytest.mark.app_config(PASSCODE="clubs")
def test_another_sites_page_cannot_spend_the_passcode_guesses(app):
    client = app.test_client()
    token = csrf(client)
    for _ in range(10):
        sent = client.post("/unlock", data={"csrf_token": token, "passcode": "nope"},
                           headers={"Origin": "http://evil.example"})
        assert sent.status_code == 403
    assert client.post("/unlock", data={"csrf_token": token, "passcode": "clubs"}).status_code == 303


# --- the session cookie ---------------------------------------------------------------------------------------------

def test_the_session_cookie_stays_on_this_site_and_out_of_scripts(client):
    cookie = client.get("/games/new").headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie
    assert "Secure" not in cookie  # families serve plain http on their own network


# --- passcode guesses from many addresses --------------------------------------------------------------------------

@pytest.fixture
def locked(make_app):
    """A table with a passcode whose guess counter runs on a clock the test moves."""
    app = make_app(PASSCODE="clubs")
    app.clock = Clock()
    app.extensions["scorepad_guesses"] = passcode.Guesses(clock=app.clock)
    return app


def guess(client, word: str, address: str, token: str | None = None):
    return client.post("/unlock", data={"csrf_token": token or csrf(client), "passcode": word},
                       environ_base={"REMOTE_ADDR": address})


def test_many_addresses_share_one_budget_and_an_address_that_guessed_wrong_then_waits_its_turn(locked):
    client = locked.test_client()
    for n in range(passcode.EVERYONE_FREE_GUESSES):
        assert guess(client, "nope", f"10.0.0.{n}").status_code == 403
    blocked = guess(client, "clubs", "10.0.0.5")  # even the right passcode: it is not checked while it waits
    assert blocked.status_code == 429
    assert parse(blocked).select_one("#passcode-error").get_text() == \
        f"Too many wrong guesses. Wait {passcode.EVERYONE_REFILL_SECONDS} seconds, then try again."
    locked.clock.now += passcode.EVERYONE_REFILL_SECONDS
    assert guess(client, "nope", "10.0.0.6").status_code == 403  # one more, once one has come back
    assert guess(client, "nope", "10.0.0.7").status_code == 429
    locked.clock.now += passcode.EVERYONE_REFILL_SECONDS
    assert guess(client, "clubs", "10.0.0.5").status_code == 303


def attack(client, clock, seconds: float, every: float, addresses: list[str], phone=None):
    """One machine sending a wrong guess every `every` seconds, from each of `addresses` in turn, for `seconds`;
    `phone(t)` is called each time too. Returns how many of its guesses were checked (answered "not the
    passcode")."""
    checked, start, n, token = 0, clock.now, 0, csrf(client)
    while clock.now - start < seconds:
        checked += guess(client, "nope", addresses[n % len(addresses)], token).status_code == 403
        if phone:
            phone(clock.now - start)
        clock.now += every
        n += 1
    return checked


@pytest.mark.parametrize("pool, seconds", [(20, 120), pytest.param(254, 600, marks=pytest.mark.slow)])
def test_a_phone_with_the_right_passcode_gets_in_at_once_while_a_machine_rotating_addresses_keeps_the_budget_spent(
        locked, pool, seconds):
    """The household's newcomer is never kept out by a guesser with up to a home network's worth of addresses;
    and the guesses that guesser gets checked stay within the shared budget plus one for each address."""
    client = locked.test_client()
    addresses = [f"192.168.1.{n + 1}" for n in range(pool)]
    tries = []

    def phone(t):
        if t % 15 < 0.5:  # a new phone tries the right passcode every 15 s
            tries.append(guess(locked.test_client(), "clubs", f"192.168.2.{len(tries) + 1}").status_code)

    checked = attack(client, locked.clock, seconds, 0.5, addresses, phone)
    assert len(tries) == seconds // 15 and set(tries) == {303}
    assert checked <= passcode.EVERYONE_FREE_GUESSES + pool + seconds // passcode.EVERYONE_REFILL_SECONDS


def checked_in_an_hour(address_of) -> int:
    """Wrong guesses checked in an hour for a guesser that sends one every 0.1 s, from `address_of(n)`."""
    clock = Clock()
    guesses = passcode.Guesses(clock=clock)
    checked = 0
    for _ in range(36_000):
        if guesses.admit(address_of(checked)) == 0:
            guesses.wrong(address_of(checked))
            checked += 1
        clock.now += 0.1
    return checked


BEFORE = 1170  # what the one-minute window this budget replaced let such a guesser check in an hour


@pytest.mark.parametrize("name, address_of", [
    ("a new address every guess", lambda n: f"10.{n // 65536}.{n // 256 % 256}.{n % 256}"),
    ("a home /24, in turn", lambda n: f"192.168.1.{n % 254 + 1}"),
    ("a new IPv6 address every guess", lambda n: f"fd00::{n:x}"),
])
def test_guessing_from_many_addresses_is_slower_than_before(name, address_of):
    checked = checked_in_an_hour(address_of)
    hour = 3600 // passcode.EVERYONE_REFILL_SECONDS
    assert checked <= passcode.EVERYONE_FREE_GUESSES + passcode.NEWCOMERS_AHEAD + hour
    assert checked < BEFORE


def test_a_guess_borrowed_by_a_newcomer_is_paid_back_before_an_address_that_guessed_wrong_is_heard():
    clock = Clock()
    guesses = passcode.Guesses(clock=clock)
    for n in range(passcode.EVERYONE_FREE_GUESSES + 10):  # twenty from the budget, ten borrowed by newcomers
        assert guesses.admit(f"10.0.0.{n}") == 0
        guesses.wrong(f"10.0.0.{n}")
    assert guesses.admit("10.0.0.1") == 11 * passcode.EVERYONE_REFILL_SECONDS
    clock.now += 10 * passcode.EVERYONE_REFILL_SECONDS
    assert guesses.admit("10.0.0.1") == passcode.EVERYONE_REFILL_SECONDS
    clock.now += passcode.EVERYONE_REFILL_SECONDS
    assert guesses.admit("10.0.0.1") == 0


def test_newcomers_borrow_no_more_than_their_limit_and_then_wait_like_everyone():
    guesses = passcode.Guesses(clock=Clock())
    for n in range(passcode.EVERYONE_FREE_GUESSES + passcode.NEWCOMERS_AHEAD):
        assert guesses.admit(f"10.0.{n // 256}.{n % 256}") == 0
        guesses.wrong(f"10.0.{n // 256}.{n % 256}")
    assert guesses.admit("10.9.9.9") > 0


def test_a_right_guess_gives_its_share_of_the_budget_back():
    guesses = passcode.Guesses(clock=Clock())
    for n in range(passcode.EVERYONE_FREE_GUESSES * 3):
        assert guesses.admit(f"10.0.0.{n}") == 0
        guesses.right(f"10.0.0.{n}")
    for n in range(passcode.EVERYONE_FREE_GUESSES):
        assert guesses.admit(f"10.0.1.{n}") == 0


@pytest.mark.parametrize("address, who", [("10.0.0.1", "10.0.0.1"), ("::ffff:10.0.0.1", "10.0.0.1"),
                                          ("fd00::1:2:3:4", "fd00::/64"), ("fd00::9", "fd00::/64"),
                                          ("unknown", "unknown")])
def test_one_machine_is_one_guesser_however_many_ipv6_addresses_it_takes(address, who):
    assert passcode.guesser(address) == who


def test_one_address_still_waits_after_its_own_free_guesses(locked):
    client = locked.test_client()
    for _ in range(passcode.FREE_GUESSES + 1):
        assert guess(client, "nope", "10.0.0.1").status_code == 403
    assert guess(client, "clubs", "10.0.0.1").status_code == 429
    assert guess(client, "clubs", "10.0.0.2").status_code == 303  # another device is not held up by this one


def test_counts_for_more_addresses_than_are_kept_forget_the_oldest():
    guesses = passcode.Guesses(clock=Clock())
    assert guesses.wrong("10.0.0.1") == 1
    for n in range(passcode.TRACKED_ADDRESSES):
        guesses.wrong(f"10.1.{n // 256}.{n % 256}")
    assert guesses.wrong("10.0.0.1") == 1
    last = passcode.TRACKED_ADDRESSES - 1
    assert guesses.wrong(f"10.1.{last // 256}.{last % 256}") == 2


@pytest.mark.parametrize("refusal, status", [(passcode.WRONG, 403), (passcode.waiting(7), 429)])
def test_a_refused_guess_carries_its_own_status(refusal, status):
    assert refusal.status == status


# --- the size of a form ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/games/new", "/games/1/hands", "/players/1/rename", "/unlock"])
def test_a_form_far_larger_than_any_form_is_refused_before_it_is_read(client, path):
    """Tens of megabytes of percent-encoded text cost minutes to decode: refused by length alone."""
    from scorepad.web.shell.guards import FORM_BYTES

    response = client.post(path, data={"team_0": "%41" * (FORM_BYTES // 3 + 1)})
    assert response.status_code == 413
    assert "nothing was changed" in response.get_data(as_text=True)
    assert client.get("/").status_code == 200


def test_an_ordinary_form_is_well_under_the_limit(client):
    from scorepad.web.shell.guards import FORM_BYTES

    every_house_rule = {name: "9" * 12 for name in [f"f{i}" for i in range(40)]}
    assert len("&".join(f"{k}={v}" for k, v in every_house_rule.items())) * 10 < FORM_BYTES
    response = client.post("/games/new", data={**every_house_rule, "team_0": "Us"})
    assert response.status_code != 413
