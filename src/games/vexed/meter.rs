//! The budget of one search ([`Meter`]): expanded states counted against `--max-states`, the
//! clock looked at against `--time-limit`, and the stop flag a signal sets ([`Budget::stop`]). Shared by the `reference` and `bitset` engines, so
//! that both count work the same way (the `work` column).

use crate::game::{Budget, Stop};

/// A budget tracker shared by both engines: counts expanded states, watches the clock.
#[derive(Clone)]
pub(crate) struct Meter {
    max_states: u64,
    deadline: Option<std::time::Instant>,
    stop: Option<Stop>,
    pub expanded: u64,
}

impl Meter {
    /// How many expansions pass between two looks at the clock and the stop flag.
    const CLOCK_EVERY: u64 = 1024;

    pub fn new(budget: &Budget) -> Meter {
        Meter {
            max_states: budget.max_states.unwrap_or(u64::MAX),
            deadline: budget.deadline(std::time::Instant::now()),
            stop: budget.stop.clone(),
            expanded: 0,
        }
    }

    /// Counts one expansion; returns false when the budget is exhausted.
    pub fn tick(&mut self) -> bool {
        if self.expanded >= self.max_states {
            return false;
        }
        self.expanded += 1;
        if self.expanded.is_multiple_of(Self::CLOCK_EVERY) {
            if self.stop.as_ref().is_some_and(Stop::is_set) {
                return false;
            }
            if let Some(deadline) = self.deadline {
                return std::time::Instant::now() < deadline;
            }
        }
        true
    }

    /// True if a pause of `pause` from `now` ends before the deadline (or there is none).
    pub fn affords(&self, now: std::time::Instant, pause: std::time::Duration) -> bool {
        self.deadline.is_none_or(|deadline| now + pause < deadline)
    }
}
