//! A problem package as a zip file (DOMjudge's problem zip: the package's layout, zipped, with
//! `problem.yaml` at the root of the archive or in its one top-level folder), unpacked into a
//! folder under the system's temporary folder and read from there as a package folder.
//!
//! The archive is not trusted: it is refused when it has more than [`MAX_ENTRIES`] entries or
//! unpacks to more than [`MAX_TOTAL_BYTES`] (counted as the bytes are written, not as the
//! archive claims), and an entry whose name is absolute, climbs out with `..`, is not UTF-8 or
//! is a symbolic link refuses it whole. Nothing is written outside the unpacking folder,
//! which is this user's (mode 0700) and named after the archive's path, size and time (two
//! archives never share one; the same archive unchanged is unpacked once and reused, its
//! submissions' builds with it). An archive is unpacked into a folder of the process's own and
//! moved into place whole, so two processes reading one archive never disturb each other.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use super::{PackageError, format_of};

/// The extension of a package's zip file.
pub const EXTENSION: &str = "zip";
/// At most this many entries in an archive (folders included).
pub const MAX_ENTRIES: usize = 100_000;
/// At most this many bytes unpacked, all entries together: 4 GiB.
pub const MAX_TOTAL_BYTES: u64 = 4 << 30;
/// The folder under the system's temporary folder where archives are unpacked.
const UNPACK_FOLDER: &str = "gamebench-zip";
/// The unix file mode bits of a symbolic link, as zip's external attributes carry them.
const MODE_TYPE_MASK: u32 = 0o170_000;
const MODE_SYMLINK: u32 = 0o120_000;

/// Whether `path` names a package's zip file (a regular file ending in `.zip`).
pub fn is_zip(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == EXTENSION) && path.is_file()
}

/// Unpacks the archive `zip` and returns the package folder in it: the unpacked root when it
/// is a package, else its one top-level folder when that is one.
pub fn unpack(zip: &Path) -> Result<PathBuf, PackageError> {
    let invalid = |message: String| PackageError::Invalid {
        path: zip.to_path_buf(),
        message,
    };
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| PackageError::Io { path, source }
    };
    let file = std::fs::File::open(zip).map_err(io(zip))?;
    let mut archive =
        ::zip::ZipArchive::new(file).map_err(|e| invalid(format!("not a zip archive: {e}")))?;
    if archive.len() > MAX_ENTRIES {
        return Err(invalid(format!(
            "{} entries: more than {MAX_ENTRIES}, refused",
            archive.len()
        )));
    }
    let dest = match unpacked_folder(zip)? {
        Unpacked::Done(dest) => dest,
        Unpacked::Fresh { dest, scratch } => {
            // Into a folder of this process's own, moved into place whole: a second process
            // unpacking the same archive never sees a half-written folder nor has it emptied
            // under it.
            if let Err(e) = extract(&mut archive, &scratch, zip) {
                let _ = std::fs::remove_dir_all(&scratch);
                return Err(e);
            }
            settle(&scratch, &dest)?;
            dest
        }
    };
    if format_of(&dest).is_some() {
        return Ok(dest);
    }
    let top: Vec<PathBuf> = std::fs::read_dir(&dest)
        .map_err(io(&dest))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    match top.as_slice() {
        [only] if only.is_dir() && format_of(only).is_some() => Ok(only.clone()),
        _ => Err(invalid(
            "no problem.yaml (nor problem.xml) at the archive's root or in its one top-level folder"
                .to_string(),
        )),
    }
}

/// Writes every entry of `archive` (the file `zip`) under `dest`, refusing it whole as the
/// module says.
fn extract(
    archive: &mut ::zip::ZipArchive<std::fs::File>,
    dest: &Path,
    zip: &Path,
) -> Result<(), PackageError> {
    let invalid = |message: String| PackageError::Invalid {
        path: zip.to_path_buf(),
        message,
    };
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| PackageError::Io { path, source }
    };
    let mut total: u64 = 0;
    for i in 0..archive.len() {
        let mut entry = archive
            .by_index(i)
            .map_err(|e| invalid(format!("entry {}: {e}", i + 1)))?;
        let name = entry
            .name()
            .map_err(|e| invalid(format!("entry {}: {e}", i + 1)))?
            .into_owned();
        let relative = safe_name(&name).ok_or_else(|| {
            invalid(format!(
                "entry {name:?}: an absolute name or one with `..`, refused"
            ))
        })?;
        if entry
            .unix_mode()
            .is_some_and(|m| m & MODE_TYPE_MASK == MODE_SYMLINK)
        {
            return Err(invalid(format!("entry {name:?}: a symbolic link, refused")));
        }
        let to = dest.join(&relative);
        if entry.is_dir() {
            std::fs::create_dir_all(&to).map_err(io(&to))?;
            continue;
        }
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&to)
            .map_err(io(&to))?;
        // One byte more than what is left: an entry past the cap is caught whatever its
        // header says.
        let left = MAX_TOTAL_BYTES - total;
        let copied = std::io::copy(&mut (&mut entry).take(left + 1), &mut out)
            .map_err(|e| invalid(format!("entry {name:?}: {e}")))?;
        total += copied;
        if total > MAX_TOTAL_BYTES {
            return Err(invalid(format!(
                "unpacks to more than {MAX_TOTAL_BYTES} bytes, refused"
            )));
        }
    }
    Ok(())
}

/// `name` as a relative path of normal components, or `None` when it is absolute, climbs
/// with `..`, or is empty.
fn safe_name(name: &str) -> Option<PathBuf> {
    let path = Path::new(name);
    let mut safe = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => safe.push(part),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    (!safe.as_os_str().is_empty()).then_some(safe)
}

/// Where the archive `zip` is unpacked: already there, or to be written into `scratch` and
/// moved to `dest`.
enum Unpacked {
    Done(PathBuf),
    Fresh { dest: PathBuf, scratch: PathBuf },
}

/// The folder of the archive `zip` under this user's unpacking folder: named after the
/// archive's path, size and modification time, so the same archive unchanged is unpacked once
/// and reused (its submissions' builds with it), and a changed one gets a folder of its own.
fn unpacked_folder(zip: &Path) -> Result<Unpacked, PackageError> {
    use std::os::unix::fs::MetadataExt;
    let absolute = std::path::absolute(zip).unwrap_or_else(|_| zip.to_path_buf());
    let meta = std::fs::metadata(zip).map_err(|source| PackageError::Io {
        path: zip.to_path_buf(),
        source,
    })?;
    let mut identity = absolute.as_os_str().as_encoded_bytes().to_vec();
    identity.extend_from_slice(
        format!("\0{}\0{}.{}", meta.len(), meta.mtime(), meta.mtime_nsec()).as_bytes(),
    );
    let key = crate::util::digest::digest(&identity);
    let base = user_folder(UNPACK_FOLDER)?;
    let dest = base.join(&key);
    match std::fs::symlink_metadata(&dest) {
        Ok(m) if m.is_dir() => return Ok(Unpacked::Done(dest)),
        // Not a folder this module made: out of the way.
        Ok(_) => std::fs::remove_file(&dest).map_err(|source| PackageError::Io {
            path: dest.clone(),
            source,
        })?,
        Err(_) => {}
    }
    let scratch = base.join(format!(
        ".{key}.{}.{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos())
    ));
    std::fs::create_dir(&scratch).map_err(|source| PackageError::Io {
        path: scratch.clone(),
        source,
    })?;
    Ok(Unpacked::Fresh { dest, scratch })
}

/// Moves the unpacked `scratch` to `dest`; when another process moved its own there first,
/// that one is used and `scratch` removed.
pub(super) fn settle(scratch: &Path, dest: &Path) -> Result<(), PackageError> {
    match std::fs::rename(scratch, dest) {
        Ok(()) => Ok(()),
        Err(_) if dest.is_dir() => {
            let _ = std::fs::remove_dir_all(scratch);
            Ok(())
        }
        Err(source) => {
            let _ = std::fs::remove_dir_all(scratch);
            Err(PackageError::Io {
                path: dest.to_path_buf(),
                source,
            })
        }
    }
}

/// This user's folder `<name>-<uid>` under the system's temporary folder, private to them
/// (mode 0700): one that is a link or belongs to someone else is refused, since another user
/// could otherwise plant the tests and programs a run executes.
pub(super) fn user_folder(name: &str) -> Result<PathBuf, PackageError> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    let base = std::env::temp_dir().join(format!("{name}-{uid}"));
    let io = |source| PackageError::Io {
        path: base.clone(),
        source,
    };
    match std::fs::DirBuilder::new().mode(0o700).create(&base) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(io(e)),
    }
    let meta = std::fs::symlink_metadata(&base).map_err(io)?;
    if !meta.is_dir() || meta.uid() != uid || meta.mode() & 0o077 != 0 {
        return Err(PackageError::Invalid {
            path: base.clone(),
            message: "not a folder of this user's alone: refused".to_string(),
        });
    }
    Ok(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_leave_the_folder_are_refused() {
        assert_eq!(
            safe_name("data/sample/1.in"),
            Some(PathBuf::from("data/sample/1.in"))
        );
        assert_eq!(
            safe_name("./problem.yaml"),
            Some(PathBuf::from("problem.yaml"))
        );
        assert_eq!(safe_name("../evil"), None);
        assert_eq!(safe_name("data/../../evil"), None);
        assert_eq!(safe_name("/etc/passwd"), None);
        assert_eq!(safe_name(""), None);
    }

    /// A zip of a package holding `problem.yaml` and one test whose input is `input`.
    fn package_zip(zip: &Path, input: &str) {
        use std::io::Write;
        let mut writer = ::zip::ZipWriter::new(std::fs::File::create(zip).unwrap());
        let options = ::zip::write::SimpleFileOptions::default();
        for (name, text) in [("problem.yaml", "name: yut\n"), ("data/secret/1.in", input)] {
            writer.start_file(name, options).unwrap();
            writer.write_all(text.as_bytes()).unwrap();
        }
        writer.finish().unwrap();
    }

    #[test]
    fn processes_unpacking_one_archive_at_once_all_read_it_whole() {
        let dir = tempfile::tempdir().unwrap();
        let zip = dir.path().join("pkg.zip");
        package_zip(&zip, "first\n");
        let roots: Vec<PathBuf> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4).map(|_| scope.spawn(|| unpack(&zip))).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap().unwrap())
                .collect()
        });
        assert!(roots.iter().all(|r| r == &roots[0]), "{roots:?}");
        let test = roots[0].join("data/secret/1.in");
        assert_eq!(std::fs::read_to_string(&test).unwrap(), "first\n");
        // No scratch folder of theirs left beside it.
        let base = roots[0].parent().unwrap();
        let key = roots[0].file_name().unwrap().to_string_lossy().into_owned();
        let scratch_left = std::fs::read_dir(base)
            .unwrap()
            .filter_map(|e| e.ok())
            .any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(&format!(".{key}."))
            });
        assert!(!scratch_left);
        // The folder is this user's alone.
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(base).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{mode:o}");
        // Unchanged, the archive is read from the same folder; changed, from another.
        assert_eq!(unpack(&zip).unwrap(), roots[0]);
        package_zip(&zip, "second, longer\n");
        let changed = unpack(&zip).unwrap();
        assert_ne!(changed, roots[0]);
        let test = changed.join("data/secret/1.in");
        assert_eq!(std::fs::read_to_string(&test).unwrap(), "second, longer\n");
        std::fs::remove_dir_all(&roots[0]).unwrap();
        std::fs::remove_dir_all(&changed).unwrap();
    }
}
