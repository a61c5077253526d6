# json: dumps/loads/dump/load with CPython's output (separators, indent, sort_keys,
# ensure_ascii, allow_nan, default) and CPython's JSONDecodeError messages.


class JSONDecodeError(ValueError):
    __module__ = 'json.decoder'

    def __init__(self, msg, doc, pos):
        lineno = doc.count('\n', 0, pos) + 1
        colno = pos - doc.rfind('\n', 0, pos)
        ValueError.__init__(self, f'{msg}: line {lineno} column {colno} (char {pos})')
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno


_ESC = {'"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f'}


def _quote(s, ensure_ascii):
    out = ['"']
    for ch in s:
        e = _ESC.get(ch)
        if e is not None:
            out.append(e)
            continue
        o = ord(ch)
        if o < 0x20 or (ensure_ascii and o > 0x7e):
            if o > 0xffff:
                o -= 0x10000
                out.append('\\u%04x\\u%04x' % (0xd800 | (o >> 10), 0xdc00 | (o & 0x3ff)))
            else:
                out.append('\\u%04x' % o)
        else:
            out.append(ch)
    out.append('"')
    return ''.join(out)


def _float(f, allow_nan):
    if f != f:
        text = 'NaN'
    elif f == float('inf'):
        text = 'Infinity'
    elif f == -float('inf'):
        text = '-Infinity'
    else:
        return repr(float(f))
    if not allow_nan:
        raise ValueError('Out of range float values are not JSON compliant')
    return text


class _Encoder:
    def __init__(self, skipkeys, ensure_ascii, allow_nan, indent, separators, default, sort_keys):
        self.skipkeys = skipkeys
        self.ensure_ascii = ensure_ascii
        self.allow_nan = allow_nan
        if indent is not None and not isinstance(indent, str):
            indent = ' ' * indent
        self.indent = indent
        if separators is not None:
            self.item_sep, self.key_sep = separators
        elif indent is not None:
            self.item_sep, self.key_sep = ',', ': '
        else:
            self.item_sep, self.key_sep = ', ', ': '
        self.default = default
        self.sort_keys = sort_keys
        self.active = []

    def scalar(self, o):
        if isinstance(o, str):
            return _quote(o, self.ensure_ascii)
        if o is None:
            return 'null'
        if o is True:
            return 'true'
        if o is False:
            return 'false'
        if isinstance(o, int):
            return repr(int(o))
        if isinstance(o, float):
            return _float(o, self.allow_nan)
        return None

    def key(self, k):
        if isinstance(k, str):
            return k
        # a float, bool, None or int key is written as that value is (unquoted: the caller
        # quotes every key)
        s = self.scalar(k)
        if s is not None:
            return s
        if self.skipkeys:
            return None
        raise TypeError(f'keys must be str, int, float, bool or None, not {type(k).__name__}')

    def enter(self, o):
        for a in self.active:
            if a is o:
                raise ValueError('Circular reference detected')
        self.active.append(o)

    def open(self, o, bracket, level, out):
        """Starts a non-empty list or dict: its opening bracket and, when indenting, the new
        line of its first item; returns the level of its items and what goes between them."""
        self.enter(o)
        out.append(bracket)
        if self.indent is None:
            return level, self.item_sep
        level += 1
        nl = '\n' + self.indent * level
        out.append(nl)
        return level, self.item_sep + nl

    def close(self, bracket, level, out):
        """Ends what `open` started at the level `open` returned."""
        if self.indent is not None:
            out.append('\n' + self.indent * (level - 1))
        out.append(bracket)
        self.active.pop()

    def encode(self, o, level, out):
        s = self.scalar(o)
        if s is not None:
            out.append(s)
            return
        if isinstance(o, (list, tuple)):
            if not o:
                out.append('[]')
                return
            level, sep = self.open(o, '[', level, out)
            first = True
            for v in o:
                if not first:
                    out.append(sep)
                first = False
                self.encode(v, level, out)
            self.close(']', level, out)
            return
        if isinstance(o, dict):
            if not o:
                out.append('{}')
                return
            level, sep = self.open(o, '{', level, out)
            items = sorted(o.items()) if self.sort_keys else o.items()
            first = True
            for k, v in items:
                k = self.key(k)
                if k is None:
                    continue
                if not first:
                    out.append(sep)
                first = False
                out.append(_quote(k, self.ensure_ascii))
                out.append(self.key_sep)
                self.encode(v, level, out)
            self.close('}', level, out)
            return
        if self.default is None:
            raise TypeError(f'Object of type {type(o).__name__} is not JSON serializable')
        self.enter(o)
        self.encode(self.default(o), level, out)
        self.active.pop()


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True,
          cls=None, indent=None, separators=None, default=None, sort_keys=False, **kw):
    out = []
    _Encoder(skipkeys, ensure_ascii, allow_nan, indent, separators, default,
             sort_keys).encode(obj, 0, out)
    return ''.join(out)


def dump(obj, fp, **kw):
    fp.write(dumps(obj, **kw))


_WS = ' \t\n\r'
_CONST = {'NaN': float('nan'), 'Infinity': float('inf'), '-Infinity': -float('inf')}
_UNESC = {'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}


class _Decoder:
    def __init__(self, s, object_hook, parse_float, parse_int, object_pairs_hook):
        self.s = s
        self.object_hook = object_hook
        self.parse_float = parse_float or float
        self.parse_int = parse_int or int
        self.object_pairs_hook = object_pairs_hook

    def ws(self, i):
        s = self.s
        while i < len(s) and s[i] in _WS:
            i += 1
        return i

    def value(self, i):
        s = self.s
        if i >= len(s):
            raise JSONDecodeError('Expecting value', s, i)
        c = s[i]
        if c == '"':
            return self.string(i + 1)
        if c == '{':
            return self.object(i + 1)
        if c == '[':
            return self.array(i + 1)
        if s.startswith('null', i):
            return None, i + 4
        if s.startswith('true', i):
            return True, i + 4
        if s.startswith('false', i):
            return False, i + 5
        for name, v in _CONST.items():
            if s.startswith(name, i):
                return v, i + len(name)
        return self.number(i)

    def number(self, i):
        s = self.s
        j = i
        if j < len(s) and s[j] == '-':
            j += 1
        if j < len(s) and s[j] == '0':
            j += 1
        elif j < len(s) and '1' <= s[j] <= '9':
            while j < len(s) and s[j].isdigit() and s[j].isascii():
                j += 1
        else:
            raise JSONDecodeError('Expecting value', s, i)
        is_float = False
        if j + 1 < len(s) and s[j] == '.' and s[j + 1].isdigit():
            is_float = True
            j += 1
            while j < len(s) and s[j].isdigit() and s[j].isascii():
                j += 1
        if j < len(s) and s[j] in 'eE':
            k = j + 1
            if k < len(s) and s[k] in '+-':
                k += 1
            if k < len(s) and s[k].isdigit():
                while k < len(s) and s[k].isdigit() and s[k].isascii():
                    k += 1
                is_float = True
                j = k
        text = s[i:j]
        return (self.parse_float(text) if is_float else self.parse_int(text)), j

    def string(self, i):
        s = self.s
        begin = i - 1
        out = []
        while True:
            if i >= len(s):
                raise JSONDecodeError('Unterminated string starting at', s, begin)
            c = s[i]
            if c == '"':
                return ''.join(out), i + 1
            if c == '\\':
                i += 1
                if i >= len(s):
                    raise JSONDecodeError('Unterminated string starting at', s, begin)
                e = s[i]
                if e == 'u':
                    h = s[i + 1:i + 5]
                    if len(h) != 4 or any(x not in '0123456789abcdefABCDEF' for x in h):
                        raise JSONDecodeError('Invalid \\uXXXX escape', s, i - 1)
                    o = int(h, 16)
                    i += 5
                    if 0xd800 <= o <= 0xdbff and s[i:i + 2] == '\\u':
                        h2 = s[i + 2:i + 6]
                        if len(h2) == 4 and all(x in '0123456789abcdefABCDEF' for x in h2):
                            o2 = int(h2, 16)
                            if 0xdc00 <= o2 <= 0xdfff:
                                o = 0x10000 + (((o - 0xd800) << 10) | (o2 - 0xdc00))
                                i += 6
                    out.append(chr(o))
                    continue
                if e not in _UNESC:
                    raise JSONDecodeError('Invalid \\escape', s, i - 1)
                out.append(_UNESC[e])
                i += 1
                continue
            if ord(c) < 0x20:
                raise JSONDecodeError('Invalid control character at', s, i)
            out.append(c)
            i += 1

    def object(self, i):
        s = self.s
        pairs = []
        i = self.ws(i)
        if i < len(s) and s[i] == '}':
            return self.finish_object(pairs), i + 1
        while True:
            if i >= len(s) or s[i] != '"':
                raise JSONDecodeError(
                    'Expecting property name enclosed in double quotes', s, i)
            k, i = self.string(i + 1)
            i = self.ws(i)
            if i >= len(s) or s[i] != ':':
                raise JSONDecodeError("Expecting ':' delimiter", s, i)
            i = self.ws(i + 1)
            v, i = self.value(i)
            pairs.append((k, v))
            i = self.ws(i)
            if i < len(s) and s[i] == '}':
                return self.finish_object(pairs), i + 1
            if i >= len(s) or s[i] != ',':
                raise JSONDecodeError("Expecting ',' delimiter", s, i)
            i = self.ws(i + 1)

    def finish_object(self, pairs):
        if self.object_pairs_hook is not None:
            return self.object_pairs_hook(pairs)
        d = dict(pairs)
        if self.object_hook is not None:
            return self.object_hook(d)
        return d

    def array(self, i):
        s = self.s
        out = []
        i = self.ws(i)
        if i < len(s) and s[i] == ']':
            return out, i + 1
        while True:
            v, i = self.value(i)
            out.append(v)
            i = self.ws(i)
            if i < len(s) and s[i] == ']':
                return out, i + 1
            if i >= len(s) or s[i] != ',':
                raise JSONDecodeError("Expecting ',' delimiter", s, i)
            i = self.ws(i + 1)


def loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None,
          parse_constant=None, object_pairs_hook=None, **kw):
    if not isinstance(s, str):
        raise TypeError(f'the JSON object must be str, bytes or bytearray, not {type(s).__name__}')
    d = _Decoder(s, object_hook, parse_float, parse_int, object_pairs_hook)
    i = d.ws(0)
    v, end = d.value(i)
    end = d.ws(end)
    if end != len(s):
        raise JSONDecodeError('Extra data', s, end)
    return v


def load(fp, **kw):
    return loads(fp.read(), **kw)
