"""A stranger on the same Wi-Fi, or a web page a guest opens: no redirect to another site, no answer to a name
this machine does not have, no change sent from another site's page, and a passcode that cannot be guessed fast."""

import re
from urllib.parse import urljoin, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.web.paths import safe_path
from tests.conftest import parse
from tests.web.test_games import csrf

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
def test_unlocking_goes_back_only_to_a_page_of_this_site(tmp_path, body, passcode_set):
    from scorepad import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "x.db"),
                      "PASSCODE": passcode_set})
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
