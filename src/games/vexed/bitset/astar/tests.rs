//! A* nodes: their size with the stored bounds, the stored bounds restored.

use super::*;

#[test]
fn stored_bounds_fill_the_padding_of_a_node() {
    use crate::games::vexed::bitset::compact::Compact;
    use crate::games::vexed::bitset::planes::Packed;
    use node::Wide;
    use store::COMPACT_WORDS;
    // A node's words align it to 8 bytes; the other fields and the stored bounds take
    // exactly the last 16.
    for (size, words) in [
        (std::mem::size_of::<Wide<Packed<1>>>(), 1),
        (std::mem::size_of::<Wide<Packed<4>>>(), 4),
        (std::mem::size_of::<Wide<Packed<10>>>(), 10),
        (
            std::mem::size_of::<Wide<Compact<COMPACT_WORDS>>>(),
            COMPACT_WORDS,
        ),
    ] {
        assert_eq!(size, 8 * words + 16);
    }
}

/// The letter bounds a node stores give back, through [`Parts::restore`], parts whose
/// children's bounds are [`lower_bound`]'s, whether computed in full or from the changed
/// cells, and the bytes stored for a child are those of its own parts: on random boards
/// of up to eight letters (more than [`STORED_BOUNDS`], so some are recomputed), for every
/// child and grandchild of a live board, with all the stored bytes and with only some.
#[test]
fn stored_letter_bounds_restore_the_parts_of_a_node() {
    use crate::games::vexed::grid::Grid;
    use crate::games::vexed::test_rng::Rng;
    const BOARDS: usize = 300;
    let mut rng = Rng(0x0057_07ed);
    let mut checked = 0;
    for _ in 0..BOARDS {
        let (rows, cols) = (3 + rng.below(5), 4 + rng.below(6));
        let letters = 1 + rng.below(8);
        let cells = (0..rows * cols)
            .map(|_| match rng.below(10) {
                0 | 1 => b'#',
                2..=5 => b'-',
                _ => b'A' + rng.below(letters) as u8,
            })
            .collect();
        let mut grid = Grid::new(rows, cols, cells);
        grid.settle();
        let geo = Geometry::new(&grid);
        let start = State::<3>::new(&geo, &grid);
        let mut pairs = Pairs::new(&geo);
        let (parts, total) = Parts::derive(&geo, &mut pairs, &start, None);
        if total >= DEAD {
            continue;
        }
        for (_, _, child) in start.children(&geo) {
            let mut stored = [Parts::UNSTORED; STORED_BOUNDS];
            let changed = start.changed(&child);
            let bound = parts.child_bound_stored(&geo, &mut pairs, &child, changed, &mut stored);
            assert_eq!(bound, lower_bound(&geo, &mut pairs, &child));
            if bound >= DEAD || child.is_clear() {
                continue;
            }
            let (own, _) = Parts::derive(&geo, &mut pairs, &child, None);
            assert_eq!(stored, own.stored());
            for kept in [STORED_BOUNDS, 2] {
                let mut restored = Parts::EMPTY;
                restored.restore(&geo, &mut pairs, &child, &stored[..kept]);
                for (_, _, grandchild) in child.children(&geo) {
                    let expected = lower_bound(&geo, &mut pairs, &grandchild);
                    let drawn = grandchild.to_grid(&geo).draw();
                    let whole = restored.child_bound(&geo, &mut pairs, &grandchild);
                    assert_eq!(whole, expected, "{drawn}");
                    let changed = child.changed(&grandchild);
                    let mut bytes = [0; STORED_BOUNDS];
                    let by_changes = restored.child_bound_stored(
                        &geo,
                        &mut pairs,
                        &grandchild,
                        changed,
                        &mut bytes,
                    );
                    assert_eq!(by_changes, expected, "{drawn}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} grandchildren checked");
}
