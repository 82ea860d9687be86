// libFuzzer target: the Matrix Market reader (cusci::io::mmread_host and mminfo) on arbitrary bytes.
// A file that loads must hold consistent arrays: indices in range, one value per entry.
#include <cstdlib>

#include "cusci/error.hpp"
#include "cusci/sparse/io.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = cusci::fuzz::input_path(data, size);
  try {
    (void)cusci::io::mminfo(path);
  } catch (const cusci::error&) {
  }
  try {
    const cusci::io::mm_host_matrix m = cusci::io::mmread_host(path);
    if (m.format == cusci::io::mm_format::coordinate) {
      if (m.row.size() != m.col.size() || m.row.size() != m.data.size()) std::abort();
      for (std::size_t k = 0; k < m.row.size(); ++k)
        if (m.row[k] < 0 || m.row[k] >= m.rows || m.col[k] < 0 || m.col[k] >= m.cols) std::abort();
    } else if (static_cast<std::int64_t>(m.data.size()) != m.rows * m.cols) {
      std::abort();
    }
  } catch (const cusci::error&) {
  }
  return 0;
}
