"""The pure core: nothing of Flask, werkzeug, sqlite or the store (tests/core/test_layers.py)."""
