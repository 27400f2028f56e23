"""Rule-pack objects (packs.py) as rows of the rules database and back, derived from their
dataclasses: each field is a column of the same name, a dict or a tuple stored as JSON (a tuple of
dataclasses as their fields), so a field added to a pack's object needs no column list updated in
the build or the loader. Fields stored in tables of their own (a section's rules) are left out
by name; columns that place a row (its pack, its position) are given beside the object's."""

from __future__ import annotations

import json
import typing
from collections.abc import Mapping
from dataclasses import MISSING, asdict, fields, is_dataclass
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")


def row(obj: Any, apart: tuple[str, ...] = (), **placed: Any) -> dict[str, Any]:
    """The object's fields as a row (less those in `apart`), after the columns that place it."""
    out = dict(placed)
    for f in fields(obj):
        if f.name not in apart:
            value = getattr(obj, f.name)
            out[f.name] = json.dumps(_plain(value), ensure_ascii=False) if isinstance(value, dict | tuple) else value
    return out


def columns(cls: type, apart: tuple[str, ...] = (), **placed: type) -> dict[str, type]:
    """The columns of `cls`'s rows and their types (JSON is text), for a table created empty."""
    out = dict(placed)
    for name, kind in _types(cls).items():
        if name not in apart:
            out[name] = kind if kind in (int, bool) else str
    return out


def value(cls: type[T], record: Mapping[str, Any], **given: Any) -> T:
    """The object a row holds: each field from its column (JSON decoded, None read as the field's
    default), and the fields stored apart as `given`."""
    kwargs = dict(given)
    kind_of: type = cls
    defaults = {f.name: f.default for f in fields(cls) if f.default is not MISSING}  # type: ignore[arg-type]
    for name, kind in _types(kind_of).items():
        if name in kwargs or name not in record.keys():  # noqa: SIM118 - `in` on an sqlite3.Row tests its values
            continue
        stored = record[name]
        if stored is None:
            if name in defaults:
                kwargs[name] = defaults[name]
            continue
        kwargs[name] = _decoded(stored, kind, _element(kind_of, name))
    return cls(**kwargs)


@cache
def _types(cls: type) -> dict[str, type]:
    """Each field's kind of value: int, bool, str, dict or tuple."""
    hints = typing.get_type_hints(cls)
    out = {}
    for f in fields(cls):
        hint = hints[f.name]
        origin = typing.get_origin(hint) or hint
        out[f.name] = origin if origin in (int, bool, dict, tuple) else str
    return out


@cache
def _element(cls: type, name: str) -> type | None:
    """The dataclass a tuple field holds (a rule's items), if any."""
    args = typing.get_args(typing.get_type_hints(cls)[name])
    return typing.cast(type, args[0]) if args and is_dataclass(args[0]) else None


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [asdict(v) if is_dataclass(v) else v for v in value]  # type: ignore[arg-type]
    return value


def _decoded(stored: Any, kind: type, element: type | None) -> Any:
    if kind is dict:
        return json.loads(stored)
    if kind is tuple:
        items = json.loads(stored)
        return tuple(element(**x) for x in items) if element else tuple(items)
    if kind is bool:
        return bool(stored)
    return stored
