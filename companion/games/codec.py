"""JSON for frozen dataclasses of ints, floats, strs, bools, None, tuples, frozensets (as sorted
lists) and plain tables (`dict[str, Any]`, kept as they are), by their type hints.

States are nested frozen dataclasses; writing each game's JSON by hand would repeat
the same walk five times. Fields equal to their default are left out, so the JSON
stays short and readable.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")


class CodecError(ValueError):
    """JSON that does not fit the expected type."""


def to_json(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.default is not dataclasses.MISSING and item == f.default:
                continue
            out[f.name] = to_json(item)
        return out
    if isinstance(value, tuple):
        return [to_json(item) for item in value]
    if isinstance(value, frozenset):
        return sorted(to_json(item) for item in value)
    raise CodecError(f"cannot encode {type(value).__name__}")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(tp: Any, data: Any, where: str = "$") -> Any:
    """Decode `data` as type `tp`; `where` names the place in errors."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(tp)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return from_json(option, data, where)
            except CodecError as error:
                errors.append(str(error))
        raise CodecError("; ".join(errors))
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(data, list):
            raise CodecError(f"{where}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] is str and all(isinstance(item, str) for item in data):
                return tuple(data)  # the common case, without a call per item
            return tuple(from_json(args[0], item, f"{where}[{i}]") for i, item in enumerate(data))
        if len(args) != len(data):
            raise CodecError(f"{where}: expected {len(args)} items")
        return tuple(from_json(a, item, f"{where}[{i}]") for i, (a, item) in enumerate(zip(args, data)))
    if origin is frozenset:
        if not isinstance(data, list):
            raise CodecError(f"{where}: expected a list")
        (item_type,) = typing.get_args(tp)
        return frozenset(from_json(item_type, item, f"{where}[{i}]") for i, item in enumerate(data))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise CodecError(f"{where}: expected an object")
        hints = _hints(tp)
        names = {f.name for f in dataclasses.fields(tp)}
        unknown = set(data) - names
        if unknown:
            raise CodecError(f"{where}: unknown keys {sorted(unknown)}")
        kwargs = {}
        for f in dataclasses.fields(tp):
            if f.name in data:
                kwargs[f.name] = from_json(hints[f.name], data[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise CodecError(f"{where}: missing {f.name!r}")
        try:
            return tp(**kwargs)
        except (TypeError, ValueError) as error:
            raise CodecError(f"{where}: {error}") from error
    if tp is type(None):
        if data is not None:
            raise CodecError(f"{where}: expected null")
        return None
    if tp is bool:
        if not isinstance(data, bool):
            raise CodecError(f"{where}: expected true or false")
        return data
    if tp is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise CodecError(f"{where}: expected an integer")
        return data
    if tp is float:
        if not isinstance(data, int | float) or isinstance(data, bool):
            raise CodecError(f"{where}: expected a number")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise CodecError(f"{where}: expected a string")
        return data
    if origin is dict:
        if not isinstance(data, dict):
            raise CodecError(f"{where}: expected an object")
        return dict(data)
    raise CodecError(f"{where}: cannot decode type {tp!r}")
