//! Test-set strength: which tests kill each solution that should fail, which tests kill
//! nothing (and are no correct solution's slowest, and no sample), and a small subset that
//! still kills every killable solution and still holds each correct solution's slowest test,
//! every sample (`sample*` files) and every test a `--keep` pattern names.
//!
//! Invariants: the cover holds every required test, kills every solution some test kills, and
//! is listed in test order; ties in the greedy choice go to the earliest test, so it is the
//! same on every run.

use serde::Serialize;

use super::Invocation;
use super::tags::Tag;
use super::verdict::CellVerdict;

/// The strength report of an invocation.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Strength {
    /// Per solution to kill (not correct): its name and the tests (indices) that kill it.
    pub kills: Vec<(String, Vec<usize>)>,
    /// Per correct solution: its name and its slowest test.
    pub slowest: Vec<(String, usize)>,
    /// Tests that kill nothing and are no correct solution's slowest and no sample.
    pub useless: Vec<usize>,
    /// The selected subset, in test order.
    pub cover: Vec<usize>,
}

/// The greedy minimum cover: starts from `required`, then repeatedly adds the test that kills
/// the most solutions still alive (the earliest on a tie) until every solution that some test
/// kills is killed. `killers[s]` lists the tests that kill solution `s`; a solution no test
/// kills is left alive. The tests are returned sorted.
pub fn cover(killers: &[Vec<usize>], required: &[usize]) -> Vec<usize> {
    let mut chosen: Vec<usize> = required.to_vec();
    let mut alive: Vec<bool> = killers
        .iter()
        .map(|tests| !tests.is_empty() && !tests.iter().any(|t| chosen.contains(t)))
        .collect();
    loop {
        // How many living solutions each test kills.
        let mut gain: std::collections::BTreeMap<usize, usize> = Default::default();
        for (s, tests) in killers.iter().enumerate() {
            if alive[s] {
                for &t in tests {
                    *gain.entry(t).or_default() += 1;
                }
            }
        }
        // The largest gain, the earliest test on a tie (the map is in test order).
        let Some((best, _)) = gain
            .iter()
            .fold(None, |best: Option<(usize, usize)>, (&t, &g)| match best {
                Some((_, bg)) if bg >= g => best,
                _ => Some((t, g)),
            })
        else {
            break;
        };
        chosen.push(best);
        for (s, tests) in killers.iter().enumerate() {
            if tests.contains(&best) {
                alive[s] = false;
            }
        }
    }
    chosen.sort_unstable();
    chosen.dedup();
    chosen
}

/// Whether solution `s` of `inv` must pass every test: tagged `main` or `accepted`, or
/// untagged and passing every test.
pub fn is_correct(inv: &Invocation, s: usize) -> bool {
    match inv.solutions[s].tag {
        Some(tag) => tag.correct(),
        None => inv.column(s).all(|c| c.verdict == CellVerdict::Ok),
    }
}

/// Two times within this fraction of the larger are a tie when picking a correct solution's
/// slowest test: differences that small are the machine's noise, not the test's.
pub const SLOWEST_TIE_FRACTION: f64 = 0.1;
/// Two times within this many ns are a tie too (process start-up jitter on short tests).
pub const SLOWEST_TIE_NS: u64 = 2_000_000;

/// What a sample test's file name starts with: samples are always kept and never useless.
pub const SAMPLE_PREFIX: &str = "sample";

/// Solution `s`'s slowest test for the selection: among the tests whose time (its own, or its
/// share of a whole file's run) ties with the largest (within [`SLOWEST_TIE_FRACTION`] or
/// [`SLOWEST_TIE_NS`] of it), the earliest by name, so that two runs of the same invocation
/// pick the same test.
pub fn slowest_test(inv: &Invocation, s: usize) -> Option<usize> {
    let most = inv.column(s).filter_map(|c| c.time_ns).max()?;
    let band = ((most as f64 * SLOWEST_TIE_FRACTION) as u64).max(SLOWEST_TIE_NS);
    inv.column(s)
        .enumerate()
        .filter(|(_, c)| c.time_ns.is_some_and(|t| t.saturating_add(band) >= most))
        .map(|(t, _)| t)
        .min_by(|&a, &b| inv.tests[a].name.cmp(&inv.tests[b].name))
}

/// Whether test `t` is a sample: its file's name (without folders) starts with
/// [`SAMPLE_PREFIX`].
pub fn is_sample(inv: &Invocation, t: usize) -> bool {
    let name = &inv.tests[t].file_name;
    name.rsplit(['/', '\\'])
        .next()
        .is_some_and(|base| base.starts_with(SAMPLE_PREFIX))
}

/// Whether `name` matches `pattern`, where `*` stands for any characters (none included) and
/// `?` for one. Linear in the product of the lengths (the last `*` is retried, never every
/// one), so no pattern makes it hang.
pub fn glob(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut i, mut j) = (0, 0);
    // The last `*` seen and the name's position it was matched up to.
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        match p.get(i) {
            Some('*') => {
                star = Some((i, j));
                i += 1;
            }
            Some(&c) if c == '?' || c == n[j] => {
                i += 1;
                j += 1;
            }
            _ => match star {
                Some((si, sj)) => {
                    i = si + 1;
                    j = sj + 1;
                    star = Some((si, sj + 1));
                }
                None => return false,
            },
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// Whether test `t` is kept by one of `inv.keep`'s patterns (`--keep`): matched against the
/// test's name (`dir/file.in#2`), its file's name (`dir/file.in`) and that name without
/// folders.
pub fn is_kept(inv: &Invocation, t: usize) -> bool {
    let test = &inv.tests[t];
    let base = test
        .file_name
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(&test.file_name);
    inv.keep.iter().any(|pattern| {
        [test.name.as_str(), test.file_name.as_str(), base]
            .iter()
            .any(|name| glob(pattern, name))
    })
}

/// The strength report of `inv`.
pub fn strength(inv: &Invocation) -> Strength {
    let mut report = Strength::default();
    let mut killers: Vec<Vec<usize>> = Vec::new();
    let mut optional: Vec<usize> = Vec::new();
    for (s, solution) in inv.solutions.iter().enumerate() {
        if is_correct(inv, s) {
            if let Some(t) = slowest_test(inv, s) {
                report.slowest.push((solution.name.clone(), t));
            }
        } else {
            let tests: Vec<usize> = inv
                .column(s)
                .enumerate()
                .filter(|(_, c)| c.verdict != CellVerdict::Ok)
                .map(|(t, _)| t)
                .collect();
            // A solution that may pass every test (time-limit-or-accepted) is listed with what
            // kills it, but the selection need not kill it.
            if solution.tag.is_some_and(Tag::may_pass) {
                optional.extend(tests.iter().copied());
            } else {
                killers.push(tests.clone());
            }
            report.kills.push((solution.name.clone(), tests));
        }
    }
    // Each correct solution's slowest test, and the samples and the tests `--keep` names,
    // which a problem always keeps.
    let mut required: Vec<usize> = report.slowest.iter().map(|&(_, t)| t).collect();
    required.extend((0..inv.tests.len()).filter(|&t| is_sample(inv, t) || is_kept(inv, t)));
    report.useless = (0..inv.tests.len())
        .filter(|t| {
            !required.contains(t) && !optional.contains(t) && !killers.iter().any(|k| k.contains(t))
        })
        .collect();
    report.cover = cover(&killers, &required);
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kill matrix built by hand: 6 tests, 4 solutions to kill.
    /// - a is killed by tests 1, 4;
    /// - b by 2, 4;
    /// - c by 3;
    /// - d by 3, 5;
    /// - e by nothing.
    ///
    /// Greedy: test 3 kills c and d (gain 2), test 4 kills a and b (gain 2): 3 comes first
    /// (earliest on a tie), then 4 (a, b), and every killable solution is dead: {3, 4}. With
    /// test 0 required (a correct solution's slowest), the cover is {0, 3, 4}.
    #[test]
    fn the_greedy_cover_of_a_hand_built_matrix() {
        let killers = vec![vec![1, 4], vec![2, 4], vec![3], vec![3, 5], vec![]];
        assert_eq!(cover(&killers, &[]), vec![3, 4]);
        assert_eq!(cover(&killers, &[0]), vec![0, 3, 4]);
        // A required test that already kills b and a leaves only c and d: test 3.
        assert_eq!(cover(&killers, &[4]), vec![3, 4]);
        // Nothing to kill: the required tests alone.
        assert_eq!(cover(&[], &[2, 1]), vec![1, 2]);
        assert_eq!(cover(&[vec![]], &[]), Vec::<usize>::new());
    }

    #[test]
    fn glob_matches_stars_and_question_marks() {
        assert!(glob("*", ""));
        assert!(glob("*", "a/b.in#2"));
        assert!(glob("big-*.in", "big-1.in"));
        assert!(!glob("big-*.in", "big-1.out"));
        assert!(glob("a?c", "abc"));
        assert!(!glob("a?c", "ac"));
        assert!(glob("*#2", "x.in#2"));
        assert!(!glob("*#2", "x.in#12x"));
        assert!(glob("a*b*c", "aXbYbZc"));
        assert!(!glob("a*b*c", "aXbYbZ"));
        assert!(glob("exact", "exact"));
        assert!(!glob("exact", "exactly"));
        // A pattern that makes a naive backtracking matcher take exponential time.
        let name = "a".repeat(200);
        assert!(!glob(&format!("{}b", "a*".repeat(50)), &name));
    }

    /// Greedy is not always optimal, but it must prefer the larger gain over the earlier test:
    /// test 0 kills one solution, test 1 kills three.
    #[test]
    fn the_larger_gain_wins_over_the_earlier_test() {
        let killers = vec![vec![0, 1], vec![1], vec![1], vec![2]];
        assert_eq!(cover(&killers, &[]), vec![1, 2]);
    }
}
