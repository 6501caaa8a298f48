"""Import through the services, with no HTTP: a file too large is refused before it is read as JSON."""

import json

import pytest

from scorepad import services
from scorepad.core.errors import ImportRefused
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import transfer
from scorepad.services.transfer import MAX_IMPORT_BYTES
from scorepad.store import connection
from tests.services.helpers import everything


def test_an_export_imports_into_another_database_and_its_sheet_comes_out_the_same(db, new_database, tmp_path):
    game_id = services.start_game(db, PRESETS["double-deck"], ("Us", "Them"), (None,) * 4, 0)
    services.record_hand(db, game_id, Hand(0, 50, (0, 0), (50, 0)), token="t1", expected=1)
    raw = json.dumps(transfer.export_games(db)).encode()
    other = connection.connect(str(new_database(tmp_path / "other.db")))
    [new_id] = services.import_games(other, raw)
    assert services.sheets_csv(other, [new_id]).splitlines()[1:] == services.sheets_csv(db).splitlines()[1:]
    assert services.sheets_csv(other, [new_id]).splitlines()[0].startswith(f"\ufeffGame {new_id},")
    other.close()


@pytest.mark.parametrize(("raw", "status", "words"), [
    (b" " * (MAX_IMPORT_BYTES + 1), 413, "That file is larger than 50 MB, the most one import takes."),
    (b"not json", 422, "This is not a Scorepad export: it is not JSON"),
])
def test_a_file_that_cannot_be_imported_says_why_with_its_status_and_writes_nothing(db, raw, status, words):
    before = everything(db)
    with pytest.raises(ImportRefused) as refused:
        services.import_games(db, raw)
    assert refused.value.status_hint == status and words in str(refused.value)
    assert everything(db) == before
