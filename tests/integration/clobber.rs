//! Outputs that respect what is at their path, inputs that are regular files, up-front checks,
//! interrupted exports, and arguments that cannot panic: each test runs the real binary, with a
//! time limit on every child (killed and failed past it, never a hang).

use crate::common;

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{gamebench, s, text, yut_samples};

/// How long any child may take before it is killed and the test fails.
const LIMIT: Duration = Duration::from_secs(60);

/// Waits for `child` (stdout and stderr piped), killing it and failing past `limit`.
fn finish(mut child: Child, limit: Duration) -> Output {
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = out.read_to_end(&mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = err.read_to_end(&mut bytes);
        bytes
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("gamebench still running after {limit:?}: killed (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn spawn(command: &mut Command) -> Child {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gamebench starts")
}

/// `gamebench ARGS...` under the time limit.
fn run(args: &[&str]) -> Output {
    finish(spawn(gamebench().args(args)), LIMIT)
}

/// [`common::assert_exit`], and no panic message on stderr.
#[track_caller]
fn assert_exit(out: &Output, code: i32) {
    common::assert_exit(out, code);
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn c_path(path: &Path) -> std::ffi::CString {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap()
}

fn mkfifo(path: &Path) {
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path(path).as_ptr(), 0o644) }, 0);
}

/// A private copy of `/dev/null` (root only: mknod), so a regression cannot break the
/// machine's own; `None` when it cannot be made.
fn private_null(dir: &Path) -> Option<std::path::PathBuf> {
    let path = dir.join("null");
    let device = libc::makedev(1, 3);
    // SAFETY: a valid NUL-terminated path.
    let made = unsafe { libc::mknod(c_path(&path).as_ptr(), libc::S_IFCHR | 0o666, device) };
    (made == 0).then_some(path)
}

fn is_char_device(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .unwrap()
        .file_type()
        .is_char_device()
}

/// No temporary file (`*.tmp`) anywhere under `dir`.
#[track_caller]
fn assert_no_tmp(dir: &Path) {
    let left: Vec<_> = common::files(dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

// ---- 3. Writes that respect what is there ----

#[test]
fn a_device_stays_a_device_after_csv_and_exports() {
    let dir = yut_samples();
    let Some(null) = private_null(dir.path()) else {
        eprintln!("skipped: mknod needs root");
        return;
    };
    let yut = dir.path().join("yut");
    let out = run(&[
        "run",
        s(&yut),
        "-q",
        "--csv",
        s(&null),
        "--export-json",
        s(&null),
        "--export-markdown",
        s(&null),
    ]);
    assert_exit(&out, 0);
    assert!(is_char_device(&null), "the device was replaced by a file");
    if is_root() {
        // The machine's own, as in the issue (safe now: written in place).
        let out = run(&["run", s(&yut), "-q", "--csv", "/dev/null"]);
        assert_exit(&out, 0);
        assert!(is_char_device(Path::new("/dev/null")));
        if Path::new("/dev/full").exists() {
            let out = run(&["run", s(&yut), "-q", "--csv", "/dev/full"]);
            assert_exit(&out, 2);
            assert!(is_char_device(Path::new("/dev/full")));
        }
    }
    assert_no_tmp(dir.path());
}

#[test]
fn a_linked_csv_updates_its_target_and_keeps_the_link() {
    let dir = yut_samples();
    let yut = dir.path().join("yut");
    let target = dir.path().join("results.csv");
    let link = dir.path().join("link.csv");
    std::fs::write(&target, "stale\n").unwrap();
    std::os::unix::fs::symlink("results.csv", &link).unwrap();
    let out = run(&["run", s(&yut), "-q", "--csv", s(&link)]);
    assert_exit(&out, 0);
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    let csv = std::fs::read_to_string(&target).unwrap();
    assert!(csv.starts_with("game,") || csv.contains("s1.in"), "{csv}");
    assert_ne!(csv, "stale\n");
    assert_no_tmp(dir.path());
}

#[test]
fn a_csv_into_a_fifo_is_written_in_place() {
    let dir = yut_samples();
    let yut = dir.path().join("yut");
    let fifo = dir.path().join("rows.fifo");
    mkfifo(&fifo);
    // The reading end is opened without blocking, before the run, and read after it: the
    // rows wait in the pipe's buffer, and nothing can block if the FIFO is never written.
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let out = run(&["run", s(&yut), "-q", "--csv", s(&fifo)]);
    assert_exit(&out, 0);
    let mut rows = Vec::new();
    let _ = reader.read_to_end(&mut rows);
    assert!(text(&rows).contains("s1.in"), "{}", text(&rows));
    assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());
}

#[test]
fn a_csv_into_dev_stdout_reaches_the_pipe_it_names() {
    let dir = yut_samples();
    let yut = dir.path().join("yut");
    // The test's stdout is a pipe: `/dev/stdout` -> `/proc/self/fd/1` -> `pipe:[N]`, a link
    // whose text is no path (it was followed to a file that cannot be created).
    let out = run(&["run", s(&yut), "-q", "--csv", "/dev/stdout"]);
    assert_exit(&out, 0);
    let rows = text(&out.stdout);
    assert!(rows.starts_with("game,engine,file,case"), "{rows}");
    assert!(rows.contains("s1.in"), "{rows}");
    let out = run(&["run", s(&yut), "-q", "--csv", "/proc/self/fd/1"]);
    assert_exit(&out, 0);
    assert!(text(&out.stdout).contains("s1.in"));
}

// ---- 4. Only regular files are cases ----

#[test]
fn fifos_and_devices_named_in_are_skipped_not_read() {
    let dir = yut_samples();
    let yut = dir.path().join("yut");
    mkfifo(&yut.join("fifo.in"));
    std::os::unix::fs::symlink("/dev/zero", yut.join("zero.in")).unwrap();
    let csv = dir.path().join("r.csv");
    let shards = dir.path().join("shards");
    let resume = dir.path().join("resume.csv");
    for args in [
        vec!["run", s(&yut), "-q", "--csv", s(&csv)],
        vec![
            "run",
            s(&yut),
            "-q",
            "--shard",
            "1/2",
            "--shard-dir",
            s(&shards),
        ],
        vec!["run", s(&yut), "-q", "--resume", "--csv", s(&resume)],
        vec!["validate", "yut", s(&yut)],
    ] {
        let out = run(&args);
        assert_exit(&out, 2);
        let err = text(&out.stderr);
        assert!(
            err.contains("fifo.in: skipped: a FIFO, not a regular file"),
            "{err}"
        );
        assert!(
            err.contains("zero.in: skipped: a character device"),
            "{err}"
        );
    }
    // The regular files still ran.
    assert_eq!(common::column(&csv, "file").len(), 2);
    // A FIFO named directly is refused too.
    let out = run(&["validate", "yut", s(&yut.join("fifo.in"))]);
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("a FIFO, not a regular file"));
}

#[test]
fn an_unreadable_folder_is_reported_and_the_rest_runs() {
    let dir = yut_samples();
    let yut = dir.path().join("yut");
    let locked = yut.join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::copy(yut.join("s1.in"), locked.join("x.in")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path, m| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
    let mut command = gamebench();
    command.args(["run", s(&yut), "-q"]);
    if is_root() {
        // Root reads any folder: the child runs as `nobody`, who can read the corpus but not
        // the locked folder.
        mode(dir.path(), 0o755).unwrap();
        command.uid(65534).gid(65534);
    }
    mode(&locked, 0o000).unwrap();
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(child) = child else {
        mode(&locked, 0o755).unwrap();
        eprintln!("skipped: cannot start gamebench as nobody");
        return;
    };
    let out = finish(child, LIMIT);
    mode(&locked, 0o755).unwrap();
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(err.contains("locked: Permission denied"), "{err}");
    assert!(text(&out.stdout).contains("yut"), "the summary of the rest");
}

// ---- 5. Exports of an interrupted run ----

#[test]
fn an_interrupted_run_keeps_earlier_exports() {
    let (dir, yut) = common::game_folder("yut");
    let sample = std::fs::read(common::root().join("corpora/yut/yut-sample1.in")).unwrap();
    for i in 0..40 {
        std::fs::write(yut.join(format!("c{i:02}.in")), &sample).unwrap();
    }
    let names = ["x.json", "x.md", "x.csv", "x.svg"];
    for name in names {
        std::fs::write(dir.path().join(name), "complete\n").unwrap();
    }
    let p = |name: &str| dir.path().join(name);
    let (json, md, csv, svg) = (p("x.json"), p("x.md"), p("x.csv"), p("x.svg"));
    let child = spawn(gamebench().args([
        "run",
        s(&yut),
        "-q",
        "-j",
        "1",
        "-e",
        "cmd:sleep 0.2; cat >/dev/null",
        "--export-json",
        s(&json),
        "--export-markdown",
        s(&md),
        "--export-csv",
        s(&csv),
        "--plot",
        s(&svg),
    ]));
    std::thread::sleep(Duration::from_millis(1500));
    common::signal(&child, "-INT");
    let out = finish(child, LIMIT);
    assert_exit(&out, 130);
    for name in names {
        let path = dir.path().join(name);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "complete\n",
            "{name}"
        );
        let aside = dir.path().join(format!("{name}.interrupted"));
        assert!(aside.exists(), "{name}.interrupted: {}", text(&out.stderr));
    }
    assert_no_tmp(dir.path());
}

/// A device took the rows in place: the message names it, not a `.interrupted` beside it.
#[test]
fn an_interrupted_run_into_a_device_says_the_device_has_the_rows() {
    let (_dir, yut) = common::game_folder("yut");
    let sample = std::fs::read(common::root().join("corpora/yut/yut-sample1.in")).unwrap();
    for i in 0..40 {
        std::fs::write(yut.join(format!("c{i:02}.in")), &sample).unwrap();
    }
    let child = spawn(gamebench().args([
        "run",
        s(&yut),
        "-q",
        "-j",
        "1",
        "-e",
        "cmd:sleep 0.2; cat >/dev/null",
        "--csv",
        "/dev/null",
    ]));
    std::thread::sleep(Duration::from_millis(1500));
    common::signal(&child, "-INT");
    let out = finish(child, LIMIT);
    assert_exit(&out, 130);
    let err = text(&out.stderr);
    assert!(err.contains("are in /dev/null\n"), "{err}");
    assert!(!err.contains("/dev/null.interrupted"), "{err}");
}

// ---- 8. Checked before any work ----

#[test]
fn bad_outputs_are_refused_before_any_case_runs() {
    let dir = yut_samples();
    let yut = dir.path().join("yut");
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    let before: Vec<_> = common::files(&yut)
        .into_iter()
        .map(|p| (p.clone(), std::fs::read(p).unwrap()))
        .collect();
    let marker = dir.path().join("ran");
    let engine = format!("cmd:touch {}; cat >/dev/null", s(&marker));
    let x = dir.path().join("x.json");
    let (s1_in, s2_out) = (yut.join("s1.in"), yut.join("s2.out"));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--csv", s(&folder)], "a directory"),
        (vec!["--export-json", s(&folder)], "a directory"),
        (vec!["--plot", "nowhere/p.svg"], ""),
        (
            vec!["--csv", s(&x), "--export-json", s(&x)],
            "name the same file",
        ),
        (
            vec!["--export-markdown", s(&x), "--export-csv", s(&x)],
            "name the same file",
        ),
        (vec!["--csv", s(&s1_in)], "file of the corpus"),
        (vec!["--export-csv", s(&s2_out)], "file of the corpus"),
        (vec!["--out-dir", s(&yut)], "would overwrite"),
    ];
    for (extra, message) in cases {
        let mut args = vec!["run", s(&yut), "-q", "-e", &engine];
        args.extend(extra.iter().copied());
        let out = run(&args);
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains(message),
            "{extra:?}: {}",
            text(&out.stderr)
        );
        assert!(!marker.exists(), "{extra:?}: a case ran before the refusal");
        assert!(!x.exists());
    }
    let after: Vec<_> = common::files(&yut)
        .into_iter()
        .map(|p| (p.clone(), std::fs::read(p).unwrap()))
        .collect();
    assert_eq!(before, after, "the corpus changed");
    assert_no_tmp(dir.path());
}

#[test]
fn two_roots_with_one_relative_path_are_refused_with_out_dir() {
    let a = yut_samples();
    let b = yut_samples();
    let out_dir = a.path().join("outs");
    let out = run(&[
        "run",
        s(a.path()),
        s(b.path()),
        "-q",
        "--out-dir",
        s(&out_dir),
    ]);
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("would both write"),
        "{}",
        text(&out.stderr)
    );
    assert!(!out_dir.exists());
}

// ---- 9. No panic on any argument ----

#[test]
fn huge_durations_are_usage_errors() {
    let dir = yut_samples();
    let yut = dir.path().join("yut");
    for option in ["--timeout", "--case-timeout", "--time-limit"] {
        let out = run(&["run", s(&yut), "-q", option, "1e300"]);
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains("too long"),
            "{}",
            text(&out.stderr)
        );
    }
    for command in ["stress", "hunt"] {
        for option in ["--time", "--timeout"] {
            let out = run(&[command, "yut", "-e", "reference", option, "1e300"]);
            assert_exit(&out, 2);
        }
    }
    let out = run(&["solve", "yut", "--time-limit", "inf"]);
    assert_exit(&out, 2);
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let dir = yut_samples();
    let yut = dir.path().join("yut");
    for args in [
        vec!["list"],
        vec!["validate", "yut", s(&yut), s(&yut), s(&yut)],
        vec!["man"],
        vec!["run", s(&yut), "-q"],
        vec!["run", s(&yut), "-q", "--csv", "-"],
        vec!["run", s(&yut), "-q", "--export-json", "-"],
    ] {
        let mut child = spawn(gamebench().args(&args));
        // Closed before the child writes (or at least before it is done).
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        let quiet = status.code() == Some(0)
            || status.code() == Some(141)
            || status.signal() == Some(libc::SIGPIPE);
        assert!(quiet, "{args:?}: {status:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_closed_stderr_ends_quietly() {
    // As found: the reader of stderr (the plain progress line) goes away after one line; the
    // next line (the progress line 10 s later, or the summary) finds the pipe closed.
    let script = format!(
        "'{}' run corpora/linkpop -e reference --progress plain 2>&1 >/dev/null | head -1; echo \"status ${{PIPESTATUS[0]}}\"",
        env!("CARGO_BIN_EXE_gamebench")
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &script])
        .current_dir(crate::common::root())
        .output()
        .unwrap();
    let said = text(&out.stdout);
    let status = said.lines().last().unwrap_or_default();
    assert!(
        status == "status 141" || status == "status 0",
        "{said}{}",
        text(&out.stderr)
    );
}

#[test]
fn too_many_jobs_are_capped_with_a_warning() {
    let dir = yut_samples();
    let yut = dir.path().join("yut");
    let out = run(&["run", s(&yut), "-q", "-j", "100000"]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stderr).contains("-j 100000 is more than"),
        "{}",
        text(&out.stderr)
    );
}
