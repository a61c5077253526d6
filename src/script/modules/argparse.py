# argparse: ArgumentParser with optionals and positionals, type/default/choices/nargs/
# required/dest/metavar/const, the store/store_true/store_false/store_const/append/count/help/
# version actions, --opt=value and unique long-option prefixes, CPython 3.11's usage and help
# layout (80 columns, as for a script whose output is not a terminal) and error messages.
import sys

SUPPRESS = '==SUPPRESS=='
OPTIONAL = '?'
ZERO_OR_MORE = '*'
ONE_OR_MORE = '+'
REMAINDER = '...'


class ArgumentError(Exception):
    def __init__(self, argument, message):
        Exception.__init__(self, message)
        self.argument_name = None if argument is None else _arg_name(argument)
        self.message = message

    def __str__(self):
        if self.argument_name is None:
            return self.message
        return f'argument {self.argument_name}: {self.message}'


class ArgumentTypeError(Exception):
    pass


class Namespace:
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)

    def __repr__(self):
        parts = []
        star = {}
        for k, v in self.__dict__.items():
            if k.isidentifier():
                parts.append(f'{k}={v!r}')
            else:
                star[k] = v
        if star:
            parts.append(f'**{star!r}')
        return 'Namespace(' + ', '.join(parts) + ')'

    def __eq__(self, other):
        if not isinstance(other, Namespace):
            return NotImplemented
        return vars(self) == vars(other)

    def __contains__(self, key):
        return key in self.__dict__


class HelpFormatter:
    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        self.prog = prog


RawDescriptionHelpFormatter = HelpFormatter
RawTextHelpFormatter = HelpFormatter
ArgumentDefaultsHelpFormatter = HelpFormatter


def FileType(mode='r', bufsize=-1, encoding=None, errors=None):
    def open_file(name):
        return open(name, mode)
    open_file.__name__ = 'FileType'
    return open_file


class Action:
    def __init__(self, option_strings, dest, nargs=None, const=None, default=None, type=None,
                 choices=None, required=False, help=None, metavar=None, kind='store',
                 version=None):
        self.option_strings = option_strings
        self.dest = dest
        self.nargs = nargs
        self.const = const
        self.default = default
        self.type = type
        self.choices = choices
        self.required = required
        self.help = help
        self.metavar = metavar
        self.kind = kind
        self.version = version

    def __repr__(self):
        names = ['option_strings', 'dest', 'nargs', 'const', 'default', 'type', 'choices',
                 'required', 'help', 'metavar']
        body = ', '.join(f'{n}={getattr(self, n)!r}' for n in names)
        cls = {'store': '_StoreAction', 'store_const': '_StoreConstAction',
               'store_true': '_StoreTrueAction', 'store_false': '_StoreFalseAction',
               'append': '_AppendAction', 'count': '_CountAction', 'help': '_HelpAction',
               'version': '_VersionAction'}[self.kind]
        return f'{cls}({body})'


def _arg_name(action):
    if action.option_strings:
        return '/'.join(action.option_strings)
    if action.metavar not in (None, SUPPRESS):
        return action.metavar
    if action.dest not in (None, SUPPRESS):
        return action.dest
    return None


def _metavar(action, default):
    if action.metavar is not None:
        return action.metavar
    if action.choices is not None:
        return '{' + ','.join(str(c) for c in action.choices) + '}'
    return default


def _format_args(action, default):
    m = _metavar(action, default)
    n = action.nargs
    if n is None:
        return m
    if n == OPTIONAL:
        return f'[{m}]'
    if n == ZERO_OR_MORE:
        return f'[{m} ...]'
    if n == ONE_OR_MORE:
        return f'{m} [{m} ...]'
    if n == REMAINDER:
        return '...'
    return ' '.join([m] * n)


def _wrap(text, width):
    words = text.split()
    lines = []
    line = ''
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = w if not line else line + ' ' + w
    if line:
        lines.append(line)
    return lines


class ArgumentParser:
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=(),
                 formatter_class=HelpFormatter, prefix_chars='-', fromfile_prefix_chars=None,
                 argument_default=None, conflict_handler='error', add_help=True,
                 allow_abbrev=True, exit_on_error=True):
        if prog is None:
            prog = sys.argv[0].split('/')[-1] if sys.argv and sys.argv[0] else 'python'
        self.prog = prog
        self.usage = usage
        self.description = description
        self.epilog = epilog
        self.argument_default = argument_default
        self.allow_abbrev = allow_abbrev
        self.exit_on_error = exit_on_error
        self._actions = []
        self._defaults = {}
        if add_help:
            self.add_argument('-h', '--help', action='help', default=SUPPRESS,
                              help='show this help message and exit')
        for p in parents:
            for a in p._actions:
                if a.kind != 'help':
                    self._actions.append(a)
            self._defaults.update(p._defaults)

    def __repr__(self):
        return (f'ArgumentParser(prog={self.prog!r}, usage={self.usage!r}, '
                f'description={self.description!r}, formatter_class=<class '
                f"'argparse.HelpFormatter'>, conflict_handler='error', "
                f'add_help={any(a.kind == "help" for a in self._actions)!r})')

    # ---------------------------------------------------------------- declaring
    def add_argument(self, *args, action='store', nargs=None, const=None, default=None,
                     type=None, choices=None, required=None, help=None, metavar=None,
                     dest=None, version=None):
        if not args or (len(args) == 1 and not args[0].startswith('-')):
            if dest is not None and args:
                raise ValueError('dest supplied twice for positional argument')
            option_strings = []
            dest = args[0] if args else dest
            if required is None:
                required = nargs not in (OPTIONAL, ZERO_OR_MORE)
        else:
            option_strings = list(args)
            for o in option_strings:
                if not o or o[0] != '-':
                    raise ValueError(
                        f"invalid option string {o!r}: must start with a character '-'")
            if dest is None:
                longs = [o for o in option_strings if o.startswith('--')]
                dest = (longs[0] if longs else option_strings[0]).lstrip('-').replace('-', '_')
            if required is None:
                required = False
            for a in self._actions:
                for o in option_strings:
                    if o in a.option_strings:
                        raise ArgumentError(
                            None, f'argument {"/".join(option_strings)}: conflicting option '
                                  f'string: {o}')
        if callable(action) and not isinstance(action, str):
            raise NotImplementedError('cudatutor: custom argparse Action classes')
        kind = action
        if kind == 'store_true':
            nargs, const = 0, True
            default = False if default is None else default
        elif kind == 'store_false':
            nargs, const = 0, False
            default = True if default is None else default
        elif kind in ('store_const', 'append_const'):
            nargs = 0
        elif kind == 'count':
            nargs = 0
        elif kind in ('help', 'version'):
            nargs = 0
            default = SUPPRESS if default is None else default
            dest = SUPPRESS if kind == 'help' else dest
        elif kind not in ('store', 'append', 'extend'):
            raise ValueError(f'unknown action "{kind}"')
        if kind in ('store', 'append', 'extend') and nargs == 0:
            raise ValueError('nargs for store actions must be != 0; if you have nothing to '
                             'store, actions such as store true or store const may be more '
                             'appropriate')
        if type is not None and not callable(type):
            raise ValueError(f'{type!r} is not callable')
        if default is None and self.argument_default is not None:
            default = self.argument_default
        a = Action(option_strings, dest, nargs, const, default, type, choices, required, help,
                   metavar, kind, version)
        self._actions.append(a)
        return a

    def add_argument_group(self, title=None, description=None):
        return self

    def add_mutually_exclusive_group(self, required=False):
        return self

    def set_defaults(self, **kwargs):
        self._defaults.update(kwargs)
        for a in self._actions:
            if a.dest in kwargs:
                a.default = kwargs[a.dest]

    def get_default(self, dest):
        for a in self._actions:
            if a.dest == dest and a.default is not None:
                return a.default
        return self._defaults.get(dest, None)

    # ---------------------------------------------------------------- parsing
    def _convert(self, action, s):
        f = action.type
        if f is None:
            v = s
        else:
            try:
                v = f(s)
            except ArgumentTypeError as e:
                raise ArgumentError(action, str(e))
            except (TypeError, ValueError):
                name = getattr(f, '__name__', repr(f))
                raise ArgumentError(action, f'invalid {name} value: {s!r}')
        if action.choices is not None and v not in action.choices:
            choices = ', '.join(repr(c) for c in action.choices)
            raise ArgumentError(action, f'invalid choice: {v!r} (choose from {choices})')
        return v

    def _match_option(self, arg):
        opts = [a for a in self._actions if a.option_strings]
        for a in opts:
            if arg in a.option_strings:
                return a, arg
        if self.allow_abbrev and arg.startswith('--'):
            found = []
            for a in opts:
                for o in a.option_strings:
                    if o.startswith(arg):
                        found.append((a, o))
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                names = ', '.join(o for _, o in found)
                raise ArgumentError(None, f'ambiguous option: {arg} could match {names}')
        return None, None

    def _is_flag(self, s):
        if not s.startswith('-') or s == '-':
            return False
        try:
            float(s)
            return False
        except ValueError:
            return True

    def parse_known_args(self, args=None, namespace=None):
        if args is None:
            args = sys.argv[1:]
        else:
            args = list(args)
        ns = namespace if namespace is not None else Namespace()
        try:
            return self._parse(args, ns)
        except ArgumentError as e:
            if not self.exit_on_error:
                raise
            self.error(str(e))

    def _parse(self, args, ns):
        for a in self._actions:
            if a.dest is not SUPPRESS and a.default is not SUPPRESS and not hasattr(ns, a.dest):
                setattr(ns, a.dest, a.default)
        for k, v in self._defaults.items():
            if not hasattr(ns, k):
                setattr(ns, k, v)
        seen = set()
        extras = []
        positionals = []
        i = 0
        only_positional = False
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == '--' and not only_positional:
                only_positional = True
                continue
            if only_positional or not self._is_flag(arg):
                positionals.append(arg)
                continue
            explicit = None
            action, opt = self._match_option(arg)
            if action is None and '=' in arg:
                name, explicit = arg.split('=', 1)
                action, opt = self._match_option(name)
            if action is None and not arg.startswith('--') and len(arg) > 2:
                action, opt = self._match_option(arg[:2])
                if action is not None:
                    explicit = arg[2:]
            if action is None:
                extras.append(arg)
                continue
            seen.add(action)
            kind = action.kind
            if action.nargs == 0:
                if explicit is not None and not opt.startswith('--') and arg[1:2] != '-' \
                        and '=' not in arg[:2]:
                    # -vv / -xy: a cluster of single-dash flags
                    args.insert(i, '-' + explicit)
                    explicit = None
                if explicit is not None:
                    raise ArgumentError(action, f'ignored explicit argument {explicit!r}')
                if kind == 'help':
                    self.print_help()
                    sys.exit(0)
                if kind == 'version':
                    print(action.version.replace('%(prog)s', self.prog))
                    sys.exit(0)
                if kind == 'count':
                    cur = getattr(ns, action.dest, None)
                    setattr(ns, action.dest, (cur or 0) + 1)
                elif kind == 'append_const':
                    cur = getattr(ns, action.dest, None)
                    setattr(ns, action.dest, (list(cur) if cur else []) + [action.const])
                else:
                    setattr(ns, action.dest, action.const)
                continue
            values = []
            if explicit is not None:
                values = [explicit]
            else:
                n = action.nargs
                if n is None or isinstance(n, int):
                    want = 1 if n is None else n
                    while len(values) < want and i < len(args) and not self._is_flag(args[i]):
                        values.append(args[i])
                        i += 1
                    if len(values) < want:
                        if n is None:
                            raise ArgumentError(action, 'expected one argument')
                        raise ArgumentError(action, f'expected {n} argument' +
                                            ('s' if n > 1 else ''))
                else:
                    while i < len(args) and not self._is_flag(args[i]):
                        values.append(args[i])
                        i += 1
                        if n == OPTIONAL:
                            break
                    if n == ONE_OR_MORE and not values:
                        raise ArgumentError(action, 'expected at least one argument')
            self._store(action, values, ns)
        pos_actions = [a for a in self._actions if not a.option_strings]
        for a in pos_actions:
            n = a.nargs
            if n is None:
                if positionals:
                    self._store(a, [positionals.pop(0)], ns)
                    seen.add(a)
            elif isinstance(n, int):
                if len(positionals) >= n:
                    self._store(a, positionals[:n], ns)
                    positionals = positionals[n:]
                    seen.add(a)
            elif n == OPTIONAL:
                if positionals:
                    self._store(a, [positionals.pop(0)], ns)
                else:
                    self._store(a, [], ns)
                seen.add(a)
            else:
                if positionals or n == ZERO_OR_MORE:
                    self._store(a, positionals, ns)
                    positionals = []
                    seen.add(a)
        extras.extend(positionals)
        missing = [_arg_name(a) for a in self._actions if a.required and a not in seen]
        if missing:
            raise ArgumentError(None, 'the following arguments are required: ' +
                                ', '.join(missing))
        for a in self._actions:
            if (a not in seen and isinstance(a.default, str) and a.dest is not SUPPRESS and
                    getattr(ns, a.dest, None) is a.default and a.type is not None):
                setattr(ns, a.dest, self._convert(a, a.default))
        return ns, extras

    def _store(self, action, values, ns):
        n = action.nargs
        if n is None:
            v = self._convert(action, values[0])
        elif n == OPTIONAL:
            v = self._convert(action, values[0]) if values else (
                action.const if action.option_strings else action.default)
        else:
            v = [self._convert(action, s) for s in values]
        if action.kind == 'append':
            cur = getattr(ns, action.dest, None)
            v = (list(cur) if cur else []) + [v]
        elif action.kind == 'extend':
            cur = getattr(ns, action.dest, None)
            v = (list(cur) if cur else []) + list(v)
        setattr(ns, action.dest, v)

    def parse_args(self, args=None, namespace=None):
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error('unrecognized arguments: ' + ' '.join(extras))
        return ns

    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write(f'{self.prog}: error: {message}\n')
        sys.exit(2)

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        sys.exit(status)

    # ---------------------------------------------------------------- help
    def _usage_parts(self):
        opts, pos = [], []
        for a in self._actions:
            if a.help == SUPPRESS:
                continue
            if a.option_strings:
                part = a.option_strings[0]
                if a.nargs != 0:
                    part += ' ' + _format_args(a, a.dest.upper())
                opts.append(part if a.required else f'[{part}]')
            else:
                pos.append(_format_args(a, a.dest))
        return opts, pos

    def format_usage(self):
        prefix = 'usage: '
        if self.usage is not None:
            return prefix + self.usage.replace('%(prog)s', self.prog) + '\n'
        opts, pos = self._usage_parts()
        text_width = 78
        usage = ' '.join([self.prog] + opts + pos)
        if len(prefix) + len(usage) > text_width:
            def get_lines(parts, indent, pre=None):
                lines, line = [], []
                line_len = len(pre) - 1 if pre is not None else len(indent) - 1
                for part in parts:
                    if line_len + 1 + len(part) > text_width and line:
                        lines.append(indent + ' '.join(line))
                        line = []
                        line_len = len(indent) - 1
                    line.append(part)
                    line_len += len(part) + 1
                if line:
                    lines.append(indent + ' '.join(line))
                if pre is not None:
                    lines[0] = lines[0][len(indent):]
                return lines
            if len(prefix) + len(self.prog) <= 0.75 * text_width:
                indent = ' ' * (len(prefix) + len(self.prog) + 1)
                if opts:
                    lines = get_lines([self.prog] + opts, indent, prefix)
                    lines.extend(get_lines(pos, indent))
                elif pos:
                    lines = get_lines([self.prog] + pos, indent, prefix)
                else:
                    lines = [self.prog]
            else:
                indent = ' ' * len(prefix)
                lines = get_lines(opts + pos, indent)
                if len(lines) > 1:
                    lines = get_lines(opts, indent) + get_lines(pos, indent)
                lines = [self.prog] + lines
            usage = '\n'.join(lines)
        return prefix + usage + '\n'

    def _invocation(self, a):
        if not a.option_strings:
            return _metavar(a, a.dest)
        if a.nargs == 0:
            return ', '.join(a.option_strings)
        args = _format_args(a, a.dest.upper())
        return ', '.join(f'{o} {args}' for o in a.option_strings)

    def _expand_help(self, a):
        h = a.help
        if '%' not in h:
            return h
        params = {'option_strings': a.option_strings, 'dest': a.dest, 'nargs': a.nargs,
                  'const': a.const, 'default': a.default, 'type': a.type,
                  'choices': a.choices, 'required': a.required, 'help': a.help,
                  'metavar': a.metavar, 'prog': self.prog}
        for k in list(params):
            if params[k] is SUPPRESS:
                del params[k]
        if params.get('type') is not None:
            params['type'] = getattr(params['type'], '__name__', params['type'])
        if params.get('choices') is not None:
            params['choices'] = ', '.join(str(c) for c in params['choices'])
        return h % params

    def format_help(self):
        out = [self.format_usage()]
        width = 78
        if self.description:
            out.append('\n' + '\n'.join(_wrap(self.description, width)) + '\n')
        shown = [a for a in self._actions if a.help != SUPPRESS]
        max_len = max([len(self._invocation(a)) + 2 for a in shown] + [0])
        help_pos = min(max_len + 2, 24)
        help_width = max(width - help_pos, 11)
        action_width = help_pos - 2 - 2
        sections = [('positional arguments', [a for a in shown if not a.option_strings]),
                    ('options', [a for a in shown if a.option_strings])]
        for title, acts in sections:
            if not acts:
                continue
            out.append(f'\n{title}:\n')
            for a in acts:
                inv = self._invocation(a)
                if a.help is None:
                    out.append(f'  {inv}\n')
                    continue
                lines = _wrap(self._expand_help(a), help_width) or ['']
                if len(inv) <= action_width:
                    out.append('  ' + inv.ljust(action_width) + '  ' + lines[0] + '\n')
                    rest = lines[1:]
                else:
                    out.append(f'  {inv}\n')
                    rest = lines
                for line in rest:
                    out.append(' ' * help_pos + line + '\n')
        if self.epilog:
            out.append('\n' + '\n'.join(_wrap(self.epilog, width)) + '\n')
        return ''.join(out)

    def print_usage(self, file=None):
        (file or sys.stdout).write(self.format_usage())

    def print_help(self, file=None):
        (file or sys.stdout).write(self.format_help())
