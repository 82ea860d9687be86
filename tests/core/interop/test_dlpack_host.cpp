// DLPack without a GPU: export of arrays viewing host-made (never dereferenced) memory blocks for
// every dtype and layout, the deleter releasing the exported memory exactly once; rejection of
// foreign tensors with the right exception and their deleter called exactly once.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include CUSCI_DLPACK_HEADER

#include "cusci/device.hpp"
#include "cusci/dlpack.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"

using namespace cusci;

namespace {

/// A memory block at a made-up address whose release is counted (no device memory involved).
memory_ptr counted_block(std::size_t bytes, int* released) {
  return std::make_shared<memory_block>(reinterpret_cast<void*>(std::uintptr_t{1} << 20), bytes, 0, nullptr,
                                        [released](memory_block&) { ++*released; });
}

/// Expected DLPack (code, bits) per dtype, written out independently of the library's mapping.
std::pair<int, int> expected_code(dtype t) {
  switch (t) {
    case dtype::bool_: return {6, 8};
    case dtype::int8: return {0, 8};
    case dtype::int16: return {0, 16};
    case dtype::int32: return {0, 32};
    case dtype::int64: return {0, 64};
    case dtype::uint8: return {1, 8};
    case dtype::uint16: return {1, 16};
    case dtype::uint32: return {1, 32};
    case dtype::uint64: return {1, 64};
    case dtype::float32: return {2, 32};
    case dtype::float64: return {2, 64};
    case dtype::complex64: return {5, 64};
    case dtype::complex128: return {5, 128};
    default: return {2, 16};  // float16, once the dtype list has it
  }
}

struct foreign {
  DLManagedTensor t{};
  std::vector<std::int64_t> shape, strides;
  int deleted = 0;
};

void foreign_deleter(DLManagedTensor* self) { ++static_cast<foreign*>(self->manager_ctx)->deleted; }

foreign make_foreign(DLDeviceType dev, std::uint8_t code, std::uint8_t bits, std::uint16_t lanes = 1) {
  foreign f;
  f.shape = {2, 3};
  f.strides = {3, 1};
  f.t.dl_tensor.data = reinterpret_cast<void*>(std::uintptr_t{1} << 21);
  f.t.dl_tensor.device.device_type = dev;
  f.t.dl_tensor.device.device_id = 0;
  f.t.dl_tensor.ndim = 2;
  f.t.dl_tensor.dtype.code = code;
  f.t.dl_tensor.dtype.bits = bits;
  f.t.dl_tensor.dtype.lanes = lanes;
  return f;
}

template <class Exc>
void check_rejected(foreign& f, const std::string& needle) {
  f.t.dl_tensor.shape = f.shape.data();
  f.t.dl_tensor.strides = f.strides.data();
  f.t.manager_ctx = &f;
  f.t.deleter = &foreign_deleter;
  std::string msg;
  try {
    (void)from_dlpack(&f.t);
    FAIL("from_dlpack accepted the tensor");
  } catch (const Exc& e) {
    msg = e.what();
  }
  CHECK(f.deleted == 1);  // ownership passed: deleted exactly once although rejected
  CHECK_MESSAGE(msg.find(needle) != std::string::npos, msg);
  CHECK(msg.find("cusci::from_dlpack") != std::string::npos);
}

}  // namespace

TEST_CASE("to_dlpack describes every dtype and layout; its deleter releases the memory once") {
  for (int i = 0; i < n_dtypes; ++i) {
    const auto t = static_cast<dtype>(i);
    CAPTURE(dtype_name(t));
    const auto isz = static_cast<std::int64_t>(itemsize(t));
    struct layout {
      const char* name;
      shape_t shape, strides;
      std::int64_t offset;
    };
    const std::vector<layout> layouts = {
        {"C 2x3", {2, 3}, {3 * isz, isz}, 0},
        {"F 2x3", {2, 3}, {isz, 2 * isz}, 0},
        {"strided [::2, ::-1]", {3, 4}, {16 * isz, -isz}, 7 * isz},
        {"broadcast", {4, 5}, {0, isz}, 0},
        {"0-d", {}, {}, 3 * isz},
        {"size 0", {0, 4}, {0, 0}, 0},
    };
    for (const auto& l : layouts) {
      CAPTURE(l.name);
      int released = 0;
      DLManagedTensor* dl = nullptr;
      void* expected_data = nullptr;
      {
        ndarray a(counted_block(64 * 16, &released), t, l.shape, l.strides, l.offset, 0);
        expected_data = a.data();
        dl = to_dlpack(a);
      }
      CHECK(released == 0);  // the tensor keeps the memory alive
      REQUIRE(dl != nullptr);
      const DLTensor& x = dl->dl_tensor;
      CHECK(x.data == expected_data);
      CHECK(x.byte_offset == 0);
      CHECK(static_cast<int>(x.device.device_type) == 2);  // kDLCUDA
      CHECK(x.device.device_id == 0);
      CHECK(x.ndim == static_cast<int>(l.shape.size()));
      CHECK(static_cast<int>(x.dtype.code) == expected_code(t).first);
      CHECK(static_cast<int>(x.dtype.bits) == expected_code(t).second);
      CHECK(x.dtype.lanes == 1);
      REQUIRE(x.shape != nullptr);
      REQUIRE(x.strides != nullptr);
      for (std::size_t d = 0; d < l.shape.size(); ++d) {
        CHECK(x.shape[d] == l.shape[d]);
        CHECK(x.strides[d] == l.strides[d] / isz);
      }
      dl->deleter(dl);
      CHECK(released == 1);
    }
  }
}

TEST_CASE("to_dlpack rejects byte strides that are not whole elements") {
  int released = 0;
  ndarray a(counted_block(1024, &released), dtype::float64, {4}, {12}, 0, 0);
  CHECK_THROWS_AS((void)to_dlpack(a), value_error);
}

TEST_CASE("from_dlpack rejects foreign tensors and deletes them exactly once") {
  CHECK_THROWS_AS((void)from_dlpack(nullptr), value_error);
  {
    foreign f = make_foreign(kDLCPU, 2, 64);
    check_rejected<value_error>(f, "CPU memory");
  }
  {
    foreign f = make_foreign(kDLOpenCL, 2, 64);
    check_rejected<value_error>(f, "unsupported device");
  }
  {
    foreign f = make_foreign(kDLCUDA, 2, 32, 4);
    check_rejected<value_error>(f, "lanes must be 1");
  }
  {
    foreign f = make_foreign(kDLCUDA, 4, 16);  // bfloat16
    check_rejected<type_error>(f, "kDLBfloat");
  }
  {
    foreign f = make_foreign(kDLCUDA, 2, 8);  // no 8-bit float
    check_rejected<type_error>(f, "kDLFloat with 8 bits");
  }
  {
    foreign f = make_foreign(kDLCUDA, 5, 32);  // complex32
    check_rejected<type_error>(f, "kDLComplex");
  }
  {
    foreign f = make_foreign(kDLCUDA, 2, 64);
    f.shape = {2, -3};
    check_rejected<value_error>(f, "negative");
  }
  {
    foreign f = make_foreign(kDLCUDA, 2, 64);
    f.t.dl_tensor.data = nullptr;
    f.t.dl_tensor.device.device_id = 0;
    check_rejected<value_error>(f, device_count() == 0 ? "not a visible CUDA device" : "data is null");
  }
  {
    foreign f = make_foreign(kDLCUDA, 2, 64);
    f.t.dl_tensor.device.device_id = 1000;
    check_rejected<value_error>(f, "not a visible CUDA device");
  }
  {
    foreign f = make_foreign(kDLCUDA, 2, 64);
    f.t.dl_tensor.ndim = -1;
    check_rejected<value_error>(f, "ndim");
  }
}

TEST_CASE("versioned DLPack: available exactly when the dlpack.h has it") {
#if defined(DLPACK_MAJOR_VERSION) && DLPACK_MAJOR_VERSION >= 1
  CHECK(dlpack_versioned_supported());
  int released = 0;
  {
    ndarray a(counted_block(1024, &released), dtype::int16, {3, 2}, {2, 6}, 0, 0);
    DLManagedTensorVersioned* v = to_dlpack_versioned(a);
    CHECK(v->version.major == 1);
    CHECK(v->flags == 0);
    CHECK(v->dl_tensor.strides[0] == 1);
    CHECK(v->dl_tensor.strides[1] == 3);
    v->deleter(v);
  }
  CHECK(released == 1);
  struct vf {
    DLManagedTensorVersioned t{};
    std::int64_t shape[1] = {4};
    int deleted = 0;
  } f;
  f.t.version.major = 1;
  f.t.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  f.t.manager_ctx = &f;
  f.t.deleter = [](DLManagedTensorVersioned* s) { ++static_cast<vf*>(s->manager_ctx)->deleted; };
  f.t.dl_tensor.data = reinterpret_cast<void*>(std::uintptr_t{1} << 21);
  f.t.dl_tensor.device.device_type = kDLCUDA;
  f.t.dl_tensor.ndim = 1;
  f.t.dl_tensor.shape = f.shape;
  f.t.dl_tensor.dtype.code = 2;
  f.t.dl_tensor.dtype.bits = 32;
  f.t.dl_tensor.dtype.lanes = 1;
  CHECK_THROWS_AS((void)from_dlpack_versioned(&f.t), value_error);  // read-only refused
  CHECK(f.deleted == 1);
  f.t.flags = 0;
  f.t.version.major = 2;
  CHECK_THROWS_AS((void)from_dlpack_versioned(&f.t), value_error);  // unknown major version
  CHECK(f.deleted == 2);
#else
  CHECK_FALSE(dlpack_versioned_supported());
  int released = 0;
  ndarray a(counted_block(1024, &released), dtype::float32, {4}, {4}, 0, 0);
  CHECK_THROWS_AS((void)to_dlpack_versioned(a), not_implemented_error);
  CHECK_THROWS_AS((void)from_dlpack_versioned(nullptr), not_implemented_error);
#endif
}
