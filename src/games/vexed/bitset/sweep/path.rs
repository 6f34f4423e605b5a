//! The solution of a sweep, rebuilt backwards from the board a clearing push was made on: each
//! record names its parent by [`key`], and a parent lies in the same bucket (a slide) or an
//! earlier one (its key is not larger), so one pass over the finished buckets' files in
//! reverse order finds the whole path. A candidate parent is taken only if it has one fewer
//! push and really has the child (a hash shared by two boards just means looking further).

use std::collections::HashMap;

use super::SweepError;
use super::buckets::{Finished, Folder};
use super::expand::Shared;
use super::record::{Board, Record, WORDS, key};
use crate::games::vexed::bitset::planes::State;
use crate::games::vexed::grid::{Dir, Move};

/// The moves from the start to `last` (a record of bucket `bucket`, the position of its key
/// in `finished`), then the push `(cell, dir)`.
pub(super) fn rebuild<const P: usize>(
    shared: &Shared,
    folder: &mut Folder,
    finished: &Finished,
    (last, bucket): (Record, usize),
    (cell, dir): (usize, Dir),
    start: &State<P>,
) -> Result<Vec<Move>, SweepError> {
    let Shared { geo, codec, .. } = *shared;
    let unpack = |words| -> State<P> { codec.unpack(&Board::from_words(words)) };
    let mut moves = vec![geo.describe(&unpack(last.board), cell, dir)];
    let mut current = last;
    let order = finished.order();
    let mut at = bucket;
    while current.g > 0 {
        let records = finished.read(folder, order[at])?;
        let mut by_key: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, record) in records.iter().enumerate() {
            by_key.entry(key(record.board)).or_default().push(i);
        }
        while current.g > 0 {
            let candidates = by_key.get(&current.parent).map_or(&[][..], Vec::as_slice);
            let found = candidates.iter().find_map(|&i| {
                let parent = records[i];
                if u32::from(parent.g) + 1 != u32::from(current.g) {
                    return None;
                }
                let state = unpack(parent.board);
                state
                    .children(geo)
                    .find(|(_, _, child)| codec.pack::<P, WORDS>(child).words() == current.board)
                    .map(|(cell, dir, _)| (parent, geo.describe(&state, cell, dir)))
            });
            let Some((parent, step)) = found else {
                break;
            };
            moves.push(step);
            current = parent;
        }
        if current.g == 0 {
            break;
        }
        // The parent is in an earlier bucket.
        at = at.checked_sub(1).ok_or(SweepError::PathLost)?;
    }
    if unpack(current.board) != *start {
        return Err(SweepError::PathLost);
    }
    moves.reverse();
    Ok(moves)
}
