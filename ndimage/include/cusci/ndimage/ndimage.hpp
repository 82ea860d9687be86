#pragma once
/// @file ndimage.hpp
/// Everything of cusci::ndimage: boundary modes and output arguments, the filters (separable, N-D
/// correlation, derivatives, rank, user functions), the Fourier filters and interpolation. (The functor
/// forms of the user-function filters and of geometric_transform are in the nvcc-only headers under
/// cusci/ndimage/nvcc/, which this header does not include.)
#include "cusci/ndimage/correlate.hpp"
#include "cusci/ndimage/derivatives.hpp"
#include "cusci/ndimage/distance.hpp"
#include "cusci/ndimage/filters.hpp"
#include "cusci/ndimage/fourier.hpp"
#include "cusci/ndimage/gaussian_kernel.hpp"
#include "cusci/ndimage/generic.hpp"
#include "cusci/ndimage/grey_morphology.hpp"
#include "cusci/ndimage/interpolation.hpp"
#include "cusci/ndimage/measurements.hpp"
#include "cusci/ndimage/mode.hpp"
#include "cusci/ndimage/morphology.hpp"
#include "cusci/ndimage/output.hpp"
#include "cusci/ndimage/rank.hpp"
#include "cusci/ndimage/segmentation.hpp"
