#pragma once
// Reader of the reference data that tests/golden/gen_<module>.py compute with SciPy/NumPy at build
// time (format: tests/golden/golden.py): each module's manifest.json of cases and its .npz groups of
// arrays, under CUSCI_GOLDEN_DIR/<module>/. One reader and one case type for every module.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::testing {

namespace golden_detail {

/// One module's manifest, and its arrays loaded on first use (each group's .npz read once).
struct module_data {
  std::string name;
  std::string dir;
  nlohmann::json manifest;
  std::map<std::string, host_array> arrays;
  std::map<std::string, bool> loaded_groups;
  std::mutex mu;
};

inline module_data& module(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<module_data>> modules;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = modules[name];
  if (!slot) {
    auto m = std::make_unique<module_data>();
    m->name = name;
    m->dir = std::string(CUSCI_GOLDEN_DIR) + "/" + name;
    std::ifstream f(m->dir + "/manifest.json");
    if (!f.good())
      throw std::runtime_error("reference data for '" + name + "' missing: " + m->dir +
                               "/manifest.json (built by the cusci_golden target)");
    m->manifest = nlohmann::json::parse(f);
    if (m->manifest.value("schema", 0) != 1)
      throw std::runtime_error("reference data for '" + name + "': unknown schema");
    slot = std::move(m);
  }
  return *slot;
}

/// Reads a JSON value as T: bool, integers, double (also from "nan"/"inf"/"-inf"), std::string,
/// std::complex<double> (from [re, im] or a number), and std::vector / std::optional of those.
template <class T> struct reader {
  static T read(const nlohmann::json& j) {
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
      if (j.is_string()) {
        const std::string s = j.get<std::string>();
        if (s == "nan") return std::numeric_limits<T>::quiet_NaN();
        if (s == "inf") return std::numeric_limits<T>::infinity();
        if (s == "-inf") return -std::numeric_limits<T>::infinity();
        throw std::runtime_error("not a number: " + s);
      }
      return j.get<T>();
    } else {
      return j.get<T>();
    }
  }
};
template <class T> struct reader<std::complex<T>> {
  static std::complex<T> read(const nlohmann::json& j) {
    if (j.is_array()) return {reader<T>::read(j.at(0)), reader<T>::read(j.at(1))};
    return {reader<T>::read(j), T(0)};
  }
};
template <class T> struct reader<std::vector<T>> {
  static std::vector<T> read(const nlohmann::json& j) {
    std::vector<T> v;
    if (!j.is_array()) {  // a scalar where a list is asked for: a list of one
      v.push_back(reader<T>::read(j));
      return v;
    }
    for (const auto& x : j) v.push_back(reader<T>::read(x));
    return v;
  }
};
template <class T> struct reader<std::optional<T>> {
  static std::optional<T> read(const nlohmann::json& j) {
    if (j.is_null()) return std::nullopt;
    return reader<T>::read(j);
  }
};

}  // namespace golden_detail

/// The array named `name` of module `module`'s reference data.
inline host_array golden(const std::string& module, const std::string& name) {
  auto& m = golden_detail::module(module);
  std::lock_guard<std::mutex> lock(m.mu);
  auto it = m.arrays.find(name);
  if (it != m.arrays.end()) return it->second;
  const auto& where = m.manifest.at("arrays");
  auto w = where.find(name);
  if (w == where.end()) throw std::runtime_error("reference array '" + name + "' not in module " + module);
  const std::string group = w->get<std::string>();
  if (!m.loaded_groups[group]) {
    io::npz_file z = io::load_npz(m.dir + "/" + group + ".npz");
    for (const auto& e : z.entries()) m.arrays.emplace(e.first, e.second);
    m.loaded_groups[group] = true;
  }
  it = m.arrays.find(name);
  if (it == m.arrays.end())
    throw std::runtime_error("reference array '" + name + "' not in " + m.dir + "/" + group + ".npz");
  return it->second;
}

/// Whether module `module`'s reference data holds an array named `name`.
inline bool has_golden(const std::string& module, const std::string& name) {
  return golden_detail::module(module).manifest.at("arrays").contains(name);
}

/// Path of an auxiliary file `filename` a generator wrote beside its manifest.
inline std::string golden_file(const std::string& module, const std::string& filename) {
  return std::string(CUSCI_GOLDEN_DIR) + "/" + module + "/" + filename;
}

/// One case of a module's manifest.
class golden_case {
 public:
  golden_case(const std::string* module, const nlohmann::json* j) : module_(module), j_(j) {}

  const std::string& module() const { return *module_; }
  std::string name() const { return j_->at("case").get<std::string>(); }
  std::string func() const { return j_->at("func").get<std::string>(); }
  double rtol() const { return j_->at("rtol").get<double>(); }
  double atol() const { return j_->at("atol").get<double>(); }
  /// Whether the call must throw; error() names the cusci exception ("value_error", ...).
  bool expects_error() const { return !j_->at("error").is_null(); }
  std::string error() const { return expects_error() ? j_->at("error").get<std::string>() : std::string(); }

  /// Whether parameter `key` is given (present and not null).
  bool has(const std::string& key) const {
    const auto& p = params();
    auto it = p.find(key);
    return it != p.end() && !it->is_null();
  }
  /// Parameter `key` as T (see golden_detail::reader). Fails the test when it is not given.
  template <class T> T get(const std::string& key) const {
    const auto& p = params();
    auto it = p.find(key);
    if (it == p.end())
      throw std::runtime_error("case " + name() + ": no parameter '" + key + "'");
    return golden_detail::reader<T>::read(*it);
  }
  /// Parameter `key` as T, or `fallback` when it is not given.
  template <class T> T get_or(const std::string& key, T fallback) const {
    return has(key) ? get<T>(key) : fallback;
  }
  /// The reference array named by parameter `key`.
  host_array array(const std::string& key) const { return golden(*module_, get<std::string>(key)); }
  /// The raw parameters.
  const nlohmann::json& params() const { return j_->at("params"); }

 private:
  const std::string* module_;
  const nlohmann::json* j_;
};

/// Every case of module `module`, in the generator's order.
inline const std::vector<golden_case>& cases(const std::string& module) {
  auto& m = golden_detail::module(module);
  static std::mutex mu;
  static std::map<std::string, std::vector<golden_case>> all;
  std::lock_guard<std::mutex> lock(mu);
  auto it = all.find(module);
  if (it == all.end()) {
    std::vector<golden_case> v;
    for (const auto& c : m.manifest.at("cases")) v.emplace_back(&m.name, &c);
    it = all.emplace(module, std::move(v)).first;
  }
  return it->second;
}

/// The cases of module `module` whose func is `func`.
inline std::vector<golden_case> cases(const std::string& module, const std::string& func) {
  std::vector<golden_case> v;
  for (const auto& c : cases(module))
    if (c.func() == func) v.push_back(c);
  return v;
}

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
