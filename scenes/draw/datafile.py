"""Object graphs (the scene's records, Manim mobjects) as data that runs no code when read back.

Why not pickle: a pickle names any callable and calls it on load, so a state or glyph file in a
shared, copied or downloaded folder could run anything. This format is JSON for the structure and
raw little-endian arrays for the points, colours and other numpy data; reading it back builds
only plain values, arrays of a few numeric dtypes, and instances of the classes ``allowed``
accepts, made with ``object.__new__`` and filled field by field (no ``__init__``, no
``__setstate__``, no attribute hook runs). Anything else in the file is an error, and a caller
treats it as a cache miss.

Layout: ``MAGIC``, the JSON header's length (8 bytes, little-endian), the header, then the array
bytes one after another. The header holds ``root`` (the encoded value), ``objects`` (each
``[class, dict fields, slot fields]``, filled in the order listed), ``index`` (each listed
object's number, by which references name it) and ``arrays`` (each ``[dtype, shape, byte
length]``).
"""

from __future__ import annotations

import contextlib
import enum
import gc
import json
import math
import sys
from pathlib import Path, PurePath
from typing import Any, Callable, Iterator

import numpy as np

MAGIC = b"GRDATA1\n"
DTYPES = frozenset({"<f8", "<f4", "<f2", "<i8", "<i4", "<i2", "|i1", "<u8", "<u4", "<u2", "|u1", "|b1"})
"""The array element types a file may hold: numbers and booleans, never objects."""
MAX_HEADER = 64 << 20


class DataFileError(ValueError):
    """What was to be written or read is not a graph this format holds."""


def class_name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def under(*roots: str) -> Callable[[type], bool]:
    """A class test: classes defined in these packages (``"manim"``, ``"scenes"``)."""
    def test(cls: type) -> bool:
        return any(cls.__module__ == r or cls.__module__.startswith(r + ".") for r in roots)
    return test


def dumps(value: Any, allowed: Callable[[type], bool]) -> bytes:
    """``value`` as bytes; raises DataFileError on anything the format does not hold."""
    with _no_gc():
        return _Writer(allowed).write(value)


def loads(data: bytes, allowed: Callable[[type], bool]) -> Any:
    """The value written by :func:`dumps`; DataFileError on any file it did not write (wrong
    magic, cut short, a class ``allowed`` refuses or that is not loaded, a bad dtype...)."""
    try:
        with _no_gc():
            return _Reader(data, allowed).read()
    except DataFileError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError, OverflowError) as exc:
        raise DataFileError(f"not a data file of this program ({type(exc).__name__}: {exc})") from None


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    """The cyclic collector paused: building tens of thousands of small objects would otherwise
    run it again and again over the whole heap (it doubled the time)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class _Writer:
    def __init__(self, allowed: Callable[[type], bool]) -> None:
        self.allowed = allowed
        self.memo: dict[int, int] = {}  # id(object) -> its index in objects
        self.objects: list[Any] = []
        self.order: list[int] = []  # objects in the order they were completed
        self.arrays: list[list[Any]] = []
        self.chunks: list[bytes] = []
        self.ok: set[type] = set()  # classes allowed already
        self.keep: list[Any] = []  # what the memo's ids point at, alive until written

    def write(self, value: Any) -> bytes:
        root = self.enc(value)
        header = json.dumps({"root": root, "objects": [self.objects[i] for i in self.order],
                             "index": self.order, "arrays": self.arrays}, separators=(",", ":")).encode()
        return b"".join([MAGIC, len(header).to_bytes(8, "little"), header, *self.chunks])

    def enc(self, v: Any) -> Any:
        if v is None or isinstance(v, (bool, str)) or type(v) in (int, float):
            return v
        if isinstance(v, np.generic):
            return ["N", v.dtype.str, v.item()] if v.dtype.str in DTYPES else self.refuse(v)
        if isinstance(v, np.ndarray):
            return ["A", self.array(v)]
        if type(v) is list:
            return ["L", *[self.enc(x) for x in v]]
        if type(v) is tuple:
            return ["T", *[self.enc(x) for x in v]]
        if type(v) in (set, frozenset):
            return ["S" if type(v) is set else "Z", *[self.enc(x) for x in v]]
        if type(v) is dict:
            return ["D", *[self.enc(x) for kv in v.items() for x in kv]]
        if isinstance(v, PurePath):
            return ["P", str(v)]
        if isinstance(v, enum.Enum) and self.allowed(type(v)):
            return ["E", class_name(type(v)), v.name]
        if isinstance(v, type) and self.allowed(v):
            return ["C", class_name(v)]
        return ["O", self.obj(v)]

    def refuse(self, v: Any) -> Any:
        raise DataFileError(f"cannot store a {type(v).__module__}.{type(v).__qualname__}")

    def array(self, a: np.ndarray) -> int:
        if a.dtype.str not in DTYPES:
            self.refuse(a)
        data = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
        self.arrays.append([a.dtype.str, list(a.shape), len(data)])
        self.chunks.append(data)
        return len(self.arrays) - 1

    def obj(self, v: Any) -> int:
        if id(v) in self.memo:
            return self.memo[id(v)]
        cls = type(v)
        if cls not in self.ok:
            if not self.allowed(cls) or getattr(cls, "__module__", "") not in sys.modules:
                self.refuse(v)
            self.ok.add(cls)
        index = self.memo[id(v)] = len(self.objects)
        self.keep.append(v)
        entry: list[Any] = [class_name(cls), None, None]
        self.objects.append(entry)
        if hasattr(v, "__dict__"):
            entry[1] = [[k, self.enc(x)] for k, x in vars(v).items()]
        slots = _slots(cls)
        if slots:
            entry[2] = [[s, self.enc(getattr(v, s))] for s in slots if hasattr(v, s)]
        self.order.append(index)
        return index


class _Reader:
    def __init__(self, data: bytes, allowed: Callable[[type], bool]) -> None:
        self.data, self.allowed = data, allowed
        self.classes: dict[str, type] = {}

    def read(self) -> Any:
        data = self.data
        if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 8:
            raise DataFileError("not a data file of this program")
        n = int.from_bytes(data[len(MAGIC):len(MAGIC) + 8], "little")
        start = len(MAGIC) + 8
        if n > MAX_HEADER or start + n > len(data):
            raise DataFileError("cut short")
        head = json.loads(data[start:start + n])
        if not isinstance(head, dict) or set(head) != {"root", "objects", "index", "arrays"}:
            raise DataFileError("not a data file of this program")
        self.arrays = self.read_arrays(head["arrays"], memoryview(data)[start + n:])
        entries, index = head["objects"], head["index"]
        if not (isinstance(entries, list) and isinstance(index, list) and len(entries) == len(index)
                and sorted(index) == list(range(len(index)))):
            raise DataFileError("bad object table")
        self.objects: list[Any] = [None] * len(index)
        classes = []
        for i, entry in zip(index, entries):  # every object exists before any is filled: cycles
            if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)):
                raise DataFileError("bad object entry")
            cls = self.cls(entry[0])
            self.objects[i] = object.__new__(cls)
            classes.append(cls)
        for i, entry, cls in zip(index, entries, classes):  # filled in the order they were completed
            self.fill(self.objects[i], cls, entry[1], entry[2])
        return self.dec(head["root"])

    def read_arrays(self, specs: Any, body: memoryview) -> list[np.ndarray]:
        """The arrays, as writable views into one copy of the file's array bytes (one copy in
        all, not one per array: a glyph holds thousands of small ones)."""
        buf = bytearray(body)
        out, at = [], 0
        sizes = {d: np.dtype(d).itemsize for d in DTYPES}
        for spec in specs:
            dtype, shape, size = spec
            if dtype not in sizes or type(shape) is not list or not all(type(d) is int and d >= 0 for d in shape):
                raise DataFileError(f"bad array {spec!r}")
            count = math.prod(shape)
            if size != count * sizes[dtype] or at + size > len(buf):
                raise DataFileError("cut short")
            out.append(np.frombuffer(buf, dtype=dtype, count=count, offset=at).reshape(shape))
            at += size
        if at != len(buf):
            raise DataFileError("trailing bytes")
        return out

    def cls(self, name: str) -> type:
        if name not in self.classes:
            self.classes[name] = self.find(name)
        return self.classes[name]

    def find(self, name: str) -> type:
        module, _, qual = name.partition(":")
        mod = sys.modules.get(module)  # never imports: only classes already loaded
        obj: Any = mod
        for part in qual.split("."):
            obj = getattr(obj, part, None) if obj is not None and not part.startswith("__") else None
        if not isinstance(obj, type) or class_name(obj) != name or not self.allowed(obj):
            raise DataFileError(f"class {name} is not one this file may hold")
        return obj

    def fill(self, obj: Any, cls: type, fields: Any, slots: Any) -> None:
        dec = self.dec
        if fields is not None:
            values = {k: dec(v) for k, v in fields}
            if not hasattr(obj, "__dict__") or not set(map(type, values)) <= {str}:
                raise DataFileError(f"bad fields of {class_name(cls)}")
            obj.__dict__.update(values)
        if slots is not None:
            names = _slots(cls)
            for k, v in slots:
                if k not in names:
                    raise DataFileError(f"{class_name(cls)} has no slot {k!r}")
                object.__setattr__(obj, k, dec(v))

    def dec(self, v: Any) -> Any:
        t = type(v)
        if t is not list:
            if v is None or t in (str, int, float, bool):
                return v
            raise DataFileError("bad value")
        if not v:
            raise DataFileError("bad value")
        tag = v[0]
        if tag == "L":
            return [self.dec(x) for x in v[1:]]
        if tag == "O":
            return self.objects[_index(v, len(self.objects))]
        if tag == "A":
            return self.arrays[_index(v, len(self.arrays))]
        if tag == "T":
            return tuple([self.dec(x) for x in v[1:]])
        if tag == "D":
            rest = v[1:]
            if len(rest) % 2:
                raise DataFileError("bad dict")
            return {self.dec(rest[i]): self.dec(rest[i + 1]) for i in range(0, len(rest), 2)}
        rest = v[1:]
        if tag == "S":
            return {self.dec(x) for x in rest}
        if tag == "Z":
            return frozenset(self.dec(x) for x in rest)
        if tag == "N" and len(rest) == 2 and rest[0] in DTYPES:
            return np.dtype(rest[0]).type(rest[1])
        if tag == "E" and len(rest) == 2:
            cls = self.cls(rest[0])
            if not issubclass(cls, enum.Enum):
                raise DataFileError("bad enum")
            return cls[rest[1]]
        if tag == "P" and len(rest) == 1 and isinstance(rest[0], str):
            return Path(rest[0])
        if tag == "C" and len(rest) == 1:
            return self.cls(rest[0])
        raise DataFileError(f"bad value tag {tag!r}")


_SLOTS: dict[type, tuple[str, ...]] = {}


def _slots(cls: type) -> tuple[str, ...]:
    """The slot names of ``cls`` and its bases (``__slots__`` may be one string), once per class."""
    known = _SLOTS.get(cls)
    if known is not None:
        return known
    out: list[str] = []
    for c in cls.__mro__:
        own = c.__dict__.get("__slots__", ())
        for s in (own,) if isinstance(own, str) else own:
            if s not in ("__dict__", "__weakref__") and s not in out:
                out.append(s)
    _SLOTS[cls] = tuple(out)
    return _SLOTS[cls]


def _index(v: list, n: int) -> int:
    """The index of a reference ``[tag, i]``, checked against the table's length."""
    if len(v) != 2 or type(v[1]) is not int or not 0 <= v[1] < n:
        raise DataFileError("bad reference")
    return v[1]
