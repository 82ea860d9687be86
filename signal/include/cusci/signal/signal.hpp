#pragma once
/// @file signal.hpp
/// Everything in cusci::signal: filter design on the host (IIR, FIR, windows, representations, LTI
/// systems), frequency responses (host or GPU), GPU filtering, LTI simulation, convolution, zero-phase
/// filtering, multirate processing, Fourier-domain tools (Hilbert, detrend, chirp-z), smoothing (median,
/// Savitzky-Golay, Wiener, Whittaker-Henderson) and B-splines.
#include "cusci/signal/bsplines.hpp"
#include "cusci/signal/conversions.hpp"
#include "cusci/signal/convolution.hpp"
#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/filtering.hpp"
#include "cusci/signal/fir_design.hpp"
#include "cusci/signal/fourier.hpp"
#include "cusci/signal/iir_design.hpp"
#include "cusci/signal/lti.hpp"
#include "cusci/signal/lombscargle.hpp"
#include "cusci/signal/lti_functions.hpp"
#include "cusci/signal/multirate.hpp"
#include "cusci/signal/peaks.hpp"
#include "cusci/signal/responses.hpp"
#include "cusci/signal/short_time_fft.hpp"
#include "cusci/signal/smoothing.hpp"
#include "cusci/signal/spectral.hpp"
#include "cusci/signal/waveforms.hpp"
#include "cusci/signal/windows.hpp"
#include "cusci/signal/zero_phase.hpp"
