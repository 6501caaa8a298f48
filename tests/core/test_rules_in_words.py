"""The rules in words, as the rules page and every game page show them: each preset sentence by sentence, the
book's own rules told from the app's house defaults, and no sentence that the scoring contradicts, whatever
option a table flips."""

import re
from dataclasses import fields, replace

import pytest

from scorepad.core.errors import InvalidRules
from scorepad.core.rules import _CHOICES, LONE_PRESETS, PRESETS, Rules
from scorepad.core.rules_in_words import SOURCES, describe
from scorepad.core.scoring import Hand, score_hand

EXPECTED = {
    "double-deck": [
        "These rules follow the family rule sheet; where the book is silent, the app’s house default is "
        "marked.",
        "Deck: 80 cards, no 9s. Cards taken in tricks count: aces, tens and kings 1 each, the last trick 2; "
        "50 counter points a hand, counted in steps of 1.",
        "The minimum bid is 50; bids go up by any whole number below 60, then in multiples of 5 from 60.",
        "If everyone passes, the dealer is stuck with the minimum bid.",
        "Meld is counted with the family double-deck values, partners added together.",
        "Meld values: run in trump 15, double 150, triple 300, quadruple wins the game; royal marriage 4; "
        "marriage 2; pinochle 4, double 30, triple 90, quadruple 300; aces around 10, double 100, triple 200, "
        "quadruple 300; kings around 8, double 80, triple 160, quadruple 240; queens around 6, double 60, "
        "triple 120, quadruple 180; jacks around 4, double 40, triple 80, quadruple 120; tens around nothing. "
        "A card may serve in melds of different kinds, not twice in one kind.",
        "A team needs 20 meld to be on the board; less counts nothing.",
        "To save its meld, a team must take 20 counters.",
        "A team that takes fewer than 20 counters scores nothing at all.",
        "The bidders make their bid when their saved meld plus counters reaches it, and score all of it.",
        "Bidders who take fewer than 20 counters are set whatever their meld: they need 20 counters to make "
        "any bid.",
        "The opponents always score their own points.",
        "A set bidder loses the bid.",
        "Bidders may throw in their hand: they lose the bid, and the opponents score their meld (if on the "
        "board) plus 20 for the cards.",
        "A bidder with no marriage in trump is scored as a throw-in.",
        "The family rule sheet contradicts itself here: the bidding section gives the opponents only their "
        "meld, the scoring section their meld plus 20 for the cards; this app follows the scoring section.",
        "If the bid was forced on the dealer and the bidders have no marriage in trump, the opponents get "
        "only their meld, without the 20 for the cards; a forced bid thrown in for any other reason scores as "
        "any throw-in.",
        "A renege by the bidders: they lose the bid, and the opponents score their meld (if on the board) "
        "plus 20 for the cards. A renege by the opponents gives the bidders their bid and costs the opponents "
        "as much.",
        "Game is 500; if both teams reach it on the same hand, the bidders win.",
        "A quadruple run in trump wins the game outright: record it as the way the hand ended.",
    ],
    "double-deck-shg": [
        "These rules follow the Safe Harbor Games rules; where the book is silent, the app’s house default is "
        "marked.",
        "Deck: 80 cards, no 9s. Cards taken in tricks count: aces, tens and kings 1 each, the last trick 2; "
        "50 counter points a hand, counted in steps of 1. "
        "House default: the Safe Harbor Games rules do not say what the last trick is worth; the app takes the "
        "family rule sheet’s 2.",
        "The minimum bid is 50; bids go up by any whole number below 60, then in multiples of 5 below 100, "
        "then in multiples of 10 from 100.",
        "If everyone passes, the dealer is stuck with the minimum bid.",
        "Meld is counted with the tournament values, partners added together.",
        "Meld values: run in trump 15, double 150, triple 225, quadruple 300; royal marriage 4; marriage 2; "
        "pinochle 4, double 30, triple 60, quadruple 90; aces around 10, double 100, triple 150, quadruple "
        "200; kings around 8, double 80, triple 120, quadruple 160; queens around 6, double 60, triple 90, "
        "quadruple 120; jacks around 4, double 40, triple 60, quadruple 80; tens around nothing. A card may "
        "serve in melds of different kinds, not twice in one kind. "
        "House default: the Safe Harbor Games rules lost the values of the run and the marriages; the app takes "
        "the other books’ 15, 4 and 2, the run growing like the arounds.",
        "A team needs 20 meld to be on the board; less counts nothing.",
        "To save its meld, a team must take 20 counters.",
        "A team that does not save its meld still scores the counters it took.",
        "The bidders make their bid when their saved meld plus counters reaches it, and score all of it.",
        "The opponents always score their own points.",
        "A set bidder loses the bid.",
        "Bidders may throw in their hand: they lose the bid, and the opponents score their meld (if on the "
        "board).",
        "A bid more than 50 above the bidders' meld cannot be made: the hand is an automatic throw-in.",
        "Bidders with less than 20 meld throw in automatically.",
        "A bidder with no marriage in trump is set before play: they lose the bid, neither side scores meld, "
        "and the opponents score nothing.",
        "A renege by the bidders: they lose the bid, and the opponents score their meld (if on the board) "
        "plus 20 for the cards. A renege by the opponents gives the bidders their bid and costs the opponents "
        "as much. House default: the Safe Harbor Games rules do not say what a renege costs.",
        "Game is 500; if both teams reach it on the same hand, the bidders win. House default: the Safe "
        "Harbor Games rules name no number, only “the designated end score”.",
    ],
    "double-pack-bicycle": [
        "These rules follow the Bicycle rules; where the book is silent, the app’s house default is marked.",
        "Deck: 80 cards, no 9s. Cards taken in tricks count: aces, tens and kings 10 each, the last trick 20; "
        "500 counter points a hand, counted in steps of 10.",
        "The minimum bid is 500; bids go up in multiples of 10.",
        "If everyone passes, the hands are thrown in and the next dealer deals; nobody scores.",
        "The Bicycle rules let a table agree before the game to count aces and tens 10 each, kings and queens "
        "5, the last trick 20 instead: a house rule.",
        "Meld is counted with the Bicycle values (×10), partners added together.",
        "Meld values: run in trump 150, double 300, triple 450, quadruple 600; royal marriage 40; marriage "
        "20; pinochle 40, double 300, triple 450, quadruple 3,000; aces around 100, double 1,000, triple "
        "1,500, quadruple 2,000; kings around 80, double 800, triple 1,200, quadruple 1,600; queens around "
        "60, double 600, triple 900, quadruple 1,200; jacks around 40, double 400, triple 600, quadruple 800; "
        "tens around nothing. A card may serve in melds of different kinds, not twice in one kind.",
        "Any meld counts, however small.",
        "To save its meld, a team must win a trick with a counter in it, or the last trick.",
        "The bidders make their bid when their saved meld plus counters reaches it, and score all of it.",
        "The opponents always score their own points.",
        "A set bidder loses the bid.",
        "Bidders may throw in their hand: they lose the bid, and the opponents score their meld. House "
        "default: the Bicycle rules do not mention a throw-in.",
        "A bidder with no marriage in trump is scored as a throw-in. House default: the Bicycle rules do not "
        "say what happens without a marriage in trump.",
        "A renege by the bidders: they lose the bid, and the opponents score their meld plus 200 for the "
        "cards. A renege by the opponents gives the bidders their bid and costs the opponents as much. House "
        "default: the Bicycle rules do not say what a renege costs.",
        "Game is 3,550; if both teams reach it on the same hand, the bidders win.",
    ],
    "double-deck-gamerules": [
        "These rules follow the GameRules.com rules; where the book is silent, the app’s house default is "
        "marked.",
        "Deck: 80 cards, no 9s. Cards taken in tricks count: aces, tens and kings 1 each, the last trick 2; "
        "50 counter points a hand, counted in steps of 1.",
        "The minimum bid is 50; bids go up by any whole number, up to 500.",
        "If everyone passes, the dealer is stuck with the minimum bid.",
        "Meld is counted with the tournament values, each card in one meld only, partners added together.",
        "Meld values: run in trump 15, double 150, triple 225, quadruple 300; royal marriage 4; marriage 2; "
        "pinochle 4, double 30, triple 60, quadruple 90; aces around 10, double 100, triple 150, quadruple "
        "200; kings around 8, double 80, triple 120, quadruple 160; queens around 6, double 60, triple 90, "
        "quadruple 120; jacks around 4, double 40, triple 60, quadruple 80; tens around nothing. Each card "
        "counts in one meld only. "
        "House default: the GameRules.com rules print a double run as 40 and triple queens as 30; the app reads "
        "these misprints as 150 and 90, as their own pattern and the other books give them.",
        "Any meld counts, however small.",
        "Meld counts without taking any counters.",
        "The bidders make their bid when their saved meld plus counters reaches it, and score all of it.",
        "When the bidders make their bid, the opponents score nothing.",
        "A set bidder loses their own meld and counters.",
        "Bidders may throw in their hand: they lose their own meld (nothing if they have none), and the "
        "opponents score nothing. House default: the GameRules.com rules tell only what a forfeit costs the side "
        "that forfeits; that the other side gets nothing is the app’s reading.",
        "A bidder with no marriage in trump is scored as a throw-in.",
        "A renege by the bidders: they lose the bid, and the opponents score their meld plus 20 for the "
        "cards. A renege by the opponents gives the bidders their bid and costs the opponents as much. House "
        "default: the GameRules.com rules do not say what a renege costs; the full bid is the family rule "
        "sheet’s.",
        "Game is 500; if both teams reach it on the same hand, the bidders win.",
        "A team at −500 or below loses.",
    ],
    "single-deck": [
        "These rules follow the “My Family’s Pinochle” rules; where the book is silent, the app’s house "
        "default is marked.",
        "Deck: 48 cards, with 9s. Cards taken in tricks count: aces, tens and kings 10 each, the last trick "
        "10; 250 counter points a hand, counted in steps of 10.",
        "The minimum bid is 250; bids go up in multiples of 10.",
        "If everyone passes, the dealer is stuck with the minimum bid.",
        "Meld is counted with the single-deck values (×10), partners added together.",
        "Meld values: run in trump 150, double 1,500; each extra K or Q of trump beside a run 40; royal "
        "marriage 40; marriage 20; pinochle 40, double 300; aces around 100, double 1,000; kings around 80, "
        "double 800; queens around 60, double 600; jacks around 40, double 400; tens around nothing; dix (9 "
        "of trump) 10 each. A card may serve in melds of different kinds, not twice in one kind.",
        "Any meld counts, however small.",
        "To save its meld, a team must win a trick with a counter in it, or the last trick. "
        "House default: the “My Family’s Pinochle” rules say so only of the opponents; the app holds the bidders "
        "to it too.",
        "A meld of only the dix (one or both 9s of trump) is kept without a counter: “nines of trump save "
        "themselves”.",
        "The bidders make their bid when their saved meld plus counters reaches it, and score all of it.",
        "The opponents always score their own points.",
        "A set bidder loses the bid.",
        "Bidders may throw in their hand: they lose the bid, and the opponents score their meld.",
        "Bidders whose meld is more than 250 short of the bid are not “on the board”: they cannot make it, "
        "and the hand is scored as a throw-in.",
        "A bidder with no marriage in trump is scored as a throw-in. House default: the “My Family’s "
        "Pinochle” rules do not say what happens without a marriage in trump.",
        "A renege by the bidders: they lose the bid, and the opponents score their meld plus 100 for the "
        "cards. A renege by the opponents gives the bidders their bid and costs the opponents as much. House "
        "default: the “My Family’s Pinochle” rules do not say what a renege costs.",
        "Game is 1,500; if both teams reach it on the same hand, the bidders win.",
    ],
    "three-handed": [
        "The table: three-handed (cutthroat): every player for themselves (3 players).",
        "Deck: 48 cards, with 9s. Cards taken in tricks count: aces, tens and kings 10 each, the last trick "
        "10; 250 counter points a hand, counted in steps of 10.",
        "The minimum bid is 250; bids go up in multiples of 10.",
        "If everyone passes, the dealer is stuck with the minimum bid.",
        "Meld is counted with the single-deck values (×10), each player's own.",
        "Meld values: run in trump 150, double 1,500; each extra K or Q of trump beside a run 40; royal "
        "marriage 40; marriage 20; pinochle 40, double 300; aces around 100, double 1,000; kings around 80, "
        "double 800; queens around 60, double 600; jacks around 40, double 400; tens around nothing; dix (9 "
        "of trump) 10 each. A card may serve in melds of different kinds, not twice in one kind.",
        "Any meld counts, however small.",
        "To save their meld, a player must win a trick with a counter in it, or the last trick.",
        "A meld of only the dix (one or both 9s of trump) is kept without a counter: “nines of trump save "
        "themselves”.",
        "The bidder makes their bid when their saved meld plus counters reaches it, and scores all of it.",
        "Each other player always scores their own points.",
        "A set bidder loses the bid.",
        "The bidder may throw in their hand: they lose the bid, and each other player scores their meld.",
        "A bidder with no marriage in trump is scored as a throw-in.",
        "A renege by the bidder: they lose the bid, and each other player scores their meld plus 100 for the "
        "cards. A renege by another player gives the bidder their bid and costs the one who reneged as much.",
        "Game is 1,500; if several players reach it on the same hand, the bidder wins if they are among "
        "them, else the highest total (an exact tie plays on).",
    ],
    "three-handed-double": [
        "The table: three-handed (cutthroat): every player for themselves (3 players).",
        "Deck: 80 cards, no 9s. Cards taken in tricks count: aces, tens and kings 10 each, the last trick 20;"
        " 500 counter points a hand, counted in steps of 10.",
        "The minimum bid is 500; bids go up in multiples of 10.",
        "If everyone passes, the dealer is stuck with the minimum bid.",
        "Meld is counted with the Bicycle values (×10), each player's own.",
        "Meld values: run in trump 150, double 300, triple 450, quadruple 600; royal marriage 40; marriage "
        "20; pinochle 40, double 300, triple 450, quadruple 3,000; aces around 100, double 1,000, triple "
        "1,500, quadruple 2,000; kings around 80, double 800, triple 1,200, quadruple 1,600; queens around "
        "60, double 600, triple 900, quadruple 1,200; jacks around 40, double 400, triple 600, quadruple 800;"
        " tens around nothing. A card may serve in melds of different kinds, not twice in one kind.",
        "Any meld counts, however small.",
        "To save their meld, a player must win a trick with a counter in it, or the last trick.",
        "The bidder makes their bid when their saved meld plus counters reaches it, and scores all of it.",
        "Each other player always scores their own points.",
        "A set bidder loses the bid.",
        "The bidder may throw in their hand: they lose the bid, and each other player scores their meld plus "
        "100 for the cards.",
        "A bidder with no marriage in trump is scored as a throw-in.",
        "A renege by the bidder: they lose the bid, and each other player scores their meld plus 200 for the "
        "cards. A renege by another player gives the bidder their bid and costs the one who reneged as much.",
        "Game is 4,550; if several players reach it on the same hand, the bidder wins if they are among "
        "them, else the highest total (an exact tie plays on).",
    ],
    "two-handed": [
        "The table: two-handed (2 players).",
        "Deck: 48 cards, with 9s. Cards taken in tricks count: aces, tens and kings 10 each, the last trick "
        "10; 250 counter points a hand, counted in steps of 1.",
        "Nobody bids: every hand, each player scores their meld and counters.",
        "Meld is counted with the single-deck values (×10), each player's own.",
        "Meld values: run in trump 150, double 1,500; each extra K or Q of trump beside a run 40; royal "
        "marriage 40; marriage 20; pinochle 40, double 300; aces around 100, double 1,000; kings around 80, "
        "double 800; queens around 60, double 600; jacks around 40, double 400; tens around nothing; dix (9 "
        "of trump) 10 each. A card may serve in melds of different kinds, not twice in one kind.",
        "Any meld counts, however small.",
        "Meld counts without taking any counters.",
        "Game is 1,000; if both players reach it on the same hand, the higher total wins.",
    ],
    "six-handed-triple": [
        "These numbers are Scorepad’s own (no rule book prints a three-deck game): the family double deck’s, "
        "half again as large.",
        "The table: six-handed: two teams of three (6 players).",
        "Deck: 120 cards (three pinochle decks without their 9s), 20 to each of six players. Cards taken in "
        "tricks count: aces, tens and kings 1 each, the last trick 3; 75 counter points a hand, counted in "
        "steps of 1.",
        "The minimum bid is 75; bids go up by any whole number below 100, then in multiples of 5 from 100.",
        "If everyone passes, the dealer is stuck with the minimum bid.",
        "Meld is counted with the three-deck values (family double-deck values, up to six of a meld), "
        "partners added together.",
        "Meld values: run in trump 15, double 150, triple 300, quadruple wins the game, quintuple wins the "
        "game, sextuple wins the game; royal marriage 4; marriage 2; pinochle 4, double 30, triple 90, "
        "quadruple 300, quintuple 450, sextuple 600; aces around 10, double 100, triple 200, quadruple 300, "
        "quintuple 400, sextuple 500; kings around 8, double 80, triple 160, quadruple 240, quintuple 320, "
        "sextuple 400; queens around 6, double 60, triple 120, quadruple 180, quintuple 240, sextuple 300; "
        "jacks around 4, double 40, triple 80, quadruple 120, quintuple 160, sextuple 200; tens around "
        "nothing. A card may serve in melds of different kinds, not twice in one kind.",
        "A team needs 30 meld to be on the board; less counts nothing.",
        "To save its meld, a team must take 30 counters.",
        "A team that takes fewer than 30 counters scores nothing at all.",
        "The bidders make their bid when their saved meld plus counters reaches it, and score all of it.",
        "Bidders who take fewer than 30 counters are set whatever their meld: they need 30 counters to make any bid.",
        "The opponents always score their own points.",
        "A set bidder loses the bid.",
        "Bidders may throw in their hand: they lose the bid, and the opponents score their meld (if on the "
        "board) plus 30 for the cards.",
        "A bidder with no marriage in trump is scored as a throw-in.",
        "If the bid was forced on the dealer and the bidders have no marriage in trump, the opponents get "
        "only their meld, without the 30 for the cards; a forced bid thrown in for any other reason scores "
        "as any throw-in.",
        "A renege by the bidders: they lose the bid, and the opponents score their meld (if on the board) "
        "plus 30 for the cards. A renege by the opponents gives the bidders their bid and costs the "
        "opponents as much.",
        "Game is 750; if both teams reach it on the same hand, the bidders win.",
        "A quadruple run in trump wins the game outright: record it as the way the hand ended.",
    ],
}


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_reads_sentence_by_sentence_as_written_here(name):
    assert describe(PRESETS[name]) == EXPECTED[name]


def test_a_house_default_is_no_longer_marked_once_the_table_changes_it():
    lines = describe(replace(PRESETS["double-pack-bicycle"], set_penalty="chips"))
    assert not any("renege" in line and "House default" in line for line in lines)
    assert "This game changed some options as house rules; every sentence here follows them." in lines


def _variants():
    """Every preset with each option flipped, one at a time: every other choice, the other truth value, and a
    few telling numbers."""
    numbers = {"save_counters": (0, 1, 20), "min_meld": (0, 20), "hands_limit": (4,), "floor": (-500,),
               "auto_throw_in_margin": (None, 50)}
    for name, preset in PRESETS.items():
        yield name, {}
        for option in fields(Rules):
            now = getattr(preset, option.name)
            if option.name in _CHOICES and option.name not in ("deck", "meld_table"):
                tries = [value for value in _CHOICES[option.name] if value != now]
            elif isinstance(now, bool):
                tries = [not now]
            else:
                tries = [value for value in numbers.get(option.name, ()) if value != now]
            for value in tries:
                yield name, {option.name: value}


def _built(name, change):
    try:
        return replace(PRESETS[name], **change)
    except InvalidRules:
        return None  # a variant the rules refuse has no words to check


def _line(lines, start):
    [line] = [line for line in lines if line.startswith(start)]
    return line


@pytest.mark.parametrize(("name", "change"), list(_variants()))
def test_no_sentence_contradicts_the_scoring_whatever_option_is_flipped(name, change):
    rules = _built(name, change)
    if rules is None or not rules.bidding or (rules.sides, rules.players_per_side) != (2, 2):
        return  # these sentences are about two teams who bid; the other tables are held in test_tables
    lines = describe(rules)
    bid, meld = rules.min_bid, (0, max(rules.min_meld, rules.meld_step))  # the opponents' award stays below a bid
    thrown = score_hand(rules, Hand(0, bid, meld, kind="throw_in")).points
    throw_in = _line(lines, "Bidders may throw in their hand")
    if thrown[0] == -bid:
        assert "they lose the bid" in throw_in
    if thrown[0] == 0:
        assert "they lose the bid" not in throw_in
    assert ("the bid" in throw_in.split("opponents score")[1]) == (thrown[1] >= bid)
    renege = _line(lines, "A renege by the bidders")
    theirs = score_hand(rules, Hand(0, bid, meld, kind="renege", renege_team=0)).points
    assert ("they lose the bid" in renege) == (theirs[0] == -bid)
    ours = score_hand(rules, Hand(0, bid, meld, kind="renege", renege_team=1)).points
    assert ("costs the opponents as much" in renege) == (ours[1] == -bid)
    set_hand = Hand(0, bid, meld[::-1], (0, rules.hand_points))  # meld enough to be played out, no counter
    if rules.set_penalty != "meld_and_counters":
        assert ("A set bidder loses the bid." in lines) == (score_hand(rules, set_hand).points[0] == -bid)
    no_marriage = score_hand(rules, Hand(0, bid, meld, kind="no_marriage")).points
    if rules.no_marriage == "no_meld":
        line = _line(lines, "A bidder with no marriage in trump")
        assert ("they lose the bid" in line) == (no_marriage[0] == -bid)
        assert ("the opponents score nothing" in line) == (no_marriage[1] == 0)


# Words that belong to a table of partners: a player on their own has no partner, no team and no opponents'
# side, and a single bidder is not "the bidders".
TEAM_WORDS = re.compile(r"\b(partners?|partnerships?|teams?|bidders|opponents|neither side|its meld)\b", re.I)


def _lone_variants():
    """Every variant of the presets for players on their own, and the two-player table that bids."""
    yield from ((name, change) for name, change in _variants() if name in LONE_PRESETS)
    yield "three-handed", {"sides": 2}
    yield "three-handed-double", {"sides": 2, "set_penalty": "chips", "floor": -500}


@pytest.mark.parametrize(("name", "change"), list(_lone_variants()))
def test_no_sentence_for_players_on_their_own_speaks_of_partners_or_teams(name, change):
    rules = _built(name, change)
    if rules is None:
        return
    assert rules.players_per_side == 1
    assert [line for line in describe(rules) if TEAM_WORDS.search(line)] == []


@pytest.mark.parametrize(("name", "said", "silence"), [
    ("double-deck-shg", "Meld values:", "lost the values of the run and the marriages"),
    ("double-deck-shg", "Deck:", "do not say what the last trick is worth"),
    ("double-deck-gamerules", "Meld values:", "print a double run as 40 and triple queens as 30"),
    ("double-deck-gamerules", "Bidders may throw in",
     "tell only what a forfeit costs the side that forfeits; that the other side gets nothing is the app’s reading"),
    ("single-deck", "To save its meld", "say so only of the opponents; the app holds the bidders to it too"),
])
def test_a_choice_made_where_the_book_is_silent_is_marked_as_the_apps_own(name, said, silence):
    line = next(line for line in describe(PRESETS[name]) if line.startswith(said))
    assert f"House default: {SOURCES[name]} {silence}" in line


@pytest.mark.parametrize(("name", "changes", "said"), [
    ("double-deck-shg", {"meld_table": "002"}, "Meld values:"),
    ("double-deck-shg", {"card_count": "kings_queens_half", "hand_points": 500, "counter_step": 5,
                         "min_bid": 500, "bid_steps": ((500, 10),), "meld_step": 10}, "Deck:"),
    ("double-deck-gamerules", {"throw_in_award": "meld"}, "Bidders may throw in"),
    ("single-deck", {"save_counters": 20}, "To save its meld"),
])
def test_the_mark_goes_once_the_table_changes_the_choice(name, changes, said):
    lines = [line for line in describe(replace(PRESETS[name], **changes)) if line.startswith(said)]
    assert lines and "House default" not in lines[0]
