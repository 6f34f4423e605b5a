//! Rule tests for Yut Nori. Every expected position is derived by hand from `spec/yut.md`
//! (the route lists and the 2 x 2 station blocks); the comments show the derivation.
//! Each test runs both engines and requires them to agree with the hand-derived answer.

use super::board::{Place, Station, Token};
use super::*;
use crate::game::Budget;

/// Replays `turns` (one `T SSSS` per line) with both engines; they must agree.
fn play(turns: &[&str]) -> FinalPlaces {
    let text = format!("{}\n{}\n", turns.len(), turns.join("\n"));
    let replay = parse_replay(text.as_bytes()).expect("valid test input");
    let reference = reference::solve(&replay, &Budget::UNLIMITED)
        .expect("playable")
        .answer;
    let table = table::solve(&replay, &Budget::UNLIMITED)
        .expect("playable")
        .answer;
    assert_eq!(reference, table, "engines disagree on {turns:?}");
    reference
}

fn place(places: &FinalPlaces, letter: u8) -> Place {
    places[Token::from_letter(letter).unwrap().index()]
}

fn on(station: Station) -> Place {
    Place::On(station)
}

#[test]
fn throws_count_fronts_and_all_backs_is_five() {
    assert_eq!(Throw::parse(b"FBBB").unwrap().steps(), 1);
    assert_eq!(Throw::parse(b"BFBF").unwrap().steps(), 2);
    assert_eq!(Throw::parse(b"FFFF").unwrap().steps(), 4);
    assert_eq!(Throw::parse(b"BBBB").unwrap().steps(), 5);
    assert_eq!(Throw::parse(b"BBB"), None);
    assert_eq!(Throw::parse(b"BBBX"), None);
}

#[test]
fn five_steps_from_start_reach_mo() {
    // START + 5 along the outer ring: do, gae, geol, yut, mo.
    let p = play(&["A BBBB"]);
    assert_eq!(place(&p, b'A'), on(Station::Mo));
}

#[test]
fn a_move_from_start_moves_alone() {
    // A goes to do. C then leaves START with 2 steps (do, gae): the other tokens at START (B, D)
    // stay there, and A on do is not part of C's move.
    let p = play(&["A FBBB", "C FFBB"]);
    assert_eq!(place(&p, b'A'), on(Station::Do));
    assert_eq!(place(&p, b'C'), on(Station::Gae));
    assert_eq!(place(&p, b'B'), Place::Start);
    assert_eq!(place(&p, b'D'), Place::Start);
    // Second START token onto an occupied own station: still alone, then they share it.
    let p = play(&["A FBBB", "B FBBB"]);
    assert_eq!(
        (place(&p, b'A'), place(&p, b'B')),
        (on(Station::Do), on(Station::Do))
    );
    assert_eq!(place(&p, b'C'), Place::Start);
}

#[test]
fn a_stack_moves_together_and_only_own_team() {
    // A and B share do; moving B by 1 carries A to gae. c sits on geol (3 steps) and is not
    // touched: it is on another station, and stacks never hold two teams.
    let p = play(&["A FBBB", "B FBBB", "c FFFB", "B FBBB"]);
    assert_eq!(place(&p, b'A'), on(Station::Gae));
    assert_eq!(place(&p, b'B'), on(Station::Gae));
    assert_eq!(place(&p, b'c'), on(Station::Geol));
}

#[test]
fn catching_happens_on_the_destination_only() {
    // a on gae; A moves 3 from START: do, gae (passed over, a stays), geol.
    let p = play(&["a FFBB", "A FFFB"]);
    assert_eq!(place(&p, b'a'), on(Station::Gae));
    assert_eq!(place(&p, b'A'), on(Station::Geol));
    // Then b lands on geol (3 from START): A goes home; a is untouched.
    let p = play(&["a FFBB", "A FFFB", "b FFFB"]);
    assert_eq!(place(&p, b'A'), Place::Start);
    assert_eq!(place(&p, b'b'), on(Station::Geol));
    assert_eq!(place(&p, b'a'), on(Station::Gae));
}

#[test]
fn catching_sends_a_whole_stack_home() {
    // A and B stacked on gae; b lands on gae and sends both home (sample 1 in small).
    let p = play(&["A FFBB", "B FFBB", "b FFBB"]);
    assert_eq!(place(&p, b'A'), Place::Start);
    assert_eq!(place(&p, b'B'), Place::Start);
    assert_eq!(place(&p, b'b'), on(Station::Gae));
}

#[test]
fn catching_on_bang() {
    // A: START+5 = mo; from mo +3 on the mo diagonal: mo-do, mo-gae, bang.
    // a does the same and lands on bang: A goes home.
    let p = play(&["A BBBB", "A FFFB", "a BBBB", "a FFFB"]);
    assert_eq!(place(&p, b'A'), Place::Start);
    assert_eq!(place(&p, b'a'), on(Station::Bang));
}

/// START -> mo (5) -> sok-mo (5: mo-do, mo-gae, bang, sok-yut, sok-mo) -> chi-mo (1)
/// -> cham-meoki (5: nal-do, nal-gae, nal-geol, nal-yut, cham-meoki).
const TO_CHAM_MEOKI: [&str; 4] = ["BBBB", "BBBB", "FBBB", "BBBB"];

#[test]
fn landing_on_cham_meoki_stays_and_catching_works_there() {
    let mut turns: Vec<String> = TO_CHAM_MEOKI.iter().map(|t| format!("A {t}")).collect();
    let p = play(&turns.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(place(&p, b'A'), on(Station::ChamMeoki));
    // a takes the same path and lands on cham-meoki: A goes home.
    turns.extend(TO_CHAM_MEOKI.iter().map(|t| format!("a {t}")));
    let p = play(&turns.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(place(&p, b'A'), Place::Start);
    assert_eq!(place(&p, b'a'), on(Station::ChamMeoki));
}

#[test]
fn any_step_past_cham_meoki_escapes_and_escaped_tokens_cannot_move() {
    let mut turns: Vec<String> = TO_CHAM_MEOKI.iter().map(|t| format!("A {t}")).collect();
    turns.push("A FBBB".to_string());
    let p = play(&turns.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(place(&p, b'A'), Place::Escaped);
    // B walks the ring 4 at a time: 1st throw do, gae, geol, yut. 2nd (starts on yut, outer):
    // mo, duet-do, duet-gae, duet-geol. 3rd: duet-yut, duet-mo, chi-do, chi-gae. 4th: chi-geol,
    // chi-yut, chi-mo, nal-do. 5th: nal-gae. 6th (2 steps): nal-geol, nal-yut.
    let p = play(&["B FFFF", "B FFFF", "B FFFF", "B FFFF", "B FBBB", "B FFBB"]);
    assert_eq!(place(&p, b'B'), on(Station::NalYut));
    let p = play(&["B FFFF", "B FFFF", "B FFFF", "B FFFF", "B FBBB", "B FFFB"]);
    // 3 steps from nal-gae: nal-geol, nal-yut, cham-meoki (stays).
    assert_eq!(place(&p, b'B'), on(Station::ChamMeoki));
    let p = play(&["B FFFF", "B FFFF", "B FFFF", "B FFFF", "B FBBB", "B FFFF"]);
    // 4 steps from nal-gae: one past cham-meoki: escaped.
    assert_eq!(place(&p, b'B'), Place::Escaped);

    turns.push("A FBBB".to_string());
    let text = format!("{}\n{}\n", turns.len(), turns.join("\n"));
    let replay = parse_replay(text.as_bytes()).unwrap();
    for solve in [reference::solve, table::solve] {
        let err = solve(&replay, &Budget::UNLIMITED).unwrap_err();
        assert_eq!(err.line, 7, "the 6th turn is on line 7");
        assert!(err.message.contains("already escaped"), "{err}");
    }
}

#[test]
fn mo_shortcut_and_passing_through_bang() {
    // Starting on mo: mo-do.
    assert_eq!(place(&play(&["A BBBB", "A FBBB"]), b'A'), on(Station::MoDo));
    // Passing over mo without stopping keeps the ring: geol +3 = yut, mo, duet-do.
    assert_eq!(
        place(&play(&["A FFFB", "A FFFB"]), b'A'),
        on(Station::DuetDo)
    );
    // Stopping on mo by the ring, then the next move takes the diagonal.
    assert_eq!(
        place(&play(&["A FFFB", "A FFBB", "A FFBB"]), b'A'),
        on(Station::MoGae)
    );
    // From mo-gae, 2 steps: bang (passed), sok-yut: the mo diagonal goes on through bang.
    assert_eq!(
        place(&play(&["A BBBB", "A FFBB", "A FFBB"]), b'A'),
        on(Station::SokYut)
    );
    // sok-mo +1 = chi-mo, then the bottom side.
    assert_eq!(
        place(&play(&["A BBBB", "A BBBB", "A FFBB"]), b'A'),
        on(Station::NalDo)
    );
}

#[test]
fn duet_mo_shortcut() {
    // START +3 geol, +3 duet-do (yut, mo passed, duet-do), +4 duet-mo.
    let to_duet_mo = ["A FFFB", "A FFFB", "A FFFF"];
    assert_eq!(place(&play(&to_duet_mo), b'A'), on(Station::DuetMo));
    let mut turns = to_duet_mo.to_vec();
    turns.push("A FFBB"); // duet-modo, duet-mogae
    assert_eq!(place(&play(&turns), b'A'), on(Station::DuetMogae));
    turns.push("A FFBB"); // bang (passed), saryeo: the duet-mo diagonal goes on through bang
    assert_eq!(place(&play(&turns), b'A'), on(Station::Saryeo));
    turns.push("A FFBB"); // anchi, cham-meoki
    assert_eq!(place(&play(&turns), b'A'), on(Station::ChamMeoki));
    // Passing over duet-mo without stopping keeps the ring: duet-geol +3 = duet-yut, duet-mo,
    // chi-do.
    assert_eq!(
        place(&play(&["A FFFB", "A FFFB", "A FFBB", "A FFFB"]), b'A'),
        on(Station::ChiDo)
    );
}

#[test]
fn bang_shortcut() {
    // mo +3 = bang; from bang +2: saryeo, anchi (route 1), not sok-yut.
    assert_eq!(
        place(&play(&["A BBBB", "A FFFB", "A FFBB"]), b'A'),
        on(Station::Anchi)
    );
    // from bang +4: saryeo, anchi, cham-meoki, escape.
    assert_eq!(
        place(&play(&["A BBBB", "A FFFB", "A FFFF"]), b'A'),
        Place::Escaped
    );
}

#[test]
fn drawing_puts_each_letter_in_its_slot() {
    // A, B on do (24,30): A upper-left, B upper-right. d on gae (18,30): lower-right (19,31).
    let p = play(&["A FBBB", "B FBBB", "d FFBB"]);
    let board = board::draw(&p);
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(&lines[24][30..32], "AB");
    assert_eq!(&lines[25][30..32], "..");
    assert_eq!(&lines[18][30..32], "..");
    assert_eq!(&lines[19][30..32], ".d");
    let changed = board
        .bytes()
        .zip(board::TEMPLATE.bytes())
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(changed, 3);
}

#[test]
fn parse_errors_name_the_line() {
    let err = |text: &[u8]| parse_replay(text).unwrap_err();
    assert_eq!(err(b"").line, 1);
    assert_eq!(err(b"x\n").line, 1);
    assert_eq!(err(b"0\n").line, 1);
    assert_eq!(err(b"101\n").line, 1);
    assert_eq!(err(b"2\nA FFFF\n").line, 3); // missing turn
    assert_eq!(err(b"2\nA FFFF\nE FFFF\n").line, 3); // bad token
    assert_eq!(err(b"2\nA FFFF\nA FFF\n").line, 3); // bad throw
    assert_eq!(err(b"1\nA FFFF extra\n").line, 2);
    assert_eq!(err(b"1\nA FFFF\nB FFFF\n").line, 3); // more turns than announced
    assert_eq!(err(b"1\n\xff FFFF\n").line, 2); // non-UTF-8
    // Tolerated: CRLF, trailing blank lines, extra spaces.
    let ok = parse_replay(b"2\r\n A  FFFF \r\nb BBBB\r\n\r\n\n").unwrap();
    assert_eq!(ok.turns.len(), 2);
    assert_eq!(ok.turns[1].throw.steps(), 5);
}

#[test]
fn engines_agree_on_generated_games() {
    // 2,000 generated games over all profiles: the table engine must match the reference.
    let options = generator::YutArgs::default();
    for profile in <Yut as gamebench_generators::Generator>::PROFILES {
        let profile = profile.name;
        for k in 0..400 {
            let text = crate::game::file::<Yut>(profile, &options, 42, k).unwrap();
            let replay = parse_replay(text.as_bytes()).unwrap();
            let a = reference::solve(&replay, &Budget::UNLIMITED)
                .unwrap()
                .answer;
            let b = table::solve(&replay, &Budget::UNLIMITED).unwrap().answer;
            assert_eq!(a, b, "{profile} game {k}:\n{text}");
        }
    }
}
