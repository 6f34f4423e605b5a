//! A problem package as a zip file (DOMjudge's problem zip: the package's layout, zipped, with
//! `problem.yaml` at the root of the archive or in its one top-level folder), unpacked into a
//! folder under the system's temporary folder and read from there as a package folder.
//!
//! The archive is not trusted: it is refused when it has more than [`MAX_ENTRIES`] entries or
//! unpacks to more than [`MAX_TOTAL_BYTES`] (counted as the bytes are written, not as the
//! archive claims), and an entry whose name is absolute, climbs out with `..`, is not UTF-8 or
//! is a symbolic link refuses it whole. Nothing is written outside the unpacking folder,
//! which is named after the archive's path (two archives never share one; the same archive
//! unpacks to the same folder, so its submissions' builds are reused) and emptied first.

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
    let dest = unpack_folder(zip)?;
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

/// The fresh, empty folder the archive `zip` unpacks into.
fn unpack_folder(zip: &Path) -> Result<PathBuf, PackageError> {
    let absolute = std::path::absolute(zip).unwrap_or_else(|_| zip.to_path_buf());
    let key = crate::util::digest::digest(absolute.as_os_str().as_encoded_bytes());
    let dest = std::env::temp_dir().join(UNPACK_FOLDER).join(key);
    let io = |source| PackageError::Io {
        path: dest.clone(),
        source,
    };
    if std::fs::symlink_metadata(&dest).is_ok() {
        std::fs::remove_dir_all(&dest).map_err(io)?;
    }
    std::fs::create_dir_all(&dest).map_err(io)?;
    Ok(dest)
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
}
