//! The line-at-a-time parser gives what the whole-input parser it replaced gave (kept here as
//! the oracle), on the bundled files and broken copies of them, whatever sizes the reads have.

use super::validate::{validate, validate_reader};
use super::{parse_replay, read_replay};
use crate::game::{test_inputs, trickle};

/// The whole-input parser as it was before the parser read lines one at a time.
mod whole {
    use crate::game::CaseError;
    use crate::games::yut::{MAX_TURNS, Replay, parse_turn};
    use crate::validate::quoted;

    /// Parses `N` and N turns. Blank lines after the last turn are allowed; anything else is not.
    pub(super) fn parse_replay(input: &[u8]) -> Result<Replay, CaseError> {
        let mut lines = input.split(|&b| b == b'\n').enumerate().map(|(i, l)| {
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            (i + 1, l)
        });
        let (line, header) = lines.next().unwrap_or((1, b""));
        let header = header.trim_ascii();
        if header.is_empty() {
            return Err(CaseError::new(
                line,
                "expected the number of turns N, found nothing",
            ));
        }
        let count: usize = std::str::from_utf8(header)
            .ok()
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| CaseError::new(line, format!("expected N, found {}", quoted(header))))?;
        if !(1..=MAX_TURNS).contains(&count) {
            return Err(CaseError::new(
                line,
                format!("N = {count} is outside 1..={MAX_TURNS}"),
            ));
        }
        let mut turns = Vec::with_capacity(count);
        let mut last_line = line;
        for _ in 0..count {
            let Some((line, text)) = lines.next() else {
                return Err(CaseError::new(
                    last_line + 1,
                    format!(
                        "expected {count} turns, the input ends after {}",
                        turns.len()
                    ),
                ));
            };
            last_line = line;
            turns.push(parse_turn(line, text)?);
        }
        if let Some((line, text)) = lines.find(|(_, text)| !text.trim_ascii().is_empty()) {
            return Err(CaseError::new(
                line,
                format!("unexpected text after the {count} turns: {}", quoted(text)),
            ));
        }
        Ok(Replay { turns })
    }
}

#[test]
fn a_streamed_game_is_the_whole_parse_whatever_the_reads() {
    for (name, input) in test_inputs("yut") {
        let oracle = format!("{:?}", whole::parse_replay(&input));
        assert_eq!(format!("{:?}", parse_replay(&input)), oracle, "{name}");
        for step in (1..=9).chain([4096]) {
            let streamed = read_replay(trickle(&input, step));
            assert_eq!(
                format!("{streamed:?}"),
                oracle,
                "{name} read {step} bytes at a time"
            );
        }
    }
}

#[test]
fn a_streamed_validation_is_the_whole_one_whatever_the_reads() {
    for (name, input) in test_inputs("yut") {
        let whole = validate(&input);
        for step in (1..=9).chain([4096]) {
            let streamed = validate_reader(&mut trickle(&input, step)).expect("no read error");
            assert_eq!(streamed, whole, "{name} read {step} bytes at a time");
        }
    }
}
