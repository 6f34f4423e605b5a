//! Unit tests of the runner through a mock executor.
