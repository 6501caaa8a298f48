"""Who may change a club night and its season, as strangers try it: a director's link with any characters in its
key, a throwaway night's director reaching for the season, a director whose browser lost the night (the command
that prints the link again, and an empty night removed)."""

import pytest

from tests.helpers import parse
from tests.web.helpers import club_post

NIGHT = {"name": "Tuesday", "kind": "progressive", "preset": "double-deck", "round_end": "hands", "round_size": "1",
         "rounds": "2"}
PLAYERS = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def made(client, name="Tuesday", players=PLAYERS) -> int:
    response = club_post(client, "/club/new", **{**NIGHT, "name": name})
    night_id = int(response.headers["Location"].split("/")[2])
    for player in players:
        assert club_post(client, f"/club/{night_id}/register", player_0=player).status_code == 303
    return night_id



@pytest.mark.parametrize("key", ["é", "ключ", "\u00ff" * 16, "%F0%9F%83%8F", "%ED%A0%80"],
                         ids=["one accented letter", "cyrillic", "as long as a key", "an emoji", "a lone surrogate"])
def test_a_directors_link_with_any_characters_in_its_key_is_a_page_in_words_never_a_500(client, app, key):
    night_id = made(client)
    stranger = app.test_client()
    response = stranger.get(f"/club/{night_id}/director?key={key}")
    assert response.status_code == 403
    assert parse(response).select_one("#not-director")
