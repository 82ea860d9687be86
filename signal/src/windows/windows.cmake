# Sources of the windows family of cusci::signal: scipy.signal.windows' windows and get_window, on the
# host in double precision (firwin designs through them).
target_sources(cusci_signal PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/windows.cpp)
