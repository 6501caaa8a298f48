"""Backups live in the store now (`scorepad.store.backups`); `scorepad.backups` is the same module, for the
callers that import it by this name."""

import sys

from .store import backups

sys.modules[__name__] = backups
