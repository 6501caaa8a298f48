import pytest
from bs4 import BeautifulSoup


@pytest.fixture
def app(tmp_path):
    from scorepad import create_app

    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "scorepad.db")})


@pytest.fixture
def client(app):
    return app.test_client()


def parse(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")
