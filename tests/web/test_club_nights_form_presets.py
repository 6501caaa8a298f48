"""A club night is made only with a rule set its tables (two teams of two) can play."""

from scorepad.core.rules import PRESETS
from tests.helpers import parse
from tests.web.helpers import csrf


def test_the_new_night_form_offers_only_rule_sets_for_four_players_and_refuses_another(client):
    page = parse(client.get("/club/"))
    offered = {o["value"] for o in page.select("select[name=preset] option")}
    assert offered and all((PRESETS[k].sides, PRESETS[k].players_per_side) == (2, 2) for k in offered)
    assert "three-handed" not in offered
    answer = client.post("/club/new", data={"csrf_token": csrf(client), "name": "Tuesday", "kind": "progressive",
                                         "preset": "three-handed", "round_end": "hands", "round_size": "4",
                                         "rounds": "4"})
    assert answer.status_code == 422
    assert "two teams of two" in parse(answer).get_text()
