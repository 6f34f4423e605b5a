//! "Did you mean ...?" for names typed on the command line: the known name nearest to a typo
//! by edit distance, when it is near enough to be a likely typo.

/// The largest edit distance worth a suggestion, for names of this length: a third of the
/// name, at least 1 and at most 3 (beyond that a "suggestion" is a guess).
fn tolerance(name: &str) -> usize {
    (name.chars().count() / 3).clamp(1, 3)
}

/// The edit distance between two strings: insertions, deletions, substitutions and swaps of
/// two neighbours (the optimal string alignment distance, the usual typos), over characters,
/// case-insensitively.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    // d[i][j]: the distance between a[..i] and b[..j].
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The candidate nearest to `name` within [`tolerance`] (ties: the first listed).
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= tolerance(name))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// ` (did you mean "x"?)` or nothing.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    nearest(name, candidates)
        .map(|c| format!(" (did you mean {c:?}?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_by_hand() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("bitset", "bitset"), 0);
        assert_eq!(edit_distance("Yut", "yut"), 0);
        // A swap of neighbours is one typo.
        assert_eq!(edit_distance("tabel", "table"), 1);
    }

    #[test]
    fn suggests_near_names_only() {
        let engines = ["reference", "bitboard"];
        assert_eq!(nearest("bitbord", engines), Some("bitboard"));
        assert_eq!(nearest("refrence", engines), Some("reference"));
        assert_eq!(nearest("astar", engines), None);
        assert_eq!(nearest("linkpo", ["linkpop", "samegame"]), Some("linkpop"));
        assert_eq!(
            did_you_mean("vexd", ["vexed"]),
            " (did you mean \"vexed\"?)"
        );
        assert_eq!(did_you_mean("zzz", ["vexed"]), "");
    }
}
