
# ---- extra_views.py: the in-place view ops, TypedStorage and layouts ----
# (concatenated after extra.py into torch._extra; `_t_NAME` is the Tensor method NAME)

# In-place view ops compute the view out of place, then make the tensor object itself that
# view (`_set_view_`), under the node name PyTorch gives the in-place form.
def _t_unsqueeze_(self, dim):
    return self._set_view_(self.unsqueeze(dim), 'UnsqueezeBackward1')


def _t_squeeze_(self, dim=None):
    if dim is None:
        return self._set_view_(self.squeeze(), 'SqueezeBackward3')
    if isinstance(dim, (tuple, list)):
        return self._set_view_(self.squeeze(dim), 'SqueezeBackward5')
    return self._set_view_(self.squeeze(dim), 'SqueezeBackward4')


def _t_transpose_(self, dim0, dim1):
    return self._set_view_(self.transpose(dim0, dim1), 'TransposeBackward1')


def _t_t_(self):
    if self.dim() > 2:
        raise RuntimeError(f't_() expects a tensor with <= 2 dimensions, but self is {self.dim()}D')
    return self._set_view_(self.t(), 'TBackward1')


def _t_as_strided_(self, size, stride, storage_offset=None):
    return self._set_view_(self.as_strided(size, stride, storage_offset), 'AsStridedBackward1')


_t_swapdims_ = _t_transpose_
_t_swapaxes_ = _t_transpose_


def as_strided(input, size, stride, storage_offset=None):
    return input.as_strided(size, stride, storage_offset)


torch.as_strided = as_strided


def _resize_sizes(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    out = []
    for d in size:
        d = int(d)
        if d < 0:
            raise RuntimeError(f'Trying to create tensor with negative dimension {d}: {list(size)}')
        out.append(d)
    return out


def _t_resize_(self, *size, memory_format=None):
    if self.requires_grad:
        raise RuntimeError('cannot resize variables that require grad')
    size = _resize_sizes(size)
    strides = [1] * len(size)
    for i in range(len(size) - 2, -1, -1):
        strides[i] = strides[i + 1] * max(size[i + 1], 1)
    n = 1
    for d in size:
        n *= d
    off = self.storage_offset()
    have = self.untyped_storage().nbytes() // self.element_size()
    if off + n <= have:
        return self._set_view_(self.as_strided(size, strides, off), None)
    # a larger storage: the old elements first; PyTorch leaves the rest uninitialised
    grown = torch.zeros(off + n, dtype=self.dtype, device=self.device)
    if have > 0:
        grown[:have] = self.as_strided((have,), (1,), 0)
    return self._set_view_(grown.as_strided(size, strides, off), None)


def _t_resize_as_(self, the_template, memory_format=None):
    return _t_resize_(self, tuple(the_template.shape))


def _t_set_(self, source=None, storage_offset=None, size=None, stride=None):
    if source is None:
        return self._set_view_(torch.empty(0, dtype=self.dtype, device=self.device), None)
    if not isinstance(source, torch.Tensor):
        raise NotImplementedError('cudatutor: set_() takes a Tensor source only')
    if size is None:
        return self._set_view_(source.detach(), None)
    if stride is None:
        stride = [1] * len(size)
        for i in range(len(size) - 2, -1, -1):
            stride[i] = stride[i + 1] * max(size[i + 1], 1)
    return self._set_view_(source.detach().as_strided(size, stride, storage_offset or 0), None)


def _warn_typed_storage_removal():
    # torch/storage.py warns once per process, at the caller of the storage method
    if not getattr(_warn_typed_storage_removal, 'has_warned', False):
        import warnings
        warnings.warn(
            'TypedStorage is deprecated. It will be removed in the future and UntypedStorage '
            'will be the only storage class. This should only matter to you if you are using '
            'storages directly.  To access UntypedStorage directly, use '
            'tensor.untyped_storage() instead of tensor.storage()', UserWarning, stacklevel=3)
        _warn_typed_storage_removal.has_warned = True


class TypedStorage:
    """`tensor.storage()`: every element of the tensor's storage, in storage order."""

    def __init__(self, tensor):
        n = tensor.untyped_storage().nbytes() // tensor.element_size()
        self._flat = tensor.detach().as_strided((n,), (1,), 0)
        self.dtype = tensor.dtype
        self.device = tensor.device

    def size(self):
        return self._flat.numel()

    def __len__(self):
        return self._flat.numel()

    def element_size(self):
        return self._flat.element_size()

    def nbytes(self):
        return self._flat.numel() * self._flat.element_size()

    def data_ptr(self):
        return self._flat.data_ptr()

    def tolist(self):
        return self._flat.tolist()

    def __getitem__(self, i):
        v = self._flat[i]
        return v.item() if isinstance(i, int) else v

    def __setitem__(self, i, v):
        self._flat[i] = v

    def __iter__(self):
        return iter(self._flat.tolist())

    def _type_name(self):
        return 'torch.storage.TypedStorage'

    def __str__(self):
        info = f'[{self._type_name()}(dtype={self.dtype}, device={self.device}) of size {len(self)}]'
        data = ' ' + '\n '.join(str(v) for v in self._flat.tolist())
        return data + '\n' + info

    def __repr__(self):
        return str(self)


def _t_storage(self):
    _warn_typed_storage_removal()
    return TypedStorage(self)




class layout:
    """`torch.strided` and the other layouts (`tensor.layout`)."""

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return 'torch.' + self._name

layout.__module__ = 'torch'
torch.layout = layout
torch.strided = layout('strided')
torch.sparse_coo = layout('sparse_coo')
torch.sparse_csr = layout('sparse_csr')
torch.sparse_csc = layout('sparse_csc')
torch.sparse_bsr = layout('sparse_bsr')
torch.sparse_bsc = layout('sparse_bsc')
torch._mkldnn = layout('_mkldnn')
torch.jagged = layout('jagged')


def _tp_layout(self):
    return torch.strided
