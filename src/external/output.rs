//! A program's standard output as it is read: kept in memory up to [`SPILL_AT`], then spilled
//! to an unlinked temporary file, so a program writing up to its output limit costs gamebench
//! that much memory, not the limit.

use std::io::{Read, Write};
use std::sync::atomic::Ordering;

/// Bytes of output kept in memory while a program runs; past them the output goes to an
/// unlinked temporary file, so a program writing up to its output limit costs gamebench this
/// much memory, not the limit.
const SPILL_AT: usize = 8 << 20;

/// A program's standard output as it is read: in memory, then spilled to a temporary file.
#[derive(Default)]
pub(super) struct Output {
    memory: Vec<u8>,
    file: Option<std::fs::File>,
    pub(super) len: u64,
}

impl Output {
    pub(super) fn push(&mut self, bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.file.is_none() && self.memory.len() + bytes.len() > SPILL_AT {
            self.file = tempfile_in(&std::env::temp_dir()).ok();
        }
        let written = match &mut self.file {
            Some(file) => file.write_all(bytes).is_ok(),
            None => false,
        };
        if !written {
            self.memory.extend_from_slice(bytes);
        }
    }

    /// The whole output (the spilled part read back).
    pub(super) fn into_bytes(self) -> Vec<u8> {
        let mut bytes = self.memory;
        if let Some(mut file) = self.file {
            use std::io::Seek;
            bytes.reserve((self.len as usize).saturating_sub(bytes.len()));
            if file.seek(std::io::SeekFrom::Start(0)).is_ok() {
                let _ = file.read_to_end(&mut bytes);
            }
        }
        bytes
    }
}

/// A new file in `dir`, already unlinked (`O_TMPFILE`, or created and removed).
fn tempfile_in(dir: &std::path::Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let tmp = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_TMPFILE)
        .mode(0o600)
        .open(dir);
    if tmp.is_ok() {
        return tmp;
    }
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let path = dir.join(format!(
        ".gamebench-output-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)?;
    let _ = std::fs::remove_file(&path);
    Ok(file)
}
