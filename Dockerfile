# TI4 rules bot. Build: docker build -t ti4-rules-bot .
# Run:   docker run -e DISCORD_TOKEN=... -v ti4-state:/app/state ti4-rules-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    STATE_DB=/app/state/state.db

WORKDIR /app
COPY requirements.txt constraints.txt ./
RUN pip install --no-cache-dir -r requirements.txt -c constraints.txt

COPY . .
# The rules database is built into the image; live state goes to a volume.
RUN python bot.py build \
    && useradd --create-home --uid 10001 bot \
    && mkdir -p /app/state \
    && chown -R bot:bot /app/state /app/data

USER bot
VOLUME ["/app/state"]
CMD ["python", "bot.py", "run"]
