# Tests of the hostla family of cusci::core: the internal host dense linear algebra of
# cusci/detail/host_linalg.hpp (goldens: tests/golden/gen_core_hostla.py).
cusci_add_test(test_core_hostla_host LABEL host SOURCES hostla/test_hostla_host.cpp)
target_include_directories(test_core_hostla_host PRIVATE ${PROJECT_SOURCE_DIR}/core/internal)
