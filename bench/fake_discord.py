#!/usr/bin/env python3
"""A fake Discord for one bot, so a benchmark can drive the REAL bot process end to end.

  python bench/fake_discord.py launch PORT    run the bot (bot.py run) against a fake on PORT
  python bench/fake_discord.py serve          a fake on a free port, for trying by hand

`FakeDiscord` is an aiohttp server on 127.0.0.1 playing Discord's REST API (/api/v10) and its
gateway websocket: HELLO, IDENTIFY, READY with one unavailable guild, then GUILD_CREATE, and
heartbeat ACKs. A benchmark sends application commands with `interact` (an INTERACTION_CREATE
on the gateway) and reads when the bot's answers arrive over REST: the interaction callback
(the first response, which Discord wants within 3 s) and, for a deferred command, the final
message (a followup or an edit of @original).

The bot is not changed: `launch` points discord.py's `Route.BASE` at the fake and calls
`bot.main(["run"])`; the gateway's address comes from the fake's GET /gateway/bot. Frames are
zlib-stream compressed when the bot asks for it (discord.py also accepts plain text frames).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import sys
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from aiohttp import WSMsgType, web

ROOT = Path(__file__).resolve().parent.parent
API = "/api/v10"
FAKE_TOKEN = "fake.bench.token"  # any text: the fake never checks it
DISCORD_EPOCH = 1420070400000
EPHEMERAL = 64
# callback types (InteractionResponseType) that are the answer itself, not "thinking…"
ANSWERING = {4, 7, 8, 9}
OPTION_TYPES = {bool: 5, int: 4, float: 10, str: 3}
_counter = itertools.count()


def snowflake() -> int:
    """A fresh, time-ordered id, as Discord makes them."""
    return ((int(time.time() * 1000) - DISCORD_EPOCH) << 22) | (next(_counter) & 0x3FFFFF)


APP_ID = BOT_ID = snowflake()
GUILD_ID, CHANNEL_ID, OWNER_ID = snowflake(), snowflake(), snowflake()
ALL_PERMISSIONS = str((1 << 50) - 1)
BOT_USER = {
    "id": str(BOT_ID),
    "username": "rules-bot",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
    "flags": 0,
}


def _json(data: dict) -> web.Response:
    """JSON with the bare content type: discord.py parses a body only when the header is exactly
    application/json (aiohttp's json_response adds a charset)."""
    return web.Response(body=json.dumps(data, ensure_ascii=False).encode(), content_type="application/json")


def _ids(path: str) -> str:
    """A path with its snowflakes as {id}, so one route is counted once."""
    return re.sub(r"\d{6,}", "{id}", path)


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _user(user_id: int) -> dict:
    return {"id": str(user_id), "username": f"player{user_id}", "discriminator": "0", "global_name": None, "avatar": None}


def _member(user: dict) -> dict:
    return {"user": user, "roles": [], "joined_at": _now(), "deaf": False, "mute": False, "flags": 0, "pending": False}


def _channel() -> dict:
    return {
        "id": str(CHANNEL_ID),
        "type": 0,
        "guild_id": str(GUILD_ID),
        "name": "general",
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
    }


def _guild() -> dict:
    """GUILD_CREATE's guild: what discord.py's Guild._from_data reads, and the bot as a member."""
    everyone = {
        "id": str(GUILD_ID),
        "name": "@everyone",
        "permissions": "1071698660929",
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    return {
        "id": str(GUILD_ID),
        "name": "bench table",
        "unavailable": False,
        "owner_id": str(OWNER_ID),
        "member_count": 2,
        "large": False,
        "joined_at": _now(),
        "preferred_locale": "ko",
        "features": [],
        "roles": [everyone],
        "emojis": [],
        "stickers": [],
        "channels": [_channel()],
        "threads": [],
        "members": [_member(BOT_USER)],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "system_channel_flags": 0,
    }


def command_data(name: str, options: dict) -> dict:
    """An application command's `data` as Discord sends it: "odds ground" is the subcommand
    `ground` of `/odds`, its options nested inside it."""
    leaf = [{"name": k, "type": OPTION_TYPES[type(v)], "value": v} for k, v in options.items()]
    top, *sub = name.split()
    for part in reversed(sub):
        leaf = [{"name": part, "type": 1, "options": leaf}]
    return {"id": str(snowflake()), "name": top, "type": 1, "options": leaf}


@dataclass
class Sent:
    """One interaction sent to the bot, and when (perf_counter) its answers arrived."""

    id: int
    token: str
    name: str
    sent_at: float
    first: asyncio.Future[float]
    final: asyncio.Future[float]
    callback: dict = field(default_factory=dict)  # the callback's body: {"type": 4, "data": …}
    message_id: int = 0

    @property
    def ephemeral(self) -> bool:
        return bool((self.callback.get("data") or {}).get("flags", 0) & EPHEMERAL)

    @property
    def heading(self) -> str:
        """The first response's title (a card's "### " text, an embed's title, else its text)."""
        data = self.callback.get("data") or {}
        stack = list(data.get("components") or [])
        while stack:
            c = stack.pop(0)
            if c.get("type") == 10 and str(c.get("content", "")).startswith("### "):
                return c["content"][4:]
            stack = list(c.get("components") or []) + stack
        embeds = data.get("embeds") or []
        return str((embeds[0].get("title") if embeds else None) or data.get("content") or "")[:60]


class FakeDiscord:
    """Discord's REST API and gateway for one bot on 127.0.0.1; `start()` gives the port."""

    def __init__(self) -> None:
        self.routes: Counter[str] = Counter()  # "GET /api/v10/users/@me" → times called
        self.unknown: set[str] = set()
        self.sent: dict[str, Sent] = {}  # by token
        self.ready = asyncio.Event()  # READY and GUILD_CREATE sent
        self.compression = ""  # what the bot asked for: zlib-stream, zstd-stream (sent as text), none
        self.port = 0
        self._ws: web.WebSocketResponse | None = None
        self._zlib = None
        self._send_lock = asyncio.Lock()
        self._seq = 0
        self._runner: web.AppRunner | None = None

    # --- the server ------------------------------------------------------------------------

    async def start(self, port: int = 0) -> int:
        app = web.Application(middlewares=[self._count], client_max_size=64 * 1024 * 1024)
        r = app.router
        r.add_get("/gateway", self._gateway)
        r.add_get(f"{API}/users/@me", self._me)
        r.add_get(f"{API}/gateway/bot", self._gateway_bot)
        r.add_get(f"{API}/oauth2/applications/@me", self._application)
        r.add_get(f"{API}/applications/@me", self._application)
        r.add_post(f"{API}/interactions/{{id}}/{{token}}/callback", self._callback)
        r.add_post(f"{API}/webhooks/{{app}}/{{token}}", self._webhook)
        r.add_route("*", f"{API}/webhooks/{{app}}/{{token}}/messages/{{message}}", self._webhook)
        r.add_route("*", "/{tail:.*}", self._other)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self.port

    async def stop(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _count(self, request: web.Request, handler):
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        if "{tail" in canonical:
            canonical = _ids(request.path)
        self.routes[f"{request.method} {canonical}"] += 1
        return await handler(request)

    async def _me(self, request: web.Request) -> web.Response:
        return _json(BOT_USER)

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return _json({"url": f"ws://127.0.0.1:{self.port}/gateway", "shards": 1, "session_start_limit": limit})

    async def _application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(APP_ID),
                "name": "rules-bot",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": _user(OWNER_ID),
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": BOT_USER,
            }
        )

    async def _other(self, request: web.Request) -> web.Response:
        """Anything else: a plausible empty answer, and the route said once."""
        key = f"{request.method} {_ids(request.path)}"
        if key not in self.unknown:
            self.unknown.add(key)
            print(f"fake discord: unhandled route {key}", file=sys.stderr)
        return _json({})

    # --- interactions and their answers ------------------------------------------------------

    async def _body(self, request: web.Request) -> dict:
        """A JSON body, or a multipart one's payload_json (the files only counted)."""
        if not request.content_type.startswith("multipart/"):
            return await request.json() if request.can_read_body else {}
        body: dict = {}
        files = 0
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                files += len(await part.read())  # type: ignore[union-attr]
        body["_file_bytes"] = files
        return body

    def _message(self, data: dict, message_id: int) -> dict:
        """The message Discord would return for a reply carrying `data`."""
        return {
            "id": str(message_id),
            "channel_id": str(CHANNEL_ID),
            "guild_id": str(GUILD_ID),
            "type": 20,
            "content": data.get("content") or "",
            "embeds": data.get("embeds") or [],
            "components": data.get("components") or [],
            "attachments": [],
            "author": BOT_USER,
            "timestamp": _now(),
            "edited_timestamp": None,
            "flags": data.get("flags") or 0,
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "webhook_id": str(APP_ID),
            "application_id": str(APP_ID),
        }

    async def _callback(self, request: web.Request) -> web.Response:
        arrived = time.perf_counter()
        body = await self._body(request)
        sent = self.sent.get(request.match_info["token"])
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        message_id = snowflake()
        if sent is not None:
            sent.callback, sent.message_id = body, message_id
            if not sent.first.done():
                sent.first.set_result(arrived - sent.sent_at)
            if kind in ANSWERING and not sent.final.done():
                sent.final.set_result(arrived - sent.sent_at)
        # discord.py 2.7 asks with_response=1 and reads an InteractionCallbackResponse
        flags = int(data.get("flags") or 0)
        answer: dict = {
            "interaction": {
                "id": request.match_info["id"],
                "type": 2,
                "response_message_id": str(message_id),
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(flags & EPHEMERAL),
            },
            "resource": {"type": kind},
        }
        if kind in (4, 5, 7):
            answer["resource"]["message"] = self._message(data, message_id)
        return _json(answer)

    async def _webhook(self, request: web.Request) -> web.Response:
        """Followups (POST) and edits (PATCH) of an interaction's messages: a deferred command's
        final message is the first of them."""
        arrived = time.perf_counter()
        sent = self.sent.get(request.match_info["token"])
        which = request.match_info.get("message")
        if request.method == "DELETE":
            return web.Response(status=204)
        body = await self._body(request) if request.method in ("POST", "PATCH") else {}
        if request.method in ("POST", "PATCH") and sent is not None and not sent.final.done():
            sent.final.set_result(arrived - sent.sent_at)
        if request.method == "POST":
            message_id = snowflake()
        elif which == "@original" and sent is not None:
            message_id = sent.message_id or snowflake()
            body = body or (sent.callback.get("data") or {})
        else:
            message_id = int(which) if which and which.isdigit() else snowflake()
        return _json(self._message(body, message_id))

    # --- the gateway ---------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._ws = ws
        self.compression = request.query.get("compress", "")
        self._zlib = zlib.compressobj() if self.compression == "zlib-stream" else None
        await self._send({"op": 10, "d": {"heartbeat_interval": 41250}})
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(msg.data)
            op = payload.get("op")
            if op == 1:
                await self._send({"op": 11})
            elif op == 2:
                await self._identified(request)
            elif op == 6:
                await self._dispatch("RESUMED", {})
        return ws

    async def _identified(self, request: web.Request) -> None:
        ready = {
            "v": 10,
            "user": {**BOT_USER, "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
            "session_id": "bench-session",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "shard": [0, 1],
            "application": {"id": str(APP_ID), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        await self._dispatch("READY", ready)
        await self._dispatch("GUILD_CREATE", _guild())
        self.ready.set()

    async def _send(self, payload: dict) -> None:
        """One gateway message; compressed frames stay in order, so one at a time."""
        if self._ws is None or self._ws.closed:
            raise ConnectionError("the bot is not connected to the gateway")
        text = json.dumps(payload, ensure_ascii=False)
        async with self._send_lock:
            if self._zlib is None:
                await self._ws.send_str(text)
            else:
                data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self._ws.send_bytes(data)

    async def _dispatch(self, event: str, data: dict) -> None:
        self._seq += 1
        await self._send({"op": 0, "t": event, "s": self._seq, "d": data})

    # --- what a benchmark calls ----------------------------------------------------------------

    async def send(self, name: str, options: dict, user_id: int = 7, locale: str = "ko") -> Sent:
        """Dispatch an application command (type 2) as a guild member typed it; returns at once."""
        loop = asyncio.get_running_loop()
        interaction_id, token = snowflake(), f"bench-{snowflake()}"
        user = _user(user_id)
        payload = {
            "id": str(interaction_id),
            "application_id": str(APP_ID),
            "type": 2,
            "data": command_data(name, options),
            "guild_id": str(GUILD_ID),
            "guild": {"id": str(GUILD_ID), "locale": "ko", "features": []},
            "channel_id": str(CHANNEL_ID),
            "channel": _channel(),
            "member": {**_member(user), "permissions": ALL_PERMISSIONS},
            "token": token,
            "version": 1,
            "locale": locale,
            "guild_locale": "ko",
            "app_permissions": ALL_PERMISSIONS,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        sent = Sent(interaction_id, token, name, 0.0, loop.create_future(), loop.create_future())
        self.sent[token] = sent
        sent.sent_at = time.perf_counter()
        await self._dispatch("INTERACTION_CREATE", payload)
        return sent

    async def interact(self, name: str, options: dict, user_id: int = 7, locale: str = "ko", timeout: float = 30) -> float:
        """Seconds from dispatching the command until the bot's first response (the callback)."""
        sent = await self.send(name, options, user_id=user_id, locale=locale)
        return await asyncio.wait_for(asyncio.shield(sent.first), timeout)

    async def until_final(self, sent: Sent, timeout: float = 60) -> float:
        """Seconds from dispatch until the final message: the callback itself when it answered,
        else (deferred) the first followup or edit of @original."""
        return await asyncio.wait_for(asyncio.shield(sent.final), timeout)


async def start_bot(port: int, folder: Path, **settings: str) -> tuple[asyncio.subprocess.Process, Path]:
    """`bot.py run` against the fake on `port`, its state and heartbeat in `folder`, with these
    environment variables on top; the bot's stdout and stderr go to the returned log file."""
    log = folder / "bot.log"
    env = {
        **os.environ,
        **settings,
        "DISCORD_TOKEN": FAKE_TOKEN,
        "STATE_DB": str(folder / "state.db"),
        "HEARTBEAT_FILE": str(folder / "heartbeat"),
        "XDG_STATE_HOME": str(folder),
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO"),
    }
    with log.open("wb") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "launch", str(port), cwd=ROOT, env=env, stdout=out, stderr=out
        )
    return proc, log


async def stop_bot(proc: asyncio.subprocess.Process, timeout: float = 15) -> int | None:
    """SIGTERM, as docker stop: the bot drains and exits; killed if it does not."""
    if proc.returncode is None:
        proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            proc.kill()
            await proc.wait()
    return proc.returncode


def launch(port: int) -> int:
    """Run the real bot with every REST call (and so the gateway's address) sent to the fake."""
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    import discord.http

    discord.http.Route.BASE = f"http://127.0.0.1:{port}{API}"
    import bot

    return bot.main(["run"])


async def _serve() -> None:
    """For trying by hand: a fake on a free port until Ctrl-C."""
    fake = FakeDiscord()
    port = await fake.start()
    print(f"fake discord on 127.0.0.1:{port}; run: python bench/fake_discord.py launch {port}")
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.Event().wait()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "launch":
        sys.exit(launch(int(sys.argv[2])))
    if len(sys.argv) == 2 and sys.argv[1] == "serve":
        asyncio.run(_serve())
        sys.exit(0)
    sys.exit(__doc__)
