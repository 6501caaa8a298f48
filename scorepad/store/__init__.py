"""All SQL lives here. Rows go in and out as the core's dataclasses; the schema is sqlite-utils migrations.

Every change runs in one transaction. Recording a hand takes the write lock first (BEGIN IMMEDIATE), so the
check "is this still hand N?" and the insert cannot interleave with another phone's. Version counters (a
game's ETag, the records caches' keys) are the database's own: its triggers move them on every write.

One module a thing held, and callers import the module by name (`from ..store import games`, then
`games.load_game(db, game_id)`): `connection` (opening, the per-thread pool, the write lock), `schema`
(migrations), `games` (games, hands, their history, what a fold says), `players` (names, rename, merge),
`records` (records and their cache, warmed ahead), `clubs` (club nights), `seasons` (a club's seasons and
specials), `imports` (an import's games, written in short transactions), `backups`, `autobackup` and `files`
(backup and restore), `readable` (what an old row says, checked).
"""
