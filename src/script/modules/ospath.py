# os.path over the per-run in-memory file system (_fs).
from _fs import exists, isfile, isdir, abspath, normpath, _fspath, fetch, files
import _hostfs

sep = '/'
curdir = '.'
pardir = '..'


def join(a, *p):
    out = _fspath(a)
    for b in p:
        b = _fspath(b)
        if b.startswith('/'):
            out = b
        elif out == '' or out.endswith('/'):
            out = out + b
        else:
            out = out + '/' + b
    return out


def split(p):
    p = _fspath(p)
    i = p.rfind('/') + 1
    head, tail = p[:i], p[i:]
    if head and head != '/' * len(head):
        head = head.rstrip('/')
    return head, tail


def basename(p):
    p = _fspath(p)
    return p[p.rfind('/') + 1:]


def dirname(p):
    return split(p)[0]


def splitext(p):
    p = _fspath(p)
    base = p[p.rfind('/') + 1:]
    i = base.rfind('.')
    if i <= 0 or base[:i].strip('.') == '':
        return p, ''
    cut = len(p) - len(base) + i
    return p[:cut], p[cut:]


def getsize(p):
    a = abspath(p)
    if a not in files and _hostfs.kind(a) in ('file', 'dir'):
        return _hostfs.size(a)
    c = fetch(p)
    if not isinstance(c, str):
        return 1024
    n = 0
    for ch in c:
        o = ord(ch)
        n += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    return n


def isabs(p):
    return _fspath(p).startswith('/')


def expanduser(p):
    p = _fspath(p)
    if p == '~' or p.startswith('~/'):
        return '/home/learner' + p[1:]
    return p
