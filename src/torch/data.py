# torch.utils.data for cudatutor.
import torch


class Dataset:
    def __getitem__(self, index):
        raise NotImplementedError('Subclasses of Dataset should implement __getitem__.')

    def __add__(self, other):
        return ConcatDataset([self, other])


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    def __init__(self, datasets):
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError('datasets should not be an empty iterable')
        self.cumulative_sizes = []
        total = 0
        for d in self.datasets:
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError('absolute value of index should not exceed dataset length')
            idx = len(self) + idx
        for i, end in enumerate(self.cumulative_sizes):
            if idx < end:
                start = self.cumulative_sizes[i - 1] if i > 0 else 0
                return self.datasets[i][idx - start]
        raise IndexError('list index out of range')


def random_split(dataset, lengths, generator=None):
    # torch/utils/data/dataset.py: fractions become lengths (the remainder spread round-robin),
    # then one randperm of the whole length from `generator` is cut into consecutive pieces
    import math
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for frac in lengths:
            if frac < 0 or frac > 1:
                raise ValueError(f'Fraction at index {len(subset_lengths)} is not between 0 and 1')
            subset_lengths.append(int(math.floor(n * frac)))
        remainder = n - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, length in enumerate(lengths):
            if length == 0:
                torch._C.warn(f'Length of split at index {i} is 0. This might result in an empty dataset.')
    if sum(lengths) != n:
        raise ValueError('Sum of input lengths does not equal the length of the input dataset!')
    if generator is None:
        indices = torch.randperm(sum(lengths)).tolist()
    else:
        indices = torch.randperm(sum(lengths), generator=generator).tolist()
    out = []
    offset = 0
    for length in lengths:
        out.append(Subset(dataset, indices[offset:offset + length]))
        offset += length
    return out


class TensorDataset(Dataset):
    def __init__(self, *tensors):
        n = tensors[0].size(0)
        for t in tensors:
            if t.size(0) != n:
                raise AssertionError('Size mismatch between tensors')
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple([t[index] for t in self.tensors])

    def __len__(self):
        return self.tensors[0].size(0)


def default_collate(batch):
    first = batch[0]
    if isinstance(first, torch.Tensor):
        return torch.stack(batch, 0)
    if type(first).__module__ == "numpy":
        # numpy arrays become tensors (sharing memory) before stacking; numpy scalars one tensor
        if type(first).__name__ == "ndarray":
            return default_collate([torch.as_tensor(b) for b in batch])
        return torch.as_tensor(batch)
    if isinstance(first, (bool, int, float)):
        return torch.tensor(batch)
    if isinstance(first, (tuple, list)):
        return [default_collate([b[j] for b in batch]) for j in range(len(first))]
    if isinstance(first, dict):
        return {k: default_collate([b[k] for b in batch]) for k in first}
    return batch


def _pin(b):
    if isinstance(b, torch.Tensor):
        return b.pin_memory()
    if isinstance(b, (tuple, list)):
        return [_pin(x) for x in b]
    return b


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 generator=None, prefetch_factor=None, persistent_workers=False, multiprocessing_context=None):
        if num_workers < 0:
            raise ValueError('num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.')
        self.dataset = dataset
        self.multiprocessing_context = multiprocessing_context
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.drop_last = drop_last
        self.collate_fn = collate_fn if collate_fn is not None else default_collate
        self.generator = generator

    def __len__(self):
        n = len(self.dataset)
        if self.batch_size is None:
            return n
        if self.drop_last:
            return n // self.batch_size
        return (n + self.batch_size - 1) // self.batch_size

    def __iter__(self):
        # PyTorch's draws, in order: the iterator's base seed (one int64 random_ from the
        # loader's generator) when iter() is called, then on the first next() a shuffling
        # RandomSampler seeds a fresh Generator from another int64 draw (or uses the
        # loader's generator) and takes randperm(n) from it.
        torch.empty((), dtype=torch.int64).random_(generator=self.generator)
        # With workers, iter() starts them. On Linux they are forked (the default start
        # method), and a process forked after CUDA started cannot use CUDA: any CUDA call in
        # __getitem__ or collate_fn raises there, and the error comes back wrapped
        # (torch.cuda._tools.worker_call). 'spawn' and 'forkserver' start fresh interpreters.
        ctx = self.multiprocessing_context
        if ctx is not None and not isinstance(ctx, str):
            ctx = getattr(ctx, '_name', 'fork')
        self._bad_fork = self.num_workers > 0 and ctx in (None, 'fork') and torch.cuda.is_initialized()
        return self._batches()

    def _batches(self):
        n = len(self.dataset)
        if self.shuffle:
            g = self.generator
            if g is None:
                seed = int(torch.empty((), dtype=torch.int64).random_().item())
                g = torch.Generator()
                g.manual_seed(seed)
            order = torch.randperm(n, generator=g).tolist()
        else:
            order = list(range(n))
        bs = self.batch_size if self.batch_size is not None else 1
        for number, s in enumerate(range(0, n, bs)):
            idx = order[s:s + bs]
            if len(idx) < bs and self.drop_last:
                break
            if self.num_workers > 0:
                # batches go to the workers in turn; pinning happens in the main process
                import torch.cuda._tools as _tools
                b = _tools.worker_call(self._fetch, idx, self._bad_fork, number % self.num_workers)
            else:
                b = self._fetch(idx)
            if self.pin_memory:
                b = _pin(b)
            yield b

    def _fetch(self, idx):
        if self.batch_size is None:
            return self.dataset[idx[0]]
        if isinstance(self.dataset, TensorDataset) and self.collate_fn is default_collate:
            ix = torch.tensor(idx)
            return [t[ix] for t in self.dataset.tensors]
        return self.collate_fn([self.dataset[i] for i in idx])
