// libFuzzer target: cusci::io::load_npz on arbitrary bytes (zip structure, ZIP64 records, deflate
// streams, the .npy members inside). Every member of an archive that loads is read back.
#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const cusci::io::npz_file z = cusci::io::load_npz(cusci::fuzz::input_path(data, size));
    std::size_t bytes = 0;
    for (const auto& name : z.files()) {
      if (z.is_string(name)) bytes += z.member_string(name).size();
      else bytes += z[name].nbytes();
    }
    (void)bytes;
  } catch (const cusci::error&) {
  }
  return 0;
}
