"""Starting a game at the table: who deals first is chosen by the names just typed, not by compass points."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def deal_choices(page) -> list[str]:
    return [text.strip() for text in page.locator("#field-first_dealer .choice").all_inner_texts()]


def test_deals_first_offers_the_names_as_they_are_typed_and_the_game_starts_with_the_one_picked(
        phone, live_server):
    phone.goto(f"{live_server}/games/new")
    phone.get_by_text("Players and first dealer").click()
    assert deal_choices(phone) == ["North", "East", "South", "West"]
    for i, name in enumerate(["Ann", "Bo", "Cy"]):
        phone.locator(f"#player_{i}").press_sequentially(name)
    assert deal_choices(phone) == ["Ann", "Bo", "Cy", "West"]
    phone.fill("#player_3", "Di")
    phone.fill("#player_1", "")  # cleared: the seat's word again
    assert deal_choices(phone) == ["Ann", "East", "Cy", "Di"]
    phone.fill("#player_1", "Bo")
    phone.locator("#field-first_dealer .choice", has_text="Cy").click()
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("#record-heading")).to_contain_text("Cy deals")
    assert phone.js_errors == []


def test_without_javascript_a_refused_form_names_the_dealers_by_what_was_typed(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/games/new")
    page.get_by_text("Players and first dealer").click()
    for i, name in enumerate(["Ann", "Bo", "Ann", "Di"]):  # the same name twice: refused, as typed
        page.fill(f"#player_{i}", name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#field-players, .field-error").first).to_be_visible()
    assert deal_choices(page) == ["Ann", "Bo", "Ann", "Di"]
    context.close()


def test_deals_first_follows_the_names_typed_in_every_seat_of_every_table_the_app_seats(phone, live_server):
    """Two to eight players (the seatings of RULES.md §6): the last seat's name shows as soon as the first's."""
    for seating, seats in (("2x1", 2), ("3x1", 3), ("2x3", 6), ("3x2", 6), ("2x4", 8)):
        phone.goto(f"{live_server}/games/new?seating={seating}")
        if not phone.locator("#player_0").is_visible():
            phone.get_by_text("Players and first dealer").click()
        names = [f"P{seat}x" for seat in range(seats)]
        for seat, name in enumerate(names):
            phone.fill(f"#player_{seat}", name)
        assert deal_choices(phone) == names, seating
    assert phone.js_errors == []
