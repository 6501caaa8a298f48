# Scorepad for a NAS or a home server: see "Run it in a container" in the README (`docker compose up -d`).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    SCOREPAD_INSTANCE=/data \
    SCOREPAD_PORT=8000

RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home scorepad \
    && mkdir /data \
    && chown scorepad:scorepad /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY scorepad ./scorepad
COPY templates ./templates
COPY static ./static
# With Litestream, for a replica off the NAS (REPLICA_URL; it runs only when that is set). Its version is pinned
# in pyproject.toml's `replica` extra, which hadolint cannot see.
# hadolint ignore=DL3013
RUN pip install --no-cache-dir ".[replica]"

USER 10001:10001
# The house's time zone is given when it runs (TZ, or SCOREPAD_TIMEZONE: compose.yaml); the zone names come with the
# tzdata package (a dependency), since a slim image has no /usr/share/zoneinfo.
# The database, its backups and the secret key: keep this volume, and an upgrade to a new image keeps every game.
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["python", "-m", "scorepad", "--check"]
CMD ["python", "-m", "scorepad", "--no-qr"]
