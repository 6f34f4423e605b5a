//! The results CSV written fast: the `columns!` macro that turns the column table
//! ([`super::schema`]) into the owned [`super::Row`], its borrowed [`super::Line`], the header
//! and the writer; and the writer itself, one [`Cell`] per column formatted straight into a
//! buffer, byte for byte what the `csv` crate writes for the same row (a test compares them).
//!
//! Why a writer of our own: the runner formats the lines of a chunk on the worker that solved
//! it, from borrowed fields, without building a `Row` of owned strings per case; on corpora of
//! tiny cases the CSV is a visible share of the run's time.
//!
//! Invariants: a line is written into spare capacity reserved first for the line at its
//! longest, each cell's bound given by the cell itself ([`Cell::longest`]), so no count of
//! columns is kept by hand; text is quoted only when it holds a comma, a quote or a line
//! break (quotes doubled), as the `csv` crate does.

use super::Timing;
use crate::status::{RowVerdict, Status};

/// Builds the results CSV's types from its column table (see the one invocation in
/// [`super::schema`]). Each column is `name: kind, "meaning";` with kind `text` (a `String`
/// in a row, a `&str` in a line), `digest` (hex digits in a row, a [`Digest`] in a line) or
/// `copy TYPE` (the same value in both), optionally preceded by attributes for the row's
/// field (`#[serde(default)]` for a column added after the first CSVs). The columns are in two
/// groups: the names every line of a file and engine repeats (`names { .. }`), then the rest.
macro_rules! columns {
    (@owned text) => { String };
    (@owned digest) => { String };
    (@owned copy $t:ty) => { $t };
    (@lent $a:lifetime text) => { &$a str };
    (@lent $a:lifetime digest) => { $crate::results::line::Digest<$a> };
    (@lent $a:lifetime copy $t:ty) => { $t };
    (@lend text $v:expr) => { $v.as_str() };
    (@lend digest $v:expr) => { $crate::results::line::Digest::Text($v.as_str()) };
    (@lend copy $v:expr) => { $v };
    (@keep text $v:expr) => { $v.to_string() };
    (@keep digest $v:expr) => { $v.to_hex() };
    (@keep copy $v:expr) => { $v };
    (
        names { $( $(#[$nattr:meta])* $name:ident : $nkind:ident $($nty:ty)?, $nmeaning:literal; )* }
        fields { $( $(#[$fattr:meta])* $field:ident : $fkind:ident $($fty:ty)?, $fmeaning:literal; )* }
    ) => {
        /// The header of the results CSV, in column order: a CSV without a row still has it.
        pub const COLUMNS: &[&str] = &[$(stringify!($name),)* $(stringify!($field),)*];

        /// Each column's name and meaning, in column order (the reference table of
        /// `docs/csv.md` follows it: a test checks).
        pub const COLUMN_MEANINGS: &[(&str, &str)] =
            &[$((stringify!($name), $nmeaning),)* $((stringify!($field), $fmeaning),)*];

        /// One row of the results CSV (a case, an engine, a timed run), its fields owned.
        #[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
        pub struct Row {
            $( $(#[$nattr])* #[doc = $nmeaning] pub $name: columns!(@owned $nkind $($nty)?), )*
            $( $(#[$fattr])* #[doc = $fmeaning] pub $field: columns!(@owned $fkind $($fty)?), )*
        }

        /// The fields of one CSV line, borrowed: what the runner's workers write a line from.
        #[derive(Clone, Copy)]
        pub struct Line<'a> {
            $( #[doc = $nmeaning] pub $name: columns!(@lent 'a $nkind $($nty)?), )*
            $( #[doc = $fmeaning] pub $field: columns!(@lent 'a $fkind $($fty)?), )*
        }

        impl Row {
            /// The row's fields, borrowed.
            pub fn line(&self) -> Line<'_> {
                Line {
                    $( $name: columns!(@lend $nkind self.$name), )*
                    $( $field: columns!(@lend $fkind self.$field), )*
                }
            }
        }

        impl Line<'_> {
            /// The line's fields, owned.
            pub fn row(&self) -> Row {
                Row {
                    $( $name: columns!(@keep $nkind self.$name), )*
                    $( $field: columns!(@keep $fkind self.$field), )*
                }
            }

            /// Appends a line's names (the first columns, the same on every line of a file
            /// and engine: a caller may write them once and copy the bytes) with their commas.
            pub fn write_names(out: &mut Vec<u8>, $( $name: columns!(@lent '_ $nkind $($nty)?), )*) {
                use $crate::results::line::Cell;
                $( $name.write(out); out.push(b','); )*
            }

            /// Appends the line's other fields and the line break, into spare capacity reserved
            /// for them at their longest.
            pub fn write_fields(&self, out: &mut Vec<u8>) {
                use $crate::results::line::{Cell, Out};
                let longest = 0 $( + self.$field.longest() + 1 )*;
                $crate::results::line::write_reserved(out, longest, |out| {
                    let mut first = true;
                    $(
                        if !std::mem::replace(&mut first, false) {
                            out.byte(b',');
                        }
                        self.$field.write(out);
                    )*
                    out.byte(b'\n');
                });
            }

            /// Appends the whole line.
            pub fn write(&self, out: &mut Vec<u8>) {
                Self::write_names(out, $( self.$name, )*);
                self.write_fields(out);
            }
        }
    };
}

pub(crate) use columns;

/// An output's digest as a line holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Digest<'a> {
    /// Already hex digits (or empty), as a [`super::Row`] holds it.
    Text(&'a str),
    /// A number, written as its 16 hex digits ([`crate::util::digest::hex_digits`]).
    Hash(u64),
    /// No output: an empty field.
    None,
}

impl Digest<'_> {
    /// As a row holds it: hex digits, or empty.
    pub fn to_hex(self) -> String {
        match self {
            Digest::Text(text) => text.to_string(),
            Digest::Hash(value) => crate::util::digest::hex(value),
            Digest::None => String::new(),
        }
    }
}

/// Where a line's bytes go: a vector (the names), or its spare capacity (the fields).
pub trait Out {
    fn byte(&mut self, b: u8);
    fn bytes(&mut self, s: &[u8]);
}

impl Out for Vec<u8> {
    #[inline]
    fn byte(&mut self, b: u8) {
        self.push(b);
    }

    #[inline]
    fn bytes(&mut self, s: &[u8]) {
        self.extend_from_slice(s);
    }
}

/// A vector's spare capacity written from its start, `at` bytes so far.
pub struct Spare<'a> {
    bytes: &'a mut [std::mem::MaybeUninit<u8>],
    at: usize,
}

impl Out for Spare<'_> {
    #[inline]
    fn byte(&mut self, b: u8) {
        self.bytes[self.at].write(b);
        self.at += 1;
    }

    #[inline]
    fn bytes(&mut self, s: &[u8]) {
        // Fields are short: a loop costs less than a call to copy them.
        for (to, &b) in self.bytes[self.at..self.at + s.len()].iter_mut().zip(s) {
            to.write(b);
        }
        self.at += s.len();
    }
}

/// Reserves `longest` bytes in `out`, lets `write` fill them from the start of the spare
/// capacity, and keeps what it wrote: no capacity check or length update per byte.
#[inline]
pub fn write_reserved(out: &mut Vec<u8>, longest: usize, write: impl FnOnce(&mut Spare<'_>)) {
    out.reserve(longest);
    let mut spare = Spare {
        bytes: out.spare_capacity_mut(),
        at: 0,
    };
    write(&mut spare);
    let written = spare.at;
    // SAFETY: `Spare` writes its bytes in order from the start of the spare capacity and
    // `at` counts them, so the first `written` bytes past the length are initialised (it
    // panics on an index past the capacity instead of writing there).
    unsafe { out.set_len(out.len() + written) };
}

/// One field of a line as the writer writes it.
pub trait Cell {
    /// Most bytes it can take.
    fn longest(&self) -> usize;
    fn write(&self, out: &mut impl Out);
}

/// Most bytes of a number field (`u64::MAX` has 20 digits).
const NUMBER_BYTES: usize = 20;

/// Hex digits of a digest.
const DIGEST_BYTES: usize = 16;

impl Cell for &str {
    /// Quoted, with every byte doubled.
    fn longest(&self) -> usize {
        2 * self.len() + 2
    }

    /// Quoted when it holds a comma, a quote or a line break.
    #[inline(always)]
    fn write(&self, out: &mut impl Out) {
        if self
            .bytes()
            .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
        {
            out.byte(b'"');
            for b in self.bytes() {
                if b == b'"' {
                    out.byte(b'"');
                }
                out.byte(b);
            }
            out.byte(b'"');
        } else {
            out.bytes(self.as_bytes());
        }
    }
}

impl Cell for Digest<'_> {
    fn longest(&self) -> usize {
        match self {
            Digest::Text(text) => text.longest(),
            Digest::Hash(_) | Digest::None => DIGEST_BYTES,
        }
    }

    #[inline(always)]
    fn write(&self, out: &mut impl Out) {
        match self {
            Digest::Text(text) => text.write(out),
            Digest::Hash(value) => out.bytes(&crate::util::digest::hex_digits(*value)),
            Digest::None => {}
        }
    }
}

/// Numbers, written as their decimal digits; `None` as an empty field.
macro_rules! number_cells {
    ($($t:ty),*) => {$(
        impl Cell for $t {
            fn longest(&self) -> usize {
                NUMBER_BYTES
            }

            #[inline(always)]
            fn write(&self, out: &mut impl Out) {
                number(out, *self as u64);
            }
        }

        impl Cell for Option<$t> {
            fn longest(&self) -> usize {
                NUMBER_BYTES
            }

            #[inline(always)]
            fn write(&self, out: &mut impl Out) {
                if let Some(v) = self {
                    number(out, *v as u64);
                }
            }
        }
    )*};
}

number_cells!(u64, u32, usize);

/// A status, timing or verdict name: a word of the tool's own, never quoted (a test checks
/// that none needs it).
macro_rules! word_cells {
    ($($t:ty),*) => {$(
        impl Cell for $t {
            fn longest(&self) -> usize {
                self.as_str().len()
            }

            #[inline(always)]
            fn write(&self, out: &mut impl Out) {
                out.bytes(self.as_str().as_bytes());
            }
        }
    )*};
}

word_cells!(Status, Timing, RowVerdict);

impl Cell for Option<RowVerdict> {
    fn longest(&self) -> usize {
        self.map_or(0, |v| v.longest())
    }

    #[inline(always)]
    fn write(&self, out: &mut impl Out) {
        if let Some(verdict) = self {
            verdict.write(out);
        }
    }
}

/// A number's decimal digits, two at a time.
#[inline(always)]
fn number(out: &mut impl Out, v: u64) {
    /// "00" to "99", each pair of digits at its value's place.
    const PAIRS: &[u8; 200] = b"\
        0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let mut digits = [0u8; NUMBER_BYTES];
    let mut at = digits.len();
    let mut v = v;
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        digits[at] = b'0' + v as u8;
    }
    out.bytes(&digits[at..]);
}

/// The CSV's header line: the column names (none needs quoting).
pub fn header(out: &mut Vec<u8>) {
    out.extend_from_slice(super::COLUMNS.join(",").as_bytes());
    out.push(b'\n');
}

#[cfg(test)]
mod tests;
