// The JSON side of golden.hpp: manifests parsed with nlohmann/json, compiled once for every test.

#include "golden.hpp"

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace cusci::testing {

namespace {

using json = nlohmann::json;

const json& node(const void* p) { return *static_cast<const json*>(p); }

/// One module's manifest, and its arrays loaded on first use (each group's .npz read once).
struct module_data {
  std::string name;
  std::string dir;
  json manifest;
  std::map<std::string, host_array> arrays;
  std::map<std::string, bool> loaded_groups;
  std::mutex mu;
};

module_data& module(const std::string& name) {
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
    m->manifest = json::parse(f);
    if (m->manifest.value("schema", 0) != 1)
      throw std::runtime_error("reference data for '" + name + "': unknown schema");
    slot = std::move(m);
  }
  return *slot;
}

}  // namespace

bool golden_value::is_null() const { return node(node_).is_null(); }
bool golden_value::is_boolean() const { return node(node_).is_boolean(); }
bool golden_value::is_number() const { return node(node_).is_number(); }
bool golden_value::is_number_integer() const { return node(node_).is_number_integer(); }
bool golden_value::is_number_float() const { return node(node_).is_number_float(); }
bool golden_value::is_string() const { return node(node_).is_string(); }
bool golden_value::is_array() const { return node(node_).is_array(); }
bool golden_value::is_object() const { return node(node_).is_object(); }
std::size_t golden_value::size() const { return node(node_).size(); }
golden_value golden_value::at(std::size_t i) const { return golden_value(&node(node_).at(i)); }
golden_value golden_value::at(const std::string& key) const { return golden_value(&node(node_).at(key)); }
bool golden_value::contains(const std::string& key) const { return node(node_).contains(key); }
std::vector<std::string> golden_value::keys() const {
  std::vector<std::string> k;
  for (const auto& item : node(node_).items()) k.push_back(item.key());
  return k;
}
std::string golden_value::dump() const { return node(node_).dump(); }
bool golden_value::as_bool() const { return node(node_).get<bool>(); }
std::int64_t golden_value::as_int64() const { return node(node_).get<std::int64_t>(); }
std::uint64_t golden_value::as_uint64() const { return node(node_).get<std::uint64_t>(); }
std::string golden_value::as_string() const { return node(node_).get<std::string>(); }
double golden_value::as_double() const {
  const json& j = node(node_);
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    throw std::runtime_error("not a number: " + s);
  }
  return j.get<double>();
}

host_array golden(const std::string& module_name, const std::string& name) {
  auto& m = module(module_name);
  std::lock_guard<std::mutex> lock(m.mu);
  auto it = m.arrays.find(name);
  if (it != m.arrays.end()) return it->second;
  const auto& where = m.manifest.at("arrays");
  auto w = where.find(name);
  if (w == where.end()) throw std::runtime_error("reference array '" + name + "' not in module " + module_name);
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

bool has_golden(const std::string& module_name, const std::string& name) {
  return module(module_name).manifest.at("arrays").contains(name);
}

std::string golden_file(const std::string& module_name, const std::string& filename) {
  return std::string(CUSCI_GOLDEN_DIR) + "/" + module_name + "/" + filename;
}

const std::vector<golden_case>& cases(const std::string& module_name) {
  auto& m = module(module_name);
  static std::mutex mu;
  static std::map<std::string, std::vector<golden_case>> all;
  std::lock_guard<std::mutex> lock(mu);
  auto it = all.find(module_name);
  if (it == all.end()) {
    std::vector<golden_case> v;
    for (const auto& c : m.manifest.at("cases")) v.emplace_back(&m.name, golden_value(&c));
    it = all.emplace(module_name, std::move(v)).first;
  }
  return it->second;
}

bool in_shard(std::size_t index) {
  struct shard {
    std::size_t i = 0, n = 1;
  };
  static const shard sh = [] {
    shard r;
    const char* v = std::getenv("CUSCI_TEST_SHARD");
    if (v == nullptr || *v == '\0') return r;
    const std::string s = v;
    const auto slash = s.find('/');
    std::size_t used_i = 0, used_n = 0;
    try {
      if (slash == std::string::npos) throw std::invalid_argument("no '/'");
      r.i = std::stoul(s.substr(0, slash), &used_i);
      r.n = std::stoul(s.substr(slash + 1), &used_n);
    } catch (const std::exception&) {
      used_i = 0;
    }
    if (used_i != slash || used_n != s.size() - slash - 1 || r.n == 0 || r.i >= r.n)
      throw std::invalid_argument("CUSCI_TEST_SHARD='" + s + "': expected \"i/n\" with 0 <= i < n");
    return r;
  }();
  return index % sh.n == sh.i;
}

std::vector<golden_case> cases(const std::string& module_name, const std::string& func) {
  std::vector<golden_case> v;
  for (const auto& c : cases(module_name))
    if (c.func() == func) v.push_back(c);
  return v;
}

}  // namespace cusci::testing
