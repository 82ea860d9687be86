// libFuzzer target: cusci::io::read_npy on arbitrary bytes. A file that loads is written back and read
// again: the second read must give the same dtype, shape and bytes.
#include <cstring>

#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  cusci::host_array a;
  try {
    a = cusci::io::read_npy(cusci::fuzz::input_path(data, size));
  } catch (const cusci::error&) {
    return 0;
  }
  const std::string out = "/dev/shm/cusci-fuzz-npy-" + std::to_string(::getpid()) + ".npy";
  cusci::io::write_npy(out, a);
  const cusci::host_array b = cusci::io::read_npy(out);
  ::unlink(out.c_str());
  if (b.dtype() != a.dtype() || b.shape() != a.shape() || b.nbytes() != a.nbytes() ||
      (a.nbytes() && std::memcmp(a.data(), b.data(), a.nbytes()) != 0))
    std::abort();
  return 0;
}
