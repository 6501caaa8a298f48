"""Club nights: the director's pages, the seat cards and the wall."""
