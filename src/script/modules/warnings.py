# warnings for cudatutor: CPython 3.11's Lib/warnings.py (filters, the registries, showwarning,
# catch_warnings), over the interpreter's frames (_warnings). The engine's own warnings (torch's
# UserWarnings, its deprecations) come through _warn_from_engine once this module is imported.
import sys
import _warnings as _native


class _Pattern:
    # The part of `re` the filters use: `match` at the start of the text (case-insensitive for
    # messages), with `.`, `*`, `+`, `?`, character escapes and `$`.
    def __init__(self, pattern, ignore_case):
        self.pattern = pattern
        self._ignore_case = ignore_case
        self._atoms = []
        i = 0
        while i < len(pattern):
            c = pattern[i]
            if c == '\\' and i + 1 < len(pattern):
                atom = ('lit', pattern[i + 1])
                i += 2
            elif c == '.':
                atom = ('any', None)
                i += 1
            elif c == '$' and i == len(pattern) - 1:
                atom = ('end', None)
                i += 1
            else:
                atom = ('lit', c)
                i += 1
            rep = ''
            if i < len(pattern) and pattern[i] in '*+?':
                rep = pattern[i]
                i += 1
            self._atoms.append((atom, rep))

    def _one(self, atom, ch):
        kind, value = atom
        if kind == 'any':
            return ch != '\n'
        if self._ignore_case:
            return ch.lower() == value.lower()
        return ch == value

    def _at(self, k, text, pos):
        if k == len(self._atoms):
            return True
        atom, rep = self._atoms[k]
        if atom[0] == 'end':
            return pos == len(text) or (pos == len(text) - 1 and text[pos] == '\n')
        if rep == '':
            return pos < len(text) and self._one(atom, text[pos]) and self._at(k + 1, text, pos + 1)
        least = 1 if rep == '+' else 0
        most = 1 if rep == '?' else len(text) - pos
        n = 0
        while n < most and pos + n < len(text) and self._one(atom, text[pos + n]):
            n += 1
        while n >= least:
            if self._at(k + 1, text, pos + n):
                return True
            n -= 1
        return False

    def match(self, text):
        return self._at(0, text, 0)

    def __eq__(self, other):
        return isinstance(other, _Pattern) and other.pattern == self.pattern

    def __repr__(self):
        if self._ignore_case:
            return 're.compile(%r, re.IGNORECASE)' % (self.pattern,)
        return 're.compile(%r)' % (self.pattern,)


def showwarning(message, category, filename, lineno, file=None, line=None):
    """Hook to write a warning to a file; replace if you like."""
    msg = WarningMessage(message, category, filename, lineno, file, line)
    _showwarnmsg_impl(msg)


def formatwarning(message, category, filename, lineno, line=None):
    """Function to format a warning the standard way."""
    msg = WarningMessage(message, category, filename, lineno, None, line)
    return _formatwarnmsg_impl(msg)


def _showwarnmsg_impl(msg):
    file = msg.file
    if file is None:
        file = sys.stderr
    text = _formatwarnmsg(msg)
    try:
        file.write(text)
    except OSError:
        pass


def _formatwarnmsg_impl(msg):
    category = msg.category.__name__
    s = f"{msg.filename}:{msg.lineno}: {category}: {msg.message}\n"
    if msg.line is None:
        line = _native._source_line(msg.filename, msg.lineno)
    else:
        line = msg.line
    if line:
        line = line.strip()
        s += "  %s\n" % line
    return s


_showwarning_orig = showwarning


def _showwarnmsg(msg):
    """Hook to write a warning to a file; replace if you like."""
    sw = showwarning
    if sw is not _showwarning_orig:
        if not callable(sw):
            raise TypeError("warnings.showwarning() must be set to a function or method")
        sw(msg.message, msg.category, msg.filename, msg.lineno, msg.file, msg.line)
        return
    _showwarnmsg_impl(msg)


_formatwarning_orig = formatwarning


def _formatwarnmsg(msg):
    """Function to format a warning the standard way."""
    fw = formatwarning
    if fw is not _formatwarning_orig:
        return fw(msg.message, msg.category, msg.filename, msg.lineno, msg.line)
    return _formatwarnmsg_impl(msg)


def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
    """Insert an entry into the list of warnings filters (at the front)."""
    assert action in ("error", "ignore", "always", "default", "module", "once"), "invalid action: %r" % (action,)
    assert isinstance(message, str), "message must be a string"
    assert isinstance(category, type), "category must be a class"
    assert issubclass(category, Warning), "category must be a Warning subclass"
    assert isinstance(module, str), "module must be a string"
    assert isinstance(lineno, int) and lineno >= 0, "lineno must be an int >= 0"
    _add_filter(action, _Pattern(message, True) if message else None, category,
                _Pattern(module, False) if module else None, lineno, append=append)


def simplefilter(action, category=Warning, lineno=0, append=False):
    """Insert a simple entry into the list of warnings filters (at the front)."""
    assert action in ("error", "ignore", "always", "default", "module", "once"), "invalid action: %r" % (action,)
    assert isinstance(lineno, int) and lineno >= 0, "lineno must be an int >= 0"
    _add_filter(action, None, category, None, lineno, append=append)


def _add_filter(*item, append):
    if not append:
        if item in filters:
            filters.remove(item)
        filters.insert(0, item)
    else:
        if item not in filters:
            filters.append(item)
    _filters_mutated()


def resetwarnings():
    """Clear the list of warning filters, so that no filters are active."""
    filters[:] = []
    _filters_mutated()


class _OptionError(Exception):
    """Exception used by option processing helpers."""
    pass


_registries = {}


def _registry_of(module):
    registry = _registries.get(module)
    if registry is None:
        registry = {}
        _registries[module] = registry
    return registry


def warn(message, category=None, stacklevel=1, source=None):
    """Issue a warning, or maybe ignore it or raise an exception."""
    if isinstance(message, Warning):
        category = message.__class__
    if category is None:
        category = UserWarning
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError("category must be a Warning subclass, not '{:s}'".format(type(category).__name__))
    filename, lineno, module = _native._caller(stacklevel)
    warn_explicit(message, category, filename, lineno, module, _registry_of(module), None, source)


def warn_explicit(message, category, filename, lineno, module=None, registry=None, module_globals=None,
                  source=None):
    _warn_explicit(message, category, filename, lineno, module, registry, source, None)


def _warn_explicit(message, category, filename, lineno, module, registry, source, line):
    lineno = int(lineno)
    if module is None:
        module = filename or "<unknown>"
        if module[-3:].lower() == ".py":
            module = module[:-3]
    if registry is None:
        registry = {}
    if registry.get('version', 0) != _filters_version:
        registry.clear()
        registry['version'] = _filters_version
    if isinstance(message, Warning):
        text = str(message)
        category = message.__class__
    else:
        text = message
        message = category(message)
    key = (text, category, lineno)
    if registry.get(key):
        return
    item = None
    for item in filters:
        action, msg, cat, mod, ln = item
        if ((msg is None or msg.match(text)) and issubclass(category, cat) and
                (mod is None or mod.match(module)) and (ln == 0 or lineno == ln)):
            break
    else:
        action = defaultaction
    if action == "ignore":
        return
    if action == "error":
        raise message
    if action == "once":
        registry[key] = 1
        oncekey = (text, category)
        if onceregistry.get(oncekey):
            return
        onceregistry[oncekey] = 1
    elif action == "always":
        pass
    elif action == "module":
        registry[key] = 1
        altkey = (text, category, 0)
        if registry.get(altkey):
            return
        registry[altkey] = 1
    elif action == "default":
        registry[key] = 1
    else:
        raise RuntimeError("Unrecognized action (%r) in warnings.filters:\n %s" % (action, item))
    _showwarnmsg(WarningMessage(message, category, filename, lineno, None, line, source))


_CATEGORIES = {
    'UserWarning': UserWarning,
    'DeprecationWarning': DeprecationWarning,
    'FutureWarning': FutureWarning,
    'RuntimeWarning': RuntimeWarning,
}


def _warn_from_engine(category, text, filename, lineno, module, line, shown_before):
    # A warning torch or numpy raises (C++'s TORCH_WARN, PyErr_WarnEx): attributed to
    # `filename`:`lineno` of `module`, whose source text is `line`. `shown_before`: printed
    # before this module was imported (the registry must know it, as CPython's always did).
    category = _CATEGORIES.get(category, UserWarning)
    registry = _registry_of(module)
    if shown_before and _filters_version == 1:
        if registry.get('version', 0) != _filters_version:
            registry.clear()
            registry['version'] = _filters_version
        registry[(text, category, lineno)] = 1
    _warn_explicit(text, category, filename, lineno, module, registry, None, line)


class WarningMessage(object):

    _WARNING_DETAILS = ("message", "category", "filename", "lineno", "file", "line", "source")

    def __init__(self, message, category, filename, lineno, file=None, line=None, source=None):
        self.message = message
        self.category = category
        self.filename = filename
        self.lineno = lineno
        self.file = file
        self.line = line
        self.source = source
        self._category_name = category.__name__ if category else None

    def __str__(self):
        return ("{message : %r, category : %r, filename : %r, lineno : %s, "
                "line : %r}" % (self.message, self._category_name, self.filename, self.lineno, self.line))


def _swap_state(state):
    global filters, showwarning, _showwarnmsg_impl
    old = (filters, showwarning, _showwarnmsg_impl)
    filters, showwarning, _showwarnmsg_impl = state
    _filters_mutated()
    return old


class catch_warnings(object):
    """A context manager that copies and restores the warnings filter upon exiting the context."""

    def __init__(self, *, record=False, module=None, action=None, category=Warning, lineno=0, append=False):
        self._record = record
        self._entered = False
        if action is None:
            self._filter = None
        else:
            self._filter = (action, category, lineno, append)

    def __repr__(self):
        args = []
        if self._record:
            args.append("record=True")
        name = type(self).__name__
        return "%s(%s)" % (name, ", ".join(args))

    def __enter__(self):
        if self._entered:
            raise RuntimeError("Cannot enter %r twice" % self)
        self._entered = True
        self._saved = _swap_state((filters[:], showwarning, _showwarnmsg_impl))
        if self._filter is not None:
            simplefilter(*self._filter)
        if self._record:
            log = []
            _swap_state((filters, _showwarning_orig, log.append))
            return log
        return None

    def __exit__(self, *exc_info):
        if not self._entered:
            raise RuntimeError("Cannot exit %r without entering first" % self)
        _swap_state(self._saved)


_filters_version = 1


def _filters_mutated():
    global _filters_version
    _filters_version += 1


defaultaction = "default"
onceregistry = {}
filters = [
    ('default', None, DeprecationWarning, _Pattern('__main__', False), 0),
    ('ignore', None, DeprecationWarning, None, 0),
    ('ignore', None, PendingDeprecationWarning, None, 0),
    ('ignore', None, ImportWarning, None, 0),
    ('ignore', None, ResourceWarning, None, 0),
]
_filters_version = 1
