//! Helpers shared by the integration tests, so that each is written once.
//!
//! Every module of the integration binary (`tests/integration/main.rs`) takes it in with `use crate::common;`;
//! none uses all of it, hence the `dead_code` allowance. What is here:
//!
//! - paths: [`root`] (the repository), [`s`] (a path as `&str` for an argument list),
//!   [`files`] and [`inputs`] (a folder's files, recursively, sorted), [`sample_inputs`]
//!   (the `.in` files bundled directly under `corpora/<game>/`);
//! - the binary: [`gamebench`] (a `Command` without the scheduler's shard variables),
//!   [`run`], [`run_from_root`], [`run_stdin`], [`signal`], [`text`] and [`assert_exit`] (the exit code, with the output
//!   shown when it is not the one wanted);
//! - corpora: [`game_folder`] (a temporary folder for one game's files), [`yut_samples`] (a temporary `yut` folder holding the statement's two samples
//!   and their outputs);
//! - results CSVs: [`csv_table`] (every cell, header first), [`col`], [`columns`],
//!   [`column`], and [`results`] (the library's own reading, as [`Row`]s);
//! - generators, in process: [`has_option`], [`gen_options`] and [`generate`];
//! - memory: [`measured`] and [`peak_of`] (gamebench's exit status and peak resident memory,
//!   from GNU time, or `wait4`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use gamebench::game::GameOptions;
use gamebench::game::{Budget, Game, Lent};
use gamebench::results::Row;
use gamebench_generators::FileId;

// ---- Paths ----

/// The repository (where `corpora/` is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `path` as a command-line argument.
pub fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Every file under `dir`, recursively, sorted.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn is_input(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "in")
}

/// Every `*.in` under `dir`, recursively, sorted.
pub fn inputs(dir: &Path) -> Vec<PathBuf> {
    files(dir).into_iter().filter(|p| is_input(p)).collect()
}

/// The `.in` files directly under `corpora/<game>/` (the samples and hand-made cases),
/// sorted; none when the game has no such folder.
pub fn sample_inputs(game: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root().join("corpora").join(game)) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| is_input(p))
        .collect();
    paths.sort();
    paths
}

// ---- The binary ----

/// The `gamebench` binary. The tests choose their shards: a CI job running inside a Slurm
/// array (or an indexed Kubernetes job) must not leak its own.
pub fn gamebench() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gamebench"));
    if let Some(path) = python_first_path() {
        command.env("PATH", path);
    }
    for var in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_MAX",
        "SLURM_ARRAY_TASK_STEP",
        "SLURM_CPUS_PER_TASK",
        "JOB_COMPLETION_INDEX",
    ] {
        command.env_remove(var);
    }
    command
}

/// This process's PATH with the folder of the Python interpreter that `python3` starts put
/// first, when `python3` is a shim (pyenv's are shell scripts, about 0.1 s of CPU time per
/// start): the tests' wrong solutions in Python run thousands of times, and the shim's cost
/// is nothing a test checks. `None` without Python, or when it is already first.
fn python_first_path() -> Option<&'static std::ffi::OsString> {
    static PATH: std::sync::OnceLock<Option<std::ffi::OsString>> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let out = Command::new("python3")
            .args([
                "-c",
                "import os, sys; print(os.path.dirname(os.path.realpath(sys.executable)))",
            ])
            .output()
            .ok()
            .filter(|o| o.status.success())?;
        let folder = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut folders: Vec<PathBuf> = std::env::split_paths(&path).collect();
        if folders.first() == Some(&folder) {
            return None;
        }
        folders.insert(0, folder);
        std::env::join_paths(folders).ok()
    })
    .as_ref()
}

/// `gamebench ARGS...`, its output captured (standard input is closed).
pub fn run(args: &[&str]) -> Output {
    gamebench().args(args).output().expect("gamebench runs")
}

/// `gamebench ARGS...` run from the repository, its output captured: the paths of
/// `corpora/` and `tests/wrong/` in the arguments are relative to it.
pub fn run_from_root(args: &[&str]) -> Output {
    gamebench()
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

/// `gamebench ARGS...` with `input` on standard input.
pub fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = gamebench()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The program may exit before reading (a usage error): a broken pipe is not a failure here.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

/// Sends signal `name` (`-INT`, `-KILL`...) to a running child, with `kill`.
pub fn signal(child: &std::process::Child, name: &str) {
    let status = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Bytes of an output stream as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that the program exited with `code`; the message shows what it printed.
#[track_caller]
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stderr:\n{}\nstdout:\n{}",
        text(&out.stderr),
        text(&out.stdout)
    );
}

/// Asserts that the program exited with `code` and said `why` on stderr.
#[track_caller]
pub fn assert_exit_saying(out: &Output, code: i32, why: &str) {
    assert_exit(out, code);
    assert!(text(&out.stderr).contains(why), "{}", text(&out.stderr));
}

// ---- Corpora ----

/// A temporary folder holding an empty `<game>/` folder (a run over the temporary folder
/// takes the game from that name): the temporary folder, and the game's.
pub fn game_folder(game: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join(game);
    std::fs::create_dir_all(&folder).unwrap();
    (dir, folder)
}

/// `DIR/yut/s1.in|out`, `DIR/yut/s2.in|out`: the statement's two samples (`corpora/yut/`).
pub fn yut_samples() -> tempfile::TempDir {
    let (dir, yut) = game_folder("yut");
    for n in [1, 2] {
        for ext in ["in", "out"] {
            std::fs::copy(
                root().join(format!("corpora/yut/yut-sample{n}.{ext}")),
                yut.join(format!("s{n}.{ext}")),
            )
            .unwrap();
        }
    }
    dir
}

// ---- Results CSVs ----

/// Every cell of a CSV file, row by row, the header first.
pub fn csv_table(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let mut rows = vec![header];
    for record in reader.records() {
        rows.push(record.unwrap().iter().map(String::from).collect());
    }
    rows
}

/// Where column `name` is in `header`.
pub fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name:?} in {header:?}"))
}

/// The columns `names`, in that order, of every row of a CSV (header excluded).
pub fn columns(path: &Path, names: &[&str]) -> Vec<Vec<String>> {
    let table = csv_table(path);
    let at: Vec<usize> = names.iter().map(|name| col(&table[0], name)).collect();
    table[1..]
        .iter()
        .map(|row| at.iter().map(|&i| row[i].clone()).collect())
        .collect()
}

/// Column `name` of every row of a CSV (header excluded).
pub fn column(path: &Path, name: &str) -> Vec<String> {
    columns(path, &[name]).into_iter().flatten().collect()
}

/// The rows of a results CSV as the library reads them.
pub fn results(path: &Path) -> Vec<Row> {
    gamebench::results::read_csv(std::fs::File::open(path).unwrap()).unwrap()
}

// ---- Generators ----

/// Whether the game's generator reads `--NAME`.
pub fn has_option(game: &'static dyn Game, name: &str) -> bool {
    game.generator()
        .augment_args(clap::Command::new("gen"))
        .get_arguments()
        .any(|a| a.get_long() == Some(name))
}

/// A game's generator options parsed from command-line words (`gen GAME WORDS`).
pub fn gen_options(game: &'static dyn Game, words: &[&str]) -> GameOptions {
    let cmd = game.generator().augment_args(clap::Command::new("gen"));
    let matches = cmd
        .try_get_matches_from(std::iter::once("gen").chain(words.iter().copied()))
        .unwrap();
    game.generator().options(&matches).unwrap()
}

/// File `index` of `profile` with `seed`, as the generator writes it with the game's default
/// engine.
pub fn generate(
    game: &'static dyn Game,
    options: &GameOptions,
    profile: &str,
    seed: u64,
    index: u64,
) -> String {
    let file = FileId {
        game: game.name(),
        profile,
        seed,
        index,
    };
    let lent = Lent::new(game.default_engine().name(), Budget::UNLIMITED);
    game.generator().generate(&file, options, &lent).unwrap()
}

/// One 30x30 worst-case Link Pop file of `cases` cases under `dir/linkpop/`: about a second a
/// case with the reference engine on one thread (for tests that interrupt or kill a run).
pub fn slow_linkpop(dir: &Path, cases: &str) {
    let out = run(&[
        "gen",
        "linkpop",
        "--profile",
        "worst",
        "--count",
        "1",
        "--cases",
        cases,
        "--out",
        s(&dir.join("linkpop")),
    ]);
    assert_exit(&out, 0);
}

/// GNU time, the small process [`measured`] runs gamebench under.
const GNU_TIME: &str = "/usr/bin/time";

/// A `gamebench` command whose peak resident memory [`peak_of`] can measure: gamebench started
/// by GNU time (`/usr/bin/time -f %M -o FILE`), which writes the peak to FILE. Why not wait4
/// from here: Linux gives a child the high-water mark of the image it was forked from (carried
/// over at `execve`), and this process is the one integration-test binary, holding tens of MB
/// while other tests run; GNU time is a fresh, small process, so its child's peak is its own.
/// Without GNU time, the plain command (and `peak_of` falls back to wait4).
pub fn measured() -> Command {
    if !Path::new(GNU_TIME).exists() {
        return gamebench();
    }
    let report = tempfile::NamedTempFile::new()
        .expect("a temporary file for GNU time's report")
        .into_temp_path()
        .keep()
        .expect("keep the report's path");
    let mut command = Command::new(GNU_TIME);
    command
        .args(["-f", "%M", "-o"])
        .arg(report)
        .arg(env!("CARGO_BIN_EXE_gamebench"));
    for (var, value) in gamebench().get_envs() {
        match value {
            Some(value) => command.env(var, value),
            None => command.env_remove(var),
        };
    }
    command
}

/// Runs `command` (from [`measured`]) and returns its exit status and its peak resident memory
/// (KB): GNU time's report, or `wait4`'s resource usage of the child when the command is not
/// run under GNU time.
pub fn peak_of(command: std::process::Command) -> (i32, i64) {
    let (status, peak) = peak_within(command, None)
        .unwrap_or_else(|| unreachable!("no deadline: the command is waited for"));
    (libc::WEXITSTATUS(status), peak)
}

/// [`peak_of`] with a deadline: the raw `wait4` status and the peak, or `None` when the command
/// ran past `deadline` (then its whole process group, GNU time and gamebench, is killed).
pub fn peak_within(
    mut command: std::process::Command,
    deadline: Option<Duration>,
) -> Option<(i32, i64)> {
    use std::os::unix::process::CommandExt;
    let args: Vec<_> = command.get_args().map(PathBuf::from).collect();
    let report = (command.get_program() == GNU_TIME).then(|| args[3].clone());
    // Reaped by wait4 below (its resource usage is the point).
    #[allow(clippy::zombie_processes)]
    let child = command.process_group(0).spawn().expect("gamebench starts");
    let pid = child.id() as libc::pid_t;
    let start = std::time::Instant::now();
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 writes it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        let flags = if deadline.is_some() { libc::WNOHANG } else { 0 };
        // SAFETY: pid is our child, not waited for yet; status and usage are valid pointers.
        let waited = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if waited == pid {
            break;
        }
        assert_eq!(waited, 0, "wait4 on the child");
        if deadline.is_some_and(|d| start.elapsed() > d) {
            // SAFETY: the child leads its own process group (process_group(0) above).
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            // SAFETY: as above; reaps the killed child.
            unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            if let Some(report) = report {
                let _ = std::fs::remove_file(report);
            }
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let Some(report) = report else {
        return Some((status, usage.ru_maxrss));
    };
    let text = std::fs::read_to_string(&report).expect("GNU time's report");
    let _ = std::fs::remove_file(&report);
    // GNU time writes "Command exited with non-zero status N" (or "Command terminated by
    // signal N") before the figure when the program failed; the peak is the last line.
    let peak = text
        .lines()
        .last()
        .and_then(|line| line.trim().parse().ok())
        .unwrap_or_else(|| panic!("GNU time's report is not a peak in KB: {text:?}"));
    Some((status, peak))
}

/// A JDK whose `javac` takes `--release 21` (as problemtools compiles Java): the PATH's
/// (`Some(None)`), one under /usr/lib/jvm (`Some(Some(bin))`), or none.
pub fn java21_bin() -> Option<Option<std::path::PathBuf>> {
    let takes_21 = |javac: &std::path::Path| {
        std::process::Command::new(javac)
            .args(["--release", "21", "-version"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if takes_21(std::path::Path::new("javac")) {
        return Some(None);
    }
    let mut jdks: Vec<std::path::PathBuf> = std::fs::read_dir("/usr/lib/jvm")
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path().join("bin")))
                .collect()
        })
        .unwrap_or_default();
    jdks.sort();
    jdks.into_iter()
        .find(|b| takes_21(&b.join("javac")))
        .map(Some)
}
