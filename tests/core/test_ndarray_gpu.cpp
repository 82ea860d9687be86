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
#include <sstream>
#include <string>
#include <vector>

#include "cusci/core.hpp"
#include "testing.hpp"

namespace {

using namespace cusci;
using row_t = std::map<std::string, std::string>;
const char* module_name = "core_array";

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

shape_t parse_shape(const std::string& s) {
  shape_t out;
  if (s.empty()) return out;
  for (const auto& t : split(s, ',')) out.push_back(std::stoll(t));
  return out;
}

std::vector<index_spec> parse_index(const std::string& s) {
  std::vector<index_spec> out;
  if (s.empty()) return out;
  for (const auto& tok : split(s, ',')) {
    if (tok == "None") {
      out.emplace_back(newaxis);
    } else if (tok == "...") {
      out.emplace_back(ellipsis);
    } else if (tok.find(':') != std::string::npos) {
      auto parts = split(tok, ':');
      slice sl;
      auto get = [&](std::size_t i) -> std::optional<std::int64_t> {
        if (i >= parts.size() || parts[i].empty()) return std::nullopt;
        return std::stoll(parts[i]);
      };
      sl.start = get(0);
      sl.stop = get(1);
      sl.step = get(2);
      out.emplace_back(sl);
    } else {
      out.emplace_back(static_cast<std::int64_t>(std::stoll(tok)));
    }
  }
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

scalar parse_number(const std::string& s) {
  if (s.find('.') != std::string::npos || s.find('e') != std::string::npos) return scalar(std::stod(s));
  return scalar(static_cast<std::int64_t>(std::stoll(s)));
}

/// "int:3", "float:2.75", "bool:1", "complex:1.5,-2".
scalar parse_typed(const std::string& s) {
  const auto colon = s.find(':');
  const std::string kind = s.substr(0, colon), v = s.substr(colon + 1);
  if (kind == "int") return scalar(static_cast<std::int64_t>(std::stoll(v)));
  if (kind == "float") return scalar(std::stod(v));
  if (kind == "bool") return scalar(v == "1");
  auto p = split(v, ',');
  return scalar(std::complex<double>(std::stod(p[0]), std::stod(p[1])));
}

order parse_order(const std::string& s) { return s == "F" ? order::F : order::C; }

std::vector<row_t> rows_for(const std::vector<std::string>& ops) {
  std::vector<row_t> out;
  for (auto& r : testing::manifest(module_name))
    for (const auto& op : ops)
      if (r["op"] == op) out.push_back(r);
  return out;
}

ndarray device_input(row_t& r) {
  ndarray d = asarray(testing::golden(module_name, r["input"]));
  if (r["layout"] == "F") d = d.copy(order::F);
  if (!r["pre"].empty()) d = apply_index(d, parse_index(r["pre"]));
  return d;
}

void check_error(const row_t& r, const std::function<void()>& f) {
  const std::string& e = r.at("error");
  if (e == "index_error") CHECK_THROWS_AS(f(), cusci::index_error);
  else if (e == "value_error") CHECK_THROWS_AS(f(), cusci::value_error);
  else if (e == "type_error") CHECK_THROWS_AS(f(), cusci::type_error);
  else FAIL("unknown expected error " << e);
}

/// Shape, strides, memory sharing with `in`, flags and values of `out` against row `r`.
void check_result(row_t& r, const ndarray& out, const ndarray* in) {
  CHECK_MESSAGE(out.shape() == parse_shape(r["shape"]), "shape of " << r["case"]);
  if (r["strides"] != "*") CHECK_MESSAGE(out.strides() == parse_shape(r["strides"]), "strides of " << r["case"]);
  if (in && r["view"] == "1") CHECK_MESSAGE((out.memory() && out.memory() == in->memory()), "expected a view");
  if (in && r["view"] == "0") CHECK_MESSAGE(out.memory() != in->memory(), "expected a copy");
  if (!r["flags"].empty() && r["flags"] != "*") {
    CHECK_MESSAGE(out.is_c_contiguous() == (r["flags"].find('C') != std::string::npos), "C flag of " << r["case"]);
    CHECK_MESSAGE(out.is_f_contiguous() == (r["flags"].find('F') != std::string::npos), "F flag of " << r["case"]);
  }
  if (!r["dtype"].empty() && r["op"] != "astype" && r["op"] != "fill")
    CHECK_MESSAGE(dtype_name(out.dtype()) == r["dtype"], "dtype of " << r["case"]);
  if (r["expected"] == "1")
    testing::check_allclose(out, testing::golden(module_name, r["case"]), std::stod(r["rtol"]), std::stod(r["atol"]));
}

/// Runs the view/copy op named in the row on `d`.
ndarray run_view_op(row_t& r, const ndarray& d) {
  const std::string& op = r["op"];
  const std::string& arg = r["arg"];
  if (op == "index") return apply_index(d, parse_index(arg));
  if (op == "T") return d.T();
  if (op == "transpose") {
    std::vector<int> axes;
    for (auto v : parse_shape(arg)) axes.push_back(static_cast<int>(v));
    return d.transpose(axes);
  }
  if (op == "reshape") {
    auto p = split(arg, '|');
    std::optional<bool> copy;
    if (p[2] == "true") copy = true;
    if (p[2] == "false") copy = false;
    return d.reshape(parse_shape(p[0]), parse_order(p[1]), copy);
  }
  if (op == "squeeze") return arg.empty() ? d.squeeze() : d.squeeze(std::stoi(arg));
  if (op == "expand_dims") return d.expand_dims(std::stoi(arg));
  if (op == "broadcast_to") return d.broadcast_to(parse_shape(arg));
  if (op == "copy") return d.copy(parse_order(arg));
  if (op == "astype") return d.astype(dtype_from_string(arg));
  if (op == "zeros_like") return zeros_like(d);
  if (op == "ones_like") return ones_like(d);
  if (op == "empty_like") return empty_like(d);
  FAIL("unknown op " << op);
  return d;
}

void run_view_rows(const std::vector<std::string>& ops) {
  auto rows = rows_for(ops);
  REQUIRE(!rows.empty());
  for (auto& r : rows) {
    INFO("case " << r["case"] << " (" << r["op"] << " " << r["arg"] << ", layout " << r["layout"] << ", pre '"
                 << r["pre"] << "')");
    ndarray d = device_input(r);
    if (!r["error"].empty()) {
      check_error(r, [&] { (void)run_view_op(r, d); });
      continue;
    }
    ndarray out = run_view_op(r, d);
    check_result(r, out, &d);
  }
}

ndarray run_creation(row_t& r) {
  const std::string& op = r["op"];
  auto p = split(r["arg"], '|');
  auto opt_dtype = [](const std::string& s) -> std::optional<dtype> {
    if (s.empty()) return std::nullopt;
    return dtype_from_string(s);
  };
  if (op == "arange") return arange(parse_number(p[0]), parse_number(p[1]), parse_number(p[2]), opt_dtype(p[3]));
  if (op == "arange1") return arange(parse_number(p[0]));
  if (op == "linspace")
    return linspace(std::stod(p[0]), std::stod(p[1]), std::stoll(p[2]), p[3] == "1", dtype_from_string(p[4]));
  if (op == "eye") {
    std::optional<std::int64_t> m;
    if (!p[1].empty()) m = std::stoll(p[1]);
    return eye(std::stoll(p[0]), m, std::stoll(p[2]), dtype_from_string(p[3]), parse_order(p[4]));
  }
  if (op == "zeros") return zeros(parse_shape(p[0]), dtype_from_string(p[1]), parse_order(p[2]));
  if (op == "ones") return ones(parse_shape(p[0]), dtype_from_string(p[1]), parse_order(p[2]));
  if (op == "empty") return empty(parse_shape(p[0]), dtype_from_string(p[1]), parse_order(p[2]));
  if (op == "full") return full(parse_shape(p[0]), parse_typed(p[1]), opt_dtype(p[2]), parse_order(p[3]));
  FAIL("unknown op " << op);
  return ndarray();
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
  for (auto& r : rows) {
    INFO("case " << r["case"]);
    ndarray base = asarray(testing::golden(module_name, r["input"]));
    ndarray v = r["pre"].empty() ? base : apply_index(base, parse_index(r["pre"]));
    v.fill(parse_typed(r["arg"]));
    check_result(r, base, nullptr);
  }
}

TEST_CASE("creation functions: arange, linspace, eye, zeros, ones, empty, full") {
  auto rows = rows_for({"arange", "arange1", "linspace", "eye", "zeros", "ones", "empty", "full"});
  REQUIRE(!rows.empty());
  for (auto& r : rows) {
    INFO("case " << r["case"] << " (" << r["op"] << " " << r["arg"] << ")");
    if (!r["error"].empty()) {
      check_error(r, [&] { (void)run_creation(r); });
      continue;
    }
    ndarray out = run_creation(r);
    check_result(r, out, nullptr);
  }
}

TEST_CASE("asarray / to_host round trips for every dtype and size 0, 1, odd") {
  auto rows = rows_for({"roundtrip"});
  REQUIRE(rows.size() >= 13);
  for (auto& r : rows) {
    INFO("case " << r["case"]);
    host_array h = testing::golden(module_name, r["input"]);
    ndarray d = asarray(h);
    CHECK(d.dtype() == h.dtype());
    check_result(r, d, nullptr);
    host_array back = to_host(d);
    testing::check_allclose(back, testing::golden(module_name, r["case"]), 0, 0);
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
    CHECK(file_bytes(pc) == file_bytes(testing::golden_path(module_name, std::string("npy_") + dt + "_C")));
    CHECK(file_bytes(pf) == file_bytes(testing::golden_path(module_name, std::string("npy_") + dt + "_F")));
    ndarray lf = load(pf);
    CHECK(lf.is_c_contiguous());
    testing::check_allclose(to_host(lf), h, 0, 0);
    // a strided view is saved in C order with its own values
    ndarray v = apply_index(c, parse_index("::-1,1::2"));
    save(pc, v);
    testing::check_allclose(io::read_npy(pc), to_host(v), 0, 0);
  }
  std::filesystem::remove_all(dir);
}
