#pragma once
/// @file core.hpp
/// Everything in cusci::core.
#include "cusci/device.hpp"
#include "cusci/dtype.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/reduction.hpp"
#include "cusci/scalar.hpp"
#include "cusci/stream.hpp"
