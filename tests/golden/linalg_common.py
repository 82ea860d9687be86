"""Code shared by the generators of cusci::linalg's families (gen_linalg_<family>.py): the dtype table, the
seeded random inputs, the stored layouts of the inputs and SciPy calls whose exceptions become cusci's
exception kinds.

Not a generator (tests/golden/CMakeLists.txt runs gen_*.py); imported from beside them. Every helper keeps
the draws, their order and the stored bytes of the code it replaced, so the references do not change.
"""
import warnings

import numpy as np

DT = {"f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}


def rand_maker(rng, ints_rounded=False):
    """rand(shape, dt): standard normal entries drawn from `rng` (complex dtypes: the imaginary parts drawn
    after the real parts), cast to dt. With `ints_rounded`, integer dtypes get round(4 x) and bool x > 0."""

    def rand(shape, dt):
        x = rng.standard_normal(shape)
        if np.issubdtype(np.dtype(dt), np.complexfloating):
            x = x + 1j * rng.standard_normal(shape)
        if ints_rounded:
            if np.dtype(dt) == np.bool_:
                return x > 0
            if np.issubdtype(np.dtype(dt), np.integer):
                x = np.round(4 * x)
        return x.astype(dt)

    return rand


def strided(x, fill=12345):
    """An array whose [..., ::2] view is x: the last axis doubled, the odd entries `fill` (never read by the
    tests); a 0-d x as it is."""
    x = np.asarray(x)
    if x.ndim == 0:
        return x
    full = np.empty(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
    full[..., ::2] = x
    full[..., 1::2] = fill
    return full


def storer(suite, fill=12345):
    """stored(case, key, x, layout): stores input x of a case as <case>_<key> in `suite` (with layout
    "strided" the array of strided(x, fill), whose [..., ::2] view the test passes); returns the name."""

    def stored(case, key, x, layout):
        return suite.array(f"{case}_{key}", strided(x, fill) if layout == "strided" else x)

    return stored


def run_scipy(call, errors):
    """(call(), None) with warnings silenced, or (None, kind) for the first (exception class, kind) of
    `errors` (in order, as except clauses) whose class the raised exception is an instance of; other
    exceptions propagate."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return call(), None
        except tuple(e for e, _ in errors) as exc:
            return None, next(kind for e, kind in errors if isinstance(exc, e))


def case_adder(suite, stored, errors):
    """add(case, func, call, inputs, layout="C", rtol=0.0, atol=0.0, **kw): runs call() (SciPy) through
    run_scipy(call, errors), stores the inputs (param -> array) with `stored` and the result as
    <case>_expected (params "expected"; rtol = atol = 0 for an error case), then adds the case with the
    keyword parameters kw."""

    def add(case, func, call, inputs, layout="C", rtol=0.0, atol=0.0, **kw):
        out, error = run_scipy(call, errors)
        params = {k: stored(case, k, v, layout) for k, v in inputs.items()}
        if out is not None:
            params["expected"] = suite.array(case + "_expected", np.asarray(out))
        else:
            rtol = atol = 0.0
        suite.case(case, func=func, rtol=rtol, atol=atol, error=error, layout=layout, **params, **kw)

    return add
