#pragma once
/// @file ndimage.hpp
/// Everything of cusci::ndimage: boundary modes, the separable filters and their kernels.
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/gaussian_kernel.hpp"
#include "cusci/ndimage/mode.hpp"
