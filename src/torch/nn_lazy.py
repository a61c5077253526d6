

# ---- torch.nn, continued (src/torch/nn_lazy.py): the lazy convolutions and batch norms of
# torch/nn/modules/conv.py and batchnorm.py: built with 0 input features and uninitialized
# parameters, which the first forward creates from the input's shape and initializes as the
# eager module would at that moment (so the random stream is the same).


class _LazyMixin:
    # the names that stay uninitialized until the first forward
    _lazy_names = ()

    def _lazy_start(self, dtype):
        self._lazy_dtype = dtype
        for name in self._lazy_names:
            if getattr(self, name, None) is None:
                continue
            if name in self._parameters:
                self.register_parameter(name, None)
            else:
                self.register_buffer(name, None)
            self.__dict__[name] = UninitializedParameter(dtype)
        self._lazy = True

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        if not self._lazy:
            return super()._save_to_state_dict(destination, prefix, keep_vars)
        for name, value in self._parameters.items():
            if value is not None:
                destination[prefix + name] = value
        for name in self._lazy_names:
            if isinstance(self.__dict__.get(name), UninitializedParameter):
                destination[prefix + name] = self.__dict__[name]
        for name, value in self._buffers.items():
            if value is not None:
                destination[prefix + name] = value

    def _apply(self, fn, recurse=True):
        # .to(dtype) / .double() before the first forward: the uninitialized parameters take it
        for name in self._lazy_names:
            value = self.__dict__.get(name)
            if isinstance(value, UninitializedParameter):
                self.__dict__[name] = fn(value)
        return super()._apply(fn, recurse)

    def forward(self, input):
        if self._lazy:
            self._lazy = False
            first = self.__dict__.get(self._lazy_names[0])
            if isinstance(first, UninitializedParameter):
                self._lazy_kw = (self._lazy_kw[0], first.dtype) + tuple(self._lazy_kw[2:])
            for name in self._lazy_names:
                if isinstance(self.__dict__.get(name), UninitializedParameter):
                    del self.__dict__[name]
            self._materialize(input)
        return super().forward(input)


def _lazy_conv_class(base, spatial):
    class _LazyConv(_LazyMixin, base):
        _lazy_names = ('weight', 'bias')

        def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                     padding_mode='zeros', device=None, dtype=None):
            base.__init__(self, 0, out_channels, kernel_size, stride, padding, dilation, groups, bias, padding_mode,
                          device=device, dtype=dtype)
            self._lazy_kw = (device, dtype, bias)
            self._lazy_start(dtype)

        def _materialize(self, input):
            # _LazyConvXdMixin._get_in_channels, then _ConvNd.reset_parameters
            batched = spatial + 2
            if input.dim() not in (spatial + 1, batched):
                raise RuntimeError(f'Expected {spatial + 1}D (unbatched) or {batched}D (batched) input to '
                                   f'{type(self).__name__}, but got input of size: {input.shape}')
            self.in_channels = input.shape[1] if input.dim() == batched else input.shape[0]
            device, dtype, bias = self._lazy_kw
            kernel = tuple(self.kernel_size)
            self.register_parameter('weight', Parameter(torch.empty(self.out_channels, self.in_channels // self.groups,
                                                                    *kernel, device=device, dtype=dtype)))
            self.register_parameter('bias', Parameter(torch.empty(self.out_channels, device=device, dtype=dtype))
                                    if bias else None)
            fan_in = (self.in_channels // self.groups) * math.prod(kernel)
            with torch.no_grad():
                if self.weight.numel() > 0:
                    gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
                    self.weight.uniform_(-math.sqrt(3.0) * gain / math.sqrt(fan_in),
                                         math.sqrt(3.0) * gain / math.sqrt(fan_in))
                if self.bias is not None and fan_in != 0:
                    bound = 1 / math.sqrt(fan_in)
                    self.bias.uniform_(-bound, bound)

    return _LazyConv


class LazyConv1d(_lazy_conv_class(Conv1d, 1)):
    pass


class LazyConv2d(_lazy_conv_class(Conv2d, 2)):
    pass


def _lazy_batch_norm_class(base):
    class _LazyBatchNorm(_LazyMixin, base):
        _lazy_names = ('weight', 'bias', 'running_mean', 'running_var')

        def __init__(self, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
            base.__init__(self, 0, eps, momentum, affine, track_running_stats, device=device, dtype=dtype)
            self._lazy_kw = (device, dtype)
            self._lazy_start(dtype)

        def _materialize(self, input):
            # _LazyNormBase.initialize_parameters: the features are the input's dim 1
            self.num_features = input.shape[1]
            device, dtype = self._lazy_kw
            if self.affine:
                self.register_parameter('weight', Parameter(torch.ones(self.num_features, device=device, dtype=dtype)))
                self.register_parameter('bias', Parameter(torch.zeros(self.num_features, device=device, dtype=dtype)))
            if self.track_running_stats:
                self.register_buffer('running_mean', torch.zeros(self.num_features, device=device, dtype=dtype))
                self.register_buffer('running_var', torch.ones(self.num_features, device=device, dtype=dtype))

    return _LazyBatchNorm


class LazyBatchNorm1d(_lazy_batch_norm_class(BatchNorm1d)):
    pass


class LazyBatchNorm2d(_lazy_batch_norm_class(BatchNorm2d)):
    pass


class LazyBatchNorm3d(_lazy_batch_norm_class(BatchNorm3d)):
    pass
