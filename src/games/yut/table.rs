//! The optimized engine: a hand-written destination table and token masks.
//!
//! The destination depends only on (start, steps), so it is a 30 x 5 table ([`DESTINATION`]),
//! written out by hand from the route figure rather than computed by the reference's walk, so
//! the two engines check each other. The board is one 8-bit mask of tokens per station: a move
//! is a mask intersection (own team at the start station), a catch is another (opponents at the
//! destination).

use super::board::{Place, STATION_COUNT, Station, TOKEN_COUNT, Token};
use super::{FinalPlaces, Replay, escaped_token_error};
use crate::game::{Budget, CaseError, Outcome};

/// A set of tokens as bits (bit i = token with index i).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TokenMask(u8);

impl TokenMask {
    const UPPER_TEAM: TokenMask = TokenMask(0x0f);
    const LOWER_TEAM: TokenMask = TokenMask(0xf0);

    pub fn of(token: Token) -> TokenMask {
        TokenMask(1 << token.index())
    }
    pub fn team(team: u8) -> TokenMask {
        if team == 0 {
            Self::UPPER_TEAM
        } else {
            Self::LOWER_TEAM
        }
    }
    pub fn and(self, other: TokenMask) -> TokenMask {
        TokenMask(self.0 & other.0)
    }
    pub fn or(self, other: TokenMask) -> TokenMask {
        TokenMask(self.0 | other.0)
    }
    pub fn without(self, other: TokenMask) -> TokenMask {
        TokenMask(self.0 & !other.0)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Indices of the tokens in the mask, lowest first.
    pub fn indices(self) -> impl Iterator<Item = usize> {
        (0..TOKEN_COUNT).filter(move |i| self.0 & (1 << i) != 0)
    }
}

/// A destination in the table: a station index, or one of two sentinels.
type Cell = u8;
/// Sentinel: the token escapes.
const ESC: Cell = u8::MAX;
/// Table row of START (after the 29 stations).
const START_ROW: usize = STATION_COUNT;
/// Greatest number of steps of one throw.
const MAX_STEPS: usize = 5;

/// `DESTINATION[from][steps - 1]`: rows are the stations in [`Station`] order, then START.
pub const DESTINATION: [[Cell; MAX_STEPS]; STATION_COUNT + 1] = {
    use Station::*;
    const fn s(x: Station) -> Cell {
        x as Cell
    }
    [
        /* Do        */ [s(Gae), s(Geol), s(Yut), s(Mo), s(DuetDo)],
        /* Gae       */ [s(Geol), s(Yut), s(Mo), s(DuetDo), s(DuetGae)],
        /* Geol      */ [s(Yut), s(Mo), s(DuetDo), s(DuetGae), s(DuetGeol)],
        /* Yut       */ [s(Mo), s(DuetDo), s(DuetGae), s(DuetGeol), s(DuetYut)],
        /* Mo        */ [s(MoDo), s(MoGae), s(Bang), s(SokYut), s(SokMo)],
        /* DuetDo    */ [s(DuetGae), s(DuetGeol), s(DuetYut), s(DuetMo), s(ChiDo)],
        /* DuetGae   */ [s(DuetGeol), s(DuetYut), s(DuetMo), s(ChiDo), s(ChiGae)],
        /* DuetGeol  */ [s(DuetYut), s(DuetMo), s(ChiDo), s(ChiGae), s(ChiGeol)],
        /* DuetYut   */ [s(DuetMo), s(ChiDo), s(ChiGae), s(ChiGeol), s(ChiYut)],
        /* DuetMo    */ [s(DuetModo), s(DuetMogae), s(Bang), s(Saryeo), s(Anchi)],
        /* ChiDo     */ [s(ChiGae), s(ChiGeol), s(ChiYut), s(ChiMo), s(NalDo)],
        /* ChiGae    */ [s(ChiGeol), s(ChiYut), s(ChiMo), s(NalDo), s(NalGae)],
        /* ChiGeol   */ [s(ChiYut), s(ChiMo), s(NalDo), s(NalGae), s(NalGeol)],
        /* ChiYut    */ [s(ChiMo), s(NalDo), s(NalGae), s(NalGeol), s(NalYut)],
        /* ChiMo     */ [s(NalDo), s(NalGae), s(NalGeol), s(NalYut), s(ChamMeoki)],
        /* NalDo     */ [s(NalGae), s(NalGeol), s(NalYut), s(ChamMeoki), ESC],
        /* NalGae    */ [s(NalGeol), s(NalYut), s(ChamMeoki), ESC, ESC],
        /* NalGeol   */ [s(NalYut), s(ChamMeoki), ESC, ESC, ESC],
        /* NalYut    */ [s(ChamMeoki), ESC, ESC, ESC, ESC],
        /* ChamMeoki */ [ESC, ESC, ESC, ESC, ESC],
        /* MoDo      */ [s(MoGae), s(Bang), s(SokYut), s(SokMo), s(ChiMo)],
        /* MoGae     */ [s(Bang), s(SokYut), s(SokMo), s(ChiMo), s(NalDo)],
        /* Bang      */ [s(Saryeo), s(Anchi), s(ChamMeoki), ESC, ESC],
        /* SokYut    */ [s(SokMo), s(ChiMo), s(NalDo), s(NalGae), s(NalGeol)],
        /* SokMo     */ [s(ChiMo), s(NalDo), s(NalGae), s(NalGeol), s(NalYut)],
        /* DuetModo  */ [s(DuetMogae), s(Bang), s(Saryeo), s(Anchi), s(ChamMeoki)],
        /* DuetMogae */ [s(Bang), s(Saryeo), s(Anchi), s(ChamMeoki), ESC],
        /* Saryeo    */ [s(Anchi), s(ChamMeoki), ESC, ESC, ESC],
        /* Anchi     */ [s(ChamMeoki), ESC, ESC, ESC, ESC],
        /* START     */ [s(Do), s(Gae), s(Geol), s(Yut), s(Mo)],
    ]
};

/// The destination of a move from table row `row` by `steps` (1..=5).
pub fn destination(row: usize, steps: u8) -> Place {
    match DESTINATION[row][steps as usize - 1] {
        ESC => Place::Escaped,
        station => Place::On(Station::ALL[station as usize]),
    }
}

/// The board: which tokens stand on each station.
struct Board {
    on: [TokenMask; STATION_COUNT],
    places: FinalPlaces,
}

pub fn solve(replay: &Replay, _budget: &Budget) -> Result<Outcome<FinalPlaces>, CaseError> {
    let mut board = Board {
        on: [TokenMask::default(); STATION_COUNT],
        places: [Place::Start; TOKEN_COUNT],
    };
    for turn in &replay.turns {
        let token = turn.token;
        let team = TokenMask::team(token.team());
        let (row, movers) = match board.places[token.index()] {
            Place::Escaped => return Err(escaped_token_error(turn)),
            Place::Start => (START_ROW, TokenMask::of(token)),
            Place::On(station) => {
                let at = station as usize;
                let movers = board.on[at].and(team);
                board.on[at] = board.on[at].without(movers);
                (at, movers)
            }
        };
        let to = destination(row, turn.throw.steps());
        if let Place::On(station) = to {
            let at = station as usize;
            let caught = board.on[at].without(team);
            for i in caught.indices() {
                board.places[i] = Place::Start;
            }
            board.on[at] = board.on[at].without(caught).or(movers);
        }
        for i in movers.indices() {
            board.places[i] = to;
        }
    }
    Ok(Outcome::solved(board.places, replay.turns.len() as u64))
}
