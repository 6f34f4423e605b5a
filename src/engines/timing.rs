//! What a row's time covers ([`Timing`]), and the runner's rule for choosing it: a case that
//! takes under [`REPEAT_BELOW_NS`] is timed in batches of calls lasting at least
//! [`MIN_TIMED_NS`] (`case-repeated`), a longer one alone (`case`); an external program run
//! once per file gets its file's time (`file`).
//!
//! The constants live here, beside the column they decide, rather than in the runner: the
//! summary and the warnings read the same figures (a case timed alone under them is rough).

use serde::{Deserialize, Serialize};

/// What a row's time covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Timing {
    /// The engine's time on this one case (a row that says nothing else).
    #[default]
    #[serde(rename = "case")]
    Case,
    /// The case was too short to time alone: `repeats` calls were timed together and the
    /// time is one call's share.
    #[serde(rename = "case-repeated")]
    CaseRepeated,
    /// A whole file's time (external programs run once per file): the same on each of its rows.
    #[serde(rename = "file")]
    File,
}

impl Timing {
    pub fn as_str(self) -> &'static str {
        match self {
            Timing::Case => "case",
            Timing::CaseRepeated => "case-repeated",
            Timing::File => "file",
        }
    }
}

/// A case timed alone in less than this is timed again by repetition: below it the clock's
/// resolution and the cost of reading it (tens of nanoseconds) are more than a few percent of
/// the time. Above it a case is timed alone: repeating every case of a few microseconds would
/// double the cost of a run over many small cases (100,000 Yut files) for a gain in accuracy
/// of a percent or two.
pub const REPEAT_BELOW_NS: u64 = 1_000;
/// How long a batch of repeated calls lasts, at least (the batch's time divided by its calls
/// is the case's time).
pub const MIN_TIMED_NS: u64 = 10_000;
