# Shared by every row of scripts/bench.sh: the driver puts this text in front of the row's own
# script, so cudatutor, PyTorch and CPython run identical code. The row defines step(); this
# times it with time.perf_counter after a warm-up, until MIN_STEPS steps or MIN_SECONDS have
# passed (whichever comes first; the driver substitutes both), and prints one line:
#   BENCH <steps> <median s> <p10 s> <p90 s> <threads>
import time


def _bench(step, min_steps, min_seconds):
    warm_until = time.perf_counter() + min_seconds / 10
    step()
    while time.perf_counter() < warm_until:
        step()
    times = []
    start = time.perf_counter()
    while len(times) < min_steps and time.perf_counter() - start < min_seconds:
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    times.sort()
    n = len(times)
    threads = -1
    try:
        threads = torch.get_num_threads()
    except (NameError, AttributeError):
        pass  # an interpreter row (no torch), or an engine without get_num_threads
    print("BENCH", n, times[n // 2], times[n // 10], times[(n * 9) // 10], threads)
