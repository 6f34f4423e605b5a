//! The Yut board: its 29 stations, the four routes, where each station is drawn, the 32 x 32
//! template, and the tokens.
//!
//! Everything here is the spec (`spec/yut.md`) written as data; the engines decide nothing here.

/// One of the 29 stations of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Station {
    Do,
    Gae,
    Geol,
    Yut,
    Mo,
    DuetDo,
    DuetGae,
    DuetGeol,
    DuetYut,
    DuetMo,
    ChiDo,
    ChiGae,
    ChiGeol,
    ChiYut,
    ChiMo,
    NalDo,
    NalGae,
    NalGeol,
    NalYut,
    ChamMeoki,
    MoDo,
    MoGae,
    Bang,
    SokYut,
    SokMo,
    DuetModo,
    DuetMogae,
    Saryeo,
    Anchi,
}

/// Number of stations on the board.
pub const STATION_COUNT: usize = 29;

impl Station {
    /// Every station, in declaration order (`ALL[s as usize] == s`).
    pub const ALL: [Station; STATION_COUNT] = {
        use Station::*;
        [
            Do, Gae, Geol, Yut, Mo, DuetDo, DuetGae, DuetGeol, DuetYut, DuetMo, ChiDo, ChiGae,
            ChiGeol, ChiYut, ChiMo, NalDo, NalGae, NalGeol, NalYut, ChamMeoki, MoDo, MoGae, Bang,
            SokYut, SokMo, DuetModo, DuetMogae, Saryeo, Anchi,
        ]
    };

    /// Row and column of the top-left '.' of the station's 2 x 2 block in the drawing.
    pub const fn corner(self) -> (usize, usize) {
        use Station::*;
        match self {
            Do => (24, 30),
            Gae => (18, 30),
            Geol => (12, 30),
            Yut => (6, 30),
            Mo => (0, 30),
            DuetDo => (0, 24),
            DuetGae => (0, 18),
            DuetGeol => (0, 12),
            DuetYut => (0, 6),
            DuetMo => (0, 0),
            ChiDo => (6, 0),
            ChiGae => (12, 0),
            ChiGeol => (18, 0),
            ChiYut => (24, 0),
            ChiMo => (30, 0),
            NalDo => (30, 6),
            NalGae => (30, 12),
            NalGeol => (30, 18),
            NalYut => (30, 24),
            ChamMeoki => (30, 30),
            MoDo => (5, 25),
            MoGae => (10, 20),
            Bang => (15, 15),
            SokYut => (20, 10),
            SokMo => (25, 5),
            DuetModo => (5, 5),
            DuetMogae => (10, 10),
            Saryeo => (20, 20),
            Anchi => (25, 25),
        }
    }
}

/// Route 4, the outer ring, from do to cham-meoki.
pub const OUTER_ROUTE: &[Station] = {
    use Station::*;
    &[
        Do, Gae, Geol, Yut, Mo, DuetDo, DuetGae, DuetGeol, DuetYut, DuetMo, ChiDo, ChiGae, ChiGeol,
        ChiYut, ChiMo, NalDo, NalGae, NalGeol, NalYut, ChamMeoki,
    ]
};

/// Route 3, taken by a move that starts on mo: the mo diagonal, then the bottom side.
pub const MO_ROUTE: &[Station] = {
    use Station::*;
    &[
        Mo, MoDo, MoGae, Bang, SokYut, SokMo, ChiMo, NalDo, NalGae, NalGeol, NalYut, ChamMeoki,
    ]
};

/// Route 2, taken by a move that starts on duet-mo: the duet-mo diagonal to cham-meoki.
pub const DUET_MO_ROUTE: &[Station] = {
    use Station::*;
    &[DuetMo, DuetModo, DuetMogae, Bang, Saryeo, Anchi, ChamMeoki]
};

/// Route 1, taken by a move that starts on bang: the short way to cham-meoki.
pub const BANG_ROUTE: &[Station] = {
    use Station::*;
    &[Bang, Saryeo, Anchi, ChamMeoki]
};

/// The empty board, 32 lines of 32 characters, each ending in a newline.
pub const TEMPLATE: &str = "\
..----..----..----..----..----..
..    ..    ..    ..    ..    ..
| \\                          / |
|  \\                        /  |
|   \\                      /   |
|    ..                  ..    |
..   ..                  ..   ..
..     \\                /     ..
|       \\              /       |
|        \\            /        |
|         ..        ..         |
|         ..        ..         |
..          \\      /          ..
..           \\    /           ..
|             \\  /             |
|              ..              |
|              ..              |
|             /  \\             |
..           /    \\           ..
..          /      \\          ..
|         ..        ..         |
|         ..        ..         |
|        /            \\        |
|       /              \\       |
..     /                \\     ..
..   ..                  ..   ..
|    ..                  ..    |
|   /                      \\   |
|  /                        \\  |
| /                          \\ |
..    ..    ..    ..    ..    ..
..----..----..----..----..----..
";

/// Width of a template line, without its newline.
pub const TEMPLATE_WIDTH: usize = 32;

/// Number of tokens (four per team).
pub const TOKEN_COUNT: usize = 8;

/// One of the eight tokens: `A`-`D` (upper-case team) are 0-3, `a`-`d` are 4-7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Token(u8);

/// Tokens per team.
const TEAM_SIZE: u8 = 4;

impl Token {
    /// The token written as `letter`, if it is one of `ABCDabcd`.
    pub fn from_letter(letter: u8) -> Option<Token> {
        match letter {
            b'A'..=b'D' => Some(Token(letter - b'A')),
            b'a'..=b'd' => Some(Token(letter - b'a' + TEAM_SIZE)),
            _ => None,
        }
    }

    /// Index 0..8 (`A`..`D`, then `a`..`d`).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The token with index `index` (0..8).
    pub fn from_index(index: usize) -> Token {
        assert!(index < TOKEN_COUNT, "token index {index}");
        Token(index as u8)
    }

    /// The letter the token is drawn with.
    pub fn letter(self) -> u8 {
        if self.0 < TEAM_SIZE {
            b'A' + self.0
        } else {
            b'a' + self.0 - TEAM_SIZE
        }
    }

    /// 0 for the upper-case team, 1 for the lower-case team.
    pub fn team(self) -> u8 {
        self.0 / TEAM_SIZE
    }

    /// Which '.' of the station's 2 x 2 block the token replaces: (row offset, column offset).
    /// A/a upper-left, B/b upper-right, C/c lower-left, D/d lower-right.
    pub fn slot(self) -> (usize, usize) {
        let k = (self.0 % TEAM_SIZE) as usize;
        (k / 2, k % 2)
    }
}

/// Where a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// Not yet on the board (or caught and sent back); not drawn.
    Start,
    On(Station),
    /// Left the board; never moves again; not drawn.
    Escaped,
}

/// Draws the board with every token that is on a station.
pub fn draw(places: &[Place; TOKEN_COUNT]) -> String {
    let mut text = TEMPLATE.as_bytes().to_vec();
    for (index, place) in places.iter().enumerate() {
        if let Place::On(station) = place {
            let token = Token::from_index(index);
            let (r, c) = station.corner();
            let (dr, dc) = token.slot();
            text[(r + dr) * (TEMPLATE_WIDTH + 1) + c + dc] = token.letter();
        }
    }
    String::from_utf8(text).expect("template and token letters are ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_is_32_lines_of_32() {
        let lines: Vec<&str> = TEMPLATE.lines().collect();
        assert_eq!(lines.len(), 32);
        assert!(lines.iter().all(|l| l.len() == TEMPLATE_WIDTH));
        assert!(TEMPLATE.ends_with('\n'));
    }

    #[test]
    fn every_station_corner_is_a_2x2_block_of_dots() {
        let lines: Vec<&[u8]> = TEMPLATE.lines().map(str::as_bytes).collect();
        for station in Station::ALL {
            let (r, c) = station.corner();
            for (dr, dc) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                assert_eq!(lines[r + dr][c + dc], b'.', "{station:?}");
            }
        }
        // 29 stations x 4 dots = every '.' of the template, so no station is missing or doubled.
        assert_eq!(
            TEMPLATE.bytes().filter(|&b| b == b'.').count(),
            4 * STATION_COUNT
        );
    }

    #[test]
    fn all_is_in_declaration_order() {
        for (i, s) in Station::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i);
        }
    }

    #[test]
    fn tokens_round_trip() {
        for letter in *b"ABCDabcd" {
            assert_eq!(Token::from_letter(letter).unwrap().letter(), letter);
        }
        assert_eq!(Token::from_letter(b'E'), None);
        assert_eq!(Token::from_letter(b'a').unwrap().team(), 1);
        assert_eq!(Token::from_letter(b'D').unwrap().slot(), (1, 1));
    }
}
