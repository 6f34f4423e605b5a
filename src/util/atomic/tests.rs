use super::*;

#[test]
fn an_uncommitted_file_leaves_the_old_one_intact() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.csv");
    std::fs::write(&path, "old\n").unwrap();
    let mut file = AtomicFile::create(&path).unwrap();
    file.write_all(b"new, half").unwrap();
    file.flush().unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
    drop(file);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);

    let mut file = AtomicFile::create(&path).unwrap();
    file.write_all(b"new\n").unwrap();
    file.commit().unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_large_file_is_replaced_whole_and_a_reader_keeps_the_old_one() {
    // Past FREE_ASIDE_BYTES the replaced file is held open over the rename and dropped
    // on a thread of its own: the new file is whole, nothing else is left in the folder,
    // and a reader that had the old file open still reads all of it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.csv");
    let old = vec![b'o'; FREE_ASIDE_BYTES as usize + 1];
    std::fs::write(&path, &old).unwrap();
    let mut reader = std::fs::File::open(&path).unwrap();
    let new = vec![b'n'; FREE_ASIDE_BYTES as usize * 2];
    let mut file = AtomicFile::create(&path).unwrap();
    file.write_all(&new).unwrap();
    file.commit().unwrap();
    assert!(std::fs::read(&path).unwrap() == new);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    let mut kept = Vec::new();
    std::io::Read::read_to_end(&mut reader, &mut kept).unwrap();
    assert!(kept == old);
    // Where a FIFO stands, nothing is opened (it would block).
    let fifo = dir.path().join("fifo");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    assert!(open_large(&fifo).is_none());
    assert!(open_large(&path).is_some());
}

#[test]
fn a_link_is_followed_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.csv");
    let link = dir.path().join("link.csv");
    std::fs::write(&target, "old\n").unwrap();
    std::os::unix::fs::symlink("real.csv", &link).unwrap();
    write_atomic(&link, b"new\n").unwrap();
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new\n");
    let mut file = AtomicFile::create(&link).unwrap();
    file.write_all(b"streamed\n").unwrap();
    file.commit().unwrap();
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "streamed\n");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn a_directory_is_refused_and_a_device_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let error = AtomicFile::create(dir.path()).err().unwrap();
    assert_eq!(error.kind(), std::io::ErrorKind::IsADirectory);
    assert!(write_atomic(dir.path(), b"x").is_err());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let null = Path::new("/dev/null");
    assert_eq!(Target::of(null).unwrap(), Target::InPlace(null.into()));
    let mut file = AtomicFile::create(null).unwrap();
    file.write_all(b"x").unwrap();
    file.commit().unwrap();
    write_atomic(null, b"x").unwrap();
    assert!(null.metadata().unwrap().file_type().is_char_device());
    if Path::new("/dev/full").exists() {
        assert!(write_atomic(Path::new("/dev/full"), b"x").is_err());
    }
}

#[test]
fn a_file_written_back_on_the_way_keeps_every_byte_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.csv");
    std::fs::write(&path, b"old").unwrap();
    let mut file = AtomicFile::create(&path).unwrap();
    // Lines of every length from 1 to 999 bytes, past three write-backs.
    let mut expected = Vec::new();
    let mut n = 0usize;
    while (expected.len() as u64) < 3 * WRITEBACK_BYTES + 12_345 {
        let line = format!("{n}:{}\n", "x".repeat(n % 997));
        file.write_all(line.as_bytes()).unwrap();
        expected.extend_from_slice(line.as_bytes());
        n += 1;
    }
    assert!(
        file.written_back >= 3 * WRITEBACK_BYTES,
        "written back on the way"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        b"old",
        "not replaced before commit"
    );
    file.commit().unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), expected);
}

#[test]
fn a_killed_run_s_temporary_file_is_removed_by_the_next_and_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.csv");
    // A process that has ended (reaped), and one that still runs.
    let mut ended = std::process::Command::new("true").spawn().unwrap();
    let ended_pid = ended.id();
    ended.wait().unwrap();
    let mut running = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let host = host();
    let stale = dir.path().join(format!("x.csv.{host}.{ended_pid}.tmp"));
    let live = dir
        .path()
        .join(format!("x.csv.{host}.{}.tmp", running.id()));
    let elsewhere = dir
        .path()
        .join(format!("x.csv.another-machine.{ended_pid}.tmp"));
    let other_file = dir.path().join(format!("y.csv.{host}.{ended_pid}.tmp"));
    let not_ours = dir
        .path()
        .join(format!("x.csv.{host}.{ended_pid}.tmp.keep"));
    for p in [&stale, &live, &elsewhere, &other_file, &not_ours] {
        std::fs::write(p, b"rows").unwrap();
    }
    let mut file = AtomicFile::create(&path).unwrap();
    file.write_all(b"new").unwrap();
    file.commit().unwrap();
    running.kill().unwrap();
    running.wait().unwrap();
    assert!(!stale.exists(), "the ended run's temporary file is removed");
    for kept in [&live, &elsewhere, &other_file, &not_ours] {
        assert!(kept.exists(), "{} is kept", kept.display());
    }
    assert_eq!(std::fs::read(&path).unwrap(), b"new");
}

#[test]
fn a_file_in_a_missing_folder_is_refused_and_no_folder_made() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b/c.out");
    let e = write_atomic(&path, b"x").unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    assert!(e.to_string().contains("does not exist"), "{e}");
    let e = AtomicFile::create(&path).err().unwrap();
    assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    assert!(Target::of(&path).unwrap().check_writable().is_err());
    assert!(!dir.path().join("a").exists(), "no folder created");
    // A file where the folder should be: an error too.
    std::fs::write(dir.path().join("a"), b"").unwrap();
    let e = write_atomic(&dir.path().join("a/c.out"), b"x").unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::NotADirectory, "{e}");
}

#[test]
fn an_output_is_refused_on_an_input_by_any_name() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("x.in");
    std::fs::write(&input, b"input").unwrap();
    let soft = dir.path().join("soft.html");
    std::os::unix::fs::symlink(&input, &soft).unwrap();
    let hard = dir.path().join("hard.html");
    std::fs::hard_link(&input, &hard).unwrap();
    let other = dir.path().join("other.html");
    std::fs::write(&other, b"other").unwrap();
    let mut inputs = Inputs::new();
    inputs.add(&input);
    inputs.add(&dir.path().join("missing.in"));
    for output in [&input, &soft, &hard] {
        let e = inputs.refuse(output).unwrap_err();
        assert_eq!(e.input, input);
        assert!(e.to_string().contains("never written over"), "{e}");
    }
    assert!(inputs.refuse(&other).is_ok());
    assert!(inputs.refuse(&dir.path().join("new.html")).is_ok());
    // The entry itself: the hard link is the input, the symbolic link is not.
    assert!(inputs.holding_entry(&hard).is_some());
    assert!(inputs.holding_entry(&soft).is_none());
}

#[test]
fn a_file_written_inside_a_folder_replaces_a_planted_link_itself() {
    let dir = tempfile::tempdir().unwrap();
    let (out, corpus) = (dir.path().join("out"), dir.path().join("corpus"));
    std::fs::create_dir_all(out.join("yut")).unwrap();
    std::fs::create_dir_all(corpus.join("yut")).unwrap();
    let input = corpus.join("yut/s2.in");
    std::fs::write(&input, b"input").unwrap();
    let planted = out.join("yut/s2.out");
    std::os::unix::fs::symlink(&input, &planted).unwrap();
    write_inside(&out, &planted, b"output").unwrap();
    assert_eq!(std::fs::read(&input).unwrap(), b"input");
    assert!(planted.symlink_metadata().unwrap().is_file());
    assert_eq!(std::fs::read(&planted).unwrap(), b"output");
    // Streamed the same way.
    std::fs::remove_file(&planted).unwrap();
    std::os::unix::fs::symlink(&input, &planted).unwrap();
    let mut file = AtomicFile::create_inside(&out, &planted).unwrap();
    file.write_all(b"streamed").unwrap();
    file.commit().unwrap();
    assert_eq!(std::fs::read(&input).unwrap(), b"input");
    // A folder inside that leads out of it is refused, nothing written through it.
    std::os::unix::fs::symlink(corpus.join("yut"), out.join("linked")).unwrap();
    let e = write_inside(&out, &out.join("linked/s2.in"), b"output").unwrap_err();
    assert!(e.to_string().contains("leads out of it"), "{e}");
    assert_eq!(std::fs::read(&input).unwrap(), b"input");
    // Missing folders under it are created.
    write_inside(&out, &out.join("a/b/c.out"), b"x").unwrap();
    assert_eq!(std::fs::read(out.join("a/b/c.out")).unwrap(), b"x");
}

#[test]
fn a_fresh_file_never_writes_through_what_was_there() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("x.in");
    std::fs::write(&input, b"input").unwrap();
    for hard in [false, true] {
        let path = dir.path().join(format!("judgemessage-{hard}.txt"));
        if hard {
            std::fs::hard_link(&input, &path).unwrap();
        } else {
            std::os::unix::fs::symlink(&input, &path).unwrap();
        }
        let mut file = create_fresh(&path).unwrap();
        file.write_all(b"message").unwrap();
        drop(file);
        assert_eq!(std::fs::read(&input).unwrap(), b"input");
        assert_eq!(std::fs::read(&path).unwrap(), b"message");
    }
    assert!(create_fresh(dir.path()).is_err());
}

#[test]
fn a_read_past_its_cap_is_an_error_saying_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    std::fs::write(&path, b"12345").unwrap();
    assert_eq!(read_capped(&path, 5).unwrap(), b"12345");
    let e = read_capped(&path, 4).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    // An endless device stops at the cap.
    let e = read_capped(Path::new("/dev/zero"), 1 << 20).unwrap_err();
    assert!(e.to_string().contains("1 MiB"), "{e}");
}
