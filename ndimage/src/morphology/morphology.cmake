# Sources of the morphology family of cusci::ndimage: structuring elements and binary morphology
# (structure.cpp, binary.cpp: SciPy's argument handling; binary_kernels.cu: the device passes) and
# grey morphology (grey_*.cpp / grey_*.cu). Every .cpp / .cu file of this folder is compiled, so new
# files need no edit here.
file(GLOB _cusci_morphology_sources CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_LIST_DIR}/*.cpp
     ${CMAKE_CURRENT_LIST_DIR}/*.cu)
target_sources(cusci_ndimage PRIVATE ${_cusci_morphology_sources})
unset(_cusci_morphology_sources)
