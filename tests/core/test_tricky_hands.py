"""Tricky hands across every preset, each with its full explanation pinned line by line: what a player
reads is where a dispute is won or lost."""

from dataclasses import replace

import pytest

from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, score_hand

DD = PRESETS["double-deck"]
SHG = PRESETS["double-deck-shg"]
BICYCLE = PRESETS["double-pack-bicycle"]
GR = PRESETS["double-deck-gamerules"]
SD = PRESETS["single-deck"]
THREE = PRESETS["three-handed"]
THREE_DOUBLE = PRESETS["three-handed-double"]
TWO = PRESETS["two-handed"]
TRIPLE = PRESETS["six-handed-triple"]

# (what the hand is, rules, hand, points (team 0, team 1), explanation)
CASES = [
    ("three decks: 30 meld on the board, 30 counters to save it, half again the family numbers",
     TRIPLE, Hand(0, 80, (40, 35), (45, 30)), (85, 65), [
        "Bidders' meld 40 is on the board (30 needed).",
        "Bidders took 45 counters: meld saved (30 needed).",
        "Bidders made 85 (meld 40 + counters 45) against a bid of 80: +85.",
        "Opponents' meld 35 is on the board (30 needed).",
        "Opponents took 30 counters: meld saved (30 needed).",
        "Opponents score +65 (meld 35 + counters 30).",
    ]),
    ("three decks: bidders with 25 of 75 counters are set whatever their meld",
     TRIPLE, Hand(1, 90, (25, 50), (50, 25)), (50, -90), [
        "Bidders' meld 50 is on the board (30 needed).",
        "Bidders took 25 counters: fewer than the 30 needed to make any bid; set, −90.",
        "Opponents' meld 25 is not on the board (30 needed).",
        "Opponents took 50 counters (30 needed to score).",
        "Opponents score +50 (counters 50).",
    ]),
    ("002: a set for fewer than 20 counters, whatever the meld",
     DD, Hand(0, 60, (45, 30), (18, 32)), (-60, 62), [
        "Bidders' meld 45 is on the board (20 needed).",
        "Bidders took 18 counters: fewer than the 20 needed to make any bid; set, −60.",
        "Opponents' meld 30 is on the board (20 needed).",
        "Opponents took 32 counters: meld saved (20 needed).",
        "Opponents score +62 (meld 30 + counters 32).",
    ]),
    ("002: meld not on the board, the counters alone make the bid",
     DD, Hand(0, 50, (18, 0), (50, 0)), (50, 0), [
        "Bidders' meld 18 is not on the board (20 needed).",
        "Bidders took 50 counters (20 needed to score).",
        "Bidders made 50 (counters 50) against a bid of 50: +50.",
        "Opponents have no meld.",
        "Opponents took 0 counters: not enough to score (20 needed).",
        "Opponents score nothing.",
    ]),
    ("002: opponents with meld who take 19 counters score nothing",
     DD, Hand(0, 50, (30, 30), (31, 19)), (61, 0), [
        "Bidders' meld 30 is on the board (20 needed).",
        "Bidders took 31 counters: meld saved (20 needed).",
        "Bidders made 61 (meld 30 + counters 31) against a bid of 50: +61.",
        "Opponents' meld 30 is on the board (20 needed).",
        "Opponents took 19 counters: meld not saved (20 needed); nothing scores.",
        "Opponents score nothing.",
    ]),
    ("002: bid 65 on meld 40 is made with exactly 25 counters",
     DD, Hand(0, 65, (40, 20), (25, 25)), (65, 45), [
        "Bidders' meld 40 is on the board (20 needed).",
        "Bidders took 25 counters: meld saved (20 needed).",
        "Bidders made 65 (meld 40 + counters 25) against a bid of 65: +65.",
        "Opponents' meld 20 is on the board (20 needed).",
        "Opponents took 25 counters: meld saved (20 needed).",
        "Opponents score +45 (meld 20 + counters 25).",
    ]),
    ("002: bid 65 on meld 40 is set with 24 counters",
     DD, Hand(0, 65, (40, 20), (24, 26)), (-65, 46), [
        "Bidders' meld 40 is on the board (20 needed).",
        "Bidders took 24 counters: meld saved (20 needed).",
        "Bidders are set: they have 64 (meld 40 + counters 24), short of the bid of 65: −65.",
        "Opponents' meld 20 is on the board (20 needed).",
        "Opponents took 26 counters: meld saved (20 needed).",
        "Opponents score +46 (meld 20 + counters 26).",
    ]),
    ("002: no marriage in trump, the disputed award",
     DD, Hand(1, 55, (0, 25), kind="no_marriage"), (20, -55), [
        "Bidders have no marriage in trump (scored as a throw-in): −55.",
        "Opponents have no meld.",
        "Some tables read this rule as meld only; this table adds 20 for the cards.",
        "Opponents score +20 (20 for the cards).",
    ]),
    ("002: a stuck dealer with no marriage gives meld only",
     DD, Hand(0, 50, (0, 25), kind="no_marriage", forced=True), (-50, 25), [
        "Bidders have no marriage in trump (scored as a throw-in): −50.",
        "Opponents' meld 25 is on the board (20 needed).",
        "The bid was forced on the dealer, who has no marriage, so the opponents get their meld only.",
        "Opponents score +25 (meld 25).",
    ]),
    ("002: a stuck dealer who throws in gives the 20 for the cards",
     DD, Hand(0, 50, (20, 25), kind="throw_in", forced=True), (-50, 45), [
        "Bidders threw in the hand: −50.",
        "Opponents' meld 25 is on the board (20 needed).",
        "Opponents score +45 (meld 25 + 20 for the cards).",
    ]),
    ("002: a renege by the bidders",
     DD, Hand(1, 60, (30, 22), kind="renege", renege_team=1), (50, -60), [
        "Bidders reneged: −60.",
        "Opponents' meld 30 is on the board (20 needed).",
        "Opponents score +50 (meld 30 + 20 for the cards).",
    ]),
    ("002: a renege by the opponents, a disputed reading",
     DD, Hand(1, 60, (30, 22), kind="renege", renege_team=0), (-60, 60), [
        "Opponents reneged: the bidders score their bid, +60.",
        "Opponents lose the bid: −60. This table scores an opponents' renege as −bid; some tables play 0.",
    ]),
    ("002: a quadruple run in trump",
     DD, Hand(0, 70, (0, 0), kind="quad_run"), (0, 0), [
        "Bidders melded a quadruple run in trump: under these rules it wins the game outright (“You "
        "Win!”). The hand is not played and nothing is added to either total.",
    ]),
    ("002 under chip scoring: a throw-in costs nothing, the opponents score the bid",
     replace(DD, set_penalty="chips"), Hand(0, 60, (20, 25), kind="throw_in"), (0, 105), [
        "Bidders threw in the hand. Under chip scoring they lose nothing; the opponents score the bid.",
        "Opponents' meld 25 is on the board (20 needed).",
        "Opponents score +105 (meld 25 + 20 for the cards + the failed bid 60).",
    ]),
    ("001: an automatic throw-in drops the counters typed",
     SHG, Hand(0, 80, (25, 30), (30, 20)), (-80, 30), [
        "Automatic throw-in: a bid of 80 is more than the bidders' meld 25 + 50, so it cannot be made.",
        "The counters typed (30 and 20) do not count: the hand is not played out.",
        "Bidders threw in the hand: −80.",
        "Opponents' meld 30 is on the board (20 needed).",
        "Opponents score +30 (meld 30).",
    ]),
    ("001: bidders below 20 meld throw in automatically",
     SHG, Hand(0, 50, (15, 30)), (-50, 30), [
        "Automatic throw-in: the bidders' meld 15 is below the 20 needed to be on the board.",
        "Bidders threw in the hand: −50.",
        "Opponents' meld 30 is on the board (20 needed).",
        "Opponents score +30 (meld 30).",
    ]),
    ("001: no marriage in trump: set before play, no meld scores",
     SHG, Hand(0, 50, (30, 30), kind="no_marriage"), (-50, 0), [
        "Bidders have no marriage in trump: −50.",
        "Neither side scores meld: opponents score nothing.",
    ]),
    ("001: unsaved counters still score",
     SHG, Hand(0, 50, (30, 25), (19, 31)), (-50, 56), [
        "Bidders' meld 30 is on the board (20 needed).",
        "Bidders took 19 counters: meld not saved (20 needed); the counters still score.",
        "Bidders are set: they have 19 (counters 19), short of the bid of 50: −50.",
        "Opponents' meld 25 is on the board (20 needed).",
        "Opponents took 31 counters: meld saved (20 needed).",
        "Opponents score +56 (meld 25 + counters 31).",
    ]),
    ("001: opponents without a counter lose their meld",
     SHG, Hand(0, 50, (40, 30), (50, 0)), (90, 0), [
        "Bidders' meld 40 is on the board (20 needed).",
        "Bidders took 50 counters: meld saved (20 needed).",
        "Bidders made 90 (meld 40 + counters 50) against a bid of 50: +90.",
        "Opponents' meld 30 is on the board (20 needed).",
        "Opponents took 0 counters: meld not saved.",
        "Opponents score nothing.",
    ]),
    ("001 under chip scoring: an opponents' renege costs them nothing",
     replace(SHG, set_penalty="chips"), Hand(0, 60, (30, 30), kind="renege", renege_team=1), (60, 0), [
        "Opponents reneged: the bidders score their bid, +60.",
        "Under chip scoring the opponents lose nothing.",
    ]),
    ("000: the last trick alone saves the opponents' meld",
     BICYCLE, Hand(0, 500, (300, 150), (480, 20)), (780, 170), [
        "Bidders' meld 300 counts.",
        "Bidders took 480 counter points: meld saved (a counter or the last trick saves it).",
        "Bidders made 780 (meld 300 + counters 480) against a bid of 500: +780.",
        "Opponents' meld 150 counts.",
        "Opponents took 20 counter points: meld saved (a counter or the last trick saves it).",
        "Opponents score +170 (meld 150 + counters 20).",
    ]),
    ("000: opponents without a counter or the last trick",
     BICYCLE, Hand(0, 500, (300, 150), (500, 0)), (800, 0), [
        "Bidders' meld 300 counts.",
        "Bidders took 500 counter points: meld saved (a counter or the last trick saves it).",
        "Bidders made 800 (meld 300 + counters 500) against a bid of 500: +800.",
        "Opponents' meld 150 counts.",
        "Opponents took no counter and not the last trick: meld not saved.",
        "Opponents score nothing.",
    ]),
    ("000: a set",
     BICYCLE, Hand(0, 700, (300, 150), (350, 150)), (-700, 300), [
        "Bidders' meld 300 counts.",
        "Bidders took 350 counter points: meld saved (a counter or the last trick saves it).",
        "Bidders are set: they have 650 (meld 300 + counters 350), short of the bid of 700: −700.",
        "Opponents' meld 150 counts.",
        "Opponents took 150 counter points: meld saved (a counter or the last trick saves it).",
        "Opponents score +300 (meld 150 + counters 150).",
    ]),
    ("000 with kings and queens at 5: counters of 245",
     replace(BICYCLE, card_count="kings_queens_half", counter_step=5),
     Hand(0, 500, (300, 100), (245, 255)), (545, 355), [
        "Bidders' meld 300 counts.",
        "Bidders took 245 counter points: meld saved (a counter or the last trick saves it).",
        "Bidders made 545 (meld 300 + counters 245) against a bid of 500: +545.",
        "Opponents' meld 100 counts.",
        "Opponents took 255 counter points: meld saved (a counter or the last trick saves it).",
        "Opponents score +355 (meld 100 + counters 255).",
    ]),
    ("000: everyone passed",
     BICYCLE, Hand(0, 0, (0, 0), kind="redeal"), (0, 0), [
        "Everyone passed: the hands are thrown in and the next dealer deals. Nobody scores.",
    ]),
    ("000: a renege by the bidders gives the opponents 200 for the cards",
     BICYCLE, Hand(0, 500, (200, 100), kind="renege", renege_team=0), (-500, 300), [
        "Bidders reneged: −500.",
        "Opponents' meld 100 counts.",
        "Opponents score +300 (meld 100 + 200 for the cards).",
    ]),
    ("003: a set costs the bidders their meld and counters",
     GR, Hand(0, 70, (30, 20), (20, 30)), (-50, 50), [
        "Bidders' meld 30 counts.",
        "Bidders took 20 counters.",
        "Bidders are set: they have 50 (meld 30 + counters 20), short of the bid of 70: they lose their "
        "meld and counters, −(30 + 20) = −50.",
        "Opponents' meld 20 counts.",
        "Opponents took 30 counters.",
        "Opponents score +50 (meld 20 + counters 30).",
    ]),
    ("003: a made bid, the opponents score nothing",
     GR, Hand(0, 50, (30, 40), (30, 20)), (60, 0), [
        "Bidders' meld 30 counts.",
        "Bidders took 30 counters.",
        "Bidders made 60 (meld 30 + counters 30) against a bid of 50: +60.",
        "Opponents score nothing when the bidders make their bid.",
    ]),
    ("003: a throw-in with no meld costs nothing",
     GR, Hand(0, 60, (0, 30), kind="throw_in"), (0, 0), [
        "Bidders threw in the hand with no meld: they lose nothing.",
        "Opponents score nothing on a throw-in.",
    ]),
    ("003: a throw-in costs the bidders their meld",
     GR, Hand(0, 60, (25, 30), kind="throw_in"), (-25, 0), [
        "Bidders threw in the hand and lose their meld: −25.",
        "Opponents score nothing on a throw-in.",
    ]),
    ("003: no marriage in trump is a throw-in",
     GR, Hand(0, 50, (10, 30), kind="no_marriage"), (-10, 0), [
        "Bidders have no marriage in trump (scored as a throw-in) and lose their meld: −10.",
        "Opponents score nothing on a throw-in.",
    ]),
    ("003: a bid at the cap of 500",
     GR, Hand(0, 500, (480, 0), (40, 10)), (520, 0), [
        "Bidders' meld 480 counts.",
        "Bidders took 40 counters.",
        "Bidders made 520 (meld 480 + counters 40) against a bid of 500: +520.",
        "Opponents score nothing when the bidders make their bid.",
    ]),
    ("004: a meld of only the dix saves itself",
     SD, Hand(0, 250, (100, 10), (250, 0), dix_only=(False, True)), (350, 10), [
        "Bidders' meld 100 counts.",
        "Bidders took 250 counter points: meld saved (a counter or the last trick saves it).",
        "Bidders made 350 (meld 100 + counters 250) against a bid of 250: +350.",
        "Opponents' meld 10 counts.",
        "Opponents took no counter and not the last trick, but their only meld is the dix: nines of trump "
        "save themselves.",
        "Opponents score +10 (meld 10).",
    ]),
    ("004: both dix save themselves",
     SD, Hand(1, 300, (20, 200), (0, 250), dix_only=(True, False)), (20, 450), [
        "Bidders' meld 200 counts.",
        "Bidders took 250 counter points: meld saved (a counter or the last trick saves it).",
        "Bidders made 450 (meld 200 + counters 250) against a bid of 300: +450.",
        "Opponents' meld 20 counts.",
        "Opponents took no counter and not the last trick, but their only meld is the dix: nines of trump "
        "save themselves.",
        "Opponents score +20 (meld 20).",
    ]),
    ("004: a meld of 10 that is a marriage is lost without a counter",
     SD, Hand(0, 250, (100, 10), (250, 0)), (350, 0), [
        "Bidders' meld 100 counts.",
        "Bidders took 250 counter points: meld saved (a counter or the last trick saves it).",
        "Bidders made 350 (meld 100 + counters 250) against a bid of 250: +350.",
        "Opponents' meld 10 counts.",
        "Opponents took no counter and not the last trick: meld not saved.",
        "Opponents score nothing.",
    ]),
    ("004: not on the board: the bid is more than 250 above the meld",
     SD, Hand(0, 500, (200, 50), (150, 100)), (-500, 50), [
        "Automatic throw-in: the bidders are not “on the board”: a bid of 500 is more than the bidders' "
        "meld 200 + 250, so it cannot be made.",
        "The counters typed (150 and 100) do not count: the hand is not played out.",
        "Bidders threw in the hand: −500.",
        "Opponents' meld 50 counts.",
        "Opponents score +50 (meld 50).",
    ]),
    ("004: the last trick alone saves the opponents' meld",
     SD, Hand(0, 250, (150, 60), (240, 10)), (390, 70), [
        "Bidders' meld 150 counts.",
        "Bidders took 240 counter points: meld saved (a counter or the last trick saves it).",
        "Bidders made 390 (meld 150 + counters 240) against a bid of 250: +390.",
        "Opponents' meld 60 counts.",
        "Opponents took 10 counter points: meld saved (a counter or the last trick saves it).",
        "Opponents score +70 (meld 60 + counters 10).",
    ]),
    ("004: a renege by the opponents",
     SD, Hand(0, 300, (150, 60), kind="renege", renege_team=1), (300, -300), [
        "Opponents reneged: the bidders score their bid, +300.",
        "Opponents lose the bid: −300. This table scores an opponents' renege as −bid; some tables play "
        "0.",
    ]),
    ("three-handed: a lone player's meld of only the dix saves itself without a counter",
     THREE, Hand(0, 250, (150, 20, 60), (240, 0, 10), dix_only=(False, True, False)), (390, 20, 70), [
        "Player 1's meld 150 counts.",
        "Player 1 took 240 counter points: meld saved (a counter or the last trick saves it).",
        "Player 1 made 390 (meld 150 + counters 240) against a bid of 250: +390.",
        "Player 2's meld 20 counts.",
        "Player 2 took no counter and not the last trick, but their only meld is the dix: nines of trump save "
        "themselves.",
        "Player 2 scores +20 (meld 20).",
        "Player 3's meld 60 counts.",
        "Player 3 took 10 counter points: meld saved (a counter or the last trick saves it).",
        "Player 3 scores +70 (meld 60 + counters 10).",
    ]),
    ("Bicycle three-handed: a throw-in gives each other player half the cards' bonus",
     THREE_DOUBLE, Hand(1, 500, (100, 300, 0), kind="throw_in"), (200, -500, 100), [
        "Player 2 threw in the hand: −500.",
        "Player 1's meld 100 counts.",
        "Player 1 scores +200 (meld 100 + 100 for the cards).",
        "Player 3 has no meld.",
        "Player 3 scores +100 (100 for the cards).",
    ]),
    ("two-handed: nobody bids, each player scores meld and counters",
     TWO, Hand(None, None, (80, 20), (150, 100)), (230, 120), [
        "Player 1's meld 80 counts.",
        "Player 1 took 150 counters.",
        "Player 1 scores +230 (meld 80 + counters 150).",
        "Player 2's meld 20 counts.",
        "Player 2 took 100 counters.",
        "Player 2 scores +120 (meld 20 + counters 100).",
    ]),
]


@pytest.mark.parametrize(("rules", "hand", "points", "lines"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_tricky_hand_scores_and_reads_as_pinned(rules, hand, points, lines):
    result = score_hand(rules, hand)
    assert result.points == points
    assert result.explanation == lines


def test_the_table_covers_every_preset_with_at_least_30_hands():
    assert len(CASES) >= 30
    assert {case[1].preset for case in CASES} == set(PRESETS)
