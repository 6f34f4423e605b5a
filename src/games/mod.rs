//! The games, one folder each (rules, parser/formatter, checker, engines, generator). Register
//! a new game in [`crate::registry`].

pub mod linkpop;
pub mod samegame;
pub mod vexed;
pub mod yut;
