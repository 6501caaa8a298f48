"""The rules page: every preset in words, as the game pages will show them."""

from scorepad.core.rules import PRESETS
from scorepad.core.rules_in_words import describe
from tests.helpers import parse


def test_the_rules_page_lists_every_preset_in_words(client):
    response = client.get("/rules/")
    assert response.status_code == 200
    page = parse(response)
    sections = page.select("section.card")
    assert [s["id"] for s in sections] == list(PRESETS)
    for section in sections:
        rules = PRESETS[section["id"]]
        assert section.h2.get_text(strip=True) == rules.title
        assert [li.get_text() for li in section.select("ul.rules-list li")] == describe(rules)


def test_one_preset_has_its_own_page(client):
    page = parse(client.get("/rules/single-deck"))
    assert [s["id"] for s in page.select("section.card")] == ["single-deck"]


def test_an_unknown_preset_is_a_friendly_404(client):
    response = client.get("/rules/strip-pinochle")
    assert response.status_code == 404
    assert parse(response).h1.get_text() == "Not found"


def test_pages_carry_security_headers(client):
    response = client.get("/rules/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_secret_key_is_made_once_in_the_instance_folder(tmp_path):
    from scorepad.web.shell.app import _secret_key

    path = tmp_path / "secret_key"
    first = _secret_key(path)
    assert len(first) == 64 and _secret_key(path) == first
    assert oct(path.stat().st_mode & 0o777) == "0o600"
