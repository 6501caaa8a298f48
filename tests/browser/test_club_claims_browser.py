"""Who is who and the night on paper, in a real browser: a name tapped on one phone is refused on a second phone
until the director taps Release, and the rotation chart and the players' cards read on a phone at 390×844 and
print on A4 (their screenshots and PDFs are kept in test-artifacts/ to look at)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import ARTIFACTS, PHONE, no_sideways_scroll, post

pytestmark = pytest.mark.browser

TEAMS = [("Ann", "Bea"), ("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal"), ("Ida", "Jo"), ("Kit", "Lou"),
         ("Max", "Ned", "The Long Table Society")]


@pytest.fixture
def phones(context_for):
    """A phone of its own, each call."""
    return lambda: context_for(PHONE)


def partners_night(page, live_server) -> str:
    """Seven teams, four rounds, round 1 started by this page's browser (the director); the night's address."""
    page.goto(f"{live_server}/club/")
    director = post(page, f"{live_server}/club/new", {"name": "Thursday league", "kind": "partners",
                                                      "preset": "double-deck", "round_end": "hands",
                                                      "round_size": "4", "rounds": "4"})
    night = live_server + re.search(r"/club/\d+", director)[0]
    page.goto(live_server + director)
    for team in TEAMS:
        post(page, f"{night}/register", dict(zip(("player_0", "player_1", "team"), team, strict=False)))
    post(page, f"{night}/start", {})
    return night


def test_a_name_is_claimed_once_until_the_director_releases_it(phone, phones, live_server):
    night = partners_night(phone, live_server)
    first, second = phones(), phones()
    for page in (first, second):
        page.goto(f"{night}/tables/1")
        page.get_by_role("button", name="Ann").click()
    expect(first.locator(".seat-line")).to_contain_text("Table 1")
    expect(second.locator("#form-message")).to_have_text(
        "Ann is already claimed on another phone; ask the director to release it.")

    phone.goto(f"{night}/director")
    claim = phone.locator("#claims li", has_text="Ann")
    expect(claim).to_contain_text("Table 1")
    ARTIFACTS.mkdir(exist_ok=True)
    no_sideways_scroll(phone)
    phone.locator("#claims").screenshot(path=str(ARTIFACTS / "club-claims-390.png"))
    second.screenshot(path=str(ARTIFACTS / "club-claim-refused-390.png"))
    claim.get_by_role("button", name="Release Ann").click()
    expect(phone.locator(".flash").first).to_contain_text("Ann is released")
    expect(phone.locator("#no-claims")).to_be_visible()

    second.get_by_role("button", name="Ann").click()
    expect(second.locator(".seat-line")).to_contain_text("Table 1")
    first.goto(f"{night}/me")  # asked who it is again
    expect(first).to_have_url(f"{night}/tables/1")


def test_the_rotation_chart_and_the_players_cards_read_on_a_phone_and_print_on_a4(phone, live_server):
    night = partners_night(phone, live_server)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.goto(f"{night}/director")
    phone.locator("#print-chart").click()
    expect(phone.locator(".chart-round")).to_have_count(4)
    expect(phone.locator("#chart-round-1 .chart-bye")).to_have_text("Bye: The Long Table Society")
    no_sideways_scroll(phone)
    phone.screenshot(path=str(ARTIFACTS / "club-chart-390.png"), full_page=True)
    printed(phone, "club-chart")

    phone.goto(f"{night}/director")
    phone.locator("#print-cards").click()
    expect(phone.locator(".game-card")).to_have_count(14)
    no_sideways_scroll(phone)
    phone.screenshot(path=str(ARTIFACTS / "club-cards-390.png"), full_page=True)
    phone.screenshot(path=str(ARTIFACTS / "club-cards-390-top.png"))
    printed(phone, "club-cards", lambda: (
        # on paper two cards side by side
        len({round(left) for left in phone.locator(".game-card").evaluate_all(
            "cards => cards.map(c => c.getBoundingClientRect().left)")}) == 2))


def printed(page, name: str, check=lambda: True) -> None:
    """The page as printed: the site's bars and the print button gone, and `check` holds; kept as a PDF and a
    screenshot."""
    page.emulate_media(media="print")
    try:
        assert not page.locator(".topbar").is_visible()
        assert not page.locator("[data-print]").is_visible()
        page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
        assert check()
        page.screenshot(path=str(ARTIFACTS / f"{name}-print.png"), full_page=True)
        page.pdf(path=str(ARTIFACTS / f"{name}.pdf"), format="A4", print_background=True)
    finally:
        page.set_viewport_size(PHONE)
        page.emulate_media(media="screen")
