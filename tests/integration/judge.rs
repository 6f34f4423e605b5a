//! The library's judging of a whole file: a bad case is an error that names its case, and the
//! other cases still print.

use gamebench::engines::judge::judge_file;
use gamebench::game::Budget;
use gamebench::registry;
use gamebench::status::{Exit, Status};

#[test]
fn a_bad_case_is_an_error_and_the_others_still_print() {
    // Two SameGame grids (1 row, 2 columns, then `0 0` ending the selections); the second has
    // a letter among its values. The stream ends with the header `0 0`.
    let input = b"1 2\n1 1\n1 1\n0 0\n1 2\n1 x\n0 0\n0 0\n";
    let game = registry::find("samegame").unwrap();
    let judged = judge_file(
        game.reference(),
        input,
        &gamebench::game::Reading::STATEMENT,
        &Budget::UNLIMITED,
    );
    let statuses: Vec<Status> = judged.statuses().collect();
    assert_eq!(statuses, [Status::Ok, Status::Error]);
    assert_eq!(judged.exit(), Exit::Error);
    let errors: Vec<usize> = judged.errors().map(|(k, _)| k).collect();
    assert_eq!(errors, [2]);
    // Selecting (1,1) removes the pair of 1s: the statement's "Game Won".
    assert_eq!(judged.output(), "Grid 1.\n    Game Won\n");
}
