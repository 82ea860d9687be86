// Memory hooks without a GPU: installation order and nesting of guards (per thread), the JSON lines
// of debug_print_hook and the counters of counting_hook, driven with synthetic events.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cusci/memory.hpp"

using namespace cusci;

namespace {
struct named_hook : memory_hook {
  explicit named_hook(std::string n, std::vector<std::string>* log) : name(std::move(n)), log_(log) {}
  void malloc_preprocess(const memory_hook_event&) override { log_->push_back(name + ":malloc_pre"); }
  std::string name;
  std::vector<std::string>* log_;
};
}  // namespace

TEST_CASE("memory_hook_guard installs hooks per thread, in order, and nests") {
  CHECK(get_memory_hooks().empty());
  std::vector<std::string> log;
  named_hook a("a", &log), b("b", &log);
  {
    memory_hook_guard ga(a);
    CHECK(get_memory_hooks() == std::vector<memory_hook*>{&a});
    {
      memory_hook_guard gb(b);
      CHECK(get_memory_hooks() == std::vector<memory_hook*>{&a, &b});
      {
        memory_hook_guard ga2(a);  // the same hook twice: removed one level at a time
        CHECK(get_memory_hooks().size() == 3);
      }
      CHECK(get_memory_hooks() == std::vector<memory_hook*>{&a, &b});
      std::thread other([] { CHECK(get_memory_hooks().empty()); });  // thread-local, as CuPy's
      other.join();
    }
    CHECK(get_memory_hooks() == std::vector<memory_hook*>{&a});
  }
  CHECK(get_memory_hooks().empty());
}

TEST_CASE("debug_print_hook writes one JSON line per postprocess event") {
  std::ostringstream os;
  debug_print_hook h(os);
  memory_hook_event e;
  e.device_id = 1;
  e.size = 100;
  e.mem_size = 512;
  e.mem_ptr = reinterpret_cast<void*>(0x1000);
  h.malloc_preprocess(e);  // not printed
  h.malloc_postprocess(e);
  h.alloc_postprocess(e);
  h.free_postprocess(e);
  std::istringstream is(os.str());
  std::vector<std::string> lines;
  for (std::string l; std::getline(is, l);) lines.push_back(l);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].rfind("{\"hook\":\"malloc\",\"device_id\":1,\"size\":100,\"mem_size\":512,\"mem_ptr\":\"0x1000\"", 0) == 0);
  CHECK(lines[1].rfind("{\"hook\":\"alloc\"", 0) == 0);
  CHECK(lines[2].rfind("{\"hook\":\"free\"", 0) == 0);
  for (const auto& l : lines) CHECK(l.back() == '}');
}

TEST_CASE("counting_hook counts events and bytes") {
  counting_hook h;
  memory_hook_event e;
  e.mem_size = 1024;
  h.malloc_postprocess(e);
  h.malloc_postprocess(e);
  h.alloc_postprocess(e);
  e.mem_size = 512;
  h.free_postprocess(e);
  CHECK(h.n_mallocs() == 2);
  CHECK(h.malloc_bytes() == 2048);
  CHECK(h.n_allocs() == 1);
  CHECK(h.alloc_bytes() == 1024);
  CHECK(h.n_frees() == 1);
  CHECK(h.free_bytes() == 512);
}
