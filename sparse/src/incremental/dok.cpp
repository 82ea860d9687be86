// dok_matrix: an insertion-ordered hash map (row, col) -> value on the host (SciPy's dok_matrix, a
// Python dict), and its conversions to the device formats.

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

#include "common/detail.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/sparse/dok.hpp"
#include "cusci/sparse/lil.hpp"
#include "incremental/incremental_detail.hpp"

namespace cusci::sparse {

namespace inc = detail::incremental;

namespace {

std::uint64_t hash_key(std::int64_t i, std::int64_t j) noexcept {
  std::uint64_t x = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(j);
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

std::string key_str(std::int64_t i, std::int64_t j) {
  return "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

// Entries (major, minor, values) grouped by major index on the device, each group in the given
// order (a stable radix sort of the keys (major, position)): SciPy's coo -> compressed conversion
// of entries without duplicates.
struct grouped {
  ndarray data, minor, indptr;
};
grouped group_on_device(const ndarray& d, const ndarray& maj, const ndarray& mino, std::int64_t n_major, dtype it) {
  const std::int64_t n = d.size();
  const ndarray pos = arange(scalar(std::int64_t{0}), scalar(n), scalar(std::int64_t{1}), it);
  detail::sorted_entries se = detail::sort_entries(d, maj, pos, n_major, n, false, true);
  grouped g;
  g.data = se.data;
  g.indptr = se.indptr;
  g.minor = detail::take_rows(mino, se.minor.astype(dtype::int64, false));
  return g;
}

}  // namespace

// --- construction --------------------------------------------------------------------------------

dok_matrix::dok_matrix(shape2 shape, cusci::dtype dtype) {
  static constexpr const char* fn = "cusci::sparse::dok_matrix";
  inc::check_shape2(fn, shape);
  inc::check_dtype(fn, dtype);
  shape_ = shape;
  dtype_ = dtype;
  item_ = itemsize(dtype);
}

dok_matrix::dok_matrix(const spmatrix& other, std::optional<cusci::dtype> dtype)
    : dok_matrix(other.shape(), dtype ? *dtype : other.dtype()) {
  CUSCI_NVTX_SCOPE("cusci::sparse::dok_matrix");
  const inc::host_triplets h = inc::download_canonical(other, dtype);
  for (std::size_t k = 0; k < h.row.size(); ++k) append_raw(h.row[k], h.col[k], h.val.data() + k * item_);
}

namespace {
shape2 dense_shape(const char* fn, const ndarray& dense) {
  CUSCI_EXPECTS(dense.ndim() == 2, value_error,
                std::string(fn) + ": shape must have length in (2,). Got new_shape=" +
                    cusci::detail::shape_str(dense.shape()));
  return {dense.shape(0), dense.shape(1)};
}
}  // namespace

dok_matrix::dok_matrix(const ndarray& dense, std::optional<cusci::dtype> dtype)
    : dok_matrix(dense_shape("cusci::sparse::dok_matrix", dense), dtype ? *dtype : dense.dtype()) {
  CUSCI_NVTX_SCOPE("cusci::sparse::dok_matrix");
  inc::check_dtype("cusci::sparse::dok_matrix", dense.dtype());
  const coo_matrix c(dense, matrix_options{.dtype = dtype});
  const inc::host_triplets h = inc::download_canonical(c, {});
  for (std::size_t k = 0; k < h.row.size(); ++k) append_raw(h.row[k], h.col[k], h.val.data() + k * item_);
}

dok_matrix::dok_matrix(shape2 shape, const std::vector<std::int64_t>& row, const std::vector<std::int64_t>& col,
                       const host_array& data, std::optional<cusci::dtype> dtype) {
  static constexpr const char* fn = "cusci::sparse::dok_matrix";
  const inc::host_triplets h = inc::canonical_triplets(fn, shape, row, col, data, dtype);
  shape_ = shape;
  dtype_ = dtype ? *dtype : data.dtype();
  item_ = itemsize(dtype_);
  for (std::size_t k = 0; k < h.row.size(); ++k) append_raw(h.row[k], h.col[k], h.val.data() + k * item_);
}

// --- hash table ----------------------------------------------------------------------------------

std::int64_t dok_matrix::find_slot(std::int64_t i, std::int64_t j) const noexcept {
  if (table_.empty()) return -1;
  const std::size_t mask = table_.size() - 1;
  std::size_t pos = static_cast<std::size_t>(hash_key(i, j)) & mask;
  for (;;) {
    const auto& b = table_[pos];
    if (b[2] < 0) return -2 - static_cast<std::int64_t>(pos);
    if (b[0] == i && b[1] == j) return static_cast<std::int64_t>(pos);
    pos = (pos + 1) & mask;
  }
}

void dok_matrix::rehash(std::size_t capacity) {
  table_.assign(capacity, {0, 0, -1});
  const std::size_t mask = capacity - 1;
  for (std::size_t s = 0; s < row_.size(); ++s) {
    if (row_[s] < 0) continue;
    std::size_t pos = static_cast<std::size_t>(hash_key(row_[s], col_[s])) & mask;
    while (table_[pos][2] >= 0) pos = (pos + 1) & mask;
    table_[pos] = {row_[s], col_[s], static_cast<std::int64_t>(s)};
  }
}

void dok_matrix::append_raw(std::int64_t i, std::int64_t j, const std::byte* value) {
  std::int64_t pos = find_slot(i, j);
  if (pos == -1 || static_cast<std::size_t>(live_ + 1) * 2 > table_.size()) {
    rehash(std::max<std::size_t>(16, table_.size() * 2));
    pos = find_slot(i, j);
  }
  const std::size_t s = row_.size();
  row_.push_back(i);
  col_.push_back(j);
  val_.insert(val_.end(), value, value + item_);
  table_[static_cast<std::size_t>(-2 - pos)] = {i, j, static_cast<std::int64_t>(s)};
  ++live_;
}

void dok_matrix::erase_slot_at(std::size_t pos) {
  const std::size_t slot = static_cast<std::size_t>(table_[pos][2]);
  row_[slot] = -1;  // an erased slot
  --live_;
  // Backward-shift deletion (linear probing without tombstones).
  const std::size_t mask = table_.size() - 1;
  std::size_t i = pos, j = pos;
  for (;;) {
    j = (j + 1) & mask;
    const auto& b = table_[j];
    if (b[2] < 0) break;
    const std::size_t k = static_cast<std::size_t>(hash_key(b[0], b[1])) & mask;
    const bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
    if (!stays) {
      table_[i] = b;
      i = j;
    }
  }
  table_[i] = {0, 0, -1};
  const std::int64_t dead = static_cast<std::int64_t>(row_.size()) - live_;
  if (dead > live_ + 64) compact();
}

void dok_matrix::compact() {
  std::size_t w = 0;
  for (std::size_t s = 0; s < row_.size(); ++s) {
    if (row_[s] < 0) continue;
    if (w != s) {
      row_[w] = row_[s];
      col_[w] = col_[s];
      std::memmove(val_.data() + w * item_, val_.data() + s * item_, item_);
    }
    ++w;
  }
  row_.resize(w);
  col_.resize(w);
  val_.resize(w * item_);
  std::size_t cap = 16;
  while (cap < 2 * w) cap *= 2;
  rehash(cap);
}

void dok_matrix::upload_entries(cusci::dtype it, ndarray& val, ndarray& row, ndarray& col, bool& sorted) const {
  const std::int64_t n = live_;
  auto run = [&](auto itag) {
    using I = typename decltype(itag)::type;
    auto arrays = inc::upload_parts({{dtype_, n}, {it, n}, {it, n}}, [&](const std::vector<std::byte*>& p) {
      if (n == 0) return;
      std::byte* v = p[0];
      I* r = reinterpret_cast<I*>(p[1]);
      I* c = reinterpret_cast<I*>(p[2]);
      bool ok = true;
      std::int64_t pr = -1, pc = -1;
      if (static_cast<std::size_t>(n) == row_.size()) {  // no erased slot: the arrays as they are
        std::memcpy(v, val_.data(), static_cast<std::size_t>(n) * item_);
        for (std::size_t k = 0; k < static_cast<std::size_t>(n); ++k) {
          const std::int64_t a = row_[k], b = col_[k];
          ok &= (a > pr) | ((a == pr) & (b > pc));
          pr = a;
          pc = b;
          r[k] = static_cast<I>(a);
          c[k] = static_cast<I>(b);
        }
      } else {
        std::size_t w = 0;
        for (std::size_t s = 0; s < row_.size(); ++s) {
          const std::int64_t a = row_[s];
          if (a < 0) continue;
          const std::int64_t b = col_[s];
          ok &= (a > pr) | ((a == pr) & (b > pc));
          pr = a;
          pc = b;
          r[w] = static_cast<I>(a);
          c[w] = static_cast<I>(b);
          std::memcpy(v + w * item_, val_.data() + s * item_, item_);
          ++w;
        }
      }
      sorted = ok;
    });
    val = arrays[0];
    row = arrays[1];
    col = arrays[2];
  };
  sorted = true;
  if (it == cusci::dtype::int32) run(inc::tag<std::int32_t>{});
  else run(inc::tag<std::int64_t>{});
}

dok_matrix::packed dok_matrix::live_entries() const {
  packed p;
  p.row.reserve(static_cast<std::size_t>(live_));
  p.col.reserve(static_cast<std::size_t>(live_));
  p.val.reserve(static_cast<std::size_t>(live_) * item_);
  for (std::size_t s = 0; s < row_.size(); ++s) {
    if (row_[s] < 0) continue;
    if (!p.row.empty() && (p.row.back() > row_[s] || (p.row.back() == row_[s] && p.col.back() >= col_[s])))
      p.row_major_sorted = false;
    p.row.push_back(row_[s]);
    p.col.push_back(col_[s]);
    p.val.insert(p.val.end(), val_.data() + s * item_, val_.data() + (s + 1) * item_);
  }
  return p;
}

// --- element access ------------------------------------------------------------------------------

scalar dok_matrix::get(std::int64_t i, std::int64_t j) const {
  static constexpr const char* fn = "cusci::sparse::dok_matrix::get";
  i = inc::wrap_index(fn, "row", i, shape_[0]);
  j = inc::wrap_index(fn, "column", j, shape_[1]);
  const std::int64_t pos = find_slot(i, j);
  if (pos < 0) {
    const std::byte zero[16]{};
    return inc::decode(zero, dtype_);
  }
  return inc::decode(val_.data() + static_cast<std::size_t>(table_[static_cast<std::size_t>(pos)][2]) * item_, dtype_);
}

scalar dok_matrix::get(key_type key, const scalar& default_value) const {
  if (const std::int64_t pos = find_slot(key[0], key[1]); pos >= 0)
    return inc::decode(val_.data() + static_cast<std::size_t>(table_[static_cast<std::size_t>(pos)][2]) * item_, dtype_);
  for (int a = 0; a < 2; ++a) {
    if (key[a] < 0) key[a] += shape_[a];
    CUSCI_EXPECTS(key[a] >= 0 && key[a] < shape_[a], index_error,
                  "cusci::sparse::dok_matrix::get: Index out of bounds.");
  }
  if (const std::int64_t pos = find_slot(key[0], key[1]); pos >= 0)
    return inc::decode(val_.data() + static_cast<std::size_t>(table_[static_cast<std::size_t>(pos)][2]) * item_, dtype_);
  return default_value;
}

void dok_matrix::set(std::int64_t i, std::int64_t j, const scalar& value) {
  static constexpr const char* fn = "cusci::sparse::dok_matrix::set";
  i = inc::wrap_index(fn, "row", i, shape_[0]);
  j = inc::wrap_index(fn, "column", j, shape_[1]);
  std::byte buf[16];
  inc::encode(fn, value, dtype_, buf);
  const std::int64_t pos = find_slot(i, j);
  if (inc::is_zero(buf, dtype_)) {
    if (pos >= 0) erase_slot_at(static_cast<std::size_t>(pos));
    return;
  }
  if (pos >= 0) {
    std::memcpy(val_.data() + static_cast<std::size_t>(table_[static_cast<std::size_t>(pos)][2]) * item_, buf, item_);
    return;
  }
  if (pos <= -2 && static_cast<std::size_t>(live_ + 1) * 2 <= table_.size()) {  // the empty bucket found
    const std::size_t s = row_.size();
    row_.push_back(i);
    col_.push_back(j);
    val_.insert(val_.end(), buf, buf + item_);
    table_[static_cast<std::size_t>(-2 - pos)] = {i, j, static_cast<std::int64_t>(s)};
    ++live_;
    return;
  }
  append_raw(i, j, buf);
}

// --- dict interface ------------------------------------------------------------------------------

bool dok_matrix::contains(key_type key) const noexcept { return find_slot(key[0], key[1]) >= 0; }

void dok_matrix::erase(key_type key) {
  const std::int64_t pos = find_slot(key[0], key[1]);
  CUSCI_EXPECTS(pos >= 0, index_error,
                "cusci::sparse::dok_matrix::erase: key " + key_str(key[0], key[1]) + " not found (KeyError)");
  erase_slot_at(static_cast<std::size_t>(pos));
}

scalar dok_matrix::pop(key_type key) {
  const std::int64_t pos = find_slot(key[0], key[1]);
  CUSCI_EXPECTS(pos >= 0, index_error,
                "cusci::sparse::dok_matrix::pop: key " + key_str(key[0], key[1]) + " not found (KeyError)");
  const scalar v =
      inc::decode(val_.data() + static_cast<std::size_t>(table_[static_cast<std::size_t>(pos)][2]) * item_, dtype_);
  erase_slot_at(static_cast<std::size_t>(pos));
  return v;
}

scalar dok_matrix::pop(key_type key, const scalar& default_value) {
  if (!contains(key)) return default_value;
  return pop(key);
}

std::pair<dok_matrix::key_type, scalar> dok_matrix::popitem() {
  CUSCI_EXPECTS(live_ > 0, index_error, "cusci::sparse::dok_matrix::popitem: dictionary is empty (KeyError)");
  std::size_t s = row_.size();
  while (row_[s - 1] < 0) --s;
  const key_type key{row_[s - 1], col_[s - 1]};
  return {key, pop(key)};
}

void dok_matrix::clear() noexcept {
  row_.clear();
  col_.clear();
  val_.clear();
  table_.clear();
  live_ = 0;
}

void dok_matrix::update(const std::vector<std::int64_t>& row, const std::vector<std::int64_t>& col,
                        const host_array& data) {
  static constexpr const char* fn = "cusci::sparse::dok_matrix::update";
  inc::check_dtype(fn, data.dtype());
  const std::int64_t n = static_cast<std::int64_t>(row.size());
  CUSCI_EXPECTS(static_cast<std::int64_t>(col.size()) == n && data.size() == n, value_error,
                std::string(fn) + ": row, col and data must have the same length, got " + std::to_string(n) + ", " +
                    std::to_string(col.size()) + ", " + std::to_string(data.size()));
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t key[2] = {row[k], col[k]};
    for (int a = 0; a < 2; ++a) {
      CUSCI_EXPECTS(key[a] >= 0, index_error,
                    std::string(fn) + ": negative index " + key_str(row[k], col[k]) + " not allowed in update");
      CUSCI_EXPECTS(key[a] < shape_[a], index_error,
                    std::string(fn) + ": index " + key_str(row[k], col[k]) + " is too large for self.shape");
    }
  }
  const std::vector<std::byte> v = inc::cast_values(static_cast<const std::byte*>(data.data()), n, data.dtype(), dtype_);
  for (std::int64_t k = 0; k < n; ++k) {
    const std::byte* src = v.data() + static_cast<std::size_t>(k) * item_;
    const std::int64_t pos = find_slot(row[k], col[k]);
    if (pos >= 0)
      std::memcpy(val_.data() + static_cast<std::size_t>(table_[static_cast<std::size_t>(pos)][2]) * item_, src, item_);
    else
      append_raw(row[k], col[k], src);
  }
}

std::vector<dok_matrix::key_type> dok_matrix::keys() const {
  std::vector<key_type> out;
  out.reserve(static_cast<std::size_t>(live_));
  for (std::size_t s = 0; s < row_.size(); ++s)
    if (row_[s] >= 0) out.push_back({row_[s], col_[s]});
  return out;
}

std::vector<scalar> dok_matrix::values() const {
  std::vector<scalar> out;
  out.reserve(static_cast<std::size_t>(live_));
  for (std::size_t s = 0; s < row_.size(); ++s)
    if (row_[s] >= 0) out.push_back(inc::decode(val_.data() + s * item_, dtype_));
  return out;
}

std::vector<std::pair<dok_matrix::key_type, scalar>> dok_matrix::items() const {
  std::vector<std::pair<key_type, scalar>> out;
  out.reserve(static_cast<std::size_t>(live_));
  for (std::size_t s = 0; s < row_.size(); ++s)
    if (row_[s] >= 0) out.emplace_back(key_type{row_[s], col_[s]}, inc::decode(val_.data() + s * item_, dtype_));
  return out;
}

host_array dok_matrix::values_array() const {
  host_array h(dtype_, shape_t{live_});
  auto* out = static_cast<std::byte*>(h.data());
  std::size_t w = 0;
  for (std::size_t s = 0; s < row_.size(); ++s)
    if (row_[s] >= 0) std::memcpy(out + (w++) * item_, val_.data() + s * item_, item_);
  return h;
}

std::int64_t dok_matrix::count_nonzero() const {
  std::int64_t n = 0;
  for (std::size_t s = 0; s < row_.size(); ++s)
    if (row_[s] >= 0 && !inc::is_zero(val_.data() + s * item_, dtype_)) ++n;
  return n;
}

// --- shape and copies ----------------------------------------------------------------------------

void dok_matrix::resize(shape2 shape) {
  inc::check_shape2("cusci::sparse::dok_matrix::resize", shape);
  bool dropped = false;
  for (std::size_t s = 0; s < row_.size(); ++s) {
    if (row_[s] >= 0 && (row_[s] >= shape[0] || col_[s] >= shape[1])) {
      row_[s] = -1;
      --live_;
      dropped = true;
    }
  }
  shape_ = shape;
  if (dropped) compact();
}

dok_matrix dok_matrix::transpose() const {
  dok_matrix t(shape2{shape_[1], shape_[0]}, dtype_);
  for (std::size_t s = 0; s < row_.size(); ++s)
    if (row_[s] >= 0) t.append_raw(col_[s], row_[s], val_.data() + s * item_);
  return t;
}

dok_matrix dok_matrix::astype(cusci::dtype t, bool /*copy*/) const {
  inc::check_dtype("cusci::sparse::dok_matrix::astype", t);
  if (t == dtype_) return *this;
  const packed p = live_entries();
  const std::vector<std::byte> v = inc::cast_values(p.val.data(), live_, dtype_, t);
  dok_matrix out(shape_, t);
  for (std::size_t k = 0; k < p.row.size(); ++k) out.append_raw(p.row[k], p.col[k], v.data() + k * out.item_);
  return out;
}

// --- conversions ---------------------------------------------------------------------------------

coo_matrix dok_matrix::tocoo(bool) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::dok_matrix::tocoo");
  const cusci::dtype it = get_index_dtype(std::max(shape_[0], shape_[1]));
  if (live_ == 0) return coo_matrix(shape_, matrix_options{.dtype = dtype_, .index_dtype = it});
  ndarray v, r, c;
  bool sorted = true;
  upload_entries(it, v, r, c, sorted);
  return coo_matrix::from_valid(v, r, c, shape_, sorted);
}

csr_matrix dok_matrix::tocsr(bool) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::dok_matrix::tocsr");
  const cusci::dtype it = get_index_dtype(std::max({shape_[0], shape_[1], live_}));
  if (live_ == 0) return csr_matrix(shape_, matrix_options{.dtype = dtype_, .index_dtype = it});
  ndarray v, r, c;
  bool sorted = true;
  upload_entries(it, v, r, c, sorted);
  if (sorted) {  // already SciPy's order: only the row pointers are computed
    return csr_matrix::from_valid(v, c, detail::compress_major(r, shape_[0]), shape_, true);
  }
  grouped g = group_on_device(v, r, c, shape_[0], it);
  return csr_matrix::from_valid(g.data, g.minor, g.indptr, shape_, false);
}

csc_matrix dok_matrix::tocsc(bool) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::dok_matrix::tocsc");
  const cusci::dtype it = get_index_dtype(std::max({shape_[0], shape_[1], live_}));
  if (live_ == 0) return csc_matrix(shape_, matrix_options{.dtype = dtype_, .index_dtype = it});
  ndarray v, r, c;
  bool sorted = true;
  upload_entries(it, v, r, c, sorted);
  grouped g = group_on_device(v, c, r, shape_[1], it);
  return csc_matrix::from_valid(g.data, g.minor, g.indptr, shape_, false);
}

ndarray dok_matrix::toarray(cusci::order ord) const {
  CUSCI_NVTX_SCOPE("cusci::sparse::dok_matrix::toarray");
  cusci::detail::checked_size(shape_t{shape_[0], shape_[1]}, "cusci::sparse::dok_matrix::toarray", item_);
  if (live_ == 0) return zeros(shape_t{shape_[0], shape_[1]}, dtype_, ord);
  const cusci::dtype it = get_index_dtype(std::max(shape_[0], shape_[1]));
  ndarray v, r, c;
  bool sorted = true;
  upload_entries(it, v, r, c, sorted);
  return detail::scatter_dense(v, r, c, shape_, ord);
}

spmatrix dok_matrix::asformat(sparse::format f, bool) const {
  switch (f) {
    case sparse::format::coo: return tocoo();
    case sparse::format::csr: return tocsr();
    case sparse::format::csc: return tocsc();
    case sparse::format::dia: return tocoo().todia();
    case sparse::format::bsr: return tocsr().tobsr();
  }
  return tocsr();
}

lil_matrix dok_matrix::tolil(bool) const {
  lil_matrix out(lil_matrix::no_init{}, shape_, dtype_);
  const packed p = live_entries();
  std::vector<std::int64_t> perm(p.row.size());
  std::iota(perm.begin(), perm.end(), std::int64_t{0});
  if (!p.row_major_sorted)
    std::sort(perm.begin(), perm.end(), [&](std::int64_t a, std::int64_t b) {
      return p.row[a] != p.row[b] ? p.row[a] < p.row[b] : p.col[a] < p.col[b];
    });
  for (const std::int64_t k : perm) {
    const auto r = static_cast<std::size_t>(p.row[k]);
    out.rows_[r].push_back(p.col[k]);
    const std::byte* v = p.val.data() + static_cast<std::size_t>(k) * item_;
    out.vals_[r].insert(out.vals_[r].end(), v, v + item_);
  }
  out.nnz_ = live_;
  return out;
}

}  // namespace cusci::sparse
