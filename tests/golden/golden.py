"""Shared by every reference generator (tests/golden/gen_<module>.py): the case schema, saving, the
tolerance rule and the version check. The generators run at build time (tests/golden/CMakeLists.txt)
and write into the build tree; nothing they write is committed.

A generator:

    from golden import Suite, tol
    s = Suite("ndimage")                 # parses --out DIR and --data DIR from the command line
    rng = s.rng(20261201)
    s.group("gaussian")                  # arrays from here on go to DIR/ndimage/gaussian.npz
    x = s.array("gf_2d_in", a)           # a C-contiguous copy, stored under that name
    r = scipy.ndimage.gaussian_filter(a, 2.0)
    s.case("gf_2d", func="gaussian_filter", input=x, expected=s.array("gf_2d_out", r),
           sigma=2.0, mode="reflect", *tol(r.dtype, scale=abs(r).max()))
    s.write()

What it writes, DIR/<module>/:
- manifest.json: {"schema": 1, "module", "generator", "versions": {"scipy", "numpy", "python"},
  "groups": [group names], "arrays": {array name: group}, "cases": [case, ...]}
  where a case is {"case": name, "func": str, "rtol": float, "atol": float,
  "error": null or a cusci exception name ("value_error", "type_error", "index_error",
  "not_implemented_error", ...), "params": {name: JSON value}}. A parameter that is not given is
  absent or null; lists are JSON lists; arrays are referred to by their array name.
- <group>.npz: the arrays of each group (NumPy's savez, uncompressed).
- any auxiliary file the generator writes through Suite.file(name).

tests/common/golden.hpp reads this format; no Python runs inside a test.
"""
import argparse
import json
import math
import os
import sys

import numpy as np

SCIPY_VERSION = "1.18.1"
NUMPY_SERIES = "2.5."
SCHEMA = 1
EXCEPTIONS = {"value_error", "type_error", "index_error", "not_implemented_error", "out_of_memory",
              "lin_alg_error", "runtime_error", "io_error", "overflow_error", "zero_division_error"}


def check_versions():
    """Stops with the install command unless SciPy 1.18.1 and NumPy 2.5.x are the ones imported."""
    import scipy
    if scipy.__version__ != SCIPY_VERSION or not np.__version__.startswith(NUMPY_SERIES):
        sys.exit(f"cusci's reference generators need SciPy {SCIPY_VERSION} and NumPy {NUMPY_SERIES}x; "
                 f"{sys.executable} has SciPy {scipy.__version__}, NumPy {np.__version__}.\n"
                 f"Install them with: {sys.executable} -m pip install -r "
                 f"{os.path.join(os.path.dirname(os.path.abspath(__file__)), 'requirements.txt')}")


def jsonable(v, where):
    """v as a JSON value: numpy scalars become Python numbers, tuples and arrays of numbers lists."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isnan(f) or math.isinf(f):
            return repr(f)  # "nan", "inf", "-inf": read back by golden_case::get<double>
        return f
    if isinstance(v, (complex, np.complexfloating)):
        return [jsonable(v.real, where), jsonable(v.imag, where)]
    if isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic)):
        return np.dtype(v).name
    if isinstance(v, (list, tuple)):
        return [jsonable(x, where) for x in v]
    if isinstance(v, np.ndarray) and v.ndim <= 2 and v.size <= 64:
        return jsonable(v.tolist(), where)
    if isinstance(v, dict):
        return {str(k): jsonable(x, where) for k, x in v.items()}
    raise TypeError(f"{where}: parameter of type {type(v).__name__} is not a JSON value "
                    f"(store arrays with Suite.array and pass the name)")


def tol(dtype, scale=1.0, rtol32=2e-5, rtol64=1e-12, int_atol=0.0):
    """(rtol, atol) for a result of `dtype` whose values reach `scale` in magnitude: relative rtol32
    for float16/float32/complex64, rtol64 for float64/complex128 (atol = rtol * max(scale, 1)), and
    exact (atol = int_atol) for integers and bool."""
    dt = np.dtype(dtype)
    s = max(float(scale), 1.0) if np.isfinite(scale) else 1.0
    if dt.kind in "fc":
        r = rtol32 if dt in (np.float16, np.float32, np.complex64) else rtol64
        return r, r * s
    return 0.0, float(int_atol)


class Suite:
    """The cases and arrays of one module; see the module docstring."""

    def __init__(self, module, argv=None):
        check_versions()
        p = argparse.ArgumentParser(description=f"cusci reference data for {module}")
        here = os.path.dirname(os.path.abspath(__file__))
        p.add_argument("--out", required=True, help="folder that receives <module>/")
        p.add_argument("--data", default=os.path.join(here, "..", "..", "examples", "data"),
                       help="cusci's bundled real data (examples/data)")
        args = p.parse_args(argv)
        self.module = module
        self.dir = os.path.join(os.path.abspath(args.out), module)
        self.data_dir = os.path.abspath(args.data)
        os.makedirs(self.dir, exist_ok=True)
        for f in os.listdir(self.dir):
            path = os.path.join(self.dir, f)
            if os.path.isfile(path):
                os.remove(path)
        self.generator = os.path.basename(sys.argv[0])
        self._group = module
        self._groups = {module: {}}
        self._where = {}
        self.cases = []
        self._names = set()

    def rng(self, seed):
        return np.random.default_rng(seed)

    def group(self, name):
        """Arrays stored from now on go to <name>.npz."""
        self._group = name
        self._groups.setdefault(name, {})

    def array(self, name, arr):
        """Stores a C-contiguous copy of `arr` under `name` (unique in the module); returns `name`."""
        if name in self._where:
            raise ValueError(f"{self.module}: array {name!r} stored twice")
        self._groups[self._group][name] = np.array(arr, order="C", copy=True)  # 0-d stays 0-d
        self._where[name] = self._group
        return name

    def has_array(self, name):
        return name in self._where

    def csr(self, name, A, data=None):
        """Stores CSR matrix A as name_data (A.data, or `data`), name_indices and name_indptr (int32), the
        layout the GPU tests' csr readers take; returns `name`."""
        self.array(name + "_data", A.data if data is None else data)
        self.array(name + "_indices", A.indices.astype(np.int32))
        self.array(name + "_indptr", A.indptr.astype(np.int32))
        return name

    def case(self, name, func, rtol=0.0, atol=0.0, error=None, **params):
        """Adds a case. `params` are JSON values (see jsonable); `error` names the cusci exception
        the call must raise."""
        if name in self._names:
            raise ValueError(f"{self.module}: case {name!r} added twice")
        if error is not None and error not in EXCEPTIONS:
            raise ValueError(f"{self.module}: case {name!r}: unknown exception kind {error!r}")
        self._names.add(name)
        self.cases.append({"case": name, "func": func, "rtol": float(rtol), "atol": float(atol),
                           "error": error,
                           "params": {k: jsonable(v, f"{self.module}:{name}:{k}") for k, v in params.items()}})
        return name

    def file(self, name):
        """Path of an auxiliary file <name> in the module's folder, for the generator to write."""
        return os.path.join(self.dir, name)

    def data(self, name):
        """Path of a file of the bundled real data; stops with a clear message when it is missing. A
        Matrix Market file stored gzip-compressed is found under its plain name too ("x.mtx" gives
        "x.mtx.gz"; scipy.io.mmread and cusci's mmread read both)."""
        path = os.path.join(self.data_dir, name)
        if not os.path.exists(path) and name.endswith(".mtx") and os.path.exists(path + ".gz"):
            path += ".gz"
        if not os.path.exists(path):
            sys.exit(f"{self.generator}: {name} not found in {self.data_dir} (pass --data)")
        return path

    def write(self):
        groups = [g for g, arrays in self._groups.items() if arrays]
        for g in groups:
            np.savez(os.path.join(self.dir, g + ".npz"), **self._groups[g])
        import scipy
        manifest = {"schema": SCHEMA, "module": self.module, "generator": self.generator,
                    "versions": {"scipy": scipy.__version__, "numpy": np.__version__,
                                 "python": sys.version.split()[0]},
                    "groups": groups, "arrays": self._where, "cases": self.cases}
        tmp = os.path.join(self.dir, "manifest.json.tmp")
        with open(tmp, "w") as f:
            json.dump(manifest, f, separators=(",", ":"), allow_nan=False)
        os.replace(tmp, os.path.join(self.dir, "manifest.json"))
        print(f"{self.module}: {len(self.cases)} cases, {len(self._where)} arrays in {len(groups)} groups")
