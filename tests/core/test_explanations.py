"""The explanation settles disputes at the table: each case shows the exact lines, in the order applied."""

import re
from dataclasses import replace

import pytest

from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, play_game, score_hand

DD = PRESETS["double-deck"]

CASES = [
    ("a made bid in 002", DD, Hand(0, 55, (30, 12), (28, 22)), [
        "Bidders' meld 30 is on the board (20 needed).",
        "Bidders took 28 counters: meld saved (20 needed).",
        "Bidders made 58 (meld 30 + counters 28) against a bid of 55: +58.",
        "Opponents' meld 12 is not on the board (20 needed).",
        "Opponents took 22 counters (20 needed to score).",
        "Opponents score +22 (counters 22).",
    ]),
    ("a set in 002", DD, Hand(1, 65, (30, 40), (26, 24)), [
        "Bidders' meld 40 is on the board (20 needed).",
        "Bidders took 24 counters: meld saved (20 needed).",
        "Bidders are set: they have 64 (meld 40 + counters 24), short of the bid of 65: −65.",
        "Opponents' meld 30 is on the board (20 needed).",
        "Opponents took 26 counters: meld saved (20 needed).",
        "Opponents score +56 (meld 30 + counters 26).",
    ]),
    ("opponents who do not save in 002", DD, Hand(0, 50, (30, 30), (31, 19)), [
        "Bidders' meld 30 is on the board (20 needed).",
        "Bidders took 31 counters: meld saved (20 needed).",
        "Bidders made 61 (meld 30 + counters 31) against a bid of 50: +61.",
        "Opponents' meld 30 is on the board (20 needed).",
        "Opponents took 19 counters: meld not saved (20 needed); nothing scores.",
        "Opponents score nothing.",
    ]),
    ("bidders who take too few counters in 002", DD, Hand(0, 50, (0, 0), (19, 31)), [
        "Bidders have no meld.",
        "Bidders took 19 counters: fewer than the 20 needed to make any bid; set, −50.",
        "Opponents have no meld.",
        "Opponents took 31 counters (20 needed to score).",
        "Opponents score +31 (counters 31).",
    ]),
    ("a throw-in in 002", DD, Hand(0, 60, (30, 25), kind="throw_in"), [
        "Bidders threw in the hand: −60.",
        "Opponents' meld 25 is on the board (20 needed).",
        "Opponents score +45 (meld 25 + 20 for the cards).",
    ]),
    ("a forced no-marriage in 002", DD, Hand(0, 50, (0, 25), kind="no_marriage", forced=True), [
        "Bidders have no marriage in trump (scored as a throw-in): −50.",
        "Opponents' meld 25 is on the board (20 needed).",
        "The bid was forced on the dealer, who has no marriage, so the opponents get their meld only.",
        "Opponents score +25 (meld 25).",
    ]),
    ("an automatic throw-in in shg", PRESETS["double-deck-shg"], Hand(0, 80, (25, 30)), [
        "Automatic throw-in: a bid of 80 is more than the bidders' meld 25 + 50, so it cannot be made.",
        "Bidders threw in the hand: −80.",
        "Opponents' meld 30 is on the board (20 needed).",
        "Opponents score +30 (meld 30).",
    ]),
    ("unsaved counters that still score in shg", PRESETS["double-deck-shg"], Hand(0, 50, (30, 25), (19, 31)), [
        "Bidders' meld 30 is on the board (20 needed).",
        "Bidders took 19 counters: meld not saved (20 needed); the counters still score.",
        "Bidders are set: they have 19 (counters 19), short of the bid of 50: −50.",
        "Opponents' meld 25 is on the board (20 needed).",
        "Opponents took 31 counters: meld saved (20 needed).",
        "Opponents score +56 (meld 25 + counters 31).",
    ]),
    ("a set in gamerules", PRESETS["double-deck-gamerules"], Hand(0, 70, (30, 20), (20, 30)), [
        "Bidders' meld 30 counts.",
        "Bidders took 20 counters.",
        "Bidders are set: they have 50 (meld 30 + counters 20), short of the bid of 70: they lose their "
        "meld and counters, −(30 + 20) = −50.",
        "Opponents' meld 20 counts.",
        "Opponents took 30 counters.",
        "Opponents score +50 (meld 20 + counters 30).",
    ]),
    ("a made bid in gamerules", PRESETS["double-deck-gamerules"], Hand(0, 50, (30, 40), (30, 20)), [
        "Bidders' meld 30 counts.",
        "Bidders took 30 counters.",
        "Bidders made 60 (meld 30 + counters 30) against a bid of 50: +60.",
        "Opponents score nothing when the bidders make their bid.",
    ]),
    ("opponents without a counter in single deck", PRESETS["single-deck"],
     Hand(0, 250, (150, 60), (250, 0)), [
        "Bidders' meld 150 counts.",
        "Bidders took 250 counter points: meld saved (a counter or the last trick saves it).",
        "Bidders made 400 (meld 150 + counters 250) against a bid of 250: +400.",
        "Opponents' meld 60 counts.",
        "Opponents took no counter and not the last trick: meld not saved.",
        "Opponents score nothing.",
    ]),
    ("a renege by the opponents", DD, Hand(0, 60, (30, 25), kind="renege", renege_team=1), [
        "Opponents reneged: the bidders score their bid, +60.",
        "Opponents lose the bid: −60. This table scores an opponents' renege as −bid; some tables play 0.",
    ]),
    ("a renege by the bidders", DD, Hand(0, 60, (30, 12), kind="renege", renege_team=0), [
        "Bidders reneged: −60.",
        "Opponents' meld 12 is not on the board (20 needed).",
        "Opponents score +20 (20 for the cards).",
    ]),
    ("chip scoring on a set", replace(PRESETS["single-deck"], set_penalty="chips"),
     Hand(0, 350, (150, 60), (190, 60)), [
        "Bidders' meld 150 counts.",
        "Bidders took 190 counter points: meld saved (a counter or the last trick saves it).",
        "Bidders are set: they have 340 (meld 150 + counters 190), short of the bid of 350. Under chip "
        "scoring they lose nothing; the opponents score the bid.",
        "Opponents' meld 60 counts.",
        "Opponents took 60 counter points: meld saved (a counter or the last trick saves it).",
        "Opponents score +470 (meld 60 + counters 60 + the failed bid 350).",
    ]),
]


@pytest.mark.parametrize(("rules", "hand", "lines"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_explanation_reads_line_by_line(rules, hand, lines):
    assert score_hand(rules, hand).explanation == lines


def test_redeal_says_nobody_scores():
    result = score_hand(PRESETS["double-pack-bicycle"], Hand(0, 0, (0, 0), kind="redeal"))
    assert result.explanation == ["Everyone passed: the hands are thrown in and the next dealer deals. "
                                  "Nobody scores."]


# Words for a table of partners: where each plays alone, every line names the player instead.
TEAM_WORDS = re.compile(r"\b(partners?|teams?|bidders|opponents|side)\b", re.I)


def test_a_cutthroat_game_is_told_with_the_players_names_never_a_team():
    hands = [
        Hand(0, 250, (150, 40, 60), (160, 50, 40)),  # made
        Hand(1, 350, (20, 100, 30), (80, 120, 50)),  # set
        Hand(0, 250, (0, 40, 100), (250, 0, 0)),  # nobody else saves their meld
        Hand(2, 300, (50, 40, 100), kind="throw_in"),
        Hand(0, 250, (50, 40, 100), kind="no_marriage"),
        Hand(0, 250, (50, 40, 100), kind="renege", renege_team=0),
        Hand(0, 250, (50, 40, 100), kind="renege", renege_team=2),
        Hand(1, 250, (1_500, 1_500, 0), (10, 240, 0)),  # Ann and Bob both pass 1,500: Bob bid
    ]
    state = play_game(PRESETS["three-handed"], hands, ("Ann", "Bob", "Cat"))
    lines = [line for result in state.results for line in result.explanation] + [state.reason]
    assert [line for line in lines if TEAM_WORDS.search(line)] == []
    assert state.winner == 1 and "the bidder, Bob, wins" in state.reason
