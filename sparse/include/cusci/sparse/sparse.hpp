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
///   - csgraph.hpp   `scipy.sparse.csgraph`: graph algorithms (namespace cusci::sparse::csgraph).
#include "cusci/sparse/csgraph.hpp"
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/matrix.hpp"
#include "cusci/sparse/printing.hpp"
#if __has_include("cusci/sparse/construct.hpp")
#include "cusci/sparse/construct.hpp"
#endif
#if __has_include("cusci/sparse/products.hpp")
#include "cusci/sparse/products.hpp"
#endif
#if __has_include("cusci/sparse/access.hpp")
#include "cusci/sparse/access.hpp"
#endif
