//! Build script: records `git describe` of the source tree (when it is a git checkout with git
//! available) in `GAMEBENCH_GIT_DESCRIBE`, for the run metadata of exports. Outside a checkout
//! nothing is set and the metadata says so; `GAMEBENCH_GIT_DESCRIBE` in the environment wins.
//! Always sets `GAMEBENCH_VERSION`, what `--version` prints: the package version and the git
//! description, or a note that there is none.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    let describe = describe();
    let package = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let version = match &describe {
        Some(describe) => format!("{package} (git {describe})"),
        None => format!("{package} (built outside a git checkout)"),
    };
    println!("cargo:rustc-env=GAMEBENCH_VERSION={version}");
}

/// The git description of the source tree, told to cargo (and the places to watch for it).
fn describe() -> Option<String> {
    println!("cargo:rerun-if-env-changed=GAMEBENCH_GIT_DESCRIBE");
    if let Ok(given) = std::env::var("GAMEBENCH_GIT_DESCRIBE") {
        println!("cargo:rustc-env=GAMEBENCH_GIT_DESCRIBE={given}");
        return Some(given);
    }
    // Re-run when HEAD moves or the index changes (a commit, a checkout); without a git
    // directory there is nothing to watch and nothing to record.
    let git_dir = git(&["rev-parse", "--absolute-git-dir"])?;
    println!("cargo:rerun-if-changed={git_dir}/HEAD");
    println!("cargo:rerun-if-changed={git_dir}/index");
    // Not `git describe --dirty`: it refreshes the index and writes it (always, just after a
    // clone), and a watched file written while this script runs makes cargo run it again at
    // the next build, and rebuild the library. `diff-index` reads the index and writes nothing.
    let mut describe = git(&["describe", "--always", "--tags"])?;
    if is_dirty() {
        describe.push_str("-dirty");
    }
    println!("cargo:rustc-env=GAMEBENCH_GIT_DESCRIBE={describe}");
    Some(describe)
}

/// Whether the working tree differs from HEAD (what `git describe --dirty` marks); false when
/// git cannot tell.
fn is_dirty() -> bool {
    Command::new("git")
        .args(["diff-index", "--quiet", "HEAD", "--"])
        .status()
        .is_ok_and(|status| status.code() == Some(1))
}
