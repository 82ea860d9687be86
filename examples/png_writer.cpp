#include "png_writer.hpp"

#include <png.h>

#include <cstdio>
#include <memory>
#include <stdexcept>

namespace demo {

namespace {

// Writes `height` rows of `width * channels` bytes with libpng's colour type `color_type`.
void write_png8(const std::string& path, const std::uint8_t* pixels, int width, int height, int channels,
                int color_type) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!f) throw std::runtime_error("cannot open " + path + " for writing");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("libpng: cannot create the write structures");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("libpng: error while writing " + path);
  }
  png_init_io(png, f.get());
  png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y)
    png_write_row(png, const_cast<png_bytep>(pixels + static_cast<std::size_t>(y) * width * channels));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
}

}  // namespace

void write_png_gray8(const std::string& path, const std::uint8_t* pixels, int width, int height) {
  write_png8(path, pixels, width, height, 1, PNG_COLOR_TYPE_GRAY);
}

void write_png_rgb8(const std::string& path, const std::uint8_t* pixels, int width, int height) {
  write_png8(path, pixels, width, height, 3, PNG_COLOR_TYPE_RGB);
}

}  // namespace demo
