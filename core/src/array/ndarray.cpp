/// @file ndarray.cpp
/// ndarray: construction, layout queries, views (basic indexing, transpose, reshape, squeeze,
/// expand_dims, broadcast_to), copies and the creation functions. Layout rules follow NumPy's C code
/// (strides filled as `_array_fill_strides`, reshape views as `_attempt_nocopy_reshape`); the kernels
/// live in copy.cu.

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "elementwise/weak_int.hpp"

namespace cusci {
namespace {

using detail::checked_size;
using detail::normalize_axis;
using detail::shape_str;

/// NumPy's `_array_fill_strides`: contiguous strides in `ord`; a zero dimension does not multiply.
shape_t fill_strides(const shape_t& shape, std::size_t itemsize, order ord) {
  const std::size_t nd = shape.size();
  shape_t st(nd);
  std::int64_t s = static_cast<std::int64_t>(itemsize);
  if (ord == order::F) {
    for (std::size_t i = 0; i < nd; ++i) {
      st[i] = s;
      if (shape[i]) s *= shape[i];
    }
  } else {
    for (std::size_t i = nd; i-- > 0;) {
      st[i] = s;
      if (shape[i]) s *= shape[i];
    }
  }
  return st;
}

/// NumPy's `_attempt_nocopy_reshape`: strides viewing `dims`/`strides` (size >= 2) as `newdims` read
/// in `ord`, or false when the data is not laid out for that.
bool attempt_nocopy_reshape(const shape_t& dims, const shape_t& strides, std::size_t itemsize,
                            const shape_t& newdims, order ord, shape_t& newstrides) {
  shape_t od, os;  // length-1 axes removed: their strides do not matter
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (dims[i] != 1) {
      od.push_back(dims[i]);
      os.push_back(strides[i]);
    }
  const std::size_t oldnd = od.size(), newnd = newdims.size();
  newstrides.assign(newnd, 0);
  std::size_t oi = 0, oj = 1, ni = 0, nj = 1;
  const bool f = ord == order::F;
  while (ni < newnd && oi < oldnd) {
    std::int64_t np = newdims[ni], op = od[oi];
    while (np != op) {
      if (np < op) np *= newdims[nj++];  // trailing ones of the new shape are handled below
      else op *= od[oj++];
    }
    for (std::size_t ok = oi; ok + 1 < oj; ++ok) {
      if (f ? os[ok + 1] != od[ok] * os[ok] : os[ok] != od[ok + 1] * os[ok + 1]) return false;
    }
    if (f) {
      newstrides[ni] = os[oi];
      for (std::size_t nk = ni + 1; nk < nj; ++nk) newstrides[nk] = newstrides[nk - 1] * newdims[nk - 1];
    } else {
      newstrides[nj - 1] = os[oj - 1];
      for (std::size_t nk = nj - 1; nk > ni; --nk) newstrides[nk - 1] = newstrides[nk] * newdims[nk];
    }
    ni = nj++;
    oi = oj++;
  }
  std::int64_t last = static_cast<std::int64_t>(itemsize);
  if (ni >= 1) {
    last = newstrides[ni - 1];
    if (f) last *= newdims[ni - 1];
  }
  for (std::size_t nk = ni; nk < newnd; ++nk) newstrides[nk] = last;
  return true;
}

/// Python's slice.indices + length (PySlice_AdjustIndices).
void adjust_slice(const slice& s, std::int64_t len, std::int64_t& start, std::int64_t& step, std::int64_t& n) {
  step = s.step.value_or(1);
  CUSCI_EXPECTS(step != 0, value_error, "cusci::ndarray::operator[]: slice step cannot be zero");
  std::int64_t stop;
  if (s.start) {
    start = *s.start;
    if (start < 0) {
      start += len;
      if (start < 0) start = step < 0 ? -1 : 0;
    } else if (start >= len) {
      start = step < 0 ? len - 1 : len;
    }
  } else {
    start = step < 0 ? len - 1 : 0;
  }
  if (s.stop) {
    stop = *s.stop;
    if (stop < 0) {
      stop += len;
      if (stop < 0) stop = step < 0 ? -1 : 0;
    } else if (stop >= len) {
      stop = step < 0 ? len - 1 : len;
    }
  } else {
    stop = step < 0 ? -1 : len;
  }
  if (step < 0) n = stop < start ? (start - stop - 1) / (-step) + 1 : 0;
  else n = start < stop ? (stop - start - 1) / step + 1 : 0;
}

/// The layout NumPy's order='K' gives a new array like `a`: C or F when `a` is contiguous that way,
/// else axes ordered by decreasing |stride|.
ndarray new_like_k(const ndarray& a, dtype dt) {
  device_guard guard(a.device());
  if (a.is_c_contiguous()) return ndarray(a.shape(), dt, order::C);
  if (a.is_f_contiguous()) return ndarray(a.shape(), dt, order::F);
  const int nd = a.ndim();
  std::vector<int> perm(nd);
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int x, int y) {
    return std::llabs(a.strides()[x]) > std::llabs(a.strides()[y]);
  });
  shape_t pshape(nd);
  for (int j = 0; j < nd; ++j) pshape[j] = a.shape()[perm[j]];
  return ndarray(pshape, dt, order::C).transpose(detail::inverse_perm(perm));
}

}  // namespace

// --- construction ------------------------------------------------------------------------------

ndarray::ndarray() = default;

ndarray::ndarray(const shape_t& shape, cusci::dtype dt, cusci::order ord) {
  const std::int64_t n = checked_size(shape, "cusci::ndarray", cusci::itemsize(dt));
  dtype_ = dt;
  shape_ = shape;
  // NumPy gives every axis of a new zero-size array a zero stride.
  strides_ = n == 0 ? shape_t(shape.size(), 0) : fill_strides(shape, cusci::itemsize(dt), ord);
  offset_ = 0;
  device_ = get_device_id();
  if (n > 0) mem_ = cusci::malloc(static_cast<std::size_t>(n) * cusci::itemsize(dt), get_current_stream());
}

ndarray::ndarray(memory_ptr mem, cusci::dtype dt, shape_t shape, shape_t strides, std::int64_t offset, int device)
    : mem_(std::move(mem)), dtype_(dt), shape_(std::move(shape)), strides_(std::move(strides)), offset_(offset),
      device_(device) {
  CUSCI_EXPECTS(shape_.size() == strides_.size(), value_error,
                "cusci::ndarray: shape and strides must have the same length, got " + std::to_string(shape_.size()) +
                    " and " + std::to_string(strides_.size()));
  checked_size(shape_, "cusci::ndarray", cusci::itemsize(dt));
}

std::int64_t ndarray::size() const noexcept {
  std::int64_t n = 1;
  for (std::int64_t d : shape_) n *= d;
  return n;
}

void* ndarray::data() const noexcept {
  if (!mem_ || !mem_->ptr()) return nullptr;
  return static_cast<char*>(mem_->ptr()) + offset_;
}

bool ndarray::is_c_contiguous() const noexcept {
  if (size() == 0) return true;
  std::int64_t sd = static_cast<std::int64_t>(itemsize());
  for (int d = ndim() - 1; d >= 0; --d) {
    if (shape_[d] == 1) continue;
    if (strides_[d] != sd) return false;
    sd *= shape_[d];
  }
  return true;
}

bool ndarray::is_f_contiguous() const noexcept {
  if (size() == 0) return true;
  std::int64_t sd = static_cast<std::int64_t>(itemsize());
  for (int d = 0; d < ndim(); ++d) {
    if (shape_[d] == 1) continue;
    if (strides_[d] != sd) return false;
    sd *= shape_[d];
  }
  return true;
}

std::int64_t ndarray::shape(int axis) const {
  return shape_[normalize_axis(axis, ndim(), "cusci::ndarray::shape")];
}

// --- views ---------------------------------------------------------------------------------------

ndarray ndarray::operator[](std::initializer_list<index_spec> index) const {
  return (*this)[std::vector<index_spec>(index)];
}

ndarray ndarray::operator[](const std::vector<index_spec>& index) const {
  const char* fn = "cusci::ndarray::operator[]";
  int consumed = 0, n_ellipsis = 0;
  for (const index_spec& ix : index) {
    if (std::holds_alternative<std::int64_t>(ix) || std::holds_alternative<slice>(ix)) ++consumed;
    else if (std::holds_alternative<ellipsis_t>(ix)) ++n_ellipsis;
  }
  CUSCI_EXPECTS(n_ellipsis <= 1, index_error, std::string(fn) + ": an index can only have a single ellipsis ('...')");
  CUSCI_EXPECTS(consumed <= ndim(), index_error,
                std::string(fn) + ": too many indices for array: array is " + std::to_string(ndim()) +
                    "-dimensional, but " + std::to_string(consumed) + " were indexed");
  shape_t shape, strides;
  std::int64_t offset = offset_;
  int axis = 0;  // next axis of *this to consume
  for (const index_spec& ix : index) {
    if (const auto* i = std::get_if<std::int64_t>(&ix)) {
      const std::int64_t len = shape_[axis];
      std::int64_t k = *i;
      CUSCI_EXPECTS(k >= -len && k < len, index_error,
                    std::string(fn) + ": index " + std::to_string(k) + " is out of bounds for axis " +
                        std::to_string(axis) + " with size " + std::to_string(len));
      if (k < 0) k += len;
      offset += k * strides_[axis];
      ++axis;
    } else if (const auto* s = std::get_if<slice>(&ix)) {
      std::int64_t start, step, n;
      adjust_slice(*s, shape_[axis], start, step, n);
      if (n > 0) offset += start * strides_[axis];
      shape.push_back(n);
      strides.push_back(strides_[axis] * step);
      ++axis;
    } else if (std::holds_alternative<newaxis_t>(ix)) {
      shape.push_back(1);
      strides.push_back(0);
    } else {  // ellipsis: full slices over the axes no other entry consumes
      for (int e = 0; e < ndim() - consumed; ++e, ++axis) {
        shape.push_back(shape_[axis]);
        strides.push_back(strides_[axis]);
      }
    }
  }
  for (; axis < ndim(); ++axis) {
    shape.push_back(shape_[axis]);
    strides.push_back(strides_[axis]);
  }
  return ndarray(mem_, dtype_, std::move(shape), std::move(strides), offset, device_);
}

ndarray ndarray::operator[](std::int64_t i) const { return (*this)[{index_spec{i}}]; }

ndarray ndarray::T() const { return transpose(); }

ndarray ndarray::transpose() const {
  return ndarray(mem_, dtype_, shape_t(shape_.rbegin(), shape_.rend()), shape_t(strides_.rbegin(), strides_.rend()),
                 offset_, device_);
}

ndarray ndarray::transpose(const std::vector<int>& axes) const {
  const char* fn = "cusci::ndarray::transpose";
  CUSCI_EXPECTS(static_cast<int>(axes.size()) == ndim(), value_error,
                std::string(fn) + ": axes don't match array: expected " + std::to_string(ndim()) + " axes, got " +
                    std::to_string(axes.size()));
  std::vector<bool> seen(ndim(), false);
  shape_t shape(ndim()), strides(ndim());
  for (int i = 0; i < ndim(); ++i) {
    const int a = normalize_axis(axes[i], ndim(), fn);
    CUSCI_EXPECTS(!seen[a], value_error, std::string(fn) + ": repeated axis " + std::to_string(axes[i]) + " in axes");
    seen[a] = true;
    shape[i] = shape_[a];
    strides[i] = strides_[a];
  }
  return ndarray(mem_, dtype_, std::move(shape), std::move(strides), offset_, device_);
}

ndarray ndarray::reshape(const shape_t& new_shape_in, cusci::order ord, std::optional<bool> copy) const {
  const char* fn = "cusci::ndarray::reshape";
  shape_t new_shape = new_shape_in;
  const std::int64_t n = size();
  int unknown = -1;
  std::int64_t known = 1;
  for (std::size_t i = 0; i < new_shape.size(); ++i) {
    if (new_shape[i] == -1) {
      CUSCI_EXPECTS(unknown < 0, value_error, std::string(fn) + ": can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else {
      CUSCI_EXPECTS(new_shape[i] >= 0, value_error,
                    std::string(fn) + ": negative dimensions not allowed, got shape " + shape_str(new_shape_in));
      if (known != 0 && new_shape[i] != 0 &&
          known > std::numeric_limits<std::int64_t>::max() / new_shape[i])
        throw value_error(std::string(fn) + ": cannot reshape array of size " + std::to_string(n) + " into shape " +
                          shape_str(new_shape_in));
      known *= new_shape[i];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || n % known != 0)
      throw value_error(std::string(fn) + ": cannot reshape array of size " + std::to_string(n) + " into shape " +
                        shape_str(new_shape_in));
    new_shape[unknown] = n / known;
    known = n;
  }
  CUSCI_EXPECTS(known == n, value_error,
                std::string(fn) + ": cannot reshape array of size " + std::to_string(n) + " into shape " +
                    shape_str(new_shape_in));

  const bool always = copy.has_value() && *copy;
  const bool never = copy.has_value() && !*copy;
  if (!always && new_shape == shape_) return *this;  // NumPy: nothing to do, a plain view
  ndarray src = always ? this->copy(ord) : *this;
  shape_t strides;
  const bool contiguous = ord == order::C ? src.is_c_contiguous() : src.is_f_contiguous();
  if (contiguous || !attempt_nocopy_reshape(src.shape_, src.strides_, src.itemsize(), new_shape, ord, strides)) {
    if (!contiguous) {
      CUSCI_EXPECTS(!never, value_error,
                    std::string(fn) + ": unable to avoid creating a copy while reshaping an array of shape " +
                        shape_str(shape_) + " into " + shape_str(new_shape) + " (copy=false)");
      src = src.copy(ord);
    }
    strides = fill_strides(new_shape, src.itemsize(), ord);
  }
  return ndarray(src.mem_, dtype_, std::move(new_shape), std::move(strides), src.offset_, src.device_);
}

ndarray ndarray::squeeze() const {
  shape_t shape, strides;
  for (int d = 0; d < ndim(); ++d)
    if (shape_[d] != 1) {
      shape.push_back(shape_[d]);
      strides.push_back(strides_[d]);
    }
  return ndarray(mem_, dtype_, std::move(shape), std::move(strides), offset_, device_);
}

ndarray ndarray::squeeze(int axis) const {
  const char* fn = "cusci::ndarray::squeeze";
  const int a = normalize_axis(axis, ndim(), fn);
  CUSCI_EXPECTS(shape_[a] == 1, value_error,
                std::string(fn) + ": cannot select an axis to squeeze out which has size not equal to one (axis " +
                    std::to_string(axis) + " has size " + std::to_string(shape_[a]) + ")");
  shape_t shape = shape_, strides = strides_;
  shape.erase(shape.begin() + a);
  strides.erase(strides.begin() + a);
  return ndarray(mem_, dtype_, std::move(shape), std::move(strides), offset_, device_);
}

ndarray ndarray::expand_dims(int axis) const {
  const int nd = ndim() + 1;
  const int a = normalize_axis(axis, nd, "cusci::ndarray::expand_dims");
  shape_t shape = shape_;
  shape.insert(shape.begin() + a, 1);
  return reshape(shape);  // NumPy's expand_dims is a.reshape(shape): always a view
}

ndarray ndarray::broadcast_to(const shape_t& shape) const {
  const char* fn = "cusci::ndarray::broadcast_to";
  for (std::int64_t d : shape)
    CUSCI_EXPECTS(d >= 0, value_error, std::string(fn) + ": all elements of broadcast shape must be non-negative, got " +
                                           shape_str(shape));
  const int nd = static_cast<int>(shape.size());
  CUSCI_EXPECTS(nd >= ndim(), value_error,
                std::string(fn) + ": cannot broadcast an array of shape " + shape_str(shape_) +
                    " to shape " + shape_str(shape) + " with fewer dimensions");
  shape_t strides(nd, 0);
  for (int i = 0; i < nd; ++i) {
    const int j = i - (nd - ndim());
    if (j < 0 || shape_[j] == 1) continue;  // new or length-1 axes get stride 0
    CUSCI_EXPECTS(shape_[j] == shape[i], value_error,
                  std::string(fn) + ": cannot broadcast an array of shape " + shape_str(shape_) + " to shape " +
                      shape_str(shape));
    strides[i] = strides_[j];
  }
  return ndarray(mem_, dtype_, shape, std::move(strides), offset_, device_);
}

// --- copies ------------------------------------------------------------------------------------

ndarray ndarray::copy(cusci::order ord) const {
  device_guard guard(device_);
  ndarray out(shape_, dtype_, ord);
  detail::copy_cast(*this, out);
  return out;
}

ndarray ndarray::astype(cusci::dtype dt, bool copy) const {
  if (!copy && dt == dtype_) return *this;
  ndarray out = new_like_k(*this, dt);
  detail::copy_cast(*this, out);
  return out;
}

void ndarray::fill(const scalar& value) { detail::fill(*this, value); }

host_array ndarray::get() const { return to_host(*this); }

namespace detail {
void check_asarray_size(std::int64_t n, const shape_t& shape) {
  std::int64_t total = 1;
  for (auto d : shape) {
    CUSCI_EXPECTS(d >= 0, value_error, "cusci::asarray: negative dimensions are not allowed");
    total *= d;
  }
  CUSCI_EXPECTS(total == n, value_error,
                "cusci::asarray: cannot reshape a vector of " + std::to_string(n) + " elements into a shape of " +
                    std::to_string(total) + " elements");
}

void check_item_size(std::int64_t n) {
  CUSCI_EXPECTS(n == 1, value_error,
                "cusci::ndarray::item: can only convert an array of size 1 to a scalar, got size " + std::to_string(n));
}
}  // namespace detail

// --- creation ----------------------------------------------------------------------------------

ndarray empty(const shape_t& shape, dtype dt, order ord) { return ndarray(shape, dt, ord); }

ndarray zeros(const shape_t& shape, dtype dt, order ord) {
  ndarray a(shape, dt, ord);
  detail::fill(a, scalar(0));
  return a;
}

ndarray ones(const shape_t& shape, dtype dt, order ord) {
  ndarray a(shape, dt, ord);
  detail::fill(a, scalar(1));
  return a;
}

ndarray full(const shape_t& shape, const scalar& value, std::optional<dtype> dt, order ord) {
  dtype t = value.dtype();
  if (dt) {
    t = *dt;
  } else if (value.is_weak() && t == dtype::uint64 &&
             value.value<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    t = dtype::int64;  // a Python int that fits int64 gives int64
  }
  // NumPy 2 raises OverflowError for a Python int outside the integer dtype (np.full(3, 300, np.int8));
  // checked before anything is allocated.
  if (!detail::weak_int_fits(value, t))
    throw value_error("cusci::full: fill_value: Python integer " +
                      (value.dtype() == dtype::uint64 ? std::to_string(value.value<std::uint64_t>())
                                                      : std::to_string(value.value<std::int64_t>())) +
                      " out of bounds for " + std::string(dtype_name(t)));
  ndarray a(shape, t, ord);
  detail::fill(a, value);
  return a;
}

ndarray empty_like(const ndarray& a) { return new_like_k(a, a.dtype()); }

ndarray zeros_like(const ndarray& a) {
  ndarray out = new_like_k(a, a.dtype());
  detail::fill(out, scalar(0));
  return out;
}

ndarray ones_like(const ndarray& a) {
  ndarray out = new_like_k(a, a.dtype());
  detail::fill(out, scalar(1));
  return out;
}

ndarray arange(const scalar& stop) { return arange(scalar(0), stop, scalar(1)); }

ndarray arange(const scalar& start, const scalar& stop, const scalar& step, std::optional<dtype> dt) {
  const char* fn = "cusci::arange";
  const scalar* args[3] = {&start, &stop, &step};
  bool integral = true;
  for (const scalar* s : args) {
    CUSCI_EXPECTS(!is_complex(s->dtype()), type_error,
                  std::string(fn) + ": complex start, stop or step are not supported, got " +
                      std::string(dtype_name(s->dtype())));
    if (!is_integer(s->dtype()) && !is_bool(s->dtype())) integral = false;
  }
  std::int64_t n = 0;
  scalar first = start, second = start;
  if (integral) {
    const __int128 a = start.value<std::int64_t>(), b = stop.value<std::int64_t>(), d = step.value<std::int64_t>();
    CUSCI_EXPECTS(d != 0, value_error, std::string(fn) + ": step must not be zero");
    const __int128 span = b - a;
    __int128 len = d > 0 ? (span + d - 1) / d : (span + d + 1) / d;  // ceil(span / d)
    if ((d > 0 && span <= 0) || (d < 0 && span >= 0)) len = 0;
    CUSCI_EXPECTS(len <= std::numeric_limits<std::int64_t>::max(), value_error,
                  std::string(fn) + ": maximum allowed size exceeded");
    n = static_cast<std::int64_t>(len);
    first = scalar(start.value<std::int64_t>());
    second = scalar(static_cast<std::int64_t>(static_cast<std::uint64_t>(start.value<std::int64_t>()) +
                                              static_cast<std::uint64_t>(step.value<std::int64_t>())));
  } else {
    const double a = start.value<double>(), b = stop.value<double>(), d = step.value<double>();
    CUSCI_EXPECTS(d != 0.0, value_error, std::string(fn) + ": step must not be zero");
    const double len = std::ceil((b - a) / d);
    CUSCI_EXPECTS(!std::isnan(len), value_error, std::string(fn) + ": cannot compute length (NaN)");
    CUSCI_EXPECTS(len < 9.2e18, value_error, std::string(fn) + ": maximum allowed size exceeded");
    n = len > 0 ? static_cast<std::int64_t>(len) : 0;
    first = scalar(a);
    second = scalar(a + d);
  }
  dtype t;
  if (dt) {
    t = *dt;
  } else {
    std::optional<dtype> strong;
    for (const scalar* s : args)
      if (!s->is_weak()) strong = strong ? promote_types(*strong, s->dtype()) : s->dtype();
    if (strong) {
      t = *strong;
      for (const scalar* s : args)
        if (s->is_weak()) t = promote_with_scalar(t, *s);
    } else {
      t = integral ? dtype::int64 : dtype::float64;
    }
  }
  CUSCI_EXPECTS(!(t == dtype::bool_ && n > 2), value_error,
                std::string(fn) + ": a bool result of more than 2 elements is not supported (NumPy has no fill "
                                  "function for bool), got length " + std::to_string(n));
  ndarray out({n}, t);
  detail::arange_fill(out, first, second);
  return out;
}

ndarray linspace(double start, double stop, std::int64_t num, bool endpoint, dtype dt) {
  CUSCI_EXPECTS(num >= 0, value_error,
                "cusci::linspace: number of samples, " + std::to_string(num) + ", must be non-negative");
  const std::int64_t div = endpoint ? num - 1 : num;
  const double delta = stop - start;
  const double step = div > 0 ? delta / static_cast<double>(div) : std::numeric_limits<double>::quiet_NaN();
  ndarray out({num}, dt);
  detail::linspace_fill(out, start, stop, step, delta, div, endpoint && num > 1);
  return out;
}

ndarray eye(std::int64_t N, std::optional<std::int64_t> M, std::int64_t k, dtype dt, order ord) {
  const std::int64_t m = M.value_or(N);
  CUSCI_EXPECTS(N >= 0 && m >= 0, value_error,
                "cusci::eye: negative dimensions are not allowed, got N=" + std::to_string(N) + ", M=" +
                    std::to_string(m));
  ndarray out = zeros({N, m}, dt, ord);
  detail::set_diagonal_one(out, k);
  return out;
}

}  // namespace cusci
