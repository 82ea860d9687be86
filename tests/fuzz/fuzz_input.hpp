#pragma once
// Shared by the fuzz targets: the readers take a path, so each input is written to an in-memory file
// (memfd, reused across inputs) whose /proc/self/fd path is handed to the reader. Any exception
// derived from cusci::error is the promised outcome for a bad file; anything else escapes and
// libFuzzer reports it (an uncaught std::bad_alloc, std::length_error, ... is a finding).

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace cusci::fuzz {

/// The path of an in-memory file holding exactly `data`.
inline std::string input_path(const std::uint8_t* data, std::size_t size) {
  static const int fd = [] {
    const int f = ::memfd_create("cusci-fuzz-input", 0);
    if (f < 0) std::abort();
    return f;
  }();
  if (::ftruncate(fd, 0) != 0) std::abort();
  std::size_t done = 0;
  while (done < size) {
    const ssize_t k = ::pwrite(fd, data + done, size - done, static_cast<off_t>(done));
    if (k <= 0) std::abort();
    done += static_cast<std::size_t>(k);
  }
  return "/proc/self/fd/" + std::to_string(fd);
}

}  // namespace cusci::fuzz
