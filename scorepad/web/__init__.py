"""The web shell: parses forms, calls the core, stores and renders. No scoring rule lives here."""
