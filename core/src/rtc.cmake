# Sources of the rtc family of cusci::core.
