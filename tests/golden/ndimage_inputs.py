"""Inputs and layouts shared by the ndimage reference generators (tests/golden/gen_ndimage*.py).

    from ndimage_inputs import make_input, view
    a = make_input(rng, (13, 17), "int16")   # seeded values of that shape and dtype
    x = view(a, "rev")                       # the input as the C++ test lays it out

Layouts (the C++ side: with_layout in tests/ndimage/ndimage_layouts.hpp): C (as stored), F (a
Fortran-order copy), step2 (every other element along each axis, input[::2, ::2, ...]) and rev (the
last axis reversed, input[..., ::-1]).
"""
import numpy as np

LAYOUTS = ("C", "F", "step2", "rev")


def make_input(rng, shape, dtype, uint_max=200, int_max=100, lim=None, complex_scale=1, ties=False):
    """Seeded values of `shape` and `dtype` drawn from `rng`: bool true with probability 0.4;
    unsigned integers in [0, min(max of the dtype, uint_max)]; signed integers in [-m, m] with
    m = min(max of the dtype, int_max); `lim` (at most the dtype's max) replaces both bounds;
    complex standard normal real and imaginary parts times complex_scale; floats standard normal
    times 10, or with `ties` integers in [-4, 4] (repeated values)."""
    if lim is not None:
        uint_max = int_max = lim
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.4
    if dt.kind == "u":
        hi = min(np.iinfo(dt).max, uint_max)
        return rng.integers(0, hi + 1, size=shape).astype(dt)
    if dt.kind == "i":
        lim = min(np.iinfo(dt).max, int_max)
        return rng.integers(-lim, lim + 1, size=shape).astype(dt)
    if dt.kind == "c":
        re = rng.standard_normal(shape) * complex_scale
        im = rng.standard_normal(shape) * complex_scale
        return (re + 1j * im).astype(dt)
    if ties:
        return rng.integers(-4, 5, size=shape).astype(dt)
    return (rng.standard_normal(shape) * 10).astype(dt)


def view(a, layout):
    """`a` in `layout` (one of LAYOUTS): the same values, another memory layout."""
    if layout == "C":
        return a
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "step2":
        return a[tuple(slice(None, None, 2) for _ in range(a.ndim))]
    if layout == "rev":
        return a[..., ::-1]
    raise ValueError(layout)
