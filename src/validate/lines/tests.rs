//! Tests of the one line reader and its view.

use super::*;

/// Inputs both readers are checked on, beside a test's own long ones: empty, without a final
/// newline, blank lines, trailing space, a carriage return.
const SHORT_TEXTS: [&[u8]; 6] = [b"", b"a", b"a\n", b"a\n\nbb \n", b"\n\n", b"x\ny\r\nz"];

#[test]
fn lines_keep_numbers_and_the_final_newline() {
    let l = lines(b"a\n\nb");
    assert_eq!(l.len(), 3);
    assert_eq!(
        (l[0].number, l[0].text, l[0].terminated),
        (1, &b"a"[..], true)
    );
    assert!(l[1].is_blank());
    assert_eq!((l[2].number, l[2].terminated), (3, false));
    assert_eq!(lines(b"a\n").len(), 1);
    assert!(lines(b"").is_empty());
    assert_eq!(end_line(&lines(b"a\nb\n")), 3);
}

#[test]
fn a_source_gives_the_lines_of_the_split_whatever_the_reads() {
    let long = [vec![b'x'; 3 * COMPACT_BYTES], b"\n".to_vec()].concat();
    let many = b"ab\n".repeat(COMPACT_BYTES);
    for text in SHORT_TEXTS.iter().copied().chain([&long[..], &many[..]]) {
        let whole = lines(text);
        for step in [1, 2, 3, 7, 4096] {
            let mut source = LineSource::new(crate::validate::testing::trickle(text, step));
            // Released as a validator releases them: two behind the line read.
            for (i, expected) in whole.iter().enumerate() {
                assert_eq!(source.get(i).as_ref(), Some(expected), "{i} of {text:?}");
                source.release(i.saturating_sub(2));
                assert!(i < 3 || source.at(i - 3).is_none());
            }
            assert!(source.get(whole.len()).is_none());
            assert_eq!(source.end_line(), end_line(&whole));
            assert!(source.error().is_none());
        }
    }
}

#[test]
fn a_read_error_ends_the_lines_and_is_kept() {
    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let input = std::io::Read::chain(&b"a\nb"[..], Failing);
    let mut source = LineSource::new(std::io::BufReader::new(input));
    assert_eq!(source.get(0).map(|l| l.text), Some(&b"a"[..]));
    assert!(source.get(1).is_none(), "the cut line is not a line");
    assert_eq!(
        source.error().map(|e| e.to_string()).as_deref(),
        Some("line 2: disk on fire")
    );
    assert!(source.error().is_none());
}

#[test]
fn a_line_longer_than_the_bound_is_an_error_naming_it() {
    let longest = vec![b'x'; MAX_LINE_BYTES];
    let too_long = vec![b'y'; MAX_LINE_BYTES + 1];
    for step in [4096, 65_536, 3 * MAX_LINE_BYTES] {
        // The longest line is read whole, with or without its `\n`.
        for text in [
            [&b"a\n"[..], &longest, b"\nb\n"].concat(),
            [&b"a\n"[..], &longest].concat(),
        ] {
            let mut source = LineSource::new(crate::validate::testing::trickle(&text, step));
            assert_eq!(source.get(1).map(|l| l.text.len()), Some(MAX_LINE_BYTES));
            assert!(source.error().is_none());
        }
        let text = [&b"a\n"[..], &too_long, b"\nb\n"].concat();
        let mut source = LineSource::new(crate::validate::testing::trickle(&text, step));
        assert_eq!(source.get(0).map(|l| l.text), Some(&b"a"[..]));
        assert!(source.get(1).is_none(), "the long line is not a line");
        let error = source.error().expect("an error");
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(
            error.to_string(),
            format!("line 2: a line longer than {MAX_LINE_BYTES} bytes")
        );
    }
}

#[test]
fn read_line_reads_what_read_until_reads() {
    let text = b"a\n\nbb \r\nlast";
    for step in [1, 2, 5] {
        let (mut mine, mut theirs) = (Vec::new(), Vec::new());
        let mut a = crate::validate::testing::trickle(text, step);
        let mut b = crate::validate::testing::trickle(text, step);
        loop {
            let n = read_line(&mut a, &mut mine).unwrap();
            assert_eq!(n, b.read_until(b'\n', &mut theirs).unwrap());
            assert_eq!(mine, theirs);
            if n == 0 {
                break;
            }
        }
    }
}

#[test]
fn lines_are_the_split_of_the_whole_input() {
    // A line long enough to be handed over, then short ones read into the buffer again.
    let long = [vec![b'x'; 2 * MOVED_LINE_BYTES], b"\nab\n\nc".to_vec()].concat();
    for text in SHORT_TEXTS.iter().copied().chain([&long[..]]) {
        let whole = crate::validate::lines(text);
        for step in 1..=9 {
            let mut reader = LineReader::new(crate::validate::testing::trickle(text, step));
            assert_eq!(reader.peek_at(1).is_some(), whole.len() > 1);
            let mut got = Vec::new();
            while let Some(line) = reader.next_line() {
                got.push(line);
            }
            assert_eq!(got.len(), whole.len(), "{text:?}");
            for (a, b) in got.iter().zip(&whole) {
                assert_eq!(
                    (a.number, &a.text[..], a.terminated),
                    (b.number, b.text, b.terminated)
                );
            }
            assert_eq!(reader.pieces(), text.split(|&b| b == b'\n').count());
            assert_eq!(reader.end_line(), crate::validate::end_line(&whole));
            let mut pieces =
                LineReader::new(crate::validate::testing::trickle(text, step)).with_final_piece();
            let mut got = Vec::new();
            while let Some(line) = pieces.next_line() {
                got.push(line.text);
            }
            let split: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
            assert_eq!(got, split, "{text:?}");
        }
    }
}

#[test]
fn a_source_with_the_final_piece_holds_the_empty_piece_after_the_last_newline() {
    for text in [&b""[..], b"a", b"a\n", b"a\n\n", b"\n"] {
        let split: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        for step in [1, 2, 4096] {
            let mut source =
                LineSource::new(crate::validate::testing::trickle(text, step)).with_final_piece();
            for (i, piece) in split.iter().enumerate() {
                let line = source.get(i).expect("a piece is a line");
                assert_eq!((line.number, line.text), (i + 1, *piece), "{text:?}");
                assert_eq!(line.terminated, i + 1 < split.len());
                source.release(i);
            }
            assert!(source.get(split.len()).is_none());
            assert_eq!(source.end_line(), split.len() + 1);
        }
    }
}

#[test]
fn a_reader_hands_over_the_error_as_read_where_its_source_names_the_line() {
    let too_long = [&b"a\n"[..], &vec![b'y'; MAX_LINE_BYTES + 1], b"\n"].concat();
    for step in [7, 4096] {
        let input = || crate::validate::testing::trickle(&too_long, step);
        let mut reader = LineReader::new(input()).with_final_piece();
        assert_eq!(reader.next_line().map(|l| l.text), Some(b"a".to_vec()));
        assert!(
            reader.next_line().is_none(),
            "neither a line nor a final piece"
        );
        assert_eq!(reader.end_line(), 2);
        let error = reader.error().expect("an error");
        assert_eq!(
            error.to_string(),
            format!("a line longer than {MAX_LINE_BYTES} bytes")
        );
        assert!(reader.error().is_none());
        let mut source = LineSource::new(input()).with_final_piece();
        assert!(source.get(1).is_none());
        assert_eq!(
            source.error().map(|e| e.to_string()),
            Some(format!("line 2: {error}"))
        );
    }
}
