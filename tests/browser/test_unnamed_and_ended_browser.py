"""At 390×844: three players nobody named are "Player 1, 2, 3" on the scoreboard and the bidder buttons alike;
two counters left blank are refused beside the counters with what to type; a game ended unfinished says so
over its totals and counts nothing down."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import no_sideways_scroll, start_game

pytestmark = pytest.mark.browser

THREE = "3 players, each for themselves"


def test_three_unnamed_players_are_player_1_2_3_on_the_scoreboard_and_the_bidder_buttons(phone, live_server):
    start_game(phone, live_server, seating=THREE)
    expect(phone.locator("#scoreboard .deal")).to_have_text("Player 1 deals · Player 2 bids first")
    assert [" ".join(text.split()) for text in phone.locator("#field-bidder .choice").all_inner_texts()] == [
        "Player 1", "Player 2 bids first", "Player 3"]
    no_sideways_scroll(phone)


def test_two_counters_left_blank_are_refused_beside_the_counters_with_what_to_type(phone, live_server):
    start_game(phone, live_server, seating=THREE)
    phone.locator("#field-bidder .choice", has_text="Player 2").click()
    phone.fill("#bid", "250")
    phone.fill("#meld_1", "100")
    phone.locator("#counters_0").press_sequentially("60")
    phone.locator("#counters_1").press_sequentially("150")
    expect(phone.locator("#counters_2")).to_have_value("40")  # all but one typed: the last fills itself in
    phone.locator("#counters_1").fill("")
    expect(phone.locator("#counters_2")).to_have_value("")
    phone.locator("button.save-button").click()
    message = phone.locator("#counters-error")
    expect(message).to_have_text("Type the counters of all players but one (the last is worked out).")
    message.scroll_into_view_if_needed()
    expect(message).to_be_in_viewport()
    expect(phone.locator("#counters_1-error, #counters_2-error")).to_have_count(0)
    expect(phone.locator("#counters_0")).to_have_value("60")
    no_sideways_scroll(phone)


def test_a_game_ended_unfinished_says_so_over_its_totals_and_counts_nothing_down(phone, live_server):
    start_game(phone, live_server, seating=THREE, players=["Ann", "Bob", "Cat"])
    expect(phone.locator("#scoreboard .to-go")).to_have_count(3)
    game = phone.url
    phone.get_by_role("link", name="End this game unfinished").click()
    phone.get_by_role("button", name="End the game").click()
    expect(phone.locator(".flash")).to_contain_text("ended unfinished")
    phone.goto(game)
    expect(phone.locator("#scoreboard .target")).to_contain_text("Ended unfinished")
    expect(phone.locator("#scoreboard .total")).to_have_text(["0", "0", "0"])
    expect(phone.locator("#scoreboard .to-go, #scoreboard .deal")).to_have_count(0)
    no_sideways_scroll(phone)


def test_the_score_sheet_heads_three_unnamed_players_in_full_not_play_dot_dot_dot(phone, live_server):
    start_game(phone, live_server, seating=THREE)
    phone.locator("#field-bidder .choice", has_text="Player 1").click()
    phone.fill("#bid", "250")
    for field, value in (("meld_0", "100"), ("counters_0", "100"), ("counters_1", "80")):
        phone.locator(f"#{field}").press_sequentially(value)
    phone.locator("button.save-button").click()
    heads = phone.locator(".sheet-head [class^=team-]")
    expect(heads).to_have_text(["Player 1", "Player 2", "Player 3"])
    cut = heads.evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight"
                             " || e.getClientRects()[0].height > 1.5 * parseFloat(getComputedStyle(e).lineHeight))"
                             ".map(e => e.textContent)")
    assert cut == []  # each name whole, on one line
    no_sideways_scroll(phone)
