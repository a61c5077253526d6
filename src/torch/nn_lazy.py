

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
                self.__dict__[name] = UninitializedParameter(device=self._lazy_kw[0], dtype=dtype)
            else:
                self.register_buffer(name, None)
                self.__dict__[name] = UninitializedBuffer(device=self._lazy_kw[0], dtype=dtype)
        self._lazy = True

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        if not self._lazy:
            return super()._save_to_state_dict(destination, prefix, keep_vars)
        for name, value in self._parameters.items():
            if value is not None:
                destination[prefix + name] = value
        for name in self._lazy_names:
            if isinstance(self.__dict__.get(name), (UninitializedParameter, UninitializedBuffer)):
                destination[prefix + name] = self.__dict__[name]
        for name, value in self._buffers.items():
            if value is not None:
                destination[prefix + name] = value

    def _apply(self, fn, recurse=True):
        # .to(dtype) / .double() before the first forward: the uninitialized parameters take it
        for name in self._lazy_names:
            value = self.__dict__.get(name)
            if isinstance(value, (UninitializedParameter, UninitializedBuffer)):
                self.__dict__[name] = fn(value)
        return super()._apply(fn, recurse)

    def _lazy_first_call(self, input):
        if self._lazy:
            self._lazy = False
            first = self.__dict__.get(self._lazy_names[0])
            if isinstance(first, UninitializedParameter):
                self._lazy_kw = (self._lazy_kw[0], first.dtype) + tuple(self._lazy_kw[2:])
            for name in self._lazy_names:
                if isinstance(self.__dict__.get(name), (UninitializedParameter, UninitializedBuffer)):
                    del self.__dict__[name]
            self._materialize(input)
            # PyTorch's cls_to_become: the module is the eager class from now on (here: it
            # prints as that class; its type stays the lazy one)
            self._became = self._eager_name

    def _get_name(self):
        return getattr(self, '_became', None) or super()._get_name()

    def forward(self, input):
        self._lazy_first_call(input)
        return super().forward(input)


def _lazy_conv_class(base, spatial):
    # LazyConvNd / LazyConvTransposeNd (_LazyConvXdMixin): the base's __init__ with 0 input
    # channels; the first forward reads them from the input and builds the weight the base would
    class _LazyConv(_LazyMixin, base):
        _lazy_names = ('weight', 'bias')
        _eager_name = base.__name__

        def _lazy_init(self, bias, device, dtype):
            self._lazy_kw = (device, dtype, bias)
            self._lazy_start(dtype)

        def reset_parameters(self):
            # _LazyConvXdMixin.reset_parameters: nothing to draw until the input channels are known
            if self.in_channels != 0 and not getattr(self, '_lazy', True):
                super().reset_parameters()

        def _materialize(self, input):
            # _LazyConvXdMixin._get_in_channels, then the parameters as _ConvNd.__init__ makes them
            batched = spatial + 2
            if input.dim() not in (spatial + 1, batched):
                raise RuntimeError(f'Expected {spatial + 1}D (unbatched) or {batched}D (batched) input to '
                                   f'{type(self).__name__}, but got input of size: {input.shape}')
            self.in_channels = input.shape[1] if input.dim() == batched else input.shape[0]
            device, dtype, bias = self._lazy_kw
            kernel = tuple(self.kernel_size)
            if self.transposed:
                shape = (self.in_channels, self.out_channels // self.groups) + kernel
            else:
                shape = (self.out_channels, self.in_channels // self.groups) + kernel
            self.register_parameter('weight', Parameter(torch.empty(shape, device=device, dtype=dtype)))
            self.register_parameter('bias', Parameter(torch.empty(self.out_channels, device=device, dtype=dtype))
                                    if bias else None)
            self.reset_parameters()

    return _LazyConv


def _lazy_conv_nd_class(base, spatial):
    class _LazyConvNd(_lazy_conv_class(base, spatial)):
        def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                     padding_mode='zeros', device=None, dtype=None):
            base.__init__(self, 0, out_channels, kernel_size, stride, padding, dilation, groups, bias, padding_mode,
                          device=device, dtype=dtype)
            self._lazy_init(bias, device, dtype)

    return _LazyConvNd


def _lazy_conv_transpose_class(base, spatial):
    class _LazyConvTransposeNd(_lazy_conv_class(base, spatial)):
        def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                     dilation=1, padding_mode='zeros', device=None, dtype=None):
            base.__init__(self, 0, out_channels, kernel_size, stride, padding, output_padding, groups, bias,
                          dilation, padding_mode, device=device, dtype=dtype)
            self._lazy_init(bias, device, dtype)

        def forward(self, input, output_size=None):
            self._lazy_first_call(input)
            return base.forward(self, input, output_size)

    return _LazyConvTransposeNd


class LazyConv1d(_lazy_conv_nd_class(Conv1d, 1)):
    pass


class LazyConv2d(_lazy_conv_nd_class(Conv2d, 2)):
    pass


class LazyConv3d(_lazy_conv_nd_class(Conv3d, 3)):
    pass


class LazyConvTranspose1d(_lazy_conv_transpose_class(ConvTranspose1d, 1)):
    pass


class LazyConvTranspose2d(_lazy_conv_transpose_class(ConvTranspose2d, 2)):
    pass


class LazyConvTranspose3d(_lazy_conv_transpose_class(ConvTranspose3d, 3)):
    pass


def _lazy_batch_norm_class(base):
    class _LazyBatchNorm(_LazyMixin, base):
        _lazy_names = ('weight', 'bias', 'running_mean', 'running_var')
        _eager_name = base.__name__

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
