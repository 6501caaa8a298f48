"""The `flask --app scorepad …` commands."""
