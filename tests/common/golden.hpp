#pragma once
// Reader of the reference data that tests/golden/gen_<module>.py compute with SciPy/NumPy at build
// time (format: tests/golden/golden.py): each module's manifest.json of cases and its .npz groups of
// arrays, under CUSCI_GOLDEN_DIR/<module>/. One reader and one case type for every module.
//
// The JSON parser lives in golden.cpp, compiled once into the cusci_test_golden library: test sources
// see only `golden_value`, a read-only view of one JSON value with the part of nlohmann::json's
// interface the tests use, so that no test source compiles the parser's templates.

#include <doctest/doctest.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::testing {

class golden_value;

namespace golden_detail {
/// Reads a JSON value as T: bool, integers, double (also from "nan"/"inf"/"-inf"), std::string,
/// std::complex<double> (from [re, im] or a number), and std::vector / std::optional of those.
template <class T> struct reader;
}  // namespace golden_detail

/// A read-only view of one JSON value of a manifest (valid as long as the process: manifests are
/// loaded once and never freed). Its interface follows nlohmann::json's names.
class golden_value {
 public:
  explicit golden_value(const void* node) : node_(node) {}

  bool is_null() const;
  bool is_boolean() const;
  bool is_number() const;
  bool is_number_integer() const;
  bool is_number_float() const;
  bool is_string() const;
  bool is_array() const;
  bool is_object() const;
  /// Elements of an array or members of an object (0 for null, 1 for other values, as nlohmann).
  std::size_t size() const;
  bool empty() const { return size() == 0; }
  /// Element `i` of an array. @throws std::out_of_range.
  golden_value at(std::size_t i) const;
  golden_value operator[](std::size_t i) const { return at(i); }
  golden_value at(int i) const { return at(static_cast<std::size_t>(i)); }
  golden_value operator[](int i) const { return at(static_cast<std::size_t>(i)); }
  /// Member `key` of an object. @throws std::out_of_range.
  golden_value at(const std::string& key) const;
  golden_value at(const char* key) const { return at(std::string(key)); }
  bool contains(const std::string& key) const;
  /// The member names of an object, in the manifest's (sorted) order.
  std::vector<std::string> keys() const;
  /// The value as JSON text.
  std::string dump() const;

  bool as_bool() const;
  std::int64_t as_int64() const;
  std::uint64_t as_uint64() const;
  /// A number, or one of the strings "nan", "inf", "-inf".
  double as_double() const;
  std::string as_string() const;

  template <class T> T get() const { return golden_detail::reader<T>::read(*this); }

  /// Iteration over the elements of an array (a scalar iterates as a list of one, as nlohmann).
  class iterator {
   public:
    iterator(const golden_value* v, std::size_t i) : v_(v), i_(i) {}
    golden_value operator*() const { return v_->is_array() ? v_->at(i_) : *v_; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }
    bool operator==(const iterator& o) const { return i_ == o.i_; }

   private:
    const golden_value* v_;
    std::size_t i_;
  };
  iterator begin() const { return iterator(this, 0); }
  iterator end() const { return iterator(this, is_null() ? 0 : (is_array() || is_object()) ? size() : 1); }

 private:
  const void* node_;
};

namespace golden_detail {
template <class T> struct reader {
  static T read(const golden_value& j) {
    if constexpr (std::is_same_v<T, bool>) {
      return j.as_bool();
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(j.as_double());
    } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
      return static_cast<T>(j.as_uint64());
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(j.as_int64());
    } else if constexpr (std::is_same_v<T, std::string>) {
      return j.as_string();
    } else {
      static_assert(sizeof(T) == 0, "golden_value::get: unsupported type");
    }
  }
};
template <class T> struct reader<std::complex<T>> {
  static std::complex<T> read(const golden_value& j) {
    if (j.is_array()) return {reader<T>::read(j.at(std::size_t{0})), reader<T>::read(j.at(std::size_t{1}))};
    return {reader<T>::read(j), T(0)};
  }
};
template <class T, class A> struct reader<std::vector<T, A>> {
  static std::vector<T, A> read(const golden_value& j) {
    std::vector<T, A> v;
    if (!j.is_array()) {  // a scalar where a list is asked for: a list of one
      v.push_back(reader<T>::read(j));
      return v;
    }
    for (std::size_t i = 0; i < j.size(); ++i) v.push_back(reader<T>::read(j.at(i)));
    return v;
  }
};
template <class T> struct reader<std::optional<T>> {
  static std::optional<T> read(const golden_value& j) {
    if (j.is_null()) return std::nullopt;
    return reader<T>::read(j);
  }
};
}  // namespace golden_detail

/// The array named `name` of module `module`'s reference data (each .npz group read once).
host_array golden(const std::string& module, const std::string& name);

/// Whether module `module`'s reference data holds an array named `name`.
bool has_golden(const std::string& module, const std::string& name);

/// Path of an auxiliary file `filename` a generator wrote beside its manifest.
std::string golden_file(const std::string& module, const std::string& filename);

/// One case of a module's manifest.
class golden_case {
 public:
  golden_case(const std::string* module, golden_value j) : module_(module), j_(j) {}

  const std::string& module() const { return *module_; }
  std::string name() const { return j_.at("case").as_string(); }
  std::string func() const { return j_.at("func").as_string(); }
  double rtol() const { return j_.at("rtol").as_double(); }
  double atol() const { return j_.at("atol").as_double(); }
  /// Whether the call must throw; error() names the cusci exception ("value_error", ...).
  bool expects_error() const { return !j_.at("error").is_null(); }
  std::string error() const { return expects_error() ? j_.at("error").as_string() : std::string(); }

  /// Whether parameter `key` is given (present and not null).
  bool has(const std::string& key) const {
    const golden_value p = params();
    return p.contains(key) && !p.at(key).is_null();
  }
  /// Parameter `key` as T (see golden_detail::reader). Fails the test when it is not given.
  template <class T> T get(const std::string& key) const {
    const golden_value p = params();
    if (!p.contains(key)) throw std::runtime_error("case " + name() + ": no parameter '" + key + "'");
    return p.at(key).get<T>();
  }
  /// Parameter `key` as T, or `fallback` when it is not given.
  template <class T> T get_or(const std::string& key, T fallback) const {
    return has(key) ? get<T>(key) : fallback;
  }
  /// The reference array named by parameter `key`.
  host_array array(const std::string& key) const { return golden(*module_, get<std::string>(key)); }
  /// The raw parameters.
  golden_value params() const { return j_.at("params"); }

 private:
  const std::string* module_;
  golden_value j_;
};

/// Every case of module `module`, in the generator's order.
const std::vector<golden_case>& cases(const std::string& module);

/// The cases of module `module` whose func is `func`.
std::vector<golden_case> cases(const std::string& module, const std::string& func);

/// Whether the index-th unit of a test's work belongs to this process's shard. The environment
/// variable CUSCI_TEST_SHARD="i/n" (0 <= i < n) splits a long test's case loops into n disjoint parts
/// run by n processes (used to memcheck the longest GPU tests in parallel: scripts/gpu-check's
/// MC_SHARDS); unset, every index belongs. A malformed value throws std::invalid_argument.
bool in_shard(std::size_t index);

/// Checks that `call()` throws the cusci exception case `c` names (c.expects_error() must hold).
/// Names: value_error, type_error, index_error, not_implemented_error, runtime_error, out_of_memory,
/// error (any cusci::error). Other names (a module's own exception) are checked by the caller.
template <class F> void check_error(const golden_case& c, F&& call) {
  const std::string e = c.error();
  if (e == "value_error") CHECK_THROWS_AS(call(), cusci::value_error);
  else if (e == "type_error") CHECK_THROWS_AS(call(), cusci::type_error);
  else if (e == "index_error") CHECK_THROWS_AS(call(), cusci::index_error);
  else if (e == "not_implemented_error") CHECK_THROWS_AS(call(), cusci::not_implemented_error);
  else if (e == "runtime_error") CHECK_THROWS_AS(call(), cusci::runtime_error);
  else if (e == "out_of_memory") CHECK_THROWS_AS(call(), cusci::out_of_memory);
  else if (e == "error") CHECK_THROWS_AS(call(), cusci::error);
  else FAIL("case " << c.name() << ": check_error does not know exception kind '" << e << "'");
}

}  // namespace cusci::testing
