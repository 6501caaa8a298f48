"""Club nights: each change a director or a table makes is a function here, in one transaction holding the write
lock, raising one of `errors` when refused. Each table's game is a game like any other (the store's own
`create_game`, the same rules, the same game page); this module keeps the night around them: who registered,
who sits where each round (the core's movement), when a round ends, who confirmed a score, and what the
director changed."""

from __future__ import annotations

import csv
import hashlib
import io
import secrets
from dataclasses import dataclass
from functools import lru_cache

from ..core.club import (
    KINDS,
    LATEST,
    MOST_ROUNDS,
    SEATS,
    TIE_BREAKS,
    ByeRule,
    ClubError,
    Round,
    Stay,
    TableResult,
    plan,
    round_rules,
    standings,
    time_up,
)
from ..core.inputs import name_key
from ..core.rules import Rules
from ..core.words import number
from ..store import clubs, connection, games, seasons
from ..store import players as store_players
from ..store.clubs import ClubTable, Entrant, Night
from .committed import after_commit
from .errors import Conflict, NotFound, Refused
from .transfer import cell


@dataclass(frozen=True)
class Place:
    """A line of the standings."""

    rank: int
    number: int
    name: str
    wins: int
    points: int
    high_round: int | None
    played: int
    byes: int
    average: float | None = None  # points a round played
    sitting_out: bool = False  # has the bye in the round under way
    here: str = ""  # "from round 3", "left after round 2": an entrant not there the whole night

    @property
    def rounds(self) -> int:
        """The rounds the entrant was there for: played, or sat out with a bye."""
        return self.played + self.byes


MOST_NOTE = 120  # the director's words beside a table (a correction, a reason to go on): the form's limit too


@dataclass(frozen=True)
class Seat:
    """Where a player sits in the round under way, for their phone: a table, or a bye."""

    round: int
    table: ClubTable | None  # None: a bye this round
    seat: str = ""
    partner: str = ""
    opponents: tuple[str, ...] = ()
    bye: str = ""  # on a bye: the player's or team's name, as the director's page says it
    away: str = ""  # not there this round: "You play from round 3", "You left after round 2"

    @property
    def may_confirm(self) -> bool:
        """Whether this player's tap confirms the table's score (see `may_confirm`)."""
        return self.table is not None and may_confirm(self.table, SEATS.index(self.seat) % 2)

    @property
    def confirmers(self) -> str:
        return confirmers(self.table) if self.table else ""


@dataclass(frozen=True)
class Confirmed:
    night_id: int
    table_no: int
    already: bool = False


# --- the director's changes --------------------------------------------------------------------------------

def create_night(db, *, name: str, kind: str, rules: Rules, round_end: str, round_size: int | None,
                 rounds: int | None, tie_breaks: tuple[str, ...], bye_rule: str | None = None,
                 bye_points: int | None = None, standings_hidden: bool = False) -> Night:
    """A new night (its name cleaned and checked already); returns it, with the director's key. What a bye is worth
    is the season's choice unless `bye_rule` says otherwise. Raises Refused with a message beside each field that
    cannot be taken."""
    errors = {}
    bye = None
    if bye_rule is not None:
        try:
            bye = ByeRule(bye_rule, bye_points if bye_rule == "fixed" else None)
        except ClubError as refused:
            errors["bye_points" if bye_rule == "fixed" else "bye_rule"] = str(refused)
    if kind not in KINDS:
        errors["kind"] = "Choose partners or progressive."
    if rounds is None or not 1 <= rounds <= MOST_ROUNDS:
        errors["rounds"] = f"A night is from 1 to {MOST_ROUNDS} rounds."
    if not tie_breaks or any(key not in TIE_BREAKS for key in tie_breaks) or len(set(tie_breaks)) != len(tie_breaks):
        errors["tie_breaks"] = "Rank by wins, points or the highest round, each once."
    if round_size is None:
        errors["round_size"] = "Say how many hands, what target, or how many minutes."
    else:
        try:
            round_rules(rules, round_end, round_size)
        except ClubError as refused:
            errors["round_size"] = str(refused)
    if errors:
        raise Refused(errors=errors)
    with connection.write_lock(db):
        season = seasons.current_season(db)  # a night counts in the season under way
        if bye is None:
            bye = ByeRule(season.bye_rule, season.bye_points) if season else ByeRule()
        night_id = clubs.create_night(db, name=name, kind=kind, rules=rules, round_end=round_end,
                                      round_size=round_size, rounds=rounds, tie_breaks=tuple(tie_breaks),
                                      director_key=secrets.token_urlsafe(12),
                                      season_id=season.id if season else None, movement=LATEST, bye=bye,
                                      standings_hidden=standings_hidden)
        return clubs.load_night(db, night_id)


def register(db, night_id: int, names: tuple[str, ...], team: str = "") -> int:
    """A player (progressive) or a team of two (partners) joins the night, by names cleaned and checked already;
    returns the number they are given. Before the first round they play the whole night; once it has started, from
    the next round (a late arrival: the movement is planned again from there). Raises NotFound, Conflict (the
    night is closed, or its last round is under way) and Refused (a name registered already, a team's name taken)."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        _open(night)
        if night.round >= night.rounds:
            raise Conflict("The night's last round is under way: there is no round left to play.")
        entrants = clubs.entrants(db, night_id)
        names = _checked_entrant(night, entrants, names, team)
        first_round = night.round + 1
        ids = tuple(store_players.player_for(db, name) for name in names)
        number = clubs.add_entrant(db, night_id, team or " & ".join(names), ids, first_round)
        _stillseatable(db, night)
        return number


def _checked_entrant(night: Night, others: list[Entrant], names: tuple[str, ...], team: str) -> tuple[str, ...]:
    """The names of an entrant registered (or changed) beside `others`; raises Refused beside the field: a player
    registered already, a team of one or of one person twice, or a name another entrant goes by."""
    wanted = 2 if night.kind == "partners" else 1
    names = tuple(name for name in names if name)
    if len(names) != wanted:
        raise Refused(errors={f"player_{len(names)}" if len(names) < wanted else "player_0":
                              "A team is two players." if wanted == 2 else "Choose a player."})
    if wanted == 2 and name_key(names[0]) == name_key(names[1]):
        raise Refused(errors={"player_1": "A team is two different players."})
    taken = {name_key(name): (name, e.number) for e in others for name in e.player_names}
    for i, name in enumerate(names):
        if name_key(name) in taken:
            registered, number = taken[name_key(name)]
            raise Refused(errors={f"player_{i}": f"{registered} is registered already, as number {number}."})
    called = team or " & ".join(names)
    same = next((e for e in others if name_key(e.name) == name_key(called)), None)
    if same is not None:
        # two entrants of one name would be one in the season's standings, and its pages could not rank them
        raise Refused(errors={"team" if wanted == 2 else "player_0":
                              f"{same.name} is registered already, as number {same.number}: give this team "
                              "another name."})
    return names


def change_entrant(db, night_id: int, number: int, names: tuple[str, ...], team: str = "") -> None:
    """Before the first round the director puts an entrant's names right (a typo, another partner, a team's
    name). Raises NotFound, Conflict (the night has started) and Refused as `register`."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        entrants = clubs.entrants(db, night_id)
        _before_the_first_round(night, "changed")
        if not any(e.number == number for e in entrants):
            raise NotFound(f"Nobody is registered as number {number}.")
        names = _checked_entrant(night, [e for e in entrants if e.number != number], names, team)
        ids = tuple(store_players.player_for(db, name) for name in names)
        clubs.change_entrant(db, night_id, number, team or " & ".join(names), ids)


def withdraw(db, night_id: int, number: int) -> str:
    """Before the first round an entrant is withdrawn: those registered after move up a number. Returns the name.
    (Once the night has started, an entrant leaves after a round: `leave`.) Raises NotFound and Conflict."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        _before_the_first_round(night, "withdrawn")
        entrant = next((e for e in clubs.entrants(db, night_id) if e.number == number), None)
        if entrant is None:
            raise NotFound(f"Nobody is registered as number {number}.")
        for player_id in entrant.player_ids:
            clubs.release(db, night_id, player_id)
        clubs.withdraw_entrant(db, night_id, number)
        return entrant.name


def leave(db, night_id: int, number: int, after: int | None) -> str:
    """An entrant leaves after round `after` (the round under way, or a later one), or (None) stays to the end
    after all; the rounds to come are planned again without them. Returns the name. Raises NotFound, Conflict (the
    night has not started: withdraw them; it is closed; that round is played) and Refused (a round the night does
    not have, or one after which too few would be left to fill a table)."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        _open(night)
        if not night.round:
            raise Conflict("The night has not started: withdraw the entrant instead.")
        entrant = next((e for e in clubs.entrants(db, night_id) if e.number == number), None)
        if entrant is None:
            raise NotFound(f"Nobody is registered as number {number}.")
        gone = entrant.last_round is not None and entrant.last_round < night.round
        if gone:
            raise Conflict(f"{entrant.name} left after round {entrant.last_round}, and the night has played on.")
        if after is not None and not max(night.round, entrant.first_round - 1) <= after < night.rounds:
            first = max(night.round, entrant.first_round - 1)
            raise Refused(errors={"after": f"Leave after round {first} to {night.rounds - 1}: the rounds played "
                                           "stay as they were played."})
        clubs.leave_after(db, night_id, number, after)
        _stillseatable(db, night)
        return entrant.name


def _stillseatable(db, night: Night) -> None:
    """Inside the caller's transaction: every round to come still fills a table with those who will be there;
    raises Refused (the caller's change rolls back) when one would not."""
    try:
        round_plan(night, clubs.entrants(db, night.id), clubs.tables(db, night.id)) if night.round else None
    except ClubError as refused:
        raise Refused(str(refused)) from None


def _before_the_first_round(night: Night, what: str) -> None:
    _open(night)
    if night.round:
        raise Conflict(f"The first round has started: an entrant is no longer {what}. One who goes leaves after "
                       "a round.")


def start_round(db, night_id: int, starting: int | None = None, unconfirmed: str | None = None) -> int:
    """The next round starts: every table's game is made, its players seated by the movement. The tables of the
    round before that are over keep their result from now on. Returns the round's number. `starting` is the
    round the director's page offered to start: when that round has started already (from another tab or
    phone) nothing changes. A table of the round before whose score nobody confirmed stops the start until the
    director confirms for it, or gives the reason to go on without (`unconfirmed`, kept beside the table). Raises
    NotFound, Conflict (started already, tables still playing or still to confirm, the night over) and Refused
    (too few registered, a blank reason)."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        _open(night)
        if starting is not None and night.round >= starting:
            raise Conflict(f"Round {night.round} has already started (from another tab or phone): "
                           "here is the night as it is now.")
        if night.round >= night.rounds:
            played = "The night's one round is" if night.rounds == 1 else f"All {night.rounds} rounds are"
            raise Conflict(f"{played} played: close the night to see the final standings.")
        entrants = clubs.entrants(db, night_id)
        tables = clubs.tables(db, night_id)
        try:
            planned = round_plan(night, entrants, tables)
        except ClubError as refused:
            raise Refused(str(refused)) from None
        if night.round:
            playing = [t.table_no for t in tables if t.round == night.round and not t.over]
            if playing:
                them = "them" if len(playing) > 1 else "it"
                raise Conflict(f"{_tables_words(playing)} still playing: wait for {them}, or end the round where "
                               "the tables stand.")
            _go_on_unconfirmed(db, night, unconfirmed, f"start round {night.round + 1}")
            ended = _end_tables(db, night)
        else:
            ended = []
        number = night.round + 1
        rules = round_rules(night.rules, night.round_end, night.round_size)
        by_number = {e.number: e for e in entrants}
        for table_no, seated in enumerate(planned[number - 1].tables, start=1):
            seats, players, teams = seating(night.kind, seated, by_number)
            game_id = games.create_game(db, rules, teams, players, first_dealer=(table_no - 1) % 4)
            clubs.add_table(db, night_id, number, table_no, game_id, seats)
        clubs.start_round(db, night_id, number)
    after_commit(db, ended=ended)
    return number


def to_confirm(db, night: Night, tables: list[ClubTable] | None = None) -> list[ClubTable]:
    """The tables of the round under way that are over with a score nobody has confirmed (nor the director
    changed): what the director settles before the next round, or goes on without, saying why."""
    tables = tables if tables is not None else clubs.tables(db, night.id, night.round)
    changed = clubs.result_changes(db, night.id)
    return [t for t in tables if t.round == night.round and t.to_confirm and t.id not in changed]


def _go_on_unconfirmed(db, night: Night, reason: str | None, going_on: str) -> None:
    """Inside the caller's transaction: the director goes on past the tables still to confirm only with a reason,
    kept beside each of them. Raises Conflict (tables to confirm, and no reason given) and Refused (a blank one)."""
    waiting = to_confirm(db, night)
    if not waiting:
        return
    if reason is None:
        numbers = [t.table_no for t in waiting]
        raise Conflict(f"{_tables_words(numbers)} over but not confirmed: confirm for "
                       f"{'them' if len(numbers) > 1 else 'it'}, or {going_on} anyway and say why.")
    reason = " ".join(reason.split())
    if not reason:
        raise Refused(errors={"unconfirmed": "Say why the night goes on without these confirmations: it is kept "
                                             "beside each table."})
    if len(reason) > MOST_NOTE:
        raise Refused(errors={"unconfirmed": f"Say it in at most {MOST_NOTE} characters."})
    for table in waiting:
        clubs.keep_end_note(db, table.id, reason)


def confirm_for_table(db, night_id: int, table_id: int) -> bool:
    """The director confirms a table's score for its players (who agreed it at the table, or have gone): from
    now on it stands as any confirmed score. Returns False when it was confirmed already. Raises NotFound and
    Conflict (the table still plays, or played no hand)."""
    with connection.write_lock(db):
        table = _table(db, night_id, table_id)
        if table.confirmed_at:
            return False
        if not table.over:
            raise Conflict(f"Table {table.table_no} is still playing: its score is confirmed once its round is over.")
        if table.unplayed:
            raise Conflict(f"No hand was played at table {table.table_no}: there is no score to confirm.")
        _end_table(db, table)
        clubs.confirm_table(db, table.id, None)
        return True


def end_round(db, night_id: int, ending: int | None = None) -> int:
    """The director's clock (or, on a night by hands or to a target, the director's word): every table of the
    round under way stops where it stands (the higher total wins; a tie wins for neither; a table with no hand
    played is no game) and takes no more hands. Returns how many tables were still playing. `ending` is the round
    the director's page showed: when another round is under way since, nothing changes (Conflict)."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        _open(night)
        if not night.round:
            raise Conflict("No round has started yet.")
        _as_seen(night, ending, f"round {night.round} was not ended")
        ended = _end_tables(db, night, "clock" if night.round_end == "time" else "stopped")
    after_commit(db, ended=ended)
    return len(ended)


def close_night(db, night_id: int, seen: int | None = None, unconfirmed: str | None = None) -> bool:
    """The night is over: the round under way ends where it stands, and the standings are final. Returns False
    when it was closed already. `seen` is the round the director's page showed: when the night has moved on
    since (another round started, or closed from another tab or phone), nothing changes (Conflict). Tables over
    whose score nobody confirmed are settled first, or gone past with a reason, as before a round starts."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        if night.closed_at:
            if seen is not None:
                raise Conflict("The night was closed already (from another tab or phone).")
            return False
        _as_seen(night, seen, "the night was not closed")
        if night.round:
            _go_on_unconfirmed(db, night, unconfirmed, "close the night")
        ended = _end_tables(db, night, "stopped") if night.round else []
        clubs.close_night(db, night_id)
    after_commit(db, ended=ended)
    return True


@dataclass(frozen=True)
class Corrected:
    """What a correction did: "changed" the result, kept a "remark" beside a result that stands, or nothing
    ("unchanged": the same score, and no note)."""

    how: str
    table_no: int
    round: int


def change_result(db, night_id: int, table_id: int, score: tuple[int, int], note: str) -> Corrected:
    """The director puts a table's result right, in any round, once that round is over for it (the night may be
    closed); the change is kept and shown beside the result, and every standing, record, rating and prize list
    follows it. The same score with a note keeps the note as a remark. Raises NotFound, Conflict (the table still
    plays) and Refused (a note too long)."""
    note = " ".join(note.split())
    if len(note) > MOST_NOTE:
        raise Refused(errors={"note": f"Say it in at most {MOST_NOTE} characters."})
    with connection.write_lock(db):
        table = _table(db, night_id, table_id)
        if not table.over:
            raise Conflict(f"Table {table.table_no} is still playing: its score is its game's until the round ends.")
        _end_table(db, table)
        before = None if table.unplayed else (table.score or table.totals)
        if before == score:
            if not note:
                return Corrected("unchanged", table.table_no, table.round)
            clubs.change_result(db, table.id, before, score, table.winner, note)
            return Corrected("remark", table.table_no, table.round)
        clubs.change_result(db, table.id, before, score, _higher(score), note or "Changed by the director.")
    after_commit(db, moved=[table.game_id])  # its winner may have changed: the records move
    return Corrected("changed", table.table_no, table.round)


def remove_night(db, night_id: int) -> str:
    """A night that never started goes (a trial, a night made twice, one whose director's browser forgot it): it
    leaves its season. Returns its name. Raises NotFound, and Conflict once its first round has started (its tables
    are games in the players' records: it is closed, not removed)."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        if night.round:
            raise Conflict("The night has started: its tables are games, kept in the players' records. Close it "
                           "instead; it stays in its season.")
        clubs.remove_night(db, night_id)
        return night.name


def hide_standings(db, night_id: int, hidden: bool) -> bool:
    """The night's standings are hidden from the wall and the phones (until the director reveals them), or
    revealed. Returns False when they were so already. Raises NotFound."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        if night.standings_hidden == hidden:
            return False
        clubs.hide_standings(db, night_id, hidden)
        return True


def rate_player(db, night_id: int, player_id: int, rated: bool) -> bool:
    """A player of the night (a director filling a seat) is left out of the ratings for its games, or rated again:
    every rating is folded again. Returns False when that was so already. Raises NotFound and Refused (a player not
    registered tonight)."""
    with connection.write_lock(db):
        _night(db, night_id)
        if not any(player_id in e.player_ids for e in clubs.entrants(db, night_id)):
            raise Refused("Only a player registered tonight is rated or left out for the night.")
        return clubs.rate(db, night_id, player_id, rated)


def unrated(db, night_id: int) -> set[int]:
    """The players of the night left out of the ratings for its games."""
    return clubs.unrated(db, night_id)


# --- at a table --------------------------------------------------------------------------------------------

def confirm(db, table_id: int, player_id: int | None, phone: str | None = None) -> Confirmed:
    """An opponent confirms the table's final score with one tap (a player of the side that did not win; after
    a tie, of either side): from then on only the director can change it. Raises NotFound, Refused (not a
    player of this table, or of the side that won, or a phone that no longer holds the player's name: `phone`, the
    phone's mark, is checked when given) and Conflict (the table still plays)."""
    with connection.write_lock(db):
        found = clubs.table(db, table_id)
        if found is None:
            raise NotFound("There is no such table.")
        night_id, table = found
        sides = clubs.table_sides(db, table.game_id)
        if player_id is None or player_id not in sides:
            raise Refused("Only a player at this table can confirm its score.")
        if phone is not None and not holds(db, night_id, player_id, phone):
            raise Refused("Your name was released by the director: tap your name on your table's card again.")
        if table.confirmed_at:
            return Confirmed(night_id, table.table_no, already=True)
        if not table.over:
            raise Conflict(f"Table {table.table_no} is still playing: confirm the score when its round is over.")
        if table.unplayed:
            raise Conflict(f"No hand was played at table {table.table_no}: there is no score to confirm.")
        if not may_confirm(table, sides[player_id]):
            raise Refused(f"The score is for the other side to confirm: waiting for {confirmers(table)} to "
                          "confirm.")
        _end_table(db, table)
        clubs.confirm_table(db, table.id, player_id)
        return Confirmed(night_id, table.table_no)


def may_confirm(table: ClubTable, side: int) -> bool:
    """Whether a player of `side` (0: North and South) may confirm the table's score: the side that did not win
    does, as the opponents sign a paper card; after a tie, either side."""
    winner = table.result[1]
    return winner is None or side != winner


def confirmers(table: ClubTable) -> str:
    """Who may confirm the table's score, in words: 'Bo or Di' (after a tie, any of the four)."""
    winner = table.result[1]
    seats = range(4) if winner is None else (seat for seat in range(4) if seat % 2 != winner)
    names = [table.players[seat] for seat in seats if table.players[seat]]
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else "".join(names)


def game_closed(db, game_id: int) -> str | None:
    """Why a game takes no more changes (its club table's round is over), or None."""
    at = clubs.table_of_game(db, game_id)
    if at is None or at["ended_at"] is None:
        return None
    return (f"Round {at['round']} at table {at['table_no']} is over and its score counts: only the club night's "
            "director can change it now.")


@dataclass(frozen=True)
class TableOutcome:
    """A club table's game as its pages tell it: the night, round and table it is played at, and once it is
    over (its own end, or its round's), what happened, in words."""

    night_id: int
    round: int
    table_no: int
    over: bool
    words: str = ""  # "Round 2 ended on the director's clock: Ann & Cy won, 340 to 290."
    kept: bool = False  # its round is over (confirmed, or stopped): only the director changes its result
    confirmed: bool = False
    time_up: str | None = None  # when the director's clock ends the round under way (None: not by the clock)
    unplayed: bool = False  # its round ended before any hand: no game
    awaiting: bool = False  # over, and waiting for a player of the table to confirm its score


def table_outcome(db, game_id: int, teams: tuple[str, ...], reached_end: bool) -> TableOutcome | None:
    """The club table a game is played at, or None for a game of no club night. `teams` are the game's sides'
    names; `reached_end` says whether a fold of its hands has a winner."""
    at = clubs.table_of_game(db, game_id)
    if at is None:
        return None
    night_id, table = clubs.table(db, at["id"])
    if not table.over:
        return TableOutcome(night_id, table.round, table.table_no, over=False, time_up=_round_ends(db, game_id))
    if table.unplayed:
        return TableOutcome(night_id, table.round, table.table_no, over=True, kept=True, unplayed=True, words=(
            f"Round {table.round} ended before a hand was played at this table: it is no game, and counts in no "
            "standings, record or rating. (The director can type its result, if it was played on paper.)"))
    how = _how_it_ended(table, reached_end)
    if clubs.result_changes(db, night_id).get(table.id):
        how += ", and the director changed its result"
    points, winner = table.result
    if winner is None:
        what = f"tied {number(points[0])} to {number(points[1])}: a win for neither"
    else:
        what = f"{teams[winner]} won, {number(points[winner])} to {number(points[1 - winner])}"
    if table.confirmed_at:
        after = f" Confirmed by {table.confirmed_by or 'the director'}: only the director can change it now."
    elif table.end_note:
        after = f" Not confirmed: the night went on ({table.end_note}). Only the director can change it now."
    else:
        after = " A player at the table confirms it on their seat card."
    return TableOutcome(night_id, table.round, table.table_no, over=True, words=f"{how}: {what}.{after}",
                        kept=table.ended_at is not None, confirmed=table.confirmed_at is not None,
                        awaiting=not table.confirmed_at and not table.end_note)


def _how_it_ended(table: ClubTable, reached_end: bool) -> str:
    """'Round 2 is over', 'Round 2 ended on the director's clock', 'Round 2 was stopped by the director'."""
    how = table.ended_how or ("game" if reached_end or table.ended_at is None else "clock")
    return {"game": f"Round {table.round} is over", "clock": f"Round {table.round} ended on the director's clock",
            "stopped": f"Round {table.round} was stopped by the director"}[how]


def ending_words(table: ClubTable, night: Night) -> str:
    """How a table's round ended, in a few words for a list of tables: never an ending it did not have."""
    if not table.over:
        return "playing"
    if table.unplayed:
        return "no hand played: no game"
    if table.confirmed_at:
        return f"confirmed by {table.confirmed_by or 'the director'}"
    how = table.ended_how or ("clock" if night.round_end == "time" else "game")
    ended = {"game": "over", "clock": "ended on the clock", "stopped": "stopped by the director"}[how]
    if table.end_note:
        return f"{ended}, not confirmed: {table.end_note}"
    return f"{ended}, to confirm" if table.ended_at is None or night.round == table.round else ended


def _round_ends(db, game_id: int) -> str | None:
    """When the director's clock ends the round a game is played in, while that round is under way."""
    clock = clubs.clock_of_game(db, game_id)
    if clock and clock["round"] == clock["night_round"] and not clock["closed_at"]:
        return time_up(clock["round_started_at"], clock["round_end"], clock["round_size"])
    return None


# --- who is who: a name claimed on one phone ------------------------------------------------------------------

@dataclass(frozen=True)
class ClaimedName:
    """A name claimed on a phone, for the director: where its player sits in the round under way."""

    player_id: int
    name: str
    claimed_at: str
    where: str  # "Table 3", "Bye", or "" before the first round


def claim_name(db, night_id: int, player_id: int, phone: str) -> str:
    """The phone with the mark `phone` is the player's from now on (a phone follows one player a night: a name it
    claimed before is free again). Returns the player's name. Raises NotFound, and Refused for a player not
    registered tonight, Conflict for a name claimed on another phone: only the director releases that."""
    with connection.write_lock(db):
        _night(db, night_id)
        entrant = next((e for e in clubs.entrants(db, night_id) if player_id in e.player_ids), None)
        player = store_players.player(db, player_id)
        if player is None:
            raise NotFound("There is no such player.")
        if entrant is None:
            raise Refused(f"{player['name']} is not registered tonight: tap a name the director registered, or "
                          "ask the director to register you.")
        mark = _phone_mark(phone)
        held = clubs.claim_of(db, night_id, player_id)
        if held == mark:
            return player["name"]
        if held is not None:
            raise Conflict(f"{player['name']} is already claimed on another phone; ask the director to release it.")
        clubs.release_phone(db, night_id, mark)
        clubs.claim(db, night_id, player_id, mark)
        return player["name"]


def release_name(db, night_id: int, player_id: int) -> bool:
    """The director frees a claimed name: the phone that held it follows nobody now, and any phone may claim it.
    Returns False when it was not claimed (released already, from another tab). Raises NotFound."""
    with connection.write_lock(db):
        _night(db, night_id)
        return clubs.release(db, night_id, player_id)


def holds(db, night_id: int, player_id: int | None, phone: str | None) -> bool:
    """Whether the phone with the mark `phone` holds the player's claim on this night."""
    if player_id is None or not phone:
        return False
    held = clubs.claim_of(db, night_id, player_id)
    return held is not None and secrets.compare_digest(held, _phone_mark(phone))


def claimed_names(db, night: Night) -> list[ClaimedName]:
    """Every name claimed on a phone tonight, in the order claimed, with where its player sits now."""
    entrants = clubs.entrants(db, night.id)
    now = clubs.tables(db, night.id, night.round) if night.round else []
    found = []
    for claimed in clubs.claims(db, night.id):
        entrant = next((e for e in entrants if claimed.player_id in e.player_ids), None)
        table = next((t for t in now if entrant and entrant.number in t.entrants), None)
        where = f"Table {table.table_no}" if table else ("" if not night.round else "Bye"
                                                         if entrant and entrant.present(night.round) else "Not here")
        found.append(ClaimedName(claimed.player_id, claimed.name, claimed.claimed_at, where))
    return found


def _phone_mark(phone: str) -> str:
    """What the database keeps of a phone's mark: a hash, so a copy of the database claims nothing."""
    return hashlib.sha256(f"scorepad phone {phone}".encode()).hexdigest()


# --- reading a night ---------------------------------------------------------------------------------------

def night_standings(db, night: Night, entrants: list[Entrant] | None = None,
                    tables: list[ClubTable] | None = None) -> list[Place]:
    """The standings as they are now: every table's result that counts (live while it plays; a table that
    played no hand counts for nobody), and the byes of the rounds started, worth what the night's rule says."""
    entrants = entrants if entrants is not None else clubs.entrants(db, night.id)
    tables = tables if tables is not None else clubs.tables(db, night.id)
    by_number = {e.number: e for e in entrants}
    results = []
    for table in tables:
        if table.unplayed:
            continue
        points, winner = table.result
        n, e, s, w = table.entrants
        sides = ((n, s), (e, w)) if night.kind == "progressive" else ((n,), (e,))
        results.append(TableResult(table.round, sides, points, winner, table.over))
    byes = _sat_out(night, entrants, tables)
    now_out = set(byes.get(night.round, ())) if not night.closed_at else set()
    ranked = standings(list(by_number), results, byes, night.tie_breaks, night.bye)
    return [Place(s.rank, s.entrant, by_number[s.entrant].name, s.wins, s.points, s.high_round, s.played, s.byes,
                  s.average, s.entrant in now_out, here_words(by_number[s.entrant], night))
            for s in ranked]


def here_words(entrant: Entrant, night: Night) -> str:
    """'from round 3', 'left after round 2', 'rounds 2 to 4': an entrant not there the whole night ('' for one
    who is)."""
    late = entrant.first_round > 1
    early = entrant.last_round is not None and entrant.last_round < night.rounds
    if late and early:
        if entrant.last_round < entrant.first_round:
            return "withdrawn before playing"
        return f"rounds {entrant.first_round} to {entrant.last_round}"
    if late:
        return f"from round {entrant.first_round}"
    if early:
        return f"left after round {entrant.last_round}" if entrant.last_round < night.round or night.closed_at \
            else f"leaves after round {entrant.last_round}"
    return ""


def seat_of(db, night: Night, player_id: int) -> Seat | None:
    """Where the player sits in the round under way; None before the first round or for someone not registered."""
    if not night.round:
        return None
    entrant = next((e for e in clubs.entrants(db, night.id) if player_id in e.player_ids), None)
    if entrant is None:
        return None
    if not entrant.present(night.round):
        away = (f"You play from round {entrant.first_round}." if entrant.first_round > night.round else
                f"You left after round {entrant.last_round}: thank you for playing.")
        return Seat(night.round, None, bye=entrant.name, away=away)
    for table in clubs.tables(db, night.id, night.round):
        if entrant.number not in table.entrants:
            continue
        seat = table.entrants.index(entrant.number)
        if night.kind == "partners":
            seat += 2 * entrant.player_ids.index(player_id)
        players = table.players
        opponents = sorted(((seat + 1) % 4, (seat + 3) % 4))  # in seat order: North or East first
        return Seat(night.round, table, SEATS[seat], players[(seat + 2) % 4] or "",
                    tuple(players[other] or "" for other in opponents))
    return Seat(night.round, None, bye=entrant.name)


def round_byes(db, night: Night, entrants: list[Entrant] | None = None) -> list[Entrant]:
    """Who sits out the round under way with a bye; none before the first round."""
    if not night.round:
        return []
    entrants = entrants if entrants is not None else clubs.entrants(db, night.id)
    byes = set(_sat_out(night, entrants, clubs.tables(db, night.id, night.round)).get(night.round, ()))
    return [e for e in entrants if e.number in byes]


def _sat_out(night: Night, entrants: list[Entrant], tables: list[ClubTable]) -> dict[int, tuple[int, ...]]:
    """Round -> the entrants who sat it out, for every round started: those there that round and at none of its
    tables as they were made (the movement made them; read back, a round played never changes with the movement's
    code). An entrant who had not arrived yet, or had left, did not sit out."""
    seated: dict[int, set[int]] = {number: set() for number in range(1, night.round + 1)}
    for table in tables:
        seated.setdefault(table.round, set()).update(table.entrants)
    return {number: tuple(e.number for e in entrants if e.present(number) and e.number not in at)
            for number, at in seated.items()}


def table_count(db, night: Night, entrants: list[Entrant] | None = None) -> int:
    """How many tables the night has now: those of the round under way or last played, or before the first
    round the number the first round will have (0 while too few are registered to fill one)."""
    if night.round:
        return len(clubs.tables(db, night.id, night.round))
    entrants = entrants if entrants is not None else clubs.entrants(db, night.id)
    return len(round_plan(night, entrants, [])[0].tables) if seatable(night, entrants) else 0


def seatable(night: Night, entrants: list[Entrant]) -> bool:
    return len(entrants) >= (4 if night.kind == "progressive" else 2)


def round_plan(night: Night, entrants: list[Entrant], tables: list[ClubTable]) -> list[Round]:
    """The night's rounds: those played as they were played, the rest by its movement, in the version it was made
    with (a night under way when a new version came keeps its own, so the rounds to come fit those played), and
    planned again from the first round whose players differ from the first's (an arrival, a departure)."""
    stays = tuple(Stay(e.number, e.first_round, e.last_round) for e in entrants)
    return _plan(night.kind, stays, night.rounds, night.movement, _played(night, entrants, tables))


def _played(night: Night, entrants: list[Entrant], tables: list[ClubTable]) -> tuple[Round, ...]:
    """The rounds started, as their tables were seated: (North, East, South, West) a progressive table, (team,
    team) a partners one; and who sat each out."""
    byes = _sat_out(night, entrants, tables)
    by_round: dict[int, list[tuple]] = {number: [] for number in range(1, night.round + 1)}
    for table in sorted(tables, key=lambda t: (t.round, t.table_no)):
        n, e, s, w = table.entrants
        by_round.setdefault(table.round, []).append((n, e) if night.kind == "partners" else (n, e, s, w))
    return tuple(Round(tuple(seated), byes.get(number, ())) for number, seated in sorted(by_round.items()))


# --- in common ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _plan(kind: str, stays: tuple[Stay, ...], rounds: int, version: int, played: tuple[Round, ...]) -> list[Round]:
    # the plan is a pure function of these: the director's pages ask for it on every look
    return plan(kind, stays, rounds, version, played)


def seating(kind: str, seated: tuple, by_number: dict[int, Entrant]):
    """(entrant numbers by seat, player names by seat, the two teams' names) of a table of the movement."""
    if kind == "partners":
        a, b = (by_number[n] for n in seated)
        return (a.number, b.number, a.number, b.number), (a.player_names[0], b.player_names[0], a.player_names[1],
                                                          b.player_names[1]), (a.name, b.name)
    names = tuple(by_number[n].name for n in seated)
    return tuple(seated), names, (f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}")


def _end_tables(db, night: Night, how: str = "game") -> list[int]:
    """Every table of the round under way that has not ended ends as it stands (`how`: by its own game's end, the
    director's clock, or stopped by the director; a table whose game has a winner ended by its game); returns the
    games of those that still played (their games end now: `committed` backs them up once the change is
    committed). A table where no hand was played ends with no score: it is no game."""
    ended = []
    for table in clubs.tables(db, night.id, night.round):
        if table.ended_at is not None:
            continue
        if table.game_winner is not None:
            clubs.end_table(db, table.id, table.totals, table.game_winner, "game")
            continue
        ended.append(table.game_id)
        if not table.hands_count:
            clubs.end_table(db, table.id, None, None, how)
        else:
            clubs.end_table(db, table.id, table.totals, _higher(table.totals), how)
    return ended


def _end_table(db, table: ClubTable) -> None:
    """A table over by its game's win ends with its game's score, if it had not yet (the game ended, and was
    backed up, with the hand that won it)."""
    if table.ended_at is None:
        clubs.end_table(db, table.id, table.totals, table.game_winner, "game")


def _higher(score: tuple[int, int]) -> int | None:
    return None if score[0] == score[1] else int(score[1] > score[0])


def _tables_words(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"Table {numbers[0]} is"
    return "Tables " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]} are"


def _night(db, night_id: int) -> Night:
    night = clubs.load_night(db, night_id)
    if night is None:
        raise NotFound("There is no such club night.")
    return night


def _as_seen(night: Night, seen: int | None, unchanged: str) -> None:
    """A director's page that showed round `seen` acts on that round only: a stale tab must not end or close the
    round another tab started since."""
    if seen is not None and seen != night.round:
        raise Conflict(f"Round {night.round} has started since that page was opened (from another tab or phone): "
                       f"{unchanged}. Here is the night as it is now.")


def _open(night: Night) -> None:
    if night.closed_at:
        raise Conflict("The night is closed: these are its final standings (a result the director corrects is "
                       "shown beside its table).")


def _table(db, night_id: int, table_id: int) -> ClubTable:
    found = clubs.table(db, table_id)
    if found is None or found[0] != night_id:
        raise NotFound("This night has no such table.")
    return found[1]


# --- the standings as files, and a player's nights ----------------------------------------------------------

STANDINGS_COLUMNS = ("rank", "number", "name", "wins", "points", "high_round", "played", "byes")


def standings_csv(places: list[Place]) -> str:
    """The standings as a spreadsheet reads them: names that look like formulas are kept as text."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(STANDINGS_COLUMNS)
    for place in places:
        writer.writerow([cell(getattr(place, column)) for column in STANDINGS_COLUMNS])
    return out.getvalue()


def standings_document(night: Night, places: list[Place]) -> dict:
    """The standings as JSON: the night, whether they are final, and a line a place."""
    return {"night": night.name, "kind": night.kind, "date": night.created_at, "rounds": night.rounds,
            "rounds_played": night.round, "final": night.closed_at is not None, "ranked_by": list(night.tie_breaks),
            "standings": [{column: getattr(place, column) for column in STANDINGS_COLUMNS} for place in places]}


@dataclass(frozen=True)
class NightPlace:
    night: Night
    place: Place
    of: int  # how many were ranked


def place_of(db, night: Night, player_id: int) -> NightPlace | None:
    """The player's place in the night's standings as they stand, or None for someone not registered."""
    entrants = clubs.entrants(db, night.id)
    mine = next((e.number for e in entrants if player_id in e.player_ids), None)
    if mine is None:
        return None
    places = night_standings(db, night, entrants)
    return NightPlace(night, next(p for p in places if p.number == mine), len(places))


def places_of_player(db, player_id: int) -> list[NightPlace]:
    """Each club night the player registered for, newest first, with their place in it (a night whose standings
    its director hides is left out until they are revealed)."""
    found = []
    for night in clubs.nights_of_player(db, player_id):
        if night.standings_hidden:
            continue
        entrants = clubs.entrants(db, night.id)
        mine = next(e.number for e in entrants if player_id in e.player_ids)
        places = night_standings(db, night, entrants)
        found.append(NightPlace(night, next(p for p in places if p.number == mine), len(places)))
    return found


# --- what the club's pages read ------------------------------------------------------------------------------
# The web reads a night through these, as it changes one through the functions above: the store stays below the
# services.

def nights(db) -> list[Night]:
    """The latest nights, newest first."""
    return clubs.list_nights(db)


def night(db, night_id: int) -> Night | None:
    return clubs.load_night(db, night_id)


def entrants(db, night_id: int) -> list[Entrant]:
    return clubs.entrants(db, night_id)


def tables(db, night_id: int, round_number: int | None = None) -> list[ClubTable]:
    """Every table of the night, or those of one round."""
    return clubs.tables(db, night_id, round_number)


def table_of(db, night_id: int, table_id: int) -> ClubTable:
    """A table of the night. Raises NotFound."""
    return _table(db, night_id, table_id)


def result_changes(db, night_id: int) -> dict[int, list[dict]]:
    """The director's corrections, by table id."""
    return clubs.result_changes(db, night_id)


def night_etag(db, night_id: int) -> str | None:
    """The whole night's ETag (its version and its games'); None for a night that is not there."""
    versions = clubs.night_version(db, night_id)
    return versions and clubs.night_etag(night_id, *versions)


def seat_etag(db, night_id: int, player_id: int | None) -> str | None:
    """The ETag of one player's seat card: it moves only when what that card shows does."""
    return clubs.seat_etag(db, night_id, player_id)


def player(db, player_id: int) -> dict | None:
    return store_players.player(db, player_id)


def player_names(db) -> list[str]:
    """Every name known, for the register form's suggestions."""
    return store_players.player_names(db)


def claims(db, night_id: int) -> list:
    """The names claimed on a phone tonight (who, and a hash of which phone)."""
    return clubs.claims(db, night_id)
