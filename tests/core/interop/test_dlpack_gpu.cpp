// DLPack on the device: cusci -> DLPack -> cusci round trips for every dtype and for strided views
// (same data pointer, shape, strides, dtype and values; deleter run exactly once; the memory stays
// allocated while a consumer holds it), and foreign tensors built by hand over device memory with a
// counting deleter (null strides, byte_offset, negative strides, 0-d, size 0, old-style uint8 bools).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include CUSCI_DLPACK_HEADER

#include "cusci/device.hpp"
#include "cusci/dlpack.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;

namespace {

/// Host bytes 0, 1, 2, ... as `n` elements of `t` (bool: alternating 0/1), uploaded to the device.
ndarray patterned(dtype t, const shape_t& shape) {
  host_array h(t, shape);
  auto* b = static_cast<unsigned char*>(h.data());
  for (std::size_t i = 0; i < h.nbytes(); ++i) b[i] = t == dtype::bool_ ? (i % 3 == 0) : static_cast<unsigned char>(i * 7 + 1);
  return asarray(h);
}

void check_same_bytes(const host_array& a, const host_array& b) {
  CHECK(a.dtype() == b.dtype());
  REQUIRE(a.shape() == b.shape());
  REQUIRE(a.nbytes() == b.nbytes());
  CHECK(std::memcmp(a.data(), b.data(), a.nbytes()) == 0);
}

struct foreign {
  DLManagedTensor t{};
  std::vector<std::int64_t> shape, strides;
  memory_ptr mem;  // the producer's memory, released by the deleter
  int deleted = 0;
};

void foreign_deleter(DLManagedTensor* self) {
  auto* f = static_cast<foreign*>(self->manager_ctx);
  ++f->deleted;
  f->mem.reset();
}

}  // namespace

TEST_CASE("to_dlpack -> from_dlpack round trip for every dtype, C and strided views") {
  for (int i = 0; i < n_dtypes; ++i) {
    const auto t = static_cast<dtype>(i);
    CAPTURE(dtype_name(t));
    const ndarray base = patterned(t, {6, 8});
    const std::vector<ndarray> views = {base, base[{slice{1, 6, 2}, slice{std::nullopt, std::nullopt, -3}}], base.T(),
                                        base[{2, 3}], base[{slice{0, 0}}]};
    for (std::size_t v = 0; v < views.size(); ++v) {
      CAPTURE(v);
      const ndarray& a = views[v];
      DLManagedTensor* dl = to_dlpack(a);
      const ndarray b = from_dlpack(dl);
      CHECK(b.data() == a.data());
      CHECK(b.shape() == a.shape());
      CHECK(b.strides() == a.strides());
      CHECK(b.dtype() == a.dtype());
      CHECK(b.device() == a.device());
      check_same_bytes(to_host(b), to_host(a));
    }
  }
}

TEST_CASE("an exported array's memory stays allocated until the consumer's deleter runs") {
  memory_pool& pool = get_default_memory_pool();
  synchronize();
  const std::size_t used0 = pool.used_bytes();
  DLManagedTensor* dl = nullptr;
  void* ptr = nullptr;
  {
    ndarray a = patterned(dtype::float32, {1000});
    ptr = a.data();
    dl = to_dlpack(a);
  }
  CHECK(pool.used_bytes() >= used0 + 4000);  // a is gone, its block is still in use
  {
    ndarray b = from_dlpack(dl);  // ownership of dl passes to b
    CHECK(b.data() == ptr);
    host_array h = to_host(b);
    CHECK(h.data_as<float>()[1] != 0.0f);
  }
  CHECK(pool.used_bytes() == used0);  // b gone -> deleter ran -> the block returned to the pool
}

TEST_CASE("from_dlpack of hand-built foreign tensors over device memory") {
  const ndarray src = patterned(dtype::int32, {4, 5});
  const host_array hs = to_host(src);
  const auto* hv = hs.data_as<std::int32_t>();

  SUBCASE("null strides mean C order; deleter once, when the last view goes") {
    foreign f;
    f.mem = src.memory();
    f.shape = {4, 5};
    f.t.dl_tensor = {src.data(), {kDLCUDA, src.device()}, 2, {0, 32, 1}, f.shape.data(), nullptr, 0};
    f.t.manager_ctx = &f;
    f.t.deleter = &foreign_deleter;
    ndarray view;
    {
      ndarray a = from_dlpack(&f.t);
      CHECK(a.strides() == shape_t{20, 4});
      check_same_bytes(to_host(a), hs);
      view = a[{slice{1, 3}}];
    }
    CHECK(f.deleted == 0);  // a view still holds it
    view = ndarray();
    CHECK(f.deleted == 1);
  }
  SUBCASE("byte_offset and negative strides: column 4 down to 0 of row 2") {
    foreign f;
    f.mem = src.memory();
    f.shape = {5};
    f.strides = {-1};
    f.t.dl_tensor = {src.data(), {kDLCUDA, src.device()}, 1, {0, 32, 1}, f.shape.data(), f.strides.data(),
                     static_cast<std::uint64_t>((2 * 5 + 4) * 4)};
    f.t.manager_ctx = &f;
    f.t.deleter = &foreign_deleter;
    {
      ndarray a = from_dlpack(&f.t);
      CHECK(a.strides() == shape_t{-4});
      CHECK(a.data() == static_cast<char*>(src.data()) + 14 * 4);
      const host_array h = to_host(a);
      for (int j = 0; j < 5; ++j) CHECK(h.data_as<std::int32_t>()[j] == hv[2 * 5 + 4 - j]);
    }
    CHECK(f.deleted == 1);
  }
  SUBCASE("0-d, size 0, kDLBool and old-style kDLUInt 8") {
    foreign f;
    f.mem = src.memory();
    f.t.dl_tensor = {src.data(), {kDLCUDA, src.device()}, 0, {0, 32, 1}, nullptr, nullptr, 8};
    f.t.manager_ctx = &f;
    f.t.deleter = &foreign_deleter;
    {
      ndarray a = from_dlpack(&f.t);
      CHECK(a.ndim() == 0);
      CHECK(a.item<std::int32_t>() == hv[2]);
    }
    CHECK(f.deleted == 1);
    foreign g;
    g.shape = {0, 3};
    g.t.dl_tensor = {nullptr, {kDLCUDA, src.device()}, 2, {0, 16, 1}, g.shape.data(), nullptr, 0};
    g.t.manager_ctx = &g;
    g.t.deleter = &foreign_deleter;
    {
      ndarray a = from_dlpack(&g.t);
      CHECK(a.size() == 0);
      CHECK(a.dtype() == dtype::int16);
      CHECK(a.shape() == shape_t{0, 3});
    }
    CHECK(g.deleted == 1);
    for (int code : {6, 1}) {
      foreign h;
      h.mem = src.memory();
      h.shape = {8};
      h.t.dl_tensor = {src.data(), {kDLCUDA, src.device()}, 1, {static_cast<std::uint8_t>(code), 8, 1}, h.shape.data(),
                       nullptr, 0};
      h.t.manager_ctx = &h;
      h.t.deleter = &foreign_deleter;
      ndarray a = from_dlpack(&h.t);
      CHECK(a.dtype() == (code == 6 ? dtype::bool_ : dtype::uint8));
    }
  }
}
