//! Link and Pop judge files: up to 30 cases `n m` + n rows of `XA` tokens, then `0 0`.
//!
//! Options: `--cases` (default 30), `--size RxC` (ranges allowed), `--symbols` (1-26),
//! `--weights` (attribute weights such as `U1D1L1R1S4`; unnamed letters weigh 0), `--odd`
//! (symbols may occur an odd number of times; without it every symbol occurs an even number of
//! times, so sizes with an odd number of cells are refused), `--layout`:
//! - `shuffled`: the multiset of symbols in random order (the default);
//! - `diagonal`: symbol (r + c) mod k, so no two adjacent blocks are equal: no pair links
//!   with one segment at the start, and the first pops need two or three segments;
//! - `stripes`: symbol (r + 2c) mod k, adjacency-free from 3 symbols on (2 symbols give
//!   rows of one symbol: every pop is then a one-segment pop).
//!
//! Profiles differ only in their defaults (every option overrides them):
//! `random` (1-30 x 1-30, 1-26 symbols, uniform attributes), `still` (all `S`), `moving` (no
//! `S`), `worst` (30 x 30 boards found slowest for the bitboard engine by the sweep recorded
//! in `corpora/linkpop/README.md`). Invariant: every written board is within the statement's
//! limits, and unless `--odd` every symbol occurs an even number of times.

use gamebench_generators::{
    BoardArgs, Dice, FileId, GenError, Generator, Profile, range_option, size_option,
};

use super::{Attr, LinkPop, MAX_SIDE, SYMBOLS};
use crate::game::Solver;

/// Link and Pop's own `gen` options.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LinkPopArgs {
    /// `--cases` (1-30), `--size` (sides 1-30), `--symbols` (1-26).
    #[command(flatten)]
    pub board: BoardArgs,
    /// Allow symbols to occur an odd number of times.
    #[arg(long)]
    pub odd: bool,
    /// Attribute weights, e.g. U1D1L1R1S4 (unnamed letters weigh 0).
    #[arg(long)]
    pub weights: Option<String>,
    /// Board layout: shuffled, diagonal or stripes.
    #[arg(long)]
    pub layout: Option<String>,
}

const RANDOM: &str = "random";
const STILL: &str = "still";
const MOVING: &str = "moving";
const WORST: &str = "worst";

impl Generator for LinkPop {
    type Args = LinkPopArgs;
    type Tools = Solver<LinkPop>;
    const PROFILES: &'static [Profile] = &[
        Profile::new(
            RANDOM,
            "1-30 x 1-30 boards, 1-26 symbols, uniform attributes (all options apply)",
        ),
        Profile::new(STILL, "every block stands still (S)"),
        Profile::new(
            MOVING,
            "no block stands still: heavy movement after every pop",
        ),
        Profile::new(
            WORST,
            "30 x 30, 26 symbols shuffled, every block moves up: the slowest configuration of the sweep for `bitboard`",
        ),
    ];

    fn generate(
        file: &FileId<'_>,
        args: &LinkPopArgs,
        dice: &mut Dice,
        _solver: &Solver<LinkPop>,
    ) -> Result<String, GenError> {
        generate(file.profile, args, dice)
    }
}

/// Most cases per file the statement allows.
const MAX_CASES: u64 = 30;
const DEFAULT_CASES: u64 = 30;
/// Attributes in weight order (`U1D1L1R1S1`).
const ATTRS: [Attr; 5] = [Attr::Up, Attr::Down, Attr::Left, Attr::Right, Attr::Still];

/// The worst-case defaults (see the sweep in `corpora/linkpop/README.md`).
const WORST_SYMBOLS: (u64, u64) = (SYMBOLS as u64, SYMBOLS as u64);
const WORST_WEIGHTS: [u64; 5] = [1, 0, 0, 0, 0];
const WORST_LAYOUT: Layout = Layout::Shuffled;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    Shuffled,
    Diagonal,
    Stripes,
}

fn layout_option(text: Option<&str>, default: Layout) -> Result<Layout, GenError> {
    match text {
        None => Ok(default),
        Some("shuffled") => Ok(Layout::Shuffled),
        Some("diagonal") => Ok(Layout::Diagonal),
        Some("stripes") => Ok(Layout::Stripes),
        Some(other) => Err(GenError::BadOption {
            option: "--layout",
            message: format!("{other:?} is not shuffled, diagonal or stripes"),
        }),
    }
}

/// Reads `U1D1L1R1S4`-style weights: each letter of `UDLRS` at most once, followed by a number.
pub fn parse_weights(text: &str) -> Result<[u64; 5], GenError> {
    let bad = |message: String| GenError::BadOption {
        option: "--weights",
        message,
    };
    let mut weights = [0u64; 5];
    let mut seen = [false; 5];
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let slot = ATTRS
            .iter()
            .position(|a| a.letter() == bytes[i].to_ascii_uppercase())
            .ok_or_else(|| {
                bad(format!(
                    "{text:?}: expected one of UDLRS at {:?}",
                    &text[i..]
                ))
            })?;
        let letter = ATTRS[slot].letter() as char;
        if std::mem::replace(&mut seen[slot], true) {
            return Err(bad(format!("{text:?}: {letter} given twice")));
        }
        let start = i + 1;
        let mut end = start;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        weights[slot] = text[start..end]
            .parse()
            .map_err(|_| bad(format!("{text:?}: {letter} needs a weight")))?;
        i = end;
    }
    if weights.iter().all(|&w| w == 0) || weights.iter().any(|&w| w > u64::from(u32::MAX)) {
        return Err(bad(format!(
            "{text:?}: weights must not all be 0 (and each < 2^32)"
        )));
    }
    Ok(weights)
}

/// Generates one file.
fn generate(profile: &str, options: &LinkPopArgs, dice: &mut Dice) -> Result<String, GenError> {
    let worst = profile == WORST;
    let max_side = MAX_SIDE as u64;
    let cases = match options.board.cases {
        None => DEFAULT_CASES,
        Some(n) if (1..=MAX_CASES).contains(&(n as u64)) => n as u64,
        Some(n) => {
            return Err(GenError::BadOption {
                option: "--cases",
                message: format!("{n} is outside 1-{MAX_CASES}"),
            });
        }
    };
    let default_side = if worst {
        (max_side, max_side)
    } else {
        (1, max_side)
    };
    let ((rlo, rhi), (clo, chi)) =
        size_option(options.board.size.as_deref(), (default_side, default_side))?;
    if rlo < 1 || clo < 1 || rhi > max_side || chi > max_side {
        return Err(GenError::BadOption {
            option: "--size",
            message: format!("sides must lie in 1-{max_side}"),
        });
    }
    if !options.odd && rlo == rhi && clo == chi && rlo * clo % 2 == 1 {
        return Err(GenError::BadOption {
            option: "--size",
            message: format!("{rlo}x{clo} has an odd number of cells: add --odd"),
        });
    }
    let all_symbols = (1, SYMBOLS as u64);
    let symbols = range_option(
        "--symbols",
        options.board.symbols.as_deref(),
        if worst { WORST_SYMBOLS } else { all_symbols },
        all_symbols,
    )?;
    let weights = match &options.weights {
        Some(text) => parse_weights(text)?,
        None => match profile {
            STILL => [0, 0, 0, 0, 1],
            MOVING => [1, 1, 1, 1, 0],
            WORST => WORST_WEIGHTS,
            _ => [1; 5],
        },
    };
    let layout = layout_option(
        options.layout.as_deref(),
        if worst {
            WORST_LAYOUT
        } else {
            Layout::Shuffled
        },
    )?;
    let mut text = String::new();
    for _ in 0..cases {
        let (rows, cols) = loop {
            let (r, c) = (dice.range(rlo, rhi), dice.range(clo, chi));
            // An odd number of cells cannot hold even counts only; draw again.
            if options.odd || r * c % 2 == 0 {
                break (r as usize, c as usize);
            }
        };
        let kinds = dice.range(symbols.0, symbols.1) as usize;
        let cells = symbols_for(layout, rows, cols, kinds, options.odd, dice);
        text.push_str(&format!("{rows} {cols}\n"));
        for row in cells.chunks(cols) {
            let tokens: Vec<String> = row
                .iter()
                .map(|&s| {
                    format!(
                        "{}{}",
                        (b'A' + s) as char,
                        ATTRS[dice.weighted(&weights)].letter() as char
                    )
                })
                .collect();
            text.push_str(&tokens.join(" "));
            text.push('\n');
        }
    }
    text.push_str("0 0\n");
    Ok(text)
}

/// The symbols (0-based) of a `rows x cols` board in row-major order. Unless `odd`, every
/// symbol occurs an even number of times (`rows * cols` is even then).
fn symbols_for(
    layout: Layout,
    rows: usize,
    cols: usize,
    kinds: usize,
    odd: bool,
    dice: &mut Dice,
) -> Vec<u8> {
    let cells = rows * cols;
    let mut symbols: Vec<u8> = match layout {
        Layout::Shuffled if odd => (0..cells).map(|_| dice.below(kinds as u64) as u8).collect(),
        Layout::Shuffled => {
            let mut s: Vec<u8> = (0..cells / 2)
                .flat_map(|_| {
                    let k = dice.below(kinds as u64) as u8;
                    [k, k]
                })
                .collect();
            dice.shuffle(&mut s);
            s
        }
        Layout::Diagonal => (0..cells)
            .map(|i| ((i / cols + i % cols) % kinds) as u8)
            .collect(),
        Layout::Stripes => (0..cells)
            .map(|i| ((i / cols + 2 * (i % cols)) % kinds) as u8)
            .collect(),
    };
    if !odd {
        // Patterns may leave some symbols with odd counts (always an even number of them, as
        // the total is even): recolour one random cell of each such symbol but the last of a
        // pair into the other.
        let mut counts = vec![0usize; kinds];
        for &s in &symbols {
            counts[usize::from(s)] += 1;
        }
        let odd_kinds: Vec<u8> = (0..kinds as u8)
            .filter(|&k| counts[usize::from(k)] % 2 == 1)
            .collect();
        for pair in odd_kinds.chunks(2) {
            if let [from, to] = *pair {
                let cells_of: Vec<usize> = (0..cells).filter(|&i| symbols[i] == from).collect();
                symbols[*dice.pick(&cells_of)] = to;
            }
        }
    }
    symbols
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> LinkPopArgs {
        gamebench_generators::parse_args(words).unwrap()
    }
    use crate::game::Rules;

    fn file(profile: &str, options: &LinkPopArgs, seed: u64) -> String {
        crate::game::file::<LinkPop>(profile, options, seed, 0).unwrap()
    }

    /// (rows, cols, tokens) of each case.
    fn cases(text: &str) -> Vec<(usize, usize, Vec<String>)> {
        let mut lines = text.lines();
        let mut out = Vec::new();
        loop {
            let header: Vec<usize> = lines
                .next()
                .unwrap()
                .split(' ')
                .map(|t| t.parse().unwrap())
                .collect();
            if header == [0, 0] {
                assert_eq!(lines.next(), None);
                return out;
            }
            let tokens: Vec<String> = (0..header[0])
                .flat_map(|_| {
                    let row: Vec<String> = lines
                        .next()
                        .unwrap()
                        .split(' ')
                        .map(str::to_string)
                        .collect();
                    assert_eq!(row.len(), header[1]);
                    row
                })
                .collect();
            out.push((header[0], header[1], tokens));
        }
    }

    #[test]
    fn same_seed_same_bytes() {
        let o = LinkPopArgs::default();
        assert_eq!(file(RANDOM, &o, 3), file(RANDOM, &o, 3));
        assert_ne!(file(RANDOM, &o, 3), file(RANDOM, &o, 4));
    }

    #[test]
    fn counts_are_even_unless_odd_is_asked() {
        for profile in LinkPop::PROFILES {
            for layout in [None, Some("diagonal"), Some("stripes")] {
                let o = args(&layout.map_or(vec![], |l| vec!["--layout", l]));
                for (rows, cols, tokens) in cases(&file(profile.name, &o, 9)) {
                    assert!((1..=30).contains(&rows) && (1..=30).contains(&cols));
                    let mut counts = [0usize; 26];
                    for t in &tokens {
                        let b = t.as_bytes();
                        assert!(b[0].is_ascii_uppercase() && Attr::from_letter(b[1]).is_some());
                        counts[usize::from(b[0] - b'A')] += 1;
                    }
                    assert!(counts.iter().all(|c| c % 2 == 0), "{profile:?} {layout:?}");
                }
            }
        }
        let o = args(&["--odd", "--size", "3x3", "--symbols", "5"]);
        let any_odd = cases(&file(RANDOM, &o, 1)).iter().any(|(_, _, tokens)| {
            (b'A'..=b'E').any(|s| tokens.iter().filter(|t| t.as_bytes()[0] == s).count() % 2 == 1)
        });
        assert!(any_odd);
    }

    #[test]
    fn profiles_set_their_defaults() {
        let o = LinkPopArgs::default();
        let text = file(WORST, &o, 1);
        let parsed = cases(&text);
        assert_eq!(parsed.len(), 30);
        assert!(parsed.iter().all(|(r, c, _)| (*r, *c) == (30, 30)));
        let attrs = |profile: &str| -> Vec<u8> {
            cases(&file(profile, &o, 2))
                .iter()
                .flat_map(|(_, _, t)| t.iter().map(|t| t.as_bytes()[1]))
                .collect()
        };
        assert!(attrs(STILL).iter().all(|&a| a == b'S'));
        assert!(attrs(MOVING).iter().all(|&a| a != b'S'));
        let o = args(&["--cases", "2", "--weights", "L3"]);
        let parsed = cases(&file(RANDOM, &o, 5));
        assert_eq!(parsed.len(), 2);
        assert!(
            parsed
                .iter()
                .all(|(_, _, t)| t.iter().all(|t| t.ends_with('L')))
        );
    }

    #[test]
    fn generated_files_parse() {
        let text = file(RANDOM, &LinkPopArgs::default(), 7);
        assert!(
            LinkPop::parse(text.as_bytes(), &crate::game::Reading::STATEMENT)
                .iter()
                .all(|p| p.case.is_ok())
        );
    }

    #[test]
    fn bad_options_are_refused() {
        let try_with = |o: LinkPopArgs| crate::game::file::<LinkPop>(RANDOM, &o, 0, 0).is_err();
        assert!(try_with(args(&["--size", "31x2"])));
        assert!(try_with(args(&["--size", "3x3"])));
        assert!(try_with(args(&["--symbols", "27"])));
        assert!(try_with(args(&["--cases", "31"])));
        assert!(try_with(args(&["--weights", "S0"])));
        assert!(try_with(args(&["--weights", "X1"])));
        assert!(try_with(args(&["--layout", "spiral"])));
        assert_eq!(parse_weights("U1D2L3R4S5"), Ok([1, 2, 3, 4, 5]));
        assert_eq!(parse_weights("S4"), Ok([0, 0, 0, 0, 4]));
    }
}
