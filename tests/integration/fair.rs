//! Everything `stress` and `hunt` write is a case a judge could give: on every profile of every
//! game, `hunt` (a short work hunt) and `stress` (against a program that answers every case
//! wrongly, so every candidate fails and the shrink goes as far as the deadline lets it) write
//! only inputs that `gamebench validate` accepts.

use crate::common;

use std::path::{Path, PathBuf};

use gamebench::registry;

use common::{gamebench, has_option, s, text};

/// Cases per generated file where the game has the option: enough, and fast.
const FILE_CASES: &str = "2";
/// Evaluations of each hunt.
const EVALUATIONS: &str = "20";
/// `stress --time` of each run: the shrink is cut short by it at the latest.
const STRESS_SECONDS: &str = "2";

/// Every `.in` file under `dir`.
fn written_inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "in"));
    files.sort();
    files
}

/// Asserts `gamebench validate GAME FILE` accepts every file.
fn all_valid(game: &str, files: &[PathBuf], what: &str) {
    assert!(!files.is_empty(), "{what}: nothing written");
    for file in files {
        let out = gamebench()
            .args(["validate", game, s(file)])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{what}: {} is not valid:\n{}{}\n{}",
            file.display(),
            text(&out.stdout),
            text(&out.stderr),
            std::fs::read_to_string(file).unwrap_or_default()
        );
    }
}

#[test]
fn hunt_and_stress_write_only_valid_inputs_on_every_profile_of_every_game() {
    let tmp = tempfile::tempdir().unwrap();
    for &game in registry::GAMES {
        let name = game.name();
        let cases: &[&str] = if has_option(game, "cases") {
            &["--file-cases", FILE_CASES]
        } else {
            &[]
        };
        for profile in game.generator().profiles() {
            let what = format!("{name} {}", profile.name);
            let out = tmp.path().join(format!("hunt-{name}-{}", profile.name));
            let hunt = gamebench()
                .args(["hunt", name, "-e", game.default_engine().name()])
                .args(["--metric", "work", "--evaluations", EVALUATIONS])
                .args(["--top", "3", "--profile", profile.name, "-o", s(&out)])
                .args(cases)
                .output()
                .unwrap();
            assert_eq!(
                hunt.status.code(),
                Some(0),
                "{what}: {}",
                text(&hunt.stderr)
            );
            all_valid(
                name,
                &written_inputs(&out.join(name)),
                &format!("hunt {what}"),
            );

            let out = tmp.path().join(format!("stress-{name}-{}", profile.name));
            let stress = gamebench()
                .args(["stress", name, "-e", game.default_engine().name()])
                .args(["-e", "wrong=cmd:cat >/dev/null; echo 0"])
                .args(["--profile", profile.name, "--time", STRESS_SECONDS])
                .args(["-o", s(&out)])
                .args(cases)
                .output()
                .unwrap();
            assert_eq!(
                stress.status.code(),
                Some(1),
                "{what}: {}{}",
                text(&stress.stdout),
                text(&stress.stderr)
            );
            let files = written_inputs(&out.join(name));
            assert_eq!(
                files.len(),
                2,
                "{what}: the failing input and the shrunk one"
            );
            all_valid(name, &files, &format!("stress {what}"));
        }
    }
}
