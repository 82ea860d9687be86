#pragma once
/// @file sparse.hpp
/// Everything of cusci::sparse: COO/CSR matrices, Matrix Market I/O and the iterative solvers.
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/matrix.hpp"
