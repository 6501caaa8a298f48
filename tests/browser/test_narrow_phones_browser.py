"""Narrow phones: names as long as the longest allowed stay whole at 320 px, the note after a save never covers
the scoreboard, and the dix is asked in one line a newcomer understands."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import no_sideways_scroll, start_game
from tests.browser.helpers import record_hand as record

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 844}
# three names of the longest allowed (40 characters), one with a hyphenated word, and a short one
LONG_PLAYERS = ["Grandpa Bartholomew at Riverside Meadows", "Aunt Millicent Worthington-Smythe", "Cat"]
assert len(LONG_PLAYERS[0]) == 40

# Every word of `names` on the page, where it is drawn: a word drawn on two lines is broken inside ("Grandp / a",
# "THROW- / IN"); a word reaching past a box that clips it is cut ("Grand…", a third line of a two-line clamp).
CUT_WORDS = """([scope, words]) => {
  const wanted = new Set(words);
  const problems = [];
  const root = document.querySelector(scope);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    if (node.parentElement.closest(".visually-hidden")) continue;  // words for a screen reader, clipped on purpose
    for (const match of text.matchAll(/[^\\s\\-]+-?[^\\s\\-]*/g)) {
      const word = match[0];
      if (!wanted.has(word.replace(/[.,:;·]$/, ""))) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + word.length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      if (!rects.length) continue;  // not shown (a field of another kind of hand)
      const tops = new Set(rects.map(r => Math.round(r.top)));
      const where = node.parentElement.closest("[id], [class]");
      const name = where ? (where.id ? "#" + where.id : "." + [...where.classList].join(".")) : "?";
      if (tops.size > 1) problems.push(`${word} is broken over two lines in ${name}`);
      for (let box = node.parentElement; box && box !== root.parentElement; box = box.parentElement) {
        const style = getComputedStyle(box);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const clip = box.getBoundingClientRect();
        for (const r of rects) {
          const outside = r.left < clip.left - 1 || r.right > clip.right + 1;
          if (outside || r.bottom > clip.bottom + 1 || r.top < clip.top - 1) {
            problems.push(`${word} is cut in ${name}`);
          }
        }
      }
    }
  }
  return [...new Set(problems)];
}"""


def cut_words(page, scope, names):
    words = sorted({w for name in names for w in re.split(r"[\s\-]+", name) if w})
    words += ["Throw-in", "THROW-IN"]
    return page.evaluate(CUT_WORDS, [scope, words])


def test_names_as_long_as_allowed_stay_whole_at_320_px_in_a_cutthroat_game(phone, live_server):
    phone.set_viewport_size(NARROW)
    start_game(phone, live_server, seating="3 players, each for themselves", players=LONG_PLAYERS)
    record(phone, (150, 40, 60), (160, 50), bidder="Grandpa", bid=300)
    record(phone, (50, 40, 100), (), bidder="Cat", bid=300, kind="Throw-in")
    phone.locator("#rare summary").click()
    phone.locator("#field-kind .choice", has_text="Renege").click()
    for scope in ("#scoreboard", "#hand-form", "#sheet"):
        assert cut_words(phone, scope, LONG_PLAYERS) == [], scope
    no_sideways_scroll(phone)


def test_team_and_player_names_as_long_as_allowed_stay_whole_at_320_px(phone, live_server):
    phone.set_viewport_size(NARROW)
    teams = ["The Riverside Farm Grandparents Club", "Their Worthington-Smythe Grandchildren"]
    players = ["Grandpa Bartholomew at Riverside Meadows", "Aunt Millicent Worthington-Smythe",
               "Grandma Philomena Riverside", "Cousin Maximilian Worthington-Smythe"]
    phone.goto(f"{live_server}/games/new")
    for t, team in enumerate(teams):
        phone.fill(f"#team_{t}", team)
    phone.get_by_text("Players and first dealer").click()
    for seat, name in enumerate(players):
        phone.fill(f"#player_{seat}", name)
    phone.get_by_role("button", name="Start the game").click()
    record(phone, (30, 20), (30, 20), bidder="Grandpa", bid=55)
    record(phone, (20, 30), (), bidder="Aunt", bid=60, kind="Throw-in")
    for scope in ("#scoreboard", "#hand-form", "#sheet"):
        assert cut_words(phone, scope, teams + players) == [], scope
    no_sideways_scroll(phone)


def test_everyday_names_of_ten_or_eleven_letters_stay_whole_at_320_px(phone, live_server):
    # not the longest allowed: names a family has, each one word, with wide letters (a bold W or m)
    phone.set_viewport_size(NARROW)
    players = ["Bartholomew", "Wilhelmina", "Maximiliano", "Gwendolyn"]
    start_game(phone, live_server, players=players)
    record(phone, (30, 20), (30, 20), bidder="Bartholomew", bid=55)
    for scope in ("#scoreboard", "#hand-form", "#sheet"):
        assert cut_words(phone, scope, players) == [], scope
    no_sideways_scroll(phone)


def test_the_longest_outcomes_on_the_sheet_stay_whole_at_320_px(phone, live_server):
    """"NO MARRIAGE" was cut to "NO MARRI" in a four-handed sheet's bid column."""
    phone.set_viewport_size(NARROW)
    start_game(phone, live_server, players=["Grandma", "Tom", "Grandpa", "Lucy"])
    record(phone, (30, 8), (), bidder="Tom", bid=50, kind="No marriage")
    record(phone, (20, 30), (), bidder="Grandma", bid=56, kind="Throw-in")
    expect(phone.locator("#sheet .badge-no-marriage")).to_be_visible()
    expect(phone.locator("#sheet .badge-throw-in")).to_be_visible()
    assert phone.evaluate(CUT_WORDS, ["#sheet", ["no", "marriage", "throw-in"]]) == []
    no_sideways_scroll(phone)


@pytest.mark.parametrize("players", [["Grandma", "jake", "Lily"], ["Grace", "Hal", "Lily"]])
def test_everyday_names_and_their_fields_stay_whole_at_320_px_in_a_cutthroat_game(phone, live_server, players):
    """A third of a 320 px phone: "Grandma" was cut to "Gran…" on its bidder button, and every "counters" label
    to "counte…", and the sheet's THROW-IN to THROW-I."""
    phone.set_viewport_size(NARROW)
    start_game(phone, live_server, seating="3 players, each for themselves", players=players)
    record(phone, (50, 40, 100), (), bidder=players[0], bid=300, kind="Throw-in")
    for scope in ("#scoreboard", "#hand-form", "#sheet"):
        assert cut_words(phone, scope, [*players, "meld", "counters"]) == [], scope
    no_sideways_scroll(phone)


def test_the_note_after_a_save_never_covers_the_scoreboard_at_320_px_with_three_players(phone, live_server):
    phone.set_viewport_size(NARROW)
    start_game(phone, live_server, seating="3 players, each for themselves", players=["Ann", "Bob", "Cat"])
    record(phone, (150, 40, 60), (160, 50), bidder="Ann", bid=300)
    note = phone.locator("#saved")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Hand 1 recorded")

    def overlaps():
        box = note.bounding_box()
        hit = []
        for part in phone.locator("#scoreboard .team-name, #scoreboard .total").all():
            other = part.bounding_box()
            if (box["x"] < other["x"] + other["width"] and other["x"] < box["x"] + box["width"]
                    and box["y"] < other["y"] + other["height"] and other["y"] < box["y"] + box["height"]):
                hit.append(part.inner_text())
        return hit

    assert overlaps() == []
    phone.mouse.wheel(0, 150)  # scrolled a little: the scoreboard half on the screen, still not covered
    phone.wait_for_timeout(300)
    assert overlaps() == []


def test_a_meld_of_only_the_nine_of_trump_is_asked_in_words_a_newcomer_understands(phone, live_server):
    start_game(phone, live_server, seating="3 players, each for themselves", players=["Ann", "Bob", "Cat"])
    meld = phone.locator("#meld_0")
    # the question and what it is for on a line or two, then the boxes, one a side (never a name alone on a line)
    for width, lines in ((390, 2), (320, 3)):
        phone.set_viewport_size({"width": width, "height": 844})
        choice = phone.locator("#hand-form [role=group]", has=phone.locator("input[name=dix_only_0]"))
        expect(choice).to_be_visible()
        text = " ".join(choice.inner_text().split())
        assert "dix" not in text.lower() and "only 9s of trump" in text and "without a counter" in text, text
        for side, name in enumerate(["Ann", "Bob", "Cat"]):
            expect(choice.get_by_role("checkbox", name=name)).to_have_attribute("name", f"dix_only_{side}")
        tops = {round(box.bounding_box()["y"]) for box in choice.locator(".check").all()}
        assert len(tops) == 1, f"the boxes stand on {len(tops)} lines at {width} px"
        height = choice.bounding_box()["height"]
        assert height <= lines * max(44, meld.bounding_box()["height"]) + 4, f"{text!r}: {height}px at {width} px"
    choice.get_by_role("checkbox", name="Bob").check()
    phone.locator("#field-bidder .choice", has_text="Ann").click()
    phone.fill("#bid", "250")
    for side, value in enumerate((150, 10, 60)):
        phone.fill(f"#meld_{side}", str(value))
    phone.fill("#counters_0", "200")
    phone.fill("#counters_1", "0")
    expect(phone.locator("#preview")).to_contain_text("Bob")
    phone.locator("button.save-button").click()
    expect(phone.locator("#total-1")).to_have_text("10")  # the nine of trump kept without a counter
    no_sideways_scroll(phone)
