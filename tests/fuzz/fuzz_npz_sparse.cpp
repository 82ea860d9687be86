// libFuzzer target: SciPy's sparse .npz layout (cusci::sparse::load_npz_host: the archive, its
// 'format' string member, 'shape' and the index/value members each format needs).
#include "cusci/error.hpp"
#include "cusci/sparse/access.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const cusci::sparse::npz_sparse_host m = cusci::sparse::load_npz_host(cusci::fuzz::input_path(data, size));
    (void)m;
  } catch (const cusci::error&) {
  }
  return 0;
}
