#pragma once
/// @file signal.hpp
/// Everything in cusci::signal: host filter design and GPU filtering.
#include "cusci/signal/filter_design.hpp"
#include "cusci/signal/filtering.hpp"
