"""A static file leaves compressed once, as tightly as gzip can be, and reads back exactly as it was."""

import gzip

import pytest

from scorepad.web.shell import compression


@pytest.mark.skipif(compression._zopfli is None, reason="zopfli is not installed here (no wheel for this machine)")
@pytest.mark.parametrize("name", ["htmx-2.0.11.min.js", "app.css", "save_machine.js"])
def test_a_static_file_arrives_gzipped_at_once_then_tighter_than_gzips_best_and_unchanged(client, name):
    with client.get(f"/static/{name}") as plain:
        written = plain.get_data()
    first = client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip" and gzip.decompress(first.data) == written
    compression.settled()
    packed = client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == written
    assert len(packed.data) < len(gzip.compress(written, compresslevel=9, mtime=0))


def test_without_zopfli_a_static_file_is_gzips_best(monkeypatch):
    monkeypatch.setattr(compression, "_zopfli", None)
    data = b"every hand, every meld, every counter " * 200
    assert compression.tightest(data) == gzip.compress(data, compresslevel=9, mtime=0)
