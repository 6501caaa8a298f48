"""Litestream's log lines, read as the household needs them: what each means for the replica, in words, and never
with a password or a key's path in them."""

import pytest

from scorepad.core import litestream_output as out
from scorepad.core.litestream_output import Meaning

# Lines as Litestream 0.5.17 writes them (taken from its runs against a full tmpfs, a folder made immutable, a
# share that dropped, a server that was down).
LINES = [
    ('time=2026-11-27T06:35:45.563Z level=ERROR msg="monitor error" system=store db=scorepad.db replica=file '
     'error="write ltx file: write /mnt/nas/ltx/0/0000000000000002-0000000000000002.ltx.tmp: no space left on '
     'device" consecutive_errors=1 backoff=1s', Meaning.FULL, "the disk it is on is full (no space left on device)"),
    ('time=2026-11-27T06:09:02.676Z level=ERROR msg="monitor error" system=store db=live.db replica=file '
     'error="write ltx file: open /mnt/nas/ltx/0/0000000000000002-0000000000000002.ltx.tmp: operation not '
     'permitted" consecutive_errors=1 backoff=1s', Meaning.REFUSED,
     "it does not let Scorepad write (operation not permitted)"),
    ('time=2026-11-27T06:00:30.016Z level=ERROR msg="compaction failed" system=store db=live.db level=1 '
     'error="write ltx file: extract timestamp from LTX header: non-contiguous transaction ids in input files: '
     '(0000000000000002,0000000000000002) -> (0000000000000006,0000000000000006)"', Meaning.HISTORY,
     "there is a gap in its files, as when its share drops for a while"),
    ('time=2026-11-27T06:00:30.016Z level=ERROR msg="monitor error" replica=sftp error="dial tcp '
     '192.168.1.20:22: connect: connection refused"', Meaning.UNREACHABLE, "it cannot be reached (connection refused)"),
    ('time=2026-11-27T06:00:30.016Z level=ERROR msg="monitor error" replica=sftp error="ssh: handshake failed: '
     'ssh: unable to authenticate, attempted methods [none publickey], no supported methods remain"',
     Meaning.REFUSED, "the SFTP server refused the login (check REPLICA_SSH_KEY, or the password)"),
    ('time=2026-11-27T06:00:30.016Z level=ERROR msg="monitor error" replica=s3 error="operation error S3: '
     'PutObject, https response error StatusCode: 404, api error NoSuchBucket: The specified bucket does not '
     'exist"', Meaning.REFUSED, "the bucket does not exist"),
    ('time=2026-11-27T06:00:30.016Z level=ERROR msg="something new" error="a thing we never saw"', Meaning.OTHER,
     "Litestream reports an error (a thing we never saw)"),
]


@pytest.mark.parametrize(("line", "meaning", "words"), LINES)
def test_each_error_line_is_sorted_and_said_in_words(line, meaning, words):
    heard = out.hear(line)
    assert heard.level == "ERROR" and heard.meaning is meaning and heard.words == words


@pytest.mark.parametrize("line", [
    'time=2026-11-27T06:08:07.980Z level=WARN msg="shutdown sync failed, retrying (press Ctrl+C again to skip)"',
    'time=2026-11-27T06:08:07.980Z level=INFO msg="replica sync" txid.replica=0000000000000002',
    "litestream: some line that is not logfmt",
    "",
])
def test_what_is_not_an_error_means_nothing_for_the_replica(line):
    assert out.hear(line).meaning is Meaning.NOTHING


@pytest.mark.parametrize(("text", "secrets", "shown"), [
    ("sftp://pi:S3cretPW@nas.local:22/srv", (), "sftp://pi:…@nas.local:22/srv"),
    ("pi:S3cretPW@nas.local:22/srv/scorepad", (), "pi:…@nas.local:22/srv/scorepad"),
    ('error="dial sftp://pi:S3cretPW@nas: refused"', (), 'error="dial sftp://pi:…@nas: refused"'),
    ("open /home/pi/.ssh/id_ed25519: permission denied", ("/home/pi/.ssh/id_ed25519",), "open …: permission denied"),
    ("a/b@c with pass/word in it", ("pass/word",), "a/b@c with … in it"),
    ("/mnt/nas/scorepad", (), "/mnt/nas/scorepad"),
    ("time=2026-11-27T06:08:07.980Z level=ERROR", (), "time=2026-11-27T06:08:07.980Z level=ERROR"),
])
def test_passwords_and_key_paths_are_masked(text, secrets, shown):
    assert out.mask(text, secrets) == shown


def test_a_line_passed_on_to_the_log_is_masked_too():
    heard = out.hear('level=ERROR msg="monitor error" error="dial tcp: lookup nas for sftp://pi:S3cretPW@nas: no '
                     'such host"', secrets=("S3cretPW",))
    assert "S3cretPW" not in heard.line and "S3cretPW" not in heard.words
    assert heard.meaning is Meaning.UNREACHABLE


def test_logfmt_fields_keep_quoted_values_whole():
    assert out.fields('a=1 b="two words" c="say \\"hi\\"" d=') == {"a": "1", "b": "two words", "c": 'say "hi"',
                                                                   "d": ""}
