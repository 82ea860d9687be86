"""The host wall-clock timer of the peers whose rows are timed on the CPU (SciPy where CuPy has no
counterpart): peers_sparse_linalg.py, peers_ndimage_morphology.py. Imported as a plain module: the peers
run with benchmarks/ on sys.path (compare_cupy.py puts it there before importing them; run alone, a peer's
own folder is first on the path)."""
import statistics
import time


def cpu_ms(fn, n_repeat=3, n_warmup=1):
    """Host wall milliseconds of fn() (time.perf_counter): the median of `n_repeat` calls after
    `n_warmup` untimed calls."""
    for _ in range(n_warmup):
        fn()
    times = []
    for _ in range(n_repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)
