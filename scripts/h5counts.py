"""Exact counts from a rushhour classification.h5, whichever form the file holds them in.

Format version 1 stores every count as uint64. Format version 2 (written only when some
count exceeds 2^64 - 1, e.g. on 8x8) stores every count as a decimal string and says so in
the root attribute count_encoding = "decimal". Both give Python ints here, exact at any size
(docs/file-formats-counts.md).

    import h5counts
    with h5py.File(path, "r") as f:
        form = h5counts.count_form(f)              # raises ValueError for an unknown form
        domain = h5counts.attribute(f, "domain_count", form)
        layers = h5counts.dataset(f, "layers/count", form)   # list of int
"""
import re

import numpy as np

UINT64 = "uint64"
DECIMAL = "decimal"
COUNT_ATTRIBUTES = ("domain_count", "winning_count", "solvable_count", "unsolvable_count")
COUNT_DATASETS = ("layers/count", "dominance/nondominated")
_DIGITS = re.compile(r"[0-9]+")


def _text(value):
    return value.decode("utf-8") if isinstance(value, (bytes, np.bytes_)) else str(value)


def count_form(f):
    """UINT64 or DECIMAL for an open file; ValueError if the file names another form."""
    version = int(f.attrs.get("format_version", 1))
    if version == 1:
        return UINT64
    if version == 2:
        form = _text(f.attrs.get("count_encoding", b""))
        if form != DECIMAL:
            raise ValueError(f"format version 2 with count_encoding '{form}', expected '{DECIMAL}'")
        return DECIMAL
    raise ValueError(f"format version {version}, this script reads 1 and 2")


def to_int(value, form, where):
    """One stored count as an exact int; ValueError if it has the wrong kind or text."""
    if form == UINT64:
        if np.asarray(value).dtype.kind != "u":
            raise ValueError(f"{where} has kind '{np.asarray(value).dtype.kind}', expected 'u'")
        return int(value)
    text = _text(value)
    if not _DIGITS.fullmatch(text):
        raise ValueError(f"{where}: '{text}' is not a decimal count")
    return int(text)


def attribute(f, name, form):
    return to_int(f.attrs[name], form, f"attribute '{name}'")


def dataset(f, name, form):
    values = f[name][()]
    if form == UINT64 and values.dtype.kind != "u":
        raise ValueError(f"dataset '/{name}' has kind '{values.dtype.kind}', expected 'u'")
    return [to_int(v, form, f"dataset '/{name}'") for v in values]
