# csv: reader, DictReader, writer and DictWriter for the comma-separated files a script reads
# (its own files, or a host folder under `cudatutor run --allow-read`). The excel dialect:
# `delimiter`, `quotechar` and doubled quotes inside quoted fields; QUOTE_MINIMAL on writing.

QUOTE_MINIMAL = 0
QUOTE_ALL = 1
QUOTE_NONNUMERIC = 2
QUOTE_NONE = 3


class Error(Exception):
    __module__ = '_csv'


def _split(text, delimiter, quotechar):
    """One record's fields, or None when a quoted field is still open at the end."""
    fields = []
    field = ''
    i = 0
    quoted = False
    was_quoted = False
    n = len(text)
    while i < n:
        c = text[i]
        if quoted:
            if c == quotechar:
                if i + 1 < n and text[i + 1] == quotechar:
                    field += quotechar
                    i += 2
                    continue
                quoted = False
            else:
                field += c
        elif c == quotechar and field == '' and not was_quoted:
            quoted = True
            was_quoted = True
        elif c == delimiter:
            fields.append(field)
            field = ''
            was_quoted = False
        else:
            field += c
        i += 1
    if quoted:
        return None
    fields.append(field)
    return fields


class _Reader:
    def __init__(self, f, delimiter=',', quotechar='"', skipinitialspace=False, **kw):
        self._lines = iter(f)
        self.delimiter = delimiter
        self.quotechar = quotechar
        self.skipinitialspace = skipinitialspace
        self.line_num = 0

    def __iter__(self):
        return self

    def __next__(self):
        text = None
        while True:
            line = next(self._lines)
            self.line_num += 1
            if line.endswith('\n'):
                line = line[:-1]
            if line.endswith('\r'):
                line = line[:-1]
            text = line if text is None else text + '\n' + line
            fields = _split(text, self.delimiter, self.quotechar)
            if fields is not None:
                break
        if text == '':
            return []
        if self.skipinitialspace:
            fields = [f.lstrip(' ') for f in fields]
        return fields


def reader(csvfile, dialect='excel', **fmtparams):
    return _Reader(csvfile, **fmtparams)


class DictReader:
    def __init__(self, f, fieldnames=None, restkey=None, restval=None, dialect='excel', **kw):
        self.reader = _Reader(f, **kw)
        self._fieldnames = fieldnames
        self.restkey = restkey
        self.restval = restval

    @property
    def fieldnames(self):
        if self._fieldnames is None:
            try:
                self._fieldnames = next(self.reader)
            except StopIteration:
                pass
        return self._fieldnames

    def __iter__(self):
        return self

    def __next__(self):
        names = self.fieldnames
        row = next(self.reader)
        while row == []:
            row = next(self.reader)
        d = dict(zip(names, row))
        if len(row) > len(names):
            d[self.restkey] = row[len(names):]
        for k in names[len(row):]:
            d[k] = self.restval
        return d


class _Writer:
    def __init__(self, f, delimiter=',', quotechar='"', lineterminator='\r\n',
                 quoting=QUOTE_MINIMAL, **kw):
        self._f = f
        self.delimiter = delimiter
        self.quotechar = quotechar
        self.lineterminator = lineterminator
        self.quoting = quoting

    def _field(self, v):
        s = '' if v is None else str(v)
        need = (self.quoting == QUOTE_ALL
                or (self.quoting == QUOTE_NONNUMERIC and not isinstance(v, (int, float)))
                or any(c in s for c in (self.delimiter, self.quotechar, '\n', '\r')))
        if need and self.quoting != QUOTE_NONE:
            return self.quotechar + s.replace(self.quotechar, self.quotechar * 2) + self.quotechar
        return s

    def writerow(self, row):
        line = self.delimiter.join(self._field(v) for v in row) + self.lineterminator
        return self._f.write(line)

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


def writer(csvfile, dialect='excel', **fmtparams):
    return _Writer(csvfile, **fmtparams)


class DictWriter:
    def __init__(self, f, fieldnames, restval='', extrasaction='raise', dialect='excel', **kw):
        self.writer = _Writer(f, **kw)
        self.fieldnames = fieldnames
        self.restval = restval
        self.extrasaction = extrasaction

    def writeheader(self):
        return self.writer.writerow(self.fieldnames)

    def writerow(self, rowdict):
        if self.extrasaction == 'raise':
            extra = [k for k in rowdict if k not in self.fieldnames]
            if extra:
                raise ValueError("dict contains fields not in fieldnames: "
                                 + ", ".join(repr(k) for k in extra))
        return self.writer.writerow([rowdict.get(k, self.restval) for k in self.fieldnames])

    def writerows(self, rows):
        for r in rows:
            self.writerow(r)
