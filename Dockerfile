# TI4 rules bot.
# Build: docker build -t ti4-rules-bot .
# Run:   docker run -e DISCORD_TOKEN=... -v ti4-state:/app/state ti4-rules-bot
# Site:  docker run -p 8000:8000 ti4-rules-bot python bot.py site /app/site --serve --host 0.0.0.0
#        (the rules website, built into the image; or copy /app/site to any static host)
# Also:  --read-only (only /app/state is written), --user 12345 (any uid), a bind mount for
#        /app/state (-v "$PWD/state:/app/state", writable by that uid). See docs/en/admin/operations.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_ROOT_USER_ACTION=ignore \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    STATE_DB=/app/state/state.db \
    RULES_DB=/app/data/rules.db \
    MPLCONFIGDIR=/app/state/matplotlib

WORKDIR /app
# A Japanese font for the odds chart's kanji and kana (Hangul comes with koreanize-matplotlib).
RUN apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends fonts-ipafont-gothic \
    && rm -rf /var/lib/apt/lists/*
# The exact versions CI tested (constraints.txt), installed before the code for a cached layer.
COPY requirements.txt constraints.txt ./
RUN pip install -r requirements.txt -c constraints.txt

COPY . .
# The rules database (and the analyser's user dictionary) is built into the image and readable
# by any uid; live state goes to /app/state, the only place written at run time.
RUN MPLCONFIGDIR=/tmp/matplotlib python bot.py build \
    && MPLCONFIGDIR=/tmp/matplotlib python bot.py site /app/site \
    && chmod -R a+rX /app \
    && mkdir -p /app/state \
    && chmod 1777 /app/state

USER 10001
VOLUME ["/app/state"]
# The bot handles SIGTERM itself (graceful stop, exit 0), also as PID 1.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=60s --timeout=10s --start-period=90s --retries=3 CMD ["python", "bot.py", "health"]
CMD ["python", "bot.py", "run"]
