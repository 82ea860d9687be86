#pragma once
/// @file lti.hpp
/// Linear time-invariant systems on the host, as SciPy's classes: `TransferFunction` (numerator /
/// denominator), `ZerosPolesGain` (zeros / poles / gain) and `StateSpace` (A, B, C, D), each either
/// continuous-time (`dt()` empty) or discrete-time (`dt()` set to the sampling period), with the
/// conversions between them (`to_tf()`, `to_zpk()`, `to_ss()`) and the `poles()` / `zeros()` properties.
///
/// SciPy's factories `lti(*system)` and `dlti(*system, dt=True)` are the classes `lti` and `dlti` below:
/// a value-type wrapper around `std::variant<TransferFunction, ZerosPolesGain, StateSpace>` that holds any
/// of the three forms, built from 2 (num, den), 3 (zeros, poles, gain) or 4 (A, B, C, D) arguments or from
/// an instance of one of the classes. `lti` always holds a continuous-time system and `dlti` a
/// discrete-time one (checked when built), so functions of continuous systems take `const lti&` and
/// functions of discrete systems take `const dlti&`; both convert implicitly from the three classes, as
/// SciPy's functions accept any instance. (SciPy's class hierarchy — `TransferFunctionContinuous` derives
/// from `lti` and `TransferFunction`, and so on — is replaced by this composition: the C++ classes carry
/// the form, the wrappers carry the time domain.)
///
/// Everything here is synchronous host code; the arrays are `cusci::host_array` (float64, or complex128
/// where SciPy keeps complex values). Simulation and responses of these systems (`lsim`, `step`, `bode`,
/// `cont2discrete`, ...) live in their own header.
/// Array parameters of the constructors and setters are `array_like` (filtering.hpp): a host_array, a
/// scalar (0-d), a braced list `{1.0, -0.5}` or a std::vector; a device ndarray is copied to the host
/// first, which synchronizes.
///
/// SciPy: `scipy.signal.lti`, `dlti`, `TransferFunction`, `ZerosPolesGain`, `StateSpace`. Deviations:
/// - SciPy's `dt=True` (discrete with an unspecified sampling period, which SciPy's functions use as 1)
///   is `dt = 1.0`; `dlti`'s default dt is 1.0.
/// - Arithmetic between systems (`StateSpace.__add__`, `__mul__`, ...) is not provided.
/// - Integer zeros/poles given to `ZerosPolesGain` are stored as float64 (SciPy keeps the given dtype;
///   float32 / complex64 are kept here too).
/// - The attributes are read through accessors (`num()`, `A()`, ...) and replaced with the setters.

#include <cstdint>
#include <optional>
#include <variant>

#include "cusci/ndarray.hpp"
#include "cusci/signal/filtering.hpp"

namespace cusci::signal {

class TransferFunction;
class ZerosPolesGain;
class StateSpace;

/// A system as a transfer function: num(s)/den(s) (continuous) or num(z)/den(z) (discrete), with the
/// coefficients in descending powers.
class TransferFunction {
 public:
  /// The system 1/1, continuous.
  TransferFunction();
  /// @param num  [n] or [n_outputs, n] numerator coefficients (several rows: one output each, a
  ///             single-input multiple-output system), any real or complex dtype (stored with
  ///             `normalize`'s result dtypes: float64 / complex128, float32 / complex64 for single
  ///             precision).
  /// @param den  [m] denominator coefficients, same dtypes.
  /// @param dt   sampling period of a discrete system; empty for a continuous one.
  /// Both are normalised by `normalize` (leading zeros of the denominator and the common leading zero
  /// columns of the numerator stripped, everything divided by den[0]); num is stored 1-D when given 1-D
  /// (or 2-D with one row) and 2-D [n_outputs, n] otherwise, den 1-D. It may issue SciPy's
  /// `BadCoefficients` warning through `cusci::warn`.
  /// @throws cusci::value_error as `normalize` (empty or all-zero denominator, denominator not 1-D,
  ///         numerator with more than 2 dimensions).
  /// SciPy: `scipy.signal.TransferFunction(num, den, dt=None)`.
  TransferFunction(const array_like& num, const array_like& den, std::optional<double> dt = std::nullopt);

  /// Numerator: [n] for a single-output system, [n_outputs, n] otherwise. float64 or complex128.
  const host_array& num() const noexcept { return num_; }
  /// Denominator [m], den[0] == 1 after normalisation. float64 or complex128.
  const host_array& den() const noexcept { return den_; }
  /// Sampling period; empty for a continuous-time system.
  std::optional<double> dt() const noexcept { return dt_; }
  bool is_discrete() const noexcept { return dt_.has_value(); }
  /// Replace the numerator / denominator as given (converted to float64 / complex128, not normalised),
  /// as SciPy's property setters do.
  void set_num(const array_like& num);
  void set_den(const array_like& den);
  void set_dt(std::optional<double> dt) noexcept { dt_ = dt; }
  /// Number of inputs (always 1) and outputs (rows of num).
  std::int64_t inputs() const noexcept { return 1; }
  std::int64_t outputs() const noexcept;

  /// Poles: the roots of den (complex128 when any root is complex, else float64, as `numpy.roots`).
  host_array poles() const;
  /// Zeros: the roots of num (single-output systems; SciPy's `tf2zpk`).
  /// @throws cusci::value_error for a multiple-output system (as SciPy's `tf2zpk`).
  host_array zeros() const;

  /// A copy. SciPy: `TransferFunction.to_tf()`.
  TransferFunction to_tf() const;
  /// SciPy: `TransferFunction.to_zpk()` (through `tf2zpk`; single-output systems).
  ZerosPolesGain to_zpk() const;
  /// SciPy: `TransferFunction.to_ss()` (through `tf2ss`, controller canonical form).
  StateSpace to_ss() const;

 private:
  host_array num_, den_;
  std::optional<double> dt_;
};

/// A system as zeros, poles and gain: k * prod(s - z) / prod(s - p).
class ZerosPolesGain {
 public:
  /// The system with no zeros or poles and gain 1, continuous.
  ZerosPolesGain();
  /// @param zeros [nz] float64, complex128, float32 or complex64 (other real dtypes converted to float64);
  ///              a 0-d array is taken as one zero (SciPy's `np.atleast_1d`).
  /// @param poles [np] same dtypes.
  /// @param gain  the gain k.
  /// @param dt    sampling period of a discrete system; empty for a continuous one.
  /// @throws cusci::value_error for zeros or poles of more than one dimension.
  /// SciPy: `scipy.signal.ZerosPolesGain(zeros, poles, gain, dt=None)`.
  ZerosPolesGain(const array_like& zeros, const array_like& poles, double gain,
                 std::optional<double> dt = std::nullopt);

  /// Zeros [nz], float64 / complex128 (float32 / complex64 when given so).
  const host_array& zeros() const noexcept { return zeros_; }
  /// Poles [np], as the zeros.
  const host_array& poles() const noexcept { return poles_; }
  double gain() const noexcept { return gain_; }
  std::optional<double> dt() const noexcept { return dt_; }
  bool is_discrete() const noexcept { return dt_.has_value(); }
  void set_zeros(const array_like& z);
  void set_poles(const array_like& p);
  void set_gain(double k) noexcept { gain_ = k; }
  void set_dt(std::optional<double> dt) noexcept { dt_ = dt; }
  std::int64_t inputs() const noexcept { return 1; }
  std::int64_t outputs() const noexcept { return 1; }

  /// SciPy: `ZerosPolesGain.to_tf()` (through `zpk2tf`).
  TransferFunction to_tf() const;
  /// A copy. SciPy: `ZerosPolesGain.to_zpk()`.
  ZerosPolesGain to_zpk() const;
  /// SciPy: `ZerosPolesGain.to_ss()` (through `zpk2ss`).
  StateSpace to_ss() const;

 private:
  host_array zeros_, poles_;
  double gain_ = 1.0;
  std::optional<double> dt_;
};

/// A system in state-space form: x' = A x + B u, y = C x + D u (continuous) or
/// x[k+1] = A x[k] + B u[k], y[k] = C x[k] + D u[k] (discrete).
class StateSpace {
 public:
  /// The empty system: no states, inputs or outputs (all matrices 0 x 0), continuous.
  StateSpace();
  /// @param A [n, n], B [n, q], C [p, n], D [p, q]: any real or complex dtype, stored with
  ///          `abcd_normalize`'s result dtype (float64 / complex128, or single precision when all are);
  ///          0-d and 1-D arrays and empty matrices are completed as `abcd_normalize` does.
  /// @param dt sampling period of a discrete system; empty for a continuous one.
  /// @throws cusci::value_error for inconsistent dimensions (as `abcd_normalize`).
  /// SciPy: `scipy.signal.StateSpace(A, B, C, D, dt=None)`.
  StateSpace(const array_like& A, const array_like& B, const array_like& C, const array_like& D,
             std::optional<double> dt = std::nullopt);

  const host_array& A() const noexcept { return A_; }
  const host_array& B() const noexcept { return B_; }
  const host_array& C() const noexcept { return C_; }
  const host_array& D() const noexcept { return D_; }
  std::optional<double> dt() const noexcept { return dt_; }
  bool is_discrete() const noexcept { return dt_.has_value(); }
  void set_dt(std::optional<double> dt) noexcept { dt_ = dt; }
  /// Number of states (rows of A), inputs (columns of D) and outputs (rows of D).
  std::int64_t nstates() const noexcept;
  std::int64_t inputs() const noexcept;
  std::int64_t outputs() const noexcept;

  /// Poles: the eigenvalues of A (complex128 when any is complex, else float64).
  host_array poles() const;
  /// Zeros of the transfer function from input 0 (SciPy's `ss2zpk` through `ss2tf`).
  host_array zeros() const;

  /// SciPy: `StateSpace.to_tf(input=0)` (through `ss2tf`).
  /// @throws cusci::value_error for an input index out of range.
  TransferFunction to_tf(std::int64_t input = 0) const;
  /// SciPy: `StateSpace.to_zpk(input=0)` (through `ss2zpk`).
  ZerosPolesGain to_zpk(std::int64_t input = 0) const;
  /// A copy. SciPy: `StateSpace.to_ss()`.
  StateSpace to_ss() const;

 private:
  host_array A_, B_, C_, D_;
  std::optional<double> dt_;
};

/// Which of the three forms an `lti` / `dlti` holds.
enum class lti_form { tf, zpk, ss };

/// Keyword arguments of `dlti`.
struct dlti_options {
  /// Sampling period (SciPy's default `dt=True`, an unspecified period used as 1).
  double dt = 1.0;
};

/// A continuous-time LTI system in any of the three forms (SciPy's `lti` factory and base class).
/// Built from (num, den), (zeros, poles, gain), (A, B, C, D), or implicitly from an instance of one of the
/// classes; holds a copy.
/// @throws cusci::value_error when built from a discrete-time instance (SciPy's functions of continuous
///         systems reject `dlti` instances).
/// SciPy: `scipy.signal.lti(*system)`.
class lti {
 public:
  using system_type = std::variant<TransferFunction, ZerosPolesGain, StateSpace>;
  lti(const TransferFunction& sys);
  lti(const ZerosPolesGain& sys);
  lti(const StateSpace& sys);
  lti(const array_like& num, const array_like& den);
  lti(const array_like& zeros, const array_like& poles, double gain);
  lti(const array_like& A, const array_like& B, const array_like& C, const array_like& D);

  /// The form held.
  lti_form form() const noexcept { return static_cast<lti_form>(sys_.index()); }
  /// The system held (std::get / std::visit on it).
  const system_type& system() const noexcept { return sys_; }
  /// Always empty.
  std::optional<double> dt() const noexcept { return std::nullopt; }
  host_array poles() const;
  host_array zeros() const;
  /// Conversions (a copy when already in that form); `input` selects the input of a state-space system.
  TransferFunction to_tf(std::int64_t input = 0) const;
  ZerosPolesGain to_zpk(std::int64_t input = 0) const;
  StateSpace to_ss() const;

 private:
  system_type sys_;
};

/// A discrete-time LTI system in any of the three forms (SciPy's `dlti` factory and base class).
/// Built from (num, den), (zeros, poles, gain), (A, B, C, D) with `opts.dt`, or implicitly from a
/// discrete-time instance of one of the classes; holds a copy. Give the sampling period with its name,
/// `dlti(num, den, {.dt = 0.1})`: a bare `{0.1}` after two arrays would be read as a gain.
/// Example: `dlti(b, a, {.dt = 1.0 / fs})`, `dlti(TransferFunction(b, a, 0.01))`.
/// @throws cusci::value_error when built from a continuous-time instance (dt is not checked otherwise, as
///         SciPy).
/// SciPy: `scipy.signal.dlti(*system, dt=True)`.
class dlti {
 public:
  using system_type = lti::system_type;
  dlti(const TransferFunction& sys);
  dlti(const ZerosPolesGain& sys);
  dlti(const StateSpace& sys);
  dlti(const array_like& num, const array_like& den, const dlti_options& opts = {});
  dlti(const array_like& zeros, const array_like& poles, double gain, const dlti_options& opts = {});
  dlti(const array_like& A, const array_like& B, const array_like& C, const array_like& D,
       const dlti_options& opts = {});

  lti_form form() const noexcept { return static_cast<lti_form>(sys_.index()); }
  const system_type& system() const noexcept { return sys_; }
  /// The sampling period (always set).
  double dt() const noexcept;
  host_array poles() const;
  host_array zeros() const;
  TransferFunction to_tf(std::int64_t input = 0) const;
  ZerosPolesGain to_zpk(std::int64_t input = 0) const;
  StateSpace to_ss() const;

 private:
  system_type sys_;
};

}  // namespace cusci::signal
