# The per-run in-memory file system behind open(), os.makedirs/os.path and torch.save: a
# script writes and reads its files as on disk, but nothing touches the host and every run
# starts empty (in a folder of its own, as scripts/record-pytorch.py runs PyTorch).
# `cudatutor run --allow-read DIR` mounts host folders under it, read-only (_hostfs, in Rust:
# modules/hostfs.rs); with none mounted every _hostfs call answers "not there".
import _hostfs

CWD = '/home/learner'
files = {}          # absolute path -> str (text) or an object torch.save stored
dirs = {'/', '/home', '/home/learner', '/tmp'}


def _fspath(p):
    if isinstance(p, str):
        return p
    if hasattr(p, '__fspath__'):
        return p.__fspath__()
    raise TypeError(f"expected str, bytes or os.PathLike object, not {type(p).__name__}")


def normpath(p):
    p = _fspath(p)
    if p == '':
        return '.'
    absolute = p.startswith('/')
    parts = []
    for c in p.split('/'):
        if c == '' or c == '.':
            continue
        if c == '..' and (parts and parts[-1] != '..'):
            parts.pop()
        elif c == '..' and absolute:
            continue
        else:
            parts.append(c)
    out = '/'.join(parts)
    if absolute:
        return '/' + out
    return out or '.'


def abspath(p):
    p = _fspath(p)
    if not p.startswith('/'):
        p = CWD + '/' + p
    return normpath(p)


def _err(cls, errno, text, p):
    return cls(f"[Errno {errno}] {text}: '{p}'")


def exists(p):
    try:
        a = abspath(p)
    except TypeError:
        return False
    return a in files or a in dirs or _hostfs.kind(a) in ('file', 'dir')


def isfile(p):
    a = abspath(p)
    return a in files or _hostfs.kind(a) == 'file'


def isdir(p):
    a = abspath(p)
    return a in dirs or _hostfs.kind(a) == 'dir'


def _read_only(a, p):
    # a host folder mounted with --allow-read: nothing in it may change
    if _hostfs.mounted(a):
        raise _err(OSError, 30, 'Read-only file system', _fspath(p))


def _parent(a):
    i = a.rfind('/')
    return a[:i] if i > 0 else '/'


def makedirs(name, mode=0o777, exist_ok=False):
    a = abspath(name)
    if _hostfs.kind(a) == 'dir':
        if exist_ok:
            return
        raise _err(FileExistsError, 17, 'File exists', _fspath(name))
    _read_only(a, name)
    if a in dirs or a in files:
        if exist_ok and a in dirs:
            return
        raise _err(FileExistsError, 17, 'File exists', _fspath(name))
    chain = []
    while a not in dirs:
        if a in files:
            raise _err(NotADirectoryError, 20, 'Not a directory', _fspath(name))
        chain.append(a)
        a = _parent(a)
    for d in chain:
        dirs.add(d)


def mkdir(path, mode=0o777):
    a = abspath(path)
    if _hostfs.kind(a) is not None:
        raise _err(FileExistsError, 17, 'File exists', _fspath(path))
    _read_only(a, path)
    if a in dirs or a in files:
        raise _err(FileExistsError, 17, 'File exists', _fspath(path))
    if _parent(a) not in dirs:
        raise _err(FileNotFoundError, 2, 'No such file or directory', _fspath(path))
    dirs.add(a)


def listdir(path='.'):
    a = abspath(path)
    host = _hostfs.kind(a)
    if a in files or host == 'file':
        raise _err(NotADirectoryError, 20, 'Not a directory', _fspath(path))
    if a not in dirs and host != 'dir':
        raise _err(FileNotFoundError, 2, 'No such file or directory', _fspath(path))
    prefix = a.rstrip('/') + '/'
    out = []
    for k in list(dirs) + list(files):
        if k != a and k.startswith(prefix) and '/' not in k[len(prefix):]:
            out.append(k[len(prefix):])
    for name in _hostfs.listdir(a):
        if name not in out:
            out.append(name)
    return out


def remove(path):
    a = abspath(path)
    _read_only(a, path)
    if a in dirs:
        raise _err(IsADirectoryError, 21, 'Is a directory', _fspath(path))
    if a not in files:
        raise _err(FileNotFoundError, 2, 'No such file or directory', _fspath(path))
    del files[a]


def rmdir(path):
    a = abspath(path)
    _read_only(a, path)
    if a not in dirs:
        raise _err(FileNotFoundError, 2, 'No such file or directory', _fspath(path))
    if listdir(path):
        raise OSError(f"[Errno 39] Directory not empty: '{_fspath(path)}'")
    dirs.discard(a)


def getcwd():
    return CWD


def store(path, obj):
    """torch.save: keep `obj` as the file's content (its parent folder must exist), or as
    the content of an io.BytesIO."""
    if isinstance(path, BytesIO):
        path._store(obj)
        return
    a = abspath(path)
    _read_only(a, path)
    if a in dirs:
        raise _err(IsADirectoryError, 21, 'Is a directory', _fspath(path))
    if _parent(a) not in dirs:
        raise RuntimeError(f"Parent directory {_parent(_fspath(path)) if '/' in _fspath(path) else '.'} does not exist.")
    files[a] = obj


def is_host_file(path):
    """A file of a host folder mounted with --allow-read (not one the run wrote)."""
    if isinstance(path, BytesIO):
        return False
    a = abspath(path)
    return a not in files and _hostfs.kind(a) == 'file'


def fetch(path):
    if isinstance(path, BytesIO):
        return path._fetch()
    a = abspath(path)
    if a not in files:
        raise _err(FileNotFoundError, 2, 'No such file or directory', _fspath(path))
    return files[a]


class UnsupportedOperation(OSError):
    __module__ = 'io'


class TextIOWrapper:
    def __init__(self, name, mode, key, binary):
        self.name = name
        self.mode = mode
        self._key = key
        self._binary = binary
        self._readable = 'r' in mode or '+' in mode
        self._writable = 'r' not in mode or '+' in mode
        self.closed = False
        if 'w' in mode or 'x' in mode:
            files[key] = ''
        content = files.get(key, '')
        self._buf = content if isinstance(content, str) else ''
        self._pos = len(self._buf) if 'a' in mode else 0

    def __repr__(self):
        if self._binary:
            kind = 'BufferedReader' if self.mode == 'rb' else 'BufferedWriter'
            return f"<_io.{kind} name='{self.name}'>"
        return f"<_io.TextIOWrapper name='{self.name}' mode='{self.mode}' encoding='UTF-8'>"

    def _check(self):
        if self.closed:
            raise ValueError('I/O operation on closed file.')

    def _check_read(self):
        self._check()
        if not self._readable:
            raise UnsupportedOperation('not readable')

    def write(self, s):
        self._check()
        if not self._writable:
            raise UnsupportedOperation('not writable')
        if self._binary:
            raise TypeError(f"a bytes-like object is required, not '{type(s).__name__}'")
        if not isinstance(s, str):
            raise TypeError(f'write() argument must be str, not {type(s).__name__}')
        b = self._buf
        self._buf = b[:self._pos] + s + b[self._pos + len(s):]
        self._pos += len(s)
        files[self._key] = self._buf
        return len(s)

    def writelines(self, lines):
        for s in lines:
            self.write(s)

    def read(self, size=-1):
        self._check_read()
        if size is None or size < 0:
            out = self._buf[self._pos:]
        else:
            out = self._buf[self._pos:self._pos + size]
        self._pos += len(out)
        return out

    def readline(self, size=-1):
        self._check_read()
        i = self._buf.find('\n', self._pos)
        end = len(self._buf) if i < 0 else i + 1
        if size is not None and size >= 0:
            end = min(end, self._pos + size)
        out = self._buf[self._pos:end]
        self._pos = end
        return out

    def readlines(self, hint=-1):
        out = []
        while True:
            line = self.readline()
            if not line:
                return out
            out.append(line)

    def __iter__(self):
        self._check()
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def seek(self, offset, whence=0):
        self._check()
        if whence == 0:
            self._pos = offset
        elif whence == 2:
            self._pos = len(self._buf) + offset
        else:
            self._pos += offset
        return self._pos

    def tell(self):
        self._check()
        return self._pos

    def flush(self):
        self._check()

    def readable(self):
        self._check()
        return self._readable

    def writable(self):
        self._check()
        return self._writable

    def close(self):
        self.closed = True

    def __enter__(self):
        self._check()
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def open(file, mode='r', buffering=-1, encoding=None, errors=None, newline=None, closefd=True):
    if isinstance(file, int) or not isinstance(mode, str):
        if not isinstance(mode, str):
            raise TypeError(f"open() argument 'mode' must be str, not {type(mode).__name__}")
        raise OSError(f'[Errno 9] Bad file descriptor')
    name = _fspath(file)
    kinds = [c for c in mode if c in 'rwax']
    if any(c not in 'rwaxbt+' for c in mode) or len(set(mode)) != len(mode):
        raise ValueError(f"invalid mode: '{mode}'")
    if len(kinds) != 1:
        raise ValueError('must have exactly one of create/read/write/append mode')
    if 'b' in mode and 't' in mode:
        raise ValueError("can't have text and binary mode at once")
    if 'b' in mode and encoding is not None:
        raise ValueError("binary mode doesn't take an encoding argument")
    key = abspath(name)
    if _hostfs.mounted(key):
        if kinds[0] != 'r' or '+' in mode:
            raise _err(OSError, 30, 'Read-only file system', name)
        if key not in files:
            host = _hostfs.kind(key)
            if host == 'dir':
                raise _err(IsADirectoryError, 21, 'Is a directory', name)
            if host == 'refused':
                raise _err(PermissionError, 13, 'Permission denied', name)
            if host is None:
                raise _err(FileNotFoundError, 2, 'No such file or directory', name)
        if 'b' in mode:
            raise NotImplementedError(
                "cudatutor reads host files as text; binary files load through np.load "
                "(.npy, .npz) and torch.load")
        if key not in files:
            files[key] = _hostfs.read_text(key, name)
        return TextIOWrapper(name, mode, key, False)
    if key in dirs:
        raise _err(IsADirectoryError, 21, 'Is a directory', name)
    if _parent(key) not in dirs:
        raise _err(FileNotFoundError, 2, 'No such file or directory', name)
    if kinds[0] == 'r' and key not in files:
        raise _err(FileNotFoundError, 2, 'No such file or directory', name)
    if kinds[0] == 'x' and key in files:
        raise _err(FileExistsError, 17, 'File exists', name)
    return TextIOWrapper(name, mode, key, 'b' in mode)


# io.StringIO / io.BytesIO (the io module re-exports them; they live here because torch.save
# and torch.load reach a BytesIO through this file system's store/fetch). The classes print
# as CPython's C classes do (`<class '_io.StringIO'>`, `<_io.StringIO object at 0x...>`), over
# the same private bases.
class _IOBase:
    __module__ = '_io'


class _TextIOBase(_IOBase):
    __module__ = '_io'


class _BufferedIOBase(_IOBase):
    __module__ = '_io'


def _seek_args(pos, whence):
    if not isinstance(pos, int):
        raise TypeError(f"'{type(pos).__name__}' object cannot be interpreted as an integer")
    if not isinstance(whence, int):
        raise TypeError(f"'{type(whence).__name__}' object cannot be interpreted as an integer")
    if whence not in (0, 1, 2):
        raise ValueError(f"Invalid whence ({whence}, should be 0, 1 or 2)")


class StringIO(_TextIOBase):
    """A text buffer. Writes at the end go to a list of pieces joined on the next read, so a
    loop of writes (print(..., file=buf), redirect_stdout) costs the text's length once."""
    __module__ = '_io'

    def __init__(self, initial_value='', newline='\n'):
        if initial_value is None:
            initial_value = ''
        if not isinstance(initial_value, str):
            raise TypeError(f"initial_value must be str or None, not {type(initial_value).__name__}")
        if newline != '\n':
            if newline is not None and not isinstance(newline, str):
                raise TypeError(f"newline must be str or None, not {type(newline).__name__}")
            raise NotImplementedError("cudatutor: io.StringIO supports only newline='\\n' (the default)")
        self._buf = initial_value
        self._pieces = []
        self._len = len(initial_value)
        self._pos = 0
        self.closed = False

    def _check(self):
        if self.closed:
            raise ValueError('I/O operation on closed file')

    def _text(self):
        if self._pieces:
            self._buf = self._buf + ''.join(self._pieces)
            self._pieces = []
        return self._buf

    def write(self, s):
        self._check()
        if not isinstance(s, str):
            raise TypeError(f"string argument expected, got '{type(s).__name__}'")
        n = len(s)
        if self._pos == self._len:
            self._pieces.append(s)
        else:
            b = self._text()
            if self._pos > len(b):
                b = b + '\0' * (self._pos - len(b))
            self._buf = b[:self._pos] + s + b[self._pos + n:]
        self._pos += n
        self._len = max(self._len, self._pos)
        return n

    def writelines(self, lines):
        for s in lines:
            self.write(s)

    def getvalue(self):
        self._check()
        return self._text()

    def read(self, size=-1):
        self._check()
        b = self._text()
        if size is None or size < 0:
            out = b[self._pos:]
        else:
            out = b[self._pos:self._pos + size]
        self._pos = max(self._pos, min(self._pos + len(out), len(b)))
        return out

    def readline(self, size=-1):
        self._check()
        b = self._text()
        i = b.find('\n', self._pos)
        end = len(b) if i < 0 else i + 1
        if size is not None and size >= 0:
            end = min(end, self._pos + size)
        out = b[self._pos:end]
        self._pos = max(self._pos, end)
        return out

    # the line reading the file objects share (TextIOWrapper's)
    readlines = TextIOWrapper.readlines
    __iter__ = TextIOWrapper.__iter__
    __next__ = TextIOWrapper.__next__

    def seek(self, pos, whence=0):
        self._check()
        _seek_args(pos, whence)
        if whence == 0:
            if pos < 0:
                raise ValueError(f'Negative seek position {pos}')
            self._pos = pos
        elif pos != 0:
            raise UnsupportedOperation("Can't do nonzero cur-relative seeks" if whence == 1
                                       else "Can't do nonzero end-relative seeks")
        elif whence == 2:
            self._pos = self._len
        return self._pos

    def tell(self):
        self._check()
        return self._pos

    def truncate(self, size=None):
        self._check()
        if size is None:
            size = self._pos
        if size < 0:
            raise ValueError(f'Negative size value {size}')
        b = self._text()
        if size < len(b):
            self._buf = b[:size]
            self._len = size
        return size

    def flush(self):
        self._check()

    def readable(self):
        self._check()
        return True

    def writable(self):
        self._check()
        return True

    def seekable(self):
        self._check()
        return True

    def close(self):
        self.closed = True

    def __enter__(self):
        if self.closed:
            raise ValueError('I/O operation on closed file.')
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _no_bytes(what):
    return NotImplementedError(
        f"cudatutor: {what} of an io.BytesIO is not available (cudatutor has no bytes type); "
        "torch.save(obj, buffer) and torch.load(buffer) work")


class BytesIO(_BufferedIOBase):
    """What torch.save wrote into it: the saved object, as this file system keeps a saved
    file (there is no bytes type to hold the pickle's bytes). `_pos` is 0 at the start and
    None at the end of a checkpoint, whose length in bytes is not known."""
    __module__ = '_io'

    def __init__(self, initial_bytes=None):
        if initial_bytes is not None:
            raise TypeError(f"a bytes-like object is required, not '{type(initial_bytes).__name__}'")
        self._saved = ()
        self._pos = 0
        self.closed = False

    def _check(self):
        if self.closed:
            raise ValueError('I/O operation on closed file.')

    def write(self, b):
        self._check()
        raise TypeError(f"a bytes-like object is required, not '{type(b).__name__}'")

    def seek(self, pos, whence=0):
        self._check()
        _seek_args(pos, whence)
        if whence == 0 and pos < 0:
            raise ValueError(f'negative seek value {pos}')
        if whence == 0 and pos == 0:
            self._pos = 0
        elif whence == 2 and pos == 0:
            self._pos = None if self._saved else 0
        elif not (whence == 1 and pos == 0):
            raise _no_bytes('seeking into the bytes')
        return self.tell()

    def tell(self):
        self._check()
        if self._pos is None:
            raise _no_bytes('the size in bytes')
        return self._pos

    def getvalue(self):
        self._check()
        raise _no_bytes('the bytes')

    def read(self, size=-1):
        self._check()
        raise _no_bytes('the bytes')

    def readline(self, size=-1):
        self._check()
        raise _no_bytes('the bytes')

    # an in-memory buffer answers as StringIO's does
    readable = StringIO.readable
    writable = StringIO.writable
    seekable = StringIO.seekable
    flush = StringIO.flush

    # closing and `with` as TextIOWrapper's
    close = TextIOWrapper.close
    __enter__ = TextIOWrapper.__enter__
    __exit__ = TextIOWrapper.__exit__

    def _store(self, obj):
        # torch.save: the buffer now holds the checkpoint, positioned after it
        self._check()
        self._saved = (obj,)
        self._pos = None

    def _fetch(self):
        # torch.load: reads the checkpoint from the current position (PyTorch's EOFError at
        # the end, e.g. without buf.seek(0) after torch.save), leaving the position after it
        self._check()
        if not self._saved or self._pos is None:
            raise EOFError()
        self._pos = None
        return self._saved[0]
