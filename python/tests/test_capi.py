"""The C library's rules (capi/include/othbook.h), called through ctypes: status codes, the
per-thread message, NULL pointers, a small buffer, a bad position, ownership of handles."""

import ctypes as C
import threading

import pytest


OK, ERR_BOOK, ERR_POSITION, ERR_ARGUMENT, ERR_ENGINE, ERR_BUFFER, ERR_INTERNAL = range(7)


class Position(C.Structure):
    _fields_ = [("black", C.c_uint64), ("white", C.c_uint64), ("side", C.c_uint32)]


class Probe(C.Structure):
    _fields_ = [
        ("in_book", C.c_bool),
        ("games", C.c_uint64),
        ("black_wins", C.c_uint32),
        ("draws", C.c_uint32),
        ("white_wins", C.c_uint32),
        ("unknown", C.c_uint32),
        ("average_diff", C.c_double),
        ("value", C.c_double),
        ("value_depth", C.c_int32),
        ("value_kind", C.c_int),
    ]


class Move(C.Structure):
    _fields_ = [
        ("square", C.c_int32),
        ("name", C.c_char * 8),
        ("games", C.c_int64),
        ("black_wins", C.c_uint32),
        ("draws", C.c_uint32),
        ("white_wins", C.c_uint32),
        ("value", C.c_double),
        ("value_depth", C.c_int32),
        ("value_kind", C.c_int),
        ("best", C.c_bool),
    ]


class SearchResult(C.Structure):
    _fields_ = [
        ("best_square", C.c_int32),
        ("best_name", C.c_char * 8),
        ("score", C.c_double),
        ("kind", C.c_int),
        ("depth", C.c_uint32),
        ("nodes", C.c_uint64),
        ("seconds", C.c_double),
        ("complete", C.c_bool),
        ("pv_length", C.c_uint32),
        ("pv", C.c_int8 * 60),
    ]


@pytest.fixture(scope="module")
def lib(c_lib):
    lib = C.CDLL(str(c_lib))
    lib.othbook_last_error.restype = C.c_char_p
    lib.othbook_book_open.restype = C.c_void_p
    lib.othbook_book_open.argtypes = [C.c_char_p, C.POINTER(C.c_int)]
    lib.othbook_book_close.argtypes = [C.c_void_p]
    lib.othbook_engine_new.restype = C.c_void_p
    lib.othbook_engine_new.argtypes = [C.c_size_t, C.POINTER(C.c_int)]
    lib.othbook_engine_free.argtypes = [C.c_void_p]
    lib.othbook_book_probe.argtypes = [C.c_void_p, C.POINTER(Position), C.POINTER(Probe)]
    lib.othbook_book_moves.argtypes = [C.c_void_p, C.POINTER(Position), C.POINTER(Move), C.c_size_t, C.POINTER(C.c_size_t)]
    lib.othbook_position_from_moves.argtypes = [C.POINTER(Position), C.c_char_p, C.POINTER(Position)]
    lib.othbook_engine_search.argtypes = [C.c_void_p, C.POINTER(Position), C.c_uint32, C.c_double, C.c_uint32, C.POINTER(SearchResult)]
    return lib


@pytest.fixture(scope="module")
def book(lib):
    status = C.c_int(-1)
    handle = lib.othbook_book_open(None, C.byref(status))
    assert handle and status.value == OK
    yield handle
    lib.othbook_book_close(handle)


def position(lib, line):
    pos = Position()
    assert lib.othbook_position_from_moves(None, line.encode(), C.byref(pos)) == OK
    return pos


def last_error(lib):
    return lib.othbook_last_error().decode()


def test_null_pointers_are_argument_errors(lib, book):
    assert lib.othbook_book_probe(book, None, C.byref(Probe())) == ERR_ARGUMENT
    assert last_error(lib) == "position is NULL"
    assert lib.othbook_book_probe(None, C.byref(Position()), C.byref(Probe())) == ERR_ARGUMENT
    assert last_error(lib) == "book is NULL"
    assert lib.othbook_position_from_moves(None, None, C.byref(Position())) == ERR_ARGUMENT
    # Freeing NULL does nothing.
    lib.othbook_book_close(None)
    lib.othbook_engine_free(None)


def test_a_small_buffer_gets_the_size_needed(lib, book):
    pos = position(lib, "f5d6")
    count = C.c_size_t(0)
    assert lib.othbook_book_moves(book, C.byref(pos), None, 0, C.byref(count)) == ERR_BUFFER
    needed = count.value
    assert needed == 5 and "5 moves do not fit in 0 entries" in last_error(lib)
    small = (Move * 2)()
    assert lib.othbook_book_moves(book, C.byref(pos), small, 2, C.byref(count)) == ERR_BUFFER
    assert small[0].name == b"" and count.value == needed
    full = (Move * 64)()
    assert lib.othbook_book_moves(book, C.byref(pos), full, 64, C.byref(count)) == OK
    assert count.value == needed and full[0].name == b"c3" and full[0].square == 2 * 8 + 2


def test_bad_positions_are_refused(lib, book):
    overlap = Position(1, 1, 0)
    assert lib.othbook_book_probe(book, C.byref(overlap), C.byref(Probe())) == ERR_POSITION
    assert "holds both" in last_error(lib)
    side = Position(1 << 28 | 1 << 35, 1 << 27 | 1 << 36, 7)
    assert lib.othbook_book_probe(book, C.byref(side), C.byref(Probe())) == ERR_POSITION
    assert "side 7" in last_error(lib)
    assert lib.othbook_position_from_moves(None, b"f5f5", C.byref(Position())) == ERR_POSITION
    assert last_error(lib) == 'moves "f5f5": ply 2: white f5 is illegal: f5 is occupied'


def test_the_message_is_per_thread(lib, book):
    assert lib.othbook_position_from_moves(None, b"zz", C.byref(Position())) == ERR_POSITION
    mine = last_error(lib)
    seen = []
    t = threading.Thread(target=lambda: seen.append(last_error(lib)))
    t.start()
    t.join()
    assert seen == [""] and last_error(lib) == mine


def test_book_and_engine_errors(lib, tmp_path):
    status = C.c_int(-1)
    assert not lib.othbook_book_open(b"/nonexistent/x.book", C.byref(status))
    assert status.value == ERR_BOOK and "No such file" in last_error(lib)
    bad = tmp_path / "bad.book"
    bad.write_bytes(b"x" * 100)
    assert not lib.othbook_book_open(str(bad).encode(), None)
    assert "bad.book" in last_error(lib)
    assert not lib.othbook_engine_new(0, C.byref(status)) and status.value == ERR_ARGUMENT
    engine = lib.othbook_engine_new(4, C.byref(status))
    assert engine and status.value == OK
    try:
        result = SearchResult()
        pos = position(lib, "f5d6c3")
        assert lib.othbook_engine_search(engine, C.byref(pos), 4, 1.0, 1, C.byref(result)) == ERR_ARGUMENT
        assert lib.othbook_engine_search(engine, C.byref(pos), 61, 0.0, 1, C.byref(result)) == ERR_ARGUMENT
        assert "depth 61 is out of range" in last_error(lib)
        assert lib.othbook_engine_search(engine, C.byref(pos), 4, 0.0, 0, C.byref(result)) == ERR_ARGUMENT
        assert lib.othbook_engine_search(engine, C.byref(pos), 4, 0.0, 1, C.byref(result)) == OK
        assert result.depth == 4 and result.kind == 1 and result.pv_length >= 1
        assert result.pv[0] == result.best_square
        over = Position(0xFFFF_FFFF_FFFF_FFFF, 0, 0)
        assert lib.othbook_engine_search(engine, C.byref(over), 4, 0.0, 1, C.byref(result)) == ERR_POSITION
        assert last_error(lib) == "the game is over (black 64 - white 0): nothing to analyse"
    finally:
        lib.othbook_engine_free(engine)
