"""Tiny structural validators for decoded message bodies.

Every field of every message is checked for its exact type and bounds before
anything looks at its meaning.  A validator is a callable ``(value, path)``
that returns the value or raises ``RemoteProtocolError``.  ``bool`` is never
accepted where an ``int`` is expected (in Python it is a subclass of int).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .errors import RemoteProtocolError

Validator = Callable[[Any, str], Any]


def _bad(path: str, what: str) -> RemoteProtocolError:
    return RemoteProtocolError(f"malformed message: {path}: {what}")


def Int(lo: int, hi: int) -> Validator:
    def check(v: Any, path: str) -> int:
        if type(v) is not int:
            raise _bad(path, "expected an integer")
        if not lo <= v <= hi:
            raise _bad(path, f"{v} not in [{lo}, {hi}]")
        return v

    return check


def Bin(size: int | None = None, *, unit: int | None = None, max_len: int | None = None) -> Validator:
    """Bytes of exactly ``size``, or a non-empty multiple of ``unit`` up to ``max_len``."""

    def check(v: Any, path: str) -> bytes:
        if type(v) is not bytes:
            raise _bad(path, "expected bytes")
        if size is not None and len(v) != size:
            raise _bad(path, f"expected {size} bytes, got {len(v)}")
        if unit is not None and (len(v) % unit or not v):
            raise _bad(path, f"length {len(v)} is not a positive multiple of {unit}")
        if max_len is not None and len(v) > max_len:
            raise _bad(path, "too long")
        return v

    return check


def Str(max_len: int, pattern: str | None = None) -> Validator:
    rx = re.compile(pattern) if pattern is not None else None

    def check(v: Any, path: str) -> str:
        if type(v) is not str:
            raise _bad(path, "expected a string")
        if not 0 < len(v) <= max_len:
            raise _bad(path, "empty or too long")
        if rx is not None and not rx.fullmatch(v):
            raise _bad(path, "unexpected characters")
        if not v.isprintable():
            raise _bad(path, "unprintable characters")
        return v

    return check


def List(item: Validator, max_len: int, *, min_len: int = 0, unique: bool = False) -> Validator:
    def check(v: Any, path: str) -> list[Any]:
        if type(v) is not list:
            raise _bad(path, "expected a list")
        if not min_len <= len(v) <= max_len:
            raise _bad(path, f"list length {len(v)} not in [{min_len}, {max_len}]")
        out = [item(x, f"{path}[{i}]") for i, x in enumerate(v)]
        if unique and len(set(out)) != len(out):
            raise _bad(path, "duplicate entries")
        return out

    return check


def Map(fields: Mapping[str, Validator], optional: Mapping[str, Validator] | None = None) -> Validator:
    """A map with exactly these keys (plus, possibly, the optional ones)."""
    opt = dict(optional or {})

    def check(v: Any, path: str) -> dict[str, Any]:
        if type(v) is not dict:
            raise _bad(path, "expected a map")
        for key in v:
            if key not in fields and key not in opt:
                raise _bad(path, f"unexpected field {key!r}")
        out: dict[str, Any] = {}
        for key, sub in fields.items():
            if key not in v:
                raise _bad(path, f"missing field {key!r}")
            out[key] = sub(v[key], f"{path}.{key}")
        for key, sub in opt.items():
            if key in v:
                out[key] = sub(v[key], f"{path}.{key}")
        return out

    return check


def Either(*alternatives: Validator) -> Validator:
    """The first alternative that accepts the value (e.g. an int or a short string)."""

    def check(v: Any, path: str) -> Any:
        for alt in alternatives[:-1]:
            try:
                return alt(v, path)
            except RemoteProtocolError:
                continue
        return alternatives[-1](v, path)

    return check


def Tagged(tag_field: str, variants: Mapping[str, Validator]) -> Validator:
    """A map whose ``tag_field`` string selects which validator applies."""

    def check(v: Any, path: str) -> dict[str, Any]:
        if type(v) is not dict or type(v.get(tag_field)) is not str:
            raise _bad(path, f"expected a map with a {tag_field!r} tag")
        sub = variants.get(v[tag_field])
        if sub is None:
            raise _bad(path, f"unknown {tag_field} {v[tag_field]!r}")
        return sub(v, path)

    return check


def Const(value: Any) -> Validator:
    def check(v: Any, path: str) -> Any:
        if type(v) is not type(value) or v != value:
            raise _bad(path, f"expected {value!r}")
        return v

    return check
