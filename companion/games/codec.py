"""JSON for frozen dataclasses of ints, floats, strs, bools, None, tuples, frozensets (as sorted lists)
and plain tables (`dict[str, Any]`, kept as they are), by their type hints.

States are nested frozen dataclasses; writing each game's JSON by hand would repeat
the same walk five times. Fields equal to their default are left out, so the JSON
stays short and readable.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")


class CodecError(ValueError):
    """JSON that does not fit the expected type."""


@cache
def _fields(cls: type) -> tuple[tuple[str, Any], ...] | None:
    """(name, default) of each field of a dataclass type, once per type; None for other types."""
    if not dataclasses.is_dataclass(cls):
        return None
    return tuple((f.name, f.default) for f in dataclasses.fields(cls))


def to_json(value: Any) -> Any:
    kind: Any = type(value)
    fields = _fields(kind)
    if fields is not None:
        out: dict[str, Any] = {}
        for name, default in fields:
            item = getattr(value, name)
            if default is not dataclasses.MISSING and item == default:
                continue
            out[name] = to_json(item)
        return out
    if isinstance(value, tuple):
        return [to_json(item) for item in value]
    if isinstance(value, frozenset):
        return sorted(to_json(item) for item in value)
    if value is None or isinstance(value, bool | int | str):
        return value
    raise CodecError(f"cannot encode {type(value).__name__}")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(tp: Any, data: Any, where: str = "$") -> Any:
    """Decode `data` as type `tp`; `where` names the place in errors.

    A decoder compiled once per type does the work; anything it is not sure of (every
    error included) is decoded again the careful way, which names the place."""
    try:
        return _decoder(tp)(data)
    except _Unsure:
        return _careful(tp, data, where)


class _Unsure(Exception):
    """The compiled decoder met something only the careful decoder may judge."""


def _unsure(data: Any) -> Any:
    raise _Unsure


@cache
def _decoder(tp: Any) -> Callable[[Any], Any]:
    """A decoder for `tp` that returns exactly what `_careful` would, or raises `_Unsure`."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = [o for o in typing.get_args(tp) if o is not type(None)]
        if len(options) != 1 or type(None) not in typing.get_args(tp):
            return _unsure
        inner = _decoder(options[0])
        return lambda data: None if data is None else inner(data)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])

            def items(data: Any) -> Any:
                if not isinstance(data, list):
                    raise _Unsure
                return tuple(item(x) for x in data)

            return items
        return _unsure
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    simple: dict[Any, Callable[[Any], bool]] = {
        bool: lambda d: isinstance(d, bool),
        int: lambda d: isinstance(d, int) and not isinstance(d, bool),
        str: lambda d: isinstance(d, str),
    }
    if tp in simple:
        check = simple[tp]

        def plain(data: Any) -> Any:
            if not check(data):
                raise _Unsure
            return data

        return plain
    return _unsure


def _dataclass_decoder(tp: type) -> Callable[[Any], Any]:
    hints = _hints(tp)
    names = frozenset(f.name for f in dataclasses.fields(tp))
    required = frozenset(
        f.name
        for f in dataclasses.fields(tp)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    decoders = {f.name: _decoder(hints[f.name]) for f in dataclasses.fields(tp)}

    def decode(data: Any) -> Any:
        if not isinstance(data, dict) or not data.keys() <= names or not required <= data.keys():
            raise _Unsure
        try:
            return tp(**{name: decoders[name](value) for name, value in data.items()})
        except (TypeError, ValueError) as error:
            raise _Unsure from error

    return decode


def _careful(tp: Any, data: Any, where: str) -> Any:
    """Decode `data` as type `tp` step by step, naming the place of any error."""
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
                return _careful(option, data, where)
            except CodecError as error:
                errors.append(str(error))
        raise CodecError("; ".join(errors))
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(data, list):
            raise CodecError(f"{where}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_careful(args[0], item, f"{where}[{i}]") for i, item in enumerate(data))
        if len(args) != len(data):
            raise CodecError(f"{where}: expected {len(args)} items")
        return tuple(_careful(a, item, f"{where}[{i}]") for i, (a, item) in enumerate(zip(args, data)))
    if origin is frozenset:
        if not isinstance(data, list):
            raise CodecError(f"{where}: expected a list")
        (item_type,) = typing.get_args(tp)
        return frozenset(_careful(item_type, item, f"{where}[{i}]") for i, item in enumerate(data))
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
                kwargs[f.name] = _careful(hints[f.name], data[f.name], f"{where}.{f.name}")
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
