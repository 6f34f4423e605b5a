//! Programs run directly (the library's tests cannot start the launcher): shells, words,
//! limits, crashes and their messages.

use super::*;
use std::time::Instant;

#[test]
fn parses_engine_arguments() {
    assert_eq!(External::parse("table"), None);
    assert_eq!(
        External::parse("cmd:./sol --fast"),
        Some(External {
            name: "cmd:./sol --fast".into(),
            command: "./sol --fast".into(),
            shell: Shell::default(),
        })
    );
    assert_eq!(
        External::parse("mine=cmd:cat"),
        Some(External {
            name: "mine".into(),
            command: "cat".into(),
            shell: Shell::default(),
        })
    );
    assert_eq!(External::parse("cmd:"), None);
    assert_eq!(External::parse("x cmd:cat"), None);
}

#[test]
fn runs_with_stdin_and_reports_failures() {
    let ran = run_shell("tr a-z A-Z", b"abc\n", Duration::from_secs(10)).unwrap();
    assert_eq!(ran.stdout, b"ABC\n");
    let failed = run_shell("echo oops >&2; exit 3", b"", Duration::from_secs(10)).unwrap_err();
    assert!(
        matches!(&failed, ExternalError::Failed { stderr, code: Some(3), .. } if stderr == ": oops"),
        "{failed}"
    );
    assert!(!failed.cannot_start());
    let missing = run_shell("./no-such-program-here", b"", Duration::from_secs(10)).unwrap_err();
    assert!(missing.cannot_start(), "{missing}");
}

#[test]
fn a_hanging_program_is_killed_at_the_timeout() {
    let start = Instant::now();
    // The shell's child `sleep` holds stdout open: only killing the group ends it.
    let err = run_shell("sleep 30; echo late", b"", Duration::from_millis(300)).unwrap_err();
    assert!(
        matches!(
            err,
            ExternalError::Timeout {
                limit: TimeLimit::Wall,
                ..
            }
        ),
        "{err}"
    );
    assert!(start.elapsed() < Duration::from_secs(10));
}

fn program(command: &str, shell: Shell) -> External {
    External::parse(&format!("cmd:{command}"))
        .unwrap()
        .with_shell(shell)
}

#[test]
fn words_split_as_sh_would() {
    assert_eq!(
        split_words(r#"prog -a 'b c' "d \"e\"" f\ g"#).unwrap(),
        vec!["prog", "-a", "b c", "d \"e\"", "f g"]
    );
    assert_eq!(split_words("  ").unwrap(), Vec::<String>::new());
    assert_eq!(split_words("a 'b"), None);
}

#[test]
fn runs_without_a_shell_and_reports_usage() {
    let ran = run(
        &program("tr a-z A-Z", Shell::None),
        b"abc\n",
        &RunLimits::wall(Duration::from_secs(10)),
    )
    .unwrap();
    assert_eq!(ran.stdout, b"ABC\n");
    // A short program uses little CPU.
    assert!(ran.usage.user_ns + ran.usage.sys_ns < 5_000_000_000);
    // No shell: `;` is an argument, not syntax.
    let echoed = run(
        &program("echo a ; b", Shell::None),
        b"",
        &RunLimits::wall(Duration::from_secs(10)),
    )
    .unwrap();
    assert_eq!(echoed.stdout, b"a ; b\n");
}

#[test]
fn a_missing_program_is_found_before_any_run() {
    let start = Instant::now();
    let err = check_startable(&program("./no-such-prog --x", Shell::default())).unwrap_err();
    assert!(err.to_string().contains("./no-such-prog"), "{err}");
    assert!(check_startable(&program("no-such-prog-xyz", Shell::None)).is_err());
    assert!(check_startable(&program("cat", Shell::default())).is_ok());
    // Shell syntax is not second-guessed.
    assert!(check_startable(&program("X=1 cat", Shell::default())).is_ok());
    assert!(check_startable(&program("cat", "no-such-shell".parse().unwrap())).is_err());
    assert!(start.elapsed() < Duration::from_secs(1));
}

fn limited(f: impl FnOnce(&mut RunLimits)) -> RunLimits {
    let mut limits = RunLimits::wall(Duration::from_secs(20));
    f(&mut limits);
    limits
}

#[test]
fn a_crash_is_a_failure_naming_its_signal() {
    let err = run_shell("kill -SEGV $$", b"", Duration::from_secs(10)).unwrap_err();
    assert!(
        matches!(
            &err,
            ExternalError::Failed {
                signal: Some(11),
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("killed by signal 11 (SIGSEGV)"),
        "{err}"
    );
    assert!(err.usage().is_some());
    assert_eq!(describe_exit(Some(3), None), "exited with code 3");
}

#[test]
fn the_output_limit_stops_a_runaway_writer() {
    let start = Instant::now();
    let program = program("yes", Shell::default());
    let err = run(&program, b"", &limited(|l| l.output_bytes = Some(1 << 20))).unwrap_err();
    assert!(matches!(err, ExternalError::OutputLimit { .. }), "{err}");
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn the_cpu_limit_stops_a_busy_loop() {
    let start = Instant::now();
    let program = program("while :; do :; done", Shell::default());
    let err = run(
        &program,
        b"",
        &limited(|l| l.cpu = Some(Duration::from_millis(500))),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            ExternalError::Timeout {
                limit: TimeLimit::Cpu,
                ..
            }
        ),
        "{err}"
    );
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn the_stop_flag_is_off_by_default() {
    assert!(!stop_flag().load(std::sync::atomic::Ordering::Relaxed));
}

#[test]
fn calibration_times_an_empty_run() {
    let t = calibrate(&Shell::default()).unwrap();
    assert!(t > Duration::ZERO && t < Duration::from_secs(5), "{t:?}");
    assert!(calibrate(&Shell::None).is_some());
}
