"""The web shell: parses requests, calls one use case of `scorepad.services` (or reads the store) and renders.
No scoring rule, no SQL and no transaction lives here."""
