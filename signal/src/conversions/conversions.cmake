# Sources of the conversions family of cusci::signal: host conversions between filter and system
# representations (tf / zpk / sos / ss), normalize, the bilinear and frequency transformations, partial
# fractions, and the LTI system classes of lti.hpp.
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/conversions_detail.cpp
  ${CMAKE_CURRENT_LIST_DIR}/conversions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transforms.cpp
  ${CMAKE_CURRENT_LIST_DIR}/residue.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lti.cpp)
