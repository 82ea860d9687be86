#pragma once
// Writes 8-bit grayscale and RGB PNG files with libpng.
#include <cstdint>
#include <string>

namespace demo {
/// Writes `pixels` ([height, width], row-major, uint8) as an 8-bit grayscale PNG.
/// @throws std::runtime_error when the file cannot be written.
void write_png_gray8(const std::string& path, const std::uint8_t* pixels, int width, int height);
/// Writes `pixels` ([height, width, 3], row-major, uint8 red, green, blue) as an 8-bit RGB PNG.
/// @throws std::runtime_error when the file cannot be written.
void write_png_rgb8(const std::string& path, const std::uint8_t* pixels, int width, int height);
}  // namespace demo
