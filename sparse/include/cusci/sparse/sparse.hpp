#pragma once
/// @file sparse.hpp
/// Everything of cusci::sparse (SciPy's `scipy.sparse`, spmatrix semantics: `A * B` is the matrix
/// product, `sparse::multiply(A, B)` the elementwise one; see matrix.hpp):
///   - matrix.hpp    the five formats (coo/csr/csc/dia/bsr_matrix), `spmatrix`, construction,
///                   conversion and format maintenance;
///   - construct.hpp eye, diags, random, kron, stacks, tril/triu, find, arithmetic, comparisons,
///                   transpose;
///   - products.hpp  SpMV/SpMM, SpGEMM, reductions (and `sparse::matrix_power`, from linalg.hpp);
///   - access.hpp    indexing, slicing, assignment, reshape/resize, save_npz/load_npz;
///   - io.hpp        Matrix Market files;
///   - linalg.hpp    `scipy.sparse.linalg`: iterative solvers, linear operators, norm, matrix_power;
///   - csgraph.hpp   `scipy.sparse.csgraph`: graph algorithms (namespace cusci::sparse::csgraph);
///   - dok.hpp, lil.hpp  the incremental-construction formats `dok_matrix` and `lil_matrix`, held on the
///                   host and converted to the device formats on the GPU;
///   - coo_array.hpp n-dimensional COO sparse arrays (SciPy's `coo_array` of any rank);
///   - sputils.hpp   `is_sparse`, `isspmatrix_*`, `get_index_dtype`, `safely_cast_index_arrays`.
#include "cusci/sparse/coo_array.hpp"
#include "cusci/sparse/csgraph.hpp"
#include "cusci/sparse/dok.hpp"
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/lil.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/matrix.hpp"
#include "cusci/sparse/printing.hpp"
#include "cusci/sparse/sputils.hpp"
#if __has_include("cusci/sparse/construct.hpp")
#include "cusci/sparse/construct.hpp"
#endif
#if __has_include("cusci/sparse/products.hpp")
#include "cusci/sparse/products.hpp"
#endif
#if __has_include("cusci/sparse/access.hpp")
#include "cusci/sparse/access.hpp"
#endif
