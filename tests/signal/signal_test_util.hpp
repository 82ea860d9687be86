#pragma once
// Helpers shared by the signal tests: manifest field parsing.

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "testing.hpp"

namespace cusci::signal_test {

using row_t = std::map<std::string, std::string>;

inline std::string field(const row_t& r, const std::string& k) {
  auto it = r.find(k);
  return it == r.end() ? std::string() : it->second;
}
inline double num(const row_t& r, const std::string& k) { return std::stod(field(r, k)); }
inline bool has(const row_t& r, const std::string& k) { return !field(r, k).empty(); }
inline std::vector<double> nums(const row_t& r, const std::string& k) {
  std::vector<double> v;
  std::string s = field(r, k), cur;
  std::istringstream is(s);
  while (std::getline(is, cur, ';'))
    if (!cur.empty()) v.push_back(std::stod(cur));
  return v;
}
inline std::vector<row_t> rows_of(const std::string& kind) {
  std::vector<row_t> out;
  for (auto& r : testing::manifest("signal"))
    if (field(r, "kind") == kind) out.push_back(r);
  return out;
}
inline host_array gold(const row_t& r, const std::string& what) {
  return testing::golden("signal", field(r, "case") + "_" + what);
}

}  // namespace cusci::signal_test
