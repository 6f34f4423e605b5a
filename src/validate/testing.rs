//! Inputs for the tests of streaming readers (the games' incremental parsers, the validators,
//! `check`): the bundled files and broken copies of them, and a reader that cuts them into
//! small reads. Here, in the lowest layer that reads input, so that every layer's tests can
//! use them; the contract re-exports them.

use std::io::BufRead;

/// A reader of `bytes` that returns at most `step` bytes a read (through a buffer of `step`
/// bytes), so that every line and token is cut somewhere: the chunk-boundary tests of the
/// streaming parsers and validators compare what it gives with the whole-slice result.
pub fn trickle(bytes: &[u8], step: usize) -> Box<dyn BufRead + Send> {
    struct Trickle {
        bytes: Vec<u8>,
        at: usize,
        step: usize,
    }
    impl std::io::Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len() - self.at);
            buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }
    let reader = Trickle {
        bytes: bytes.to_vec(),
        at: 0,
        step,
    };
    Box::new(std::io::BufReader::with_capacity(step, reader))
}

/// The inputs the streaming parsers and validators are checked on: every `.in` file under
/// `corpora/<folder>` and, from each of the first files, broken copies (cut at many places,
/// CRLF line ends, no final newline, blank and garbage lines inserted, the terminator
/// dropped), with a name for messages.
pub fn test_inputs(folder: &str) -> Vec<(String, Vec<u8>)> {
    /// Files whose broken copies are made (the copies grow with a file's lines).
    const MUTATED_FILES: usize = 6;
    /// Cuts per file: a cut every `len / CUTS` bytes.
    const CUTS: usize = 40;
    fn walk(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, files);
            } else if path.extension().is_some_and(|x| x == "in") {
                files.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora");
    let mut files = Vec::new();
    walk(&root.join(folder), &mut files);
    files.sort();
    assert!(!files.is_empty(), "no inputs under corpora/{folder}");
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    for (k, path) in files.iter().enumerate() {
        let bytes = std::fs::read(path).expect("a bundled file");
        let name = path.display().to_string();
        if k < MUTATED_FILES {
            let step = (bytes.len() / CUTS).max(1);
            for cut in (0..bytes.len()).step_by(step) {
                inputs.push((format!("{name} cut at {cut}"), bytes[..cut].to_vec()));
            }
            let text = String::from_utf8_lossy(&bytes);
            inputs.push((
                format!("{name} CRLF"),
                text.replace('\n', "\r\n").into_bytes(),
            ));
            inputs.push((
                format!("{name} no final newline"),
                text.trim_end_matches('\n').as_bytes().to_vec(),
            ));
            let lines: Vec<&str> = text.split('\n').collect();
            for (at, extra) in [
                (1, ""),
                (2, "zz 9"),
                (3, "7 7 X"),
                (lines.len() / 2, "  \t"),
            ] {
                let mut changed = lines.clone();
                changed.insert(at.min(changed.len()), extra);
                inputs.push((
                    format!("{name} with {extra:?} at line {at}"),
                    changed.join("\n").into_bytes(),
                ));
            }
            let no_end: Vec<&str> = lines
                .iter()
                .copied()
                .filter(|l| !l.trim().starts_with('0'))
                .collect();
            inputs.push((
                format!("{name} without lines starting 0"),
                no_end.join("\n").into_bytes(),
            ));
        }
        inputs.push((name, bytes));
    }
    for hostile in [
        &b""[..],
        b"\n",
        b"\r\n",
        b"0 0\n",
        b"x",
        b"99999999999999999999999 1\n",
        b"1 1\n\xff\xfe\n0 0\n",
        b"3\n\n\n",
    ] {
        inputs.push((format!("{hostile:?}"), hostile.to_vec()));
    }
    inputs
}
