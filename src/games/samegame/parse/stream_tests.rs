//! The streaming parse of SameGame against the whole-file parse: the same grids, lines and
//! errors whatever the size of the reads.

use super::*;

/// A reader that hands out at most `step` bytes at a time.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

fn same(input: &[u8]) {
    same_as(input, ZeroPair::AsStatement);
}

fn same_as(input: &[u8], zero_pair: ZeroPair) {
    let whole = parse_stream(input, zero_pair);
    for step in [1, 2, 3, 7, 64, 1 << 20] {
        let reader = std::io::BufReader::with_capacity(step, Trickle { bytes: input, step });
        let streamed: Vec<_> = GridStream::new(reader, zero_pair).collect();
        assert_eq!(streamed.len(), whole.len(), "step {step}: {input:?}");
        for (a, b) in streamed.iter().zip(&whole) {
            assert_eq!((a.line, &a.size), (b.line, &b.size), "step {step}");
            match (&a.case, &b.case) {
                (Ok(x), Ok(y)) => {
                    assert_eq!(format!("{x:?}"), format!("{y:?}"), "step {step}")
                }
                (x, y) => assert_eq!(x.as_ref().err(), y.as_ref().err(), "step {step}"),
            }
        }
    }
}

#[test]
fn streamed_grids_are_the_whole_parse_whatever_the_reads() {
    let inputs: &[&[u8]] = &[
        b"",
        b"0 0\n",
        b"1 1\n5\n0 0\n0 0\n",
        b"2 2\n1 2\n3 4\n1 1\n0 0\n1 3\n1 1 1\n1 2\n0 0\n0 0\n",
        b"2 2\n1 x\n3 4\n1 1\n0 0\n1 1\n7\n0 0\n0 0\n",
        b"2 2\n1 2\n\n\n3 4\n12345678901 1\n0 0\n1 1\n7\n0\n0\n0 0\n",
        b"1 1\n5\n0 0\nx 1\n1 1\n3\n0 0\n0 0\n",
        b"1 1\n5\n0 0\n1 1\n3\n",
        b"1 1\n5\n0 0\n1",
        b"1 1\n5\n0 0",
        b"1 1\n5\n0 0\n\n",
        b"1 1\n5\n0 0\n0",
        b"3 3\n1 2 3\n4 5 6\n7 8 99\n2 2\n0 0\n1 1\n1\n0 0\n0 0 trailing",
        b"1 1\n5\n-1 1\n0 0\n1 1\n5\n0 0\n0 0\n",
    ];
    for input in inputs {
        same(input);
    }
    for entry in std::fs::read_dir("corpora/samegame").expect("the bundled corpus") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "in") {
            same(&std::fs::read(&path).expect("readable"));
        }
    }
}

#[test]
fn streamed_grids_follow_the_zero_pair_reading() {
    let input = b"1 2\n5 5\n1 1\n0 0\n2 2\n1 1\n2 3\n3 0\n0 2\n1 1\n0 0\n0 0\n";
    same_as(input, ZeroPair::EndsList);
    same_as(input, ZeroPair::AsStatement);
    assert_eq!(parse_stream(input, ZeroPair::EndsList).len(), 3);
    assert_eq!(parse_stream(input, ZeroPair::AsStatement).len(), 2);
}
