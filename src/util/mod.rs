//! Utilities that know nothing of games, runs or engines: each is used across the crate and
//! uses nothing of it (only each other, without a circle). One formatter of durations and counts
//! ([`units`]), one hash ([`digest`]), one median and quantile ([`stats`]), files written whole
//! or not at all ([`atomic`]), a run's metadata ([`meta`]), the progress display ([`progress`]),
//! "did you mean" ([`suggest`]), the one escaper of XML and HTML ([`markup`]) and the one way
//! SVG is written, charts and boards alike ([`svg`]).

pub mod atomic;
pub mod digest;
pub mod markup;
pub mod meta;
pub mod progress;
pub mod stats;
pub mod suggest;
pub mod svg;
pub mod units;
