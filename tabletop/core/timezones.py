"""The server's time zone, for times shown to players: Asia/Seoul unless an admin sets another
IANA zone with /settings timezone:. Stored times are UTC; they are shown converted and labelled."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tabletop.core import settings
from tabletop.core.errors import UserError
from tabletop.core.i18n import t


def check_zone(name: str) -> str:
    """An IANA zone name as given (Asia/Seoul, Europe/Berlin, UTC); UserError otherwise."""
    name = (name or "").strip()
    try:
        if not name or "/" not in name and name.upper() != "UTC":
            raise ValueError(name)
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UserError(t("settings.bad_timezone", zone=name[:40])) from None
    return name


def server_zone(ctx) -> ZoneInfo:
    name = settings.read(ctx.state, ctx.guild_id, settings.TIMEZONE, fallback=True)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(settings.TIMEZONE.default)


def local_time(utc_text: str, zone: ZoneInfo) -> str:
    """'2026-11-21T09:00:00.000Z' -> '11-21 18:00:00' in the zone."""
    moment = datetime.strptime(utc_text[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC).astimezone(zone)
    return moment.strftime("%m-%d %H:%M:%S")


def zone_label(zone: ZoneInfo) -> str:
    """'Asia/Seoul, KST (UTC+09:00)'."""
    now = datetime.now(zone)
    offset = now.strftime("%z")
    return f"{zone.key}, {now.tzname()} (UTC{offset[:3]}:{offset[3:]})"
