#pragma once
/// @file signal.hpp
/// Everything in cusci::signal: host filter design, GPU filtering, convolution, zero-phase filtering,
/// multirate processing, Fourier-domain tools (Hilbert, detrend, chirp-z), smoothing (median,
/// Savitzky-Golay, Wiener, Whittaker-Henderson) and B-splines.
#include "cusci/signal/bsplines.hpp"
#include "cusci/signal/convolution.hpp"
#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/filtering.hpp"
#include "cusci/signal/fourier.hpp"
#include "cusci/signal/iir_design.hpp"
#include "cusci/signal/multirate.hpp"
#include "cusci/signal/smoothing.hpp"
#include "cusci/signal/zero_phase.hpp"
