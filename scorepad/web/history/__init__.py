"""Looking back: history, a hand's story, records, players, export and import."""
