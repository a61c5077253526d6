# torch.utils.data for cudatutor: torch/utils/data/dataset.py, sampler.py, _utils/collate.py,
# _utils/fetch.py and dataloader.py's single-process iterator of PyTorch 2.15. Samplers draw from
# torch's generators exactly as PyTorch's do (RandomSampler seeds a fresh Generator from one
# int64 random_() of the default one at its first next(); iter(DataLoader) draws the base seed),
# so a seeded script sees PyTorch's batches. num_workers > 0 runs in this process: a map-style
# dataset gives the batches PyTorch's workers give (in order); an IterableDataset is iterated once
# per worker, round-robin, with get_worker_info() answering inside each copy, as the worker
# processes do. What the workers would do with their own random states (worker_init_fn, seeds
# per worker) is not modelled: worker_init_fn is accepted and not called.
import math
import torch
# (collections' dict-likes are dicts to isinstance, so _is_mapping needs no import of them; bisect
# is imported by ConcatDataset, its one user: both had run at every import of this module)


# ------------------------------------------------------------------------------ datasets
class Dataset:
    def __getitem__(self, index):
        raise NotImplementedError('Subclasses of Dataset should implement __getitem__.')

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    def __iter__(self):
        raise NotImplementedError

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    def __init__(self, *tensors):
        if any(tensors[0].size(0) != tensor.size(0) for tensor in tensors):
            raise AssertionError('Size mismatch between tensors')
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class StackDataset(Dataset):
    def __init__(self, *args, **kwargs):
        if args:
            if kwargs:
                raise ValueError('Supported either ``tuple``- (via ``args``) or'
                                 '``dict``- (via ``kwargs``) like input/output, but both types are given.')
            self._length = len(args[0])
            if any(self._length != len(dataset) for dataset in args):
                raise ValueError('Size mismatch between datasets')
            self.datasets = args
        elif kwargs:
            tmp = list(kwargs.values())
            self._length = len(tmp[0])
            if any(self._length != len(dataset) for dataset in tmp):
                raise ValueError('Size mismatch between datasets')
            self.datasets = kwargs
        else:
            raise ValueError('At least one dataset should be passed')

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: dataset[index] for k, dataset in self.datasets.items()}
        return tuple(dataset[index] for dataset in self.datasets)

    def __len__(self):
        return self._length


class ConcatDataset(Dataset):
    @staticmethod
    def cumsum(sequence):
        r, s = [], 0
        for e in sequence:
            l = len(e)
            r.append(l + s)
            s += l
        return r

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError('datasets should not be an empty iterable')
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError('ConcatDataset does not support IterableDataset')
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError('absolute value of index should not exceed dataset length')
            idx = len(self) + idx
        from bisect import bisect_right
        dataset_idx = bisect_right(self.cumulative_sizes, idx)
        if dataset_idx == 0:
            sample_idx = idx
        else:
            sample_idx = idx - self.cumulative_sizes[dataset_idx - 1]
        return self.datasets[dataset_idx][sample_idx]


class ChainDataset(IterableDataset):
    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError('ChainDataset only supports IterableDataset')
            yield from d

    def __len__(self):
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError('ChainDataset only supports IterableDataset')
            total += len(d)
        return total


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices):
        getitems = getattr(self.dataset, '__getitems__', None)
        if callable(getitems):
            return getitems([self.indices[idx] for idx in indices])
        return [self.dataset[self.indices[idx]] for idx in indices]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    # fractions become lengths (the remainder spread round-robin), then one randperm of the
    # whole length from `generator` is cut into consecutive pieces
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f'Fraction at index {i} is not between 0 and 1')
            n_items_in_split = math.floor(len(dataset) * frac)
            subset_lengths.append(n_items_in_split)
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            idx_to_add_at = i % len(subset_lengths)
            subset_lengths[idx_to_add_at] += 1
        lengths = subset_lengths
        for i, length in enumerate(lengths):
            if length == 0:
                torch._C.warn(f'Length of split at index {i} is 0. This might result in an empty dataset.')
    if sum(lengths) != len(dataset):
        raise ValueError('Sum of input lengths does not equal the length of the input dataset!')
    indices = torch.randperm(sum(lengths), generator=generator).tolist()
    out = []
    offset = 0
    for length in lengths:
        offset += length
        out.append(Subset(dataset, indices[offset - length:offset]))
    return out


# ------------------------------------------------------------------------------ samplers
class Sampler:
    def __init__(self, data_source=None):
        if data_source is not None:
            torch._C.warn('`data_source` argument is not used and will be removed in 2.2.0.'
                          'You may still have custom implementation that utilizes it.')

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f'replacement should be a boolean value, but got replacement={self.replacement}')
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f'num_samples should be a positive integer value, but got num_samples={self.num_samples}')

    @property
    def num_samples(self):
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        if self.generator is None:
            seed = int(torch.empty((), dtype=torch.int64).random_().item())
            generator = torch.Generator()
            generator.manual_seed(seed)
        else:
            generator = self.generator
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from torch.randint(0, n, (32,), dtype=torch.int64, generator=generator).tolist()
            yield from torch.randint(0, n, (self.num_samples % 32,), dtype=torch.int64,
                                     generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from torch.randperm(n, generator=generator).tolist()
            yield from torch.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in torch.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f'num_samples should be a positive integer value, but got num_samples={num_samples}')
        if not isinstance(replacement, bool):
            raise ValueError(f'replacement should be a boolean value, but got replacement={replacement}')
        weights_tensor = torch.as_tensor(weights, dtype=torch.double)
        if len(weights_tensor.shape) != 1:
            raise ValueError('weights should be a 1d sequence but given '
                             f'weights have shape {tuple(weights_tensor.shape)}')
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        rand_tensor = torch.multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        yield from iter(rand_tensor.tolist())

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f'batch_size should be a positive integer value, but got batch_size={batch_size}')
        if not isinstance(drop_last, bool):
            raise ValueError(f'drop_last should be a boolean value, but got drop_last={drop_last}')
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        sampler_iter = iter(self.sampler)
        while True:
            batch = []
            for _ in range(self.batch_size):
                try:
                    batch.append(next(sampler_iter))
                except StopIteration:
                    break
            if len(batch) == 0 or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


class _InfiniteConstantSampler(Sampler):
    def __iter__(self):
        while True:
            yield None


# ------------------------------------------------------------------------------- collate
default_collate_err_msg_format = (
    'default_collate: batch must contain tensors, numpy arrays, numbers, '
    'dicts or lists; found {}'
)


def _is_numpy(x):
    return type(x).__module__ == 'numpy'


def _is_mapping(x):
    # collections.abc.Mapping in PyTorch: dict and its subclasses here (OrderedDict, defaultdict
    # and Counter among them)
    return isinstance(x, dict)


def _is_namedtuple(x):
    # collections.namedtuple instances (a tuple subclass in CPython, a class of its own here)
    return hasattr(x, '_fields') and hasattr(x, '_asdict')


def _copy_mapping(x):
    if type(x) is dict:
        return dict(x)
    return x.copy()


def default_convert(data):
    elem_type = type(data)
    if isinstance(data, torch.Tensor):
        return data
    elif _is_numpy(data) and elem_type.__name__ != 'str_' and elem_type.__name__ != 'string_':
        return torch.as_tensor(data)
    elif _is_mapping(data):
        clone = _copy_mapping(data)
        clone.update({key: default_convert(data[key]) for key in data})
        return clone
    elif _is_namedtuple(data):
        return elem_type(*(default_convert(d) for d in data))
    elif isinstance(data, tuple):
        return [default_convert(d) for d in data]
    elif isinstance(data, list):
        clone = list(data)
        for i, d in enumerate(data):
            clone[i] = default_convert(d)
        return clone
    elif isinstance(data, range):
        return [default_convert(d) for d in data]
    return data


def _collate_tensor(batch):
    elem = batch[0]
    return torch.stack(batch, 0)


def default_collate(batch):
    elem = batch[0]
    elem_type = type(elem)
    if isinstance(elem, torch.Tensor):
        return _collate_tensor(batch)
    if _is_numpy(elem):
        if elem_type.__name__ == 'ndarray':
            return default_collate([torch.as_tensor(b) for b in batch])
        if elem_type.__name__ not in ('str_', 'bytes_'):
            return torch.as_tensor(batch)
    if isinstance(elem, float):
        return torch.tensor(batch, dtype=torch.float64)
    if isinstance(elem, int):
        # bool is an int: a batch of bools becomes a bool tensor
        return torch.tensor(batch)
    if isinstance(elem, str):
        return batch
    if _is_mapping(elem):
        clone = _copy_mapping(elem)
        clone.update({key: default_collate([d[key] for d in batch]) for key in elem})
        return clone
    if _is_namedtuple(elem):
        return elem_type(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, (tuple, list, range)):
        it = iter(batch)
        elem_size = len(next(it))
        if not all(len(e) == elem_size for e in it):
            raise RuntimeError('each element in list of batch should be of equal size')
        transposed = list(zip(*batch))
        if isinstance(elem, list):
            clone = list(elem)
            for i, samples in enumerate(transposed):
                clone[i] = default_collate(samples)
            return clone
        return [default_collate(samples) for samples in transposed]
    raise TypeError(default_collate_err_msg_format.format(elem_type))


# --------------------------------------------------------------------------------- workers
class WorkerInfo:
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self._keys = tuple(kwargs.keys())

    def __repr__(self):
        items = [f'{k}={getattr(self, k)}' for k in self._keys]
        return f"{self.__class__.__name__}({', '.join(items)})"


_worker_info = None


def get_worker_info():
    return _worker_info


# ------------------------------------------------------------------------------ DataLoader
class _MapDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last

    def fetch(self, possibly_batched_index):
        if self.auto_collation:
            getitems = getattr(self.dataset, '__getitems__', None)
            if getitems:
                data = getitems(possibly_batched_index)
            elif (type(self.dataset) is TensorDataset and self.collate_fn is default_collate
                  and not any(t.requires_grad for t in self.dataset.tensors)):
                # the same batch as stacking each row, in one indexing op per tensor
                ix = torch.tensor(possibly_batched_index, dtype=torch.int64)
                return [t[ix] for t in self.dataset.tensors]
            else:
                data = [self.dataset[idx] for idx in possibly_batched_index]
        else:
            data = self.dataset[possibly_batched_index]
        return self.collate_fn(data)


class _IterableDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.dataset_iter = iter(dataset)
        self.ended = False

    def fetch(self, possibly_batched_index):
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in possibly_batched_index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if len(data) == 0 or (self.drop_last and len(data) < len(possibly_batched_index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


def _pin_memory(data):
    if isinstance(data, torch.Tensor):
        return data.pin_memory()
    if isinstance(data, str):
        return data
    if _is_mapping(data):
        clone = _copy_mapping(data)
        clone.update({k: _pin_memory(sample) for k, sample in data.items()})
        return clone
    if _is_namedtuple(data):
        return type(data)(*(_pin_memory(sample) for sample in data))
    if isinstance(data, tuple):
        return tuple(_pin_memory(sample) for sample in data)
    if isinstance(data, list):
        return [_pin_memory(sample) for sample in data]
    if hasattr(data, 'pin_memory'):
        return data.pin_memory()
    return data


_DATALOADER_PY = '/usr/local/lib/python3.11/site-packages/torch/utils/data/dataloader.py'


class _BaseDataLoaderIter:
    def __init__(self, loader):
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        accelerator = torch.cuda.is_available()
        if loader.pin_memory and loader.pin_memory_device:
            torch._C.warn('pin_memory_device is deprecated, the current accelerator will be used as the device,'
                          f"ignore pin_memory_device='{loader.pin_memory_device}'.", _DATALOADER_PY,
                          759 if self._num_workers == 0 else 1102, 'super().__init__(loader)')
        if loader.pin_memory and not accelerator:
            torch._C.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", _DATALOADER_PY,
                          759 if self._num_workers == 0 else 1102, 'super().__init__(loader)')
        self._pin_memory = loader.pin_memory and accelerator
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item()
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        if (self._dataset_kind == _DatasetKind.Iterable and self._IterableDataset_len_called is not None
                and self._num_yielded > self._IterableDataset_len_called):
            warn_msg = (f'Length of IterableDataset {self._dataset} was reported to be '
                        f'{self._IterableDataset_len_called}(when accessing len(dataloader)), but '
                        f'{self._num_yielded} samples have been fetched. ')
            if self._num_workers > 0:
                warn_msg += ('For multiprocessing data-loading, this could be caused by not properly configuring the '
                             'IterableDataset replica at each worker. Please see '
                             'https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset for examples.')
            torch._C.warn(warn_msg)
        return data

    def __len__(self):
        return len(self._index_sampler)


class _DatasetKind:
    Map = 0
    Iterable = 1

    @staticmethod
    def create_fetcher(kind, dataset, auto_collation, collate_fn, drop_last):
        if kind == _DatasetKind.Map:
            return _MapDatasetFetcher(dataset, auto_collation, collate_fn, drop_last)
        return _IterableDatasetFetcher(dataset, auto_collation, collate_fn, drop_last)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super().__init__(loader)
        self._dataset_fetcher = _DatasetKind.create_fetcher(self._dataset_kind, self._dataset, self._auto_collation,
                                                            self._collate_fn, self._drop_last)

    def _next_data(self):
        index = self._next_index()
        data = self._dataset_fetcher.fetch(index)
        if self._pin_memory:
            data = _pin_memory(data)
        return data


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    # the workers' results in the order PyTorch's in-order iterator yields them, computed here:
    # a map-style dataset's batches are the single-process ones; an iterable dataset has one copy
    # per worker, asked in turn, each fetch running with get_worker_info() describing its worker
    def __init__(self, loader):
        super().__init__(loader)
        self._fetchers = []
        self._active = []
        self._next_worker = 0
        self._batches_fetched = 0
        # iter() starts the workers. On Linux they are forked (the default start method), and a
        # process forked after CUDA started cannot use CUDA: any CUDA call in __getitem__ or
        # collate_fn raises there, and the error comes back wrapped (torch.cuda._tools.worker_call).
        # 'spawn' and 'forkserver' start fresh interpreters.
        ctx = loader.multiprocessing_context
        if ctx is not None and not isinstance(ctx, str):
            ctx = getattr(ctx, '_name', 'fork')
        self._bad_fork = ctx in (None, 'fork') and torch.cuda.is_initialized()
        if self._dataset_kind == _DatasetKind.Map:
            self._fetchers.append(_MapDatasetFetcher(self._dataset, self._auto_collation, self._collate_fn,
                                                     self._drop_last))
            self._active.append(True)
        else:
            for worker_id in range(self._num_workers):
                self._fetchers.append(None)
                self._active.append(True)

    def _worker_fetch(self, worker_id, index):
        global _worker_info
        previous = _worker_info
        _worker_info = WorkerInfo(id=worker_id, num_workers=self._num_workers, seed=self._base_seed + worker_id,
                                  dataset=self._dataset)
        try:
            if self._fetchers[worker_id] is None:
                self._fetchers[worker_id] = _IterableDatasetFetcher(self._dataset, self._auto_collation,
                                                                    self._collate_fn, self._drop_last)
            return self._fetchers[worker_id].fetch(index)
        finally:
            _worker_info = previous

    def _next_data(self):
        import torch.cuda._tools as _tools
        if self._dataset_kind == _DatasetKind.Map:
            index = self._next_index()
            # batches go to the workers in turn
            worker_id = self._batches_fetched % self._num_workers
            self._batches_fetched += 1
            data = _tools.worker_call(self._fetchers[0].fetch, index, self._bad_fork, worker_id)
        else:
            while True:
                if not any(self._active):
                    raise StopIteration
                worker_id = self._next_worker
                self._next_worker = (self._next_worker + 1) % self._num_workers
                if not self._active[worker_id]:
                    continue
                index = self._next_index()
                try:
                    data = _tools.worker_call(lambda i: self._worker_fetch(worker_id, i), index, self._bad_fork,
                                              worker_id)
                    break
                except StopIteration:
                    self._active[worker_id] = False
        if self._pin_memory:
            data = _pin_memory(data)
        return data


class DataLoader:
    _DataLoader__initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device='', in_order=True):
        if num_workers < 0:
            raise ValueError('num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.')
        if timeout < 0:
            raise ValueError('timeout option should be non-negative')
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError('prefetch_factor option could only be specified in multiprocessing.'
                             'let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None.')
        elif num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError('prefetch_factor option should be non-negative')
        if persistent_workers and num_workers == 0:
            raise ValueError('persistent_workers option needs num_workers > 0')
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError('multiprocessing_context can only be used with multi-process loading (num_workers > 0), '
                             f'but got num_workers={num_workers}')
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            if shuffle not in {False, None}:
                raise ValueError(
                    f'DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle={shuffle}')
            if sampler is not None:
                raise ValueError(
                    f'DataLoader with IterableDataset: expected unspecified sampler option, but got sampler={sampler}')
            elif batch_sampler is not None:
                raise ValueError('DataLoader with IterableDataset: expected unspecified '
                                 f'batch_sampler option, but got batch_sampler={batch_sampler}')
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map
        if sampler is not None and shuffle:
            raise ValueError('sampler option is mutually exclusive with shuffle')
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError('batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and '
                                 'drop_last')
            batch_size = None
            drop_last = False
        elif batch_size is None:
            if drop_last:
                raise ValueError('batch_size=None option disables auto-batching and is mutually exclusive with '
                                 'drop_last')
        if sampler is None:
            if self._dataset_kind == _DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            if self._auto_collation:
                collate_fn = default_collate
            else:
                collate_fn = default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._DataLoader__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None

    def __setattr__(self, attr, val):
        if self._DataLoader__initialized and attr in ('batch_size', 'batch_sampler', 'sampler', 'drop_last',
                                                      'dataset', 'persistent_workers'):
            raise ValueError(f'{attr} attribute should not be set after {self.__class__.__name__} is initialized')
        object.__setattr__(self, attr, val)

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        return _MultiProcessingDataLoaderIter(self)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        if self._auto_collation:
            return self.batch_sampler
        return self.sampler

    def __len__(self):
        if self._dataset_kind == _DatasetKind.Iterable:
            length = len(self.dataset)
            self._IterableDataset_len_called = length
            if self.batch_size is not None:
                if self.drop_last:
                    length = length // self.batch_size
                else:
                    length = math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)
