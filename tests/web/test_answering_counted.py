"""Each request is counted while it is answered, so that warming steps aside meanwhile (services.courtesy)."""

from scorepad import create_app
from scorepad.services import courtesy


def test_a_request_is_counted_while_it_is_answered_and_not_after(tmp_path):
    app = create_app({"SECRET_KEY": "t", "TESTING": True, "DATABASE": str(tmp_path / "scorepad.db")})
    seen = []
    app.before_request(lambda: seen.append(courtesy.census()["answering"]))
    client = app.test_client()
    assert client.get("/about").status_code == 200
    assert client.get("/no/such/page").status_code == 404
    assert seen == [1, 1]
    assert courtesy.census()["answering"] == 0
