// ndarray on the device: basic indexing, views (transpose, reshape, squeeze, expand_dims,
// broadcast_to), copies and casts, fill, creation functions and host transfers, against NumPy's
// results written by tests/golden/gen_core_array.py (values, dtype, shape, strides, memory sharing,
// contiguity flags and the exceptions NumPy raises).

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "testing.hpp"

namespace {

using namespace cusci;
using testing::golden_case;
using json = cusci::testing::golden_value;
const char* module_name = "core_array";

/// One entry of an index of the reference data: an integer, [start, stop, step], "newaxis" or "...".
index_spec index_entry(const json& e) {
  if (e.is_string()) {
    if (e.get<std::string>() == "newaxis") return index_spec(newaxis);
    return index_spec(ellipsis);
  }
  if (e.is_array()) {
    auto part = [&](std::size_t i) -> std::optional<std::int64_t> {
      if (e.at(i).is_null()) return std::nullopt;
      return e.at(i).get<std::int64_t>();
    };
    slice sl;
    sl.start = part(0);
    sl.stop = part(1);
    sl.step = part(2);
    return index_spec(sl);
  }
  return index_spec(e.get<std::int64_t>());
}

std::vector<index_spec> parse_index(const json& j) {
  std::vector<index_spec> out;
  for (const auto& e : j) out.push_back(index_entry(e));
  return out;
}

/// `a[index]` for an index parsed at run time (operator[] takes an initializer list).
ndarray apply_index(const ndarray& a, const std::vector<index_spec>& v) {
  switch (v.size()) {
    case 0: return a[{}];
    case 1: return a[{v[0]}];
    case 2: return a[{v[0], v[1]}];
    case 3: return a[{v[0], v[1], v[2]}];
    case 4: return a[{v[0], v[1], v[2], v[3]}];
    case 5: return a[{v[0], v[1], v[2], v[3], v[4]}];
    case 6: return a[{v[0], v[1], v[2], v[3], v[4], v[5]}];
    default: FAIL("index too long for the test helper"); return a;
  }
}

/// A Python scalar of the reference data: JSON bool, integer, float or [re, im].
scalar py_scalar(const json& j) {
  if (j.is_boolean()) return scalar(j.get<bool>());
  if (j.is_number_integer()) return scalar(j.get<std::int64_t>());
  if (j.is_array()) return scalar(std::complex<double>(j.at(0).get<double>(), j.at(1).get<double>()));
  return scalar(j.get<double>());
}

order parse_order(const std::string& s) { return s == "F" ? order::F : order::C; }
order order_of(const golden_case& c) { return parse_order(c.get<std::string>("order")); }

std::optional<dtype> opt_dtype(const golden_case& c) {
  const auto s = c.get<std::optional<std::string>>("dtype");
  if (!s) return std::nullopt;
  return dtype_from_string(*s);
}

std::vector<golden_case> rows_for(const std::vector<std::string>& ops) {
  std::vector<golden_case> out;
  for (const auto& c : testing::cases(module_name))
    for (const auto& op : ops)
      if (c.func() == op) out.push_back(c);
  return out;
}

ndarray device_input(const golden_case& c) {
  ndarray d = asarray(c.array("input"));
  if (c.get<std::string>("layout") == "F") d = d.copy(order::F);
  if (c.has("pre")) d = apply_index(d, parse_index(c.params().at("pre")));
  return d;
}

/// Shape, strides, memory sharing with `in`, flags, dtype and values of `out` against case `c`.
void check_result(const golden_case& c, const ndarray& out, const ndarray* in) {
  CHECK_MESSAGE(out.shape() == c.get<shape_t>("out_shape"), "shape of " << c.name());
  if (c.has("out_strides")) CHECK_MESSAGE(out.strides() == c.get<shape_t>("out_strides"), "strides of " << c.name());
  const std::optional<bool> view = c.get_or<std::optional<bool>>("view", std::nullopt);
  if (in && view == true) CHECK_MESSAGE((out.memory() && out.memory() == in->memory()), "expected a view");
  if (in && view == false) CHECK_MESSAGE(out.memory() != in->memory(), "expected a copy");
  if (c.has("c_contiguous")) {
    CHECK_MESSAGE(out.is_c_contiguous() == c.get<bool>("c_contiguous"), "C flag of " << c.name());
    CHECK_MESSAGE(out.is_f_contiguous() == c.get<bool>("f_contiguous"), "F flag of " << c.name());
  }
  if (c.has("out_dtype")) CHECK_MESSAGE(dtype_name(out.dtype()) == c.get<std::string>("out_dtype"), "dtype of " << c.name());
  if (c.has("expected")) testing::check_allclose(out, c.array("expected"), c.rtol(), c.atol());
}

using view_op = std::function<ndarray(const golden_case&, const ndarray&)>;

/// The view/copy operations by func name.
const std::map<std::string, view_op>& view_ops() {
  static const std::map<std::string, view_op> t = {
      {"index", [](const golden_case& c, const ndarray& d) { return apply_index(d, parse_index(c.params().at("index"))); }},
      {"T", [](const golden_case&, const ndarray& d) { return d.T(); }},
      {"transpose", [](const golden_case& c, const ndarray& d) { return d.transpose(c.get<std::vector<int>>("axes")); }},
      {"reshape",
       [](const golden_case& c, const ndarray& d) {
         return d.reshape(c.get<shape_t>("shape"), order_of(c), c.get<std::optional<bool>>("copy"));
       }},
      {"squeeze",
       [](const golden_case& c, const ndarray& d) {
         const auto axis = c.get<std::optional<int>>("axis");
         return axis ? d.squeeze(*axis) : d.squeeze();
       }},
      {"expand_dims", [](const golden_case& c, const ndarray& d) { return d.expand_dims(c.get<int>("axis")); }},
      {"broadcast_to", [](const golden_case& c, const ndarray& d) { return d.broadcast_to(c.get<shape_t>("shape")); }},
      {"copy", [](const golden_case& c, const ndarray& d) { return d.copy(order_of(c)); }},
      {"astype",
       [](const golden_case& c, const ndarray& d) { return d.astype(dtype_from_string(c.get<std::string>("dtype"))); }},
      {"zeros_like", [](const golden_case&, const ndarray& d) { return zeros_like(d); }},
      {"ones_like", [](const golden_case&, const ndarray& d) { return ones_like(d); }},
      {"empty_like", [](const golden_case&, const ndarray& d) { return empty_like(d); }},
  };
  return t;
}

void run_view_rows(const std::vector<std::string>& ops) {
  auto rows = rows_for(ops);
  REQUIRE(!rows.empty());
  for (const auto& c : rows) {
    INFO("case " << c.name() << " (" << c.func() << " " << c.params().dump() << ")");
    ndarray d = device_input(c);
    const view_op& op = view_ops().at(c.func());
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)op(c, d); });
      continue;
    }
    ndarray out = op(c, d);
    check_result(c, out, &d);
  }
}

using creation_fn = std::function<ndarray(const golden_case&)>;

/// The creation functions by func name.
const std::map<std::string, creation_fn>& creation_fns() {
  static const std::map<std::string, creation_fn> t = {
      {"arange",
       [](const golden_case& c) {
         const json& p = c.params();
         return arange(py_scalar(p.at("start")), py_scalar(p.at("stop")), py_scalar(p.at("step")), opt_dtype(c));
       }},
      {"arange1", [](const golden_case& c) { return arange(py_scalar(c.params().at("stop"))); }},
      {"linspace",
       [](const golden_case& c) {
         return linspace(c.get<double>("start"), c.get<double>("stop"), c.get<std::int64_t>("num"),
                         c.get<bool>("endpoint"), dtype_from_string(c.get<std::string>("dtype")));
       }},
      {"eye",
       [](const golden_case& c) {
         return eye(c.get<std::int64_t>("N"), c.get<std::optional<std::int64_t>>("M"), c.get<std::int64_t>("k"),
                    dtype_from_string(c.get<std::string>("dtype")), order_of(c));
       }},
      {"zeros",
       [](const golden_case& c) {
         return zeros(c.get<shape_t>("shape"), dtype_from_string(c.get<std::string>("dtype")), order_of(c));
       }},
      {"ones",
       [](const golden_case& c) {
         return ones(c.get<shape_t>("shape"), dtype_from_string(c.get<std::string>("dtype")), order_of(c));
       }},
      {"empty",
       [](const golden_case& c) {
         return empty(c.get<shape_t>("shape"), dtype_from_string(c.get<std::string>("dtype")), order_of(c));
       }},
      {"full",
       [](const golden_case& c) {
         return full(c.get<shape_t>("shape"), py_scalar(c.params().at("fill_value")), opt_dtype(c), order_of(c));
       }},
  };
  return t;
}

std::string file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("basic indexing matches NumPy (shape, strides, values, every dtype)") { run_view_rows({"index"}); }

TEST_CASE("transpose matches NumPy") { run_view_rows({"T", "transpose"}); }

TEST_CASE("reshape: views where NumPy makes views, copies where it copies, and its errors") {
  run_view_rows({"reshape"});
}

TEST_CASE("squeeze, expand_dims and broadcast_to match NumPy") {
  run_view_rows({"squeeze", "expand_dims", "broadcast_to"});
}

TEST_CASE("copy in C and F order from any layout") { run_view_rows({"copy"}); }

TEST_CASE("astype over all 13 x 13 dtype pairs and strided inputs (order K)") { run_view_rows({"astype"}); }

TEST_CASE("astype(copy=false) with the same dtype returns the same array") {
  ndarray a = arange(scalar(6)).astype(dtype::float32);
  ndarray b = a.astype(dtype::float32, false);
  CHECK(b.memory() == a.memory());
  CHECK(a.astype(dtype::float32).memory() != a.memory());
}

TEST_CASE("zeros_like, ones_like and empty_like keep the layout (order K)") {
  run_view_rows({"zeros_like", "ones_like", "empty_like"});
}

TEST_CASE("fill on contiguous arrays and strided views, every dtype") {
  auto rows = rows_for({"fill"});
  REQUIRE(!rows.empty());
  for (const auto& c : rows) {
    INFO("case " << c.name());
    ndarray base = asarray(c.array("input"));
    ndarray v = c.has("pre") ? apply_index(base, parse_index(c.params().at("pre"))) : base;
    v.fill(py_scalar(c.params().at("value")));
    check_result(c, base, nullptr);
  }
}

TEST_CASE("creation functions: arange, linspace, eye, zeros, ones, empty, full") {
  auto rows = rows_for({"arange", "arange1", "linspace", "eye", "zeros", "ones", "empty", "full"});
  REQUIRE(!rows.empty());
  for (const auto& c : rows) {
    INFO("case " << c.name() << " (" << c.func() << " " << c.params().dump() << ")");
    const creation_fn& fn = creation_fns().at(c.func());
    if (c.expects_error()) {
      testing::check_error(c, [&] { (void)fn(c); });
      continue;
    }
    ndarray out = fn(c);
    check_result(c, out, nullptr);
  }
}

TEST_CASE("asarray / to_host round trips for every dtype and size 0, 1, odd") {
  auto rows = rows_for({"roundtrip"});
  REQUIRE(rows.size() >= 13);
  for (const auto& c : rows) {
    INFO("case " << c.name());
    host_array h = c.array("input");
    ndarray d = asarray(h);
    CHECK(d.dtype() == h.dtype());
    check_result(c, d, nullptr);
    host_array back = to_host(d);
    testing::check_allclose(back, c.array("expected"), 0, 0);
    testing::check_allclose(asarray(h.data(), h.dtype(), h.shape()).get(), h, 0, 0);
  }
  // the std::vector overloads
  std::vector<double> v{1.5, -2.0, 3.25};
  host_array hv = host_array::from(v);
  CHECK(to_host(asarray(v)).to_vector<double>() == hv.to_vector<double>());
  CHECK(asarray(v, shape_t{3, 1}).shape() == shape_t{3, 1});
}

TEST_CASE("transfers and copies on a non-blocking stream") {
  stream s(true);
  stream_guard guard(s);
  host_array h = testing::golden(module_name, "in_float64_2x3x4");
  ndarray d = asarray(h);
  ndarray t = d.T().copy(order::C);
  ndarray back = t.T();  // a view of the transposed copy: same values as d
  testing::check_allclose(to_host(back), h, 0, 0);
  testing::check_allclose(to_host(d.astype(dtype::complex64).astype(dtype::float64)), h, 1e-6, 1e-6);
}

TEST_CASE("item, shape(axis) and attribute errors") {
  host_array h = testing::golden(module_name, "in_float64_2x3x4");
  ndarray d = asarray(h);
  CHECK(d[{std::int64_t{1}, std::int64_t{2}, std::int64_t{3}}].item<double>() == h.data_as<double>()[23]);
  CHECK(d[{std::int64_t{0}, std::int64_t{0}, std::int64_t{1}}].item<float>() ==
        static_cast<float>(h.data_as<double>()[1]));
  CHECK_THROWS_AS((void)d.item<double>(), cusci::value_error);
  CHECK_THROWS_AS(detail::check_item_size(0), cusci::value_error);
  CHECK(d.shape(-1) == 4);
  CHECK(d.shape(0) == 2);
  CHECK_THROWS_AS((void)d.shape(3), cusci::index_error);
  CHECK_THROWS_AS((void)d.shape(-4), cusci::index_error);
  CHECK(d.size() == 24);
  CHECK(d.nbytes() == 24 * 8);
  CHECK(d.data() != nullptr);
  ndarray e;  // default: float64 of shape (0,), no memory
  CHECK(e.size() == 0);
  CHECK(e.data() == nullptr);
  CHECK(e.shape() == shape_t{0});
  CHECK(to_host(e).size() == 0);
  CHECK_THROWS_AS(ndarray(shape_t{2, -1}, dtype::float32), cusci::value_error);
  CHECK_THROWS_AS(ndarray(d.memory(), dtype::float64, shape_t{2, 3}, shape_t{8}, 0, d.device()), cusci::value_error);
}

TEST_CASE("save writes NumPy's bytes (C and Fortran order) and load reads them back") {
  const auto dir = std::filesystem::temp_directory_path() / "cusci_test_core_array";
  std::filesystem::create_directories(dir);
  for (const char* dt : {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
                         "float64", "complex64", "complex128"}) {
    INFO("dtype " << dt);
    const std::string in = std::string("in_") + dt + "_3x4";
    host_array h = testing::golden(module_name, in);
    ndarray c = asarray(h);
    ndarray f = c.copy(order::F);
    const std::string pc = (dir / (std::string(dt) + "_C.npy")).string();
    const std::string pf = (dir / (std::string(dt) + "_F.npy")).string();
    save(pc, c);
    save(pf, f);
    CHECK(file_bytes(pc) == file_bytes(testing::golden_file(module_name, std::string("npy_") + dt + "_C.npy")));
    CHECK(file_bytes(pf) == file_bytes(testing::golden_file(module_name, std::string("npy_") + dt + "_F.npy")));
    ndarray lf = load(pf);
    CHECK(lf.is_c_contiguous());
    testing::check_allclose(to_host(lf), h, 0, 0);
    // a strided view is saved in C order with its own values
    ndarray v = c[{slice{std::nullopt, std::nullopt, -1}, slice{1, std::nullopt, 2}}];
    save(pc, v);
    testing::check_allclose(io::read_npy(pc), to_host(v), 0, 0);
  }
  std::filesystem::remove_all(dir);
}
