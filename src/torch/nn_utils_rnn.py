# torch.nn.utils.rnn for cudatutor: torch/nn/utils/rnn.py of PyTorch 2.15 with ATen's
# _pack_padded_sequence / _pad_packed_sequence / pad_sequence (PackedSequence.cpp) written out:
# a packed batch is the rows of every time step that still has sequences, step after step, and
# batch_sizes counts them. nn.RNN/LSTM/GRU take a PackedSequence (nn.py's _packed_forward).
import torch


class PackedSequence:
    # a NamedTuple in PyTorch: (data, batch_sizes, sorted_indices, unsorted_indices)
    _fields = ('data', 'batch_sizes', 'sorted_indices', 'unsorted_indices')

    def __init__(self, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is not None:
            if batch_sizes.device.type != 'cpu':
                raise ValueError(
                    'batch_sizes should always be on CPU. '
                    'Instances of PackedSequence should never be created manually. '
                    'They should be instantiated by functions like pack_sequence '
                    'and pack_padded_sequences in nn.utils.rnn. '
                    'https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence')
        else:
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError('Expected data to be a list or tuple of length 2')
            data, batch_sizes = data[0], data[1]
        self.data = data
        self.batch_sizes = batch_sizes
        self.sorted_indices = sorted_indices
        self.unsorted_indices = unsorted_indices

    def _tuple(self):
        return (self.data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def __iter__(self):
        return iter(self._tuple())

    def __getitem__(self, i):
        return self._tuple()[i]

    def __len__(self):
        return 4

    def __eq__(self, other):
        if isinstance(other, PackedSequence):
            return self._tuple() == other._tuple()
        return self._tuple() == other

    def __repr__(self):
        return (f'PackedSequence(data={self.data!r}, batch_sizes={self.batch_sizes!r}, '
                f'sorted_indices={self.sorted_indices!r}, unsorted_indices={self.unsorted_indices!r})')

    def _replace(self, **kwargs):
        values = dict(zip(self._fields, self._tuple()))
        values.update(kwargs)
        return PackedSequence(values['data'], values['batch_sizes'], values['sorted_indices'],
                              values['unsorted_indices'])

    def pin_memory(self):
        return type(self)(self.data.pin_memory(), self.batch_sizes,
                          None if self.sorted_indices is None else self.sorted_indices.pin_memory(),
                          None if self.unsorted_indices is None else self.unsorted_indices.pin_memory())

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        sorted_indices = None if self.sorted_indices is None else self.sorted_indices.to(data.device)
        unsorted_indices = None if self.unsorted_indices is None else self.unsorted_indices.to(data.device)
        return type(self)(data, self.batch_sizes, sorted_indices, unsorted_indices)

    def cuda(self, *args, **kwargs):
        return type(self)(self.data.cuda(*args, **kwargs), self.batch_sizes,
                          None if self.sorted_indices is None else self.sorted_indices.cuda(*args, **kwargs),
                          None if self.unsorted_indices is None else self.unsorted_indices.cuda(*args, **kwargs))

    def cpu(self):
        return self.to('cpu')

    def double(self):
        return self.to(dtype=torch.double)

    def float(self):
        return self.to(dtype=torch.float)

    def half(self):
        return self.to(dtype=torch.half)

    def long(self):
        return self.to(dtype=torch.long)

    def int(self):
        return self.to(dtype=torch.int)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def invert_permutation(permutation):
    if permutation is None:
        return None
    output = torch.empty_like(permutation)
    output.scatter_(0, permutation, torch.arange(0, permutation.numel(), device=permutation.device))
    return output


def _pack_padded_sequence(input, lengths, batch_first):
    # ATen's _pack_padded_sequence: TORCH_CHECKs first, then the rows of each step
    if batch_first:
        input = input.transpose(0, 1)
    batch_size = input.size(1)
    lengths_list = lengths.tolist()
    if input.numel() <= 0:
        raise RuntimeError('Cannot pack empty tensors.')
    if len(lengths_list) != batch_size:
        raise RuntimeError(f'Expected `len(lengths)` to be equal to batch_size, but got {len(lengths_list)} '
                           f'(batch_size={batch_size})')
    if lengths_list[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           'that is <= 0')
    for i in range(batch_size - 1):
        if lengths_list[batch_size - 1 - i] > lengths_list[batch_size - 2 - i]:
            raise RuntimeError('`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. '
                               'You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence '
                               'to sidestep this requirement if you do not need ONNX exportability.')
    if lengths_list[0] > input.size(0):
        raise RuntimeError(f'Expected sequence length to be less than or equal to {input.size(0)}, but got '
                           f'{lengths_list[0]}')
    steps = []
    batch_sizes = []
    for t in range(lengths_list[0]):
        bs = sum(1 for length in lengths_list if length > t)
        steps.append(input[t, :bs])
        batch_sizes.append(bs)
    return torch.cat(steps, 0), torch.tensor(batch_sizes, dtype=torch.int64)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    if not isinstance(lengths, torch.Tensor):
        lengths = torch.as_tensor(lengths, dtype=torch.int64, device='cpu')
    else:
        lengths = lengths.to(dtype=torch.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        batch_dim = 0 if batch_first else 1
        input = input.index_select(batch_dim, sorted_indices)
    data, batch_sizes = _pack_padded_sequence(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _pad_packed_sequence(data, batch_sizes, batch_first, padding_value, total_length):
    sizes = batch_sizes.tolist()
    max_batch_size = sizes[0]
    max_real_seq_length = len(sizes)
    max_seq_length = max_real_seq_length
    if total_length > 0:
        if total_length < max_seq_length:
            raise RuntimeError(f'Expected total_length to be at least the length of the longest sequence in input, '
                               f'but got total_length={total_length} and max sequence length being {max_seq_length}')
        max_seq_length = total_length
    # built from slices, stack and cat so that autograd sees it (PyTorch fills a padded tensor in
    # place: its grad_fn is CopySlices where this one's is StackBackward0)
    trailing = tuple(data.shape[1:])
    steps = []
    lengths = [0] * max_batch_size
    offset = 0
    for t in range(max_seq_length):
        bs = sizes[t] if t < max_real_seq_length else 0
        rows = data[offset:offset + bs]
        offset += bs
        if bs < max_batch_size:
            pad = data.new_full((max_batch_size - bs,) + trailing, padding_value)
            rows = torch.cat([rows, pad], 0) if bs > 0 else pad
        steps.append(rows)
        for b in range(bs):
            lengths[b] += 1
    output = torch.stack(steps, 0)
    if batch_first:
        output = output.transpose(0, 1)
    return output, torch.tensor(lengths, dtype=torch.int64)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError(
                'Expected total_length to be at least the length '
                'of the longest sequence in input, but got '
                f'total_length={total_length} and max sequence length being {max_seq_length}')
        max_seq_length = total_length
    padded_output, lengths = _pad_packed_sequence(sequence.data, sequence.batch_sizes, batch_first, padding_value,
                                                  max_seq_length)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        return padded_output.index_select(batch_dim, unsorted_indices), lengths[unsorted_indices.cpu()]
    return padded_output, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side='right'):
    if isinstance(sequences, torch.Tensor):
        sequences = tuple(sequences.unbind(0))
    else:
        try:
            sequences = tuple(sequences)
        except TypeError:
            raise RuntimeError('pad_sequence: Expected iterable for input sequences, but got arg of type: '
                               f'{type(sequences)}')
    if len(sequences) == 0:
        raise RuntimeError('received an empty list of sequences')
    if padding_side not in ('left', 'right'):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    max_len = max(s.size(0) for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    # each sequence padded by a cat, then stacked (PyTorch copies into a new_full tensor: its
    # grad_fn is CopySlices where this one's is StackBackward0)
    rows = []
    for tensor in sequences:
        length = tensor.size(0)
        if length < max_len:
            pad = tensor.new_full((max_len - length,) + trailing, padding_value)
            tensor = torch.cat([pad, tensor] if padding_side == 'left' else [tensor, pad], 0)
        rows.append(tensor)
    return torch.stack(rows, 0 if batch_first else 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    unpadded_sequences = []
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    max_length = padded_sequences.shape[1]
    idx = torch.arange(max_length, device=lengths.device)
    for seq, length in zip(padded_sequences, lengths):
        mask = idx < length
        unpadded_sequences.append(seq[mask])
    return unpadded_sequences


def pack_sequence(sequences, enforce_sorted=True):
    lengths = torch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
