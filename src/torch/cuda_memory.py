# torch.cuda.memory in cudatutor: the counters torch.cuda already has, and the memory
# history and snapshot (torch/cuda/memory.py's _record_memory_history and _snapshot) over the
# allocator of torch.cuda._tools. A snapshot is PyTorch's dictionary: 'segments' (each with
# its 'blocks') and 'device_traces'; every frame is the script line that allocated the block.
import sys
import torch.cuda as _cuda
import torch.cuda._tools as _tools

memory_allocated = _cuda.memory_allocated
memory_reserved = _cuda.memory_reserved
max_memory_allocated = _cuda.max_memory_allocated
max_memory_reserved = _cuda.max_memory_reserved
memory_stats = _cuda.memory_stats
memory_summary = _cuda.memory_summary
reset_peak_memory_stats = _cuda.reset_peak_memory_stats
empty_cache = _cuda.empty_cache
mem_get_info = _cuda.mem_get_info


def _record_memory_history(enabled='all', context='all', stacks='all', max_entries=sys.maxsize,
                           device=None, clear_history=False, skip_actions=None, **kwargs):
    if isinstance(enabled, bool):
        enabled = 'all' if enabled else None
    if enabled not in (None, 'state', 'all'):
        raise ValueError(f"enabled must be one of None, 'state' or 'all', not {enabled!r}")
    _tools.record_history(enabled, max_entries)


def _frames(line):
    if line is None or line == 0:
        return []
    # one frame: the script line (PyTorch's '??' for a name it does not know)
    return [{'filename': sys.argv[0], 'line': line, 'name': '??'}]


def _snapshot(device=None, augment_with_fx_traces=False):
    segments, traces = _tools.snapshot()
    out = []
    for dev, address, total, allocated, active, requested, kind, blocks in segments:
        out.append({
            'device': dev,
            'address': address,
            'total_size': total,
            'allocated_size': allocated,
            'active_size': active,
            'requested_size': requested,
            'stream': 0,
            'segment_type': kind,
            'segment_pool_id': (0, 0),
            'is_expandable': False,
            'frames': [],
            'blocks': [{'address': a, 'size': s, 'requested_size': r, 'state': st, 'frames': _frames(line)}
                       for a, s, r, st, line in blocks],
        })
    device_traces = []
    for entries in traces:
        device_traces.append([_trace_entry(*e) for e in entries])
    return {'segments': out, 'device_traces': device_traces}


def _trace_entry(action, addr, size, line, device_free):
    e = {'action': action, 'addr': addr, 'size': size, 'stream': 0, 'frames': _frames(line)}
    if action == 'oom':
        del e['addr']
        e['device_free'] = device_free
    return e


_cuda.memory_snapshot = lambda mempool_id=None, include_traces=True: _snapshot()['segments']
