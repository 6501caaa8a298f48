"""Addresses built once a shape (see `web.urls`) are the addresses Flask builds."""

from flask import url_for as flask_url_for

from scorepad.web.shell import urls


def test_a_kept_address_is_the_one_flask_builds(app):
    asked = [("games.show", {"game_id": 7}), ("games.show", {"game_id": 12345}),
             ("games.hand_detail", {"game_id": 3, "hand_id": 40, "readonly": 1}),
             ("games.hand_detail", {"game_id": 3, "hand_id": 41, "readonly": None}),
             ("history.hand", {"game_id": 0, "hand_id": 9}), ("history.hand", {"game_id": 10, "hand_id": 10}),
             ("passcode.unlock_page", {"next": "/games/4"}), ("passcode.unlock_page", {"next": "/games/5?x=1&y"}),
             ("static", {"filename": "app.css", "v": "abc123"}), ("home", {}), ("history.evenings", {}),
             ("history.evenings", {"player": 3, "page": True})]
    with app.test_request_context("/"):
        for _ in range(2):  # built, then kept
            for endpoint, values in asked:
                assert urls.url_for(endpoint, **values) == flask_url_for(endpoint, **values), (endpoint, values)


def test_a_kept_asset_address_is_the_one_flask_builds_wherever_the_app_is_mounted(app):
    from scorepad.web.shell.assets import _HASHES, asset_url

    for root in ("/", "/scorepad/", "/"):  # kept at the root, then under a prefix, then at the root again
        with app.test_request_context("/", base_url=f"http://localhost{root}"):
            for name in ("app.css", "record.js", "app.css"):
                assert asset_url(name) == flask_url_for("static", filename=name, v=_HASHES[name])
                assert asset_url(name).startswith(f"{root}static/{name}?v=")
