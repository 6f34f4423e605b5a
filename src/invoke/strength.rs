//! Test-set strength: which tests kill each solution that should fail, which tests kill
//! nothing (and are no correct solution's slowest), and a small subset that still kills every
//! killable solution and still holds each correct solution's slowest test.
//!
//! Invariants: the cover holds every required test, kills every solution some test kills, and
//! is listed in test order; ties in the greedy choice go to the earliest test, so it is the
//! same on every run.

use serde::Serialize;

use super::Invocation;
use super::verdict::CellVerdict;

/// The strength report of an invocation.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Strength {
    /// Per solution to kill (not correct): its name and the tests (indices) that kill it.
    pub kills: Vec<(String, Vec<usize>)>,
    /// Per correct solution: its name and its slowest test.
    pub slowest: Vec<(String, usize)>,
    /// Tests that kill nothing and are no correct solution's slowest.
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

/// The strength report of `inv`.
pub fn strength(inv: &Invocation) -> Strength {
    let mut report = Strength::default();
    let mut killers: Vec<Vec<usize>> = Vec::new();
    for (s, solution) in inv.solutions.iter().enumerate() {
        if is_correct(inv, s) {
            if let Some((t, _)) = inv.slowest(s) {
                report.slowest.push((solution.name.clone(), t));
            }
        } else {
            let tests: Vec<usize> = inv
                .column(s)
                .enumerate()
                .filter(|(_, c)| c.verdict != CellVerdict::Ok)
                .map(|(t, _)| t)
                .collect();
            killers.push(tests.clone());
            report.kills.push((solution.name.clone(), tests));
        }
    }
    let required: Vec<usize> = report.slowest.iter().map(|&(_, t)| t).collect();
    report.useless = (0..inv.tests.len())
        .filter(|t| !required.contains(t) && !killers.iter().any(|k| k.contains(t)))
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

    /// Greedy is not always optimal, but it must prefer the larger gain over the earlier test:
    /// test 0 kills one solution, test 1 kills three.
    #[test]
    fn the_larger_gain_wins_over_the_earlier_test() {
        let killers = vec![vec![0, 1], vec![1], vec![1], vec![2]];
        assert_eq!(cover(&killers, &[]), vec![1, 2]);
    }
}
