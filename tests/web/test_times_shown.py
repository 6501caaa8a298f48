"""A stored time is shown in the table's local time; one no clock of Scorepad's wrote never fails a page."""

import pytest


@pytest.mark.parametrize("name", ["local_time", "played_on"])
@pytest.mark.parametrize(("stamp", "shown"), [(None, ""), ("yesterday", "yesterday"), ("", "")])
def test_a_time_that_is_not_one_is_shown_as_it_is(app, name, stamp, shown):
    assert app.jinja_env.filters[name](stamp) == shown


def test_a_time_is_shown_in_local_time(app):
    assert app.jinja_env.filters["local_time"]("2026-11-24T20:05:00+00:00")[:4] == "2026"
