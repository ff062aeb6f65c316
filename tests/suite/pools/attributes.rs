//! Pool attributes, counters, trims and the release threshold.
