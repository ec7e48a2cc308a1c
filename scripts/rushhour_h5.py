"""The one reader of a rushhour classification.h5 (SPEC section 7) that the scripts share.

read_classification(path) opens the file, checks that it is one of rushhour's, and gives its
attributes (text decoded, counts as exact Python ints) and datasets (counts as lists of int,
the rest as numpy arrays, the samples as (board, index) pairs); a missing, unreadable, foreign
or truncated file raises FileError with a one-line reason that names the path.

Counts are exact in either stored form: format version 1 stores every count as uint64;
format version 2 (written only when some count exceeds 2^64 - 1, e.g. on 8x8) stores every
count as a decimal string and says so in the root attribute count_encoding = "decimal"
(docs/file-formats-counts.md). count_form, attribute and dataset read them from an open file.

    import rushhour_h5
    run = rushhour_h5.read_classification(path)
    run.attrs["metric"], run.attrs["domain_count"], run.data["layers/count"], run.samples
"""
import os
import re

import h5py
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


CONTENT = "rushhour classification"
INTEGER_ATTRIBUTES = ("size", "exit_row", "max_cars", "max_trucks", "max_vehicles", "complete", "max_index")
TEXT_ATTRIBUTES = ("metric", "engine", "encoding", "variable_order")


class FileError(Exception):
    """A classification file that cannot be read; the message names the path and the reason."""


class Classification:
    """What read_classification gives: attrs (every root attribute), data (every dataset but
    the samples, by its path without the leading '/'), samples ([(board, index)])."""

    def __init__(self, path, attrs, data, samples):
        self.path, self.attrs, self.data, self.samples = path, attrs, data, samples

    def samples_by_index(self):
        """{index: set of boards}."""
        by_index = {}
        for board, index in self.samples:
            by_index.setdefault(index, set()).add(board)
        return by_index


def read_classification(path):
    """The classification of `path` (a classification.h5, or a run directory holding one)."""
    if os.path.isdir(path):
        path = os.path.join(path, "classification.h5")
    if not os.path.isfile(path):
        raise FileError(f"{path}: no such file")
    try:
        f = h5py.File(path, "r")
    except OSError as error:
        raise FileError(f"{path}: not an HDF5 file ({str(error).split('(')[0].strip()})")
    with f:
        if _text(f.attrs.get("content", "")) != CONTENT:
            raise FileError(f"{path}: not a rushhour classification file (no content attribute '{CONTENT}')")
        try:
            form = count_form(f)
            attrs = {key: _text(value) if isinstance(value, (bytes, np.bytes_, str)) else value
                     for key, value in f.attrs.items()}
            for name in INTEGER_ATTRIBUTES:
                attrs[name] = int(f.attrs[name])
            for name in TEXT_ATTRIBUTES:
                attrs[name] = _text(f.attrs[name])
            for name in COUNT_ATTRIBUTES:
                attrs[name] = attribute(f, name, form)
            data = {}

            def visit(name, item):
                if isinstance(item, h5py.Dataset) and not name.startswith("samples/"):
                    data[name] = dataset(f, name, form) if name in COUNT_DATASETS else np.asarray(item[()])

            f.visititems(visit)
            samples = []
            if "samples/board" in f and "samples/index" in f:
                samples = [(_text(board), int(index))
                           for board, index in zip(f["samples/board"][()], f["samples/index"][()])]
        except KeyError as error:
            raise FileError(f"{path}: truncated or foreign rushhour file: missing "
                            f"{str(error).strip(chr(34) + chr(39))}")
        except ValueError as error:
            raise FileError(f"{path}: {error}")
    return Classification(path, attrs, data, samples)
