# torch.cuda's Python side in cudatutor: Event and the current stream (torch/cuda/streams.py),
# over the modelled stream of torch.cuda._tools. Loaded the first time a script asks torch.cuda
# for a name its native module lacks.
import torch
import torch.cuda as _cuda
import torch.cuda._tools as _tools


def _device_index(device):
    if device is None:
        return _cuda.current_device()
    if isinstance(device, int):
        return device
    d = torch.device(device)
    if d.type != 'cuda':
        raise ValueError(f'Expected a cuda device, but got: {d}')
    return _cuda.current_device() if d.index is None else d.index


class Stream:
    """A CUDA stream. cudatutor models each device's default stream, the one PyTorch uses
    unless told otherwise."""

    def __init__(self, device=None, priority=0, **kwargs):
        self._device = _device_index(device)

    @property
    def device(self):
        return torch.device('cuda', self._device)

    @property
    def cuda_stream(self):
        return 0

    def synchronize(self):
        _cuda.synchronize(self._device)

    def query(self):
        return _tools.stream_query(self._device)

    def wait_event(self, event):
        if event._time is not None:
            _tools.stream_wait(self._device, event._time)

    def wait_stream(self, stream):
        # one stream per device: the work of `stream` is already ahead in the queue
        pass

    def record_event(self, event=None):
        if event is None:
            event = Event()
        event.record(self)
        return event

    def __eq__(self, other):
        return isinstance(other, Stream) and other._device == self._device

    def __hash__(self):
        return hash(('cuda', self._device))

    def __repr__(self):
        return f'<torch.cuda.Stream device=cuda:{self._device} cuda_stream=0x0>'


def current_stream(device=None):
    return Stream(device)


def default_stream(device=None):
    return Stream(device)


_handles = [0]


class Event:
    """A CUDA event (torch/cuda/streams.py): record() marks the point of the stream it is
    recorded on; it completes when the stream gets there."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False, external=False):
        self.enable_timing = enable_timing
        self._time = None
        self._device = None
        self._handle = 0

    def record(self, stream=None):
        device = _cuda.current_device() if stream is None else stream._device
        self._time = _tools.event_record(device)
        self._device = device
        if self._handle == 0:
            _handles[0] += 1
            self._handle = 0x7f0000000000 + 0x10 * _handles[0]

    def query(self):
        if self._time is None:
            return True
        return _tools.event_query(self._device, self._time)

    def synchronize(self):
        if self._time is not None:
            _tools.event_synchronize(self._device, self._time)

    def wait(self, stream=None):
        if self._time is not None:
            device = _cuda.current_device() if stream is None else stream._device
            _tools.stream_wait(device, self._time)

    def elapsed_time(self, end_event):
        # the checks and messages of ATen's CUDAEvent::elapsed_time (2.15)
        if not self.enable_timing or not end_event.enable_timing:
            raise ValueError("Both events must be created with argument 'enable_timing=True'.")
        if self._time is None or end_event._time is None:
            raise ValueError('Both events must be recorded before calculating elapsed time.')
        if not self.query() or not end_event.query():
            raise RuntimeError('Both events must be completed before calculating elapsed time.')
        return _tools.elapsed_ms(self._time, end_event._time)

    @property
    def cuda_event(self):
        return self._handle

    def __repr__(self):
        if self._handle:
            return f'<torch.cuda.Event {self._handle:#x}>'
        return '<torch.cuda.Event uninitialized>'


_cuda.Stream = Stream
_cuda.Event = Event
_cuda.current_stream = current_stream
_cuda.default_stream = default_stream
