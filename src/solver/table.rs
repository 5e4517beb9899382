//! The transposition table: bounds on the declarer's future tricks at trick starts, keyed on
//! relative ranks.
//!
//! Once cards are gone only the order of the cards still out matters: a position where the
//! remaining clubs are A, 9, 4 plays exactly like one where they are 7, 6, 2 held by the same
//! seats. The key therefore records, suit by suit, how many cards are still out and which seat
//! holds each of them from the lowest up (its "owner sequence"), plus everything else that
//! decides the value: the seat on lead, the trump suit, the declarer, the player count and
//! whether the declarer is playing a misère. The key is exact, not a hash, so a hit is never
//! a different position, and entries stay valid from one deal to the next.

/// The bits of a lane that can hold cards (bits 2..=14 of each 16-bit suit lane).
const CARD_BITS: u64 = 0x7ffc_7ffc_7ffc_7ffc;

/// An exact position key (see the module documentation); 0 is never a key.
pub(super) type Key = u128;

/// Bits of the fixed header below the owner planes.
const HEADER_BITS: u32 = 3 + 3 + 1 + 3 + 3 + 16;

/// The context of a search that does not change from node to node.
#[derive(Clone, Copy)]
pub(super) struct KeyContext {
    /// Player count, declarer, misère flag and trump in the low bits, ready to OR in.
    header: u128,
    /// Bits needed to write a seat number.
    seat_bits: u32,
    players: usize,
}

impl KeyContext {
    pub(super) fn new(players: usize, declarer: usize, misere: bool, trump: Option<u8>) -> Self {
        let trump = trump.map_or(4, u128::from);
        let header =
            players as u128 | (declarer as u128) << 3 | u128::from(misere) << 6 | trump << 7;
        KeyContext {
            header,
            seat_bits: if players <= 4 { 2 } else { 3 },
            players,
        }
    }

    /// The key of the trick start with `leader` on lead and `hands` (whose union is `live`),
    /// or None when the position is too large to key (the first trick of a deal at 7 players).
    #[inline]
    pub(super) fn key(&self, hands: &[u64], live: u64, leader: usize) -> Option<Key> {
        let cards = live.count_ones();
        if HEADER_BITS + self.seat_bits * cards > 128 {
            return None;
        }
        let mut counts = 0u128;
        for lane in 0..4 {
            counts |= u128::from((live >> (16 * lane) & 0xffff).count_ones()) << (4 * lane);
        }
        let planes = owner_planes(&hands[..self.players], live);
        let mut key = self.header | (leader as u128) << 10 | counts << 13;
        for (plane, &bits) in planes.iter().take(self.seat_bits as usize).enumerate() {
            key |= u128::from(bits) << (HEADER_BITS + plane as u32 * cards);
        }
        Some(key)
    }
}

/// For each bit of the seat number, the set of positions (in `live`, compressed, lowest card
/// of clubs first) held by a seat with that bit set.
#[inline]
fn owner_planes(hands: &[u64], live: u64) -> [u64; 3] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU supports BMI2, checked just above.
        return unsafe { owner_planes_bmi2(hands, live) };
    }
    owner_planes_with(hands, live, pext_soft)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn owner_planes_bmi2(hands: &[u64], live: u64) -> [u64; 3] {
    owner_planes_with(hands, live, |x, mask| std::arch::x86_64::_pext_u64(x, mask))
}

#[inline(always)]
fn owner_planes_with(hands: &[u64], live: u64, pext: impl Fn(u64, u64) -> u64) -> [u64; 3] {
    let mut planes = [0u64; 3];
    for (seat, &hand) in hands.iter().enumerate() {
        let compressed = pext(hand, live);
        for (bit, plane) in planes.iter_mut().enumerate() {
            // Branch-free: the seat's bits go into the planes of the bits set in its number.
            *plane |= compressed & ((seat as u64 >> bit) & 1).wrapping_neg();
        }
    }
    planes
}

/// Parallel bit extract without BMI2: the bits of `x` at the positions of `mask`, packed.
fn pext_soft(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let lowest = mask & mask.wrapping_neg();
        if x & lowest != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask ^= lowest;
    }
    out
}

/// The lowest card of each run of `hand`'s cards that are adjacent among the `live` cards
/// (gone cards between them do not count). The cards of a run are equivalent, so searching one
/// of them is enough.
#[inline]
pub(super) fn run_bottoms(hand: u64, live: u64) -> u64 {
    // Adding the dead cards to each card's upper neighbour carries through the dead run above
    // it and lands on the next live card up; bit 15 of a lane is never dead, so no carry
    // crosses into the next suit.
    let dead = CARD_BITS & !live;
    let landing = ((hand << 1).wrapping_add(dead)) & !dead;
    hand & !landing
}

/// One slot: an exact key and bounds on the credited tricks still to come.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: Key,
    lower: u8,
    upper: u8,
}

/// A fixed-size table of two-slot buckets.
pub(super) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    /// Which slot of a full bucket the next new key replaces.
    toggle: usize,
}

impl Table {
    /// A table of `2^bits` slots.
    pub(super) fn new(bits: u32) -> Table {
        Table {
            entries: vec![Entry::default(); 1 << bits],
            mask: (1 << bits) - 2,
            toggle: 0,
        }
    }

    #[inline]
    fn bucket(&self, key: Key) -> usize {
        let mixed = (key as u64 ^ (key >> 64) as u64 ^ (key >> 100) as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> 20) as usize & self.mask
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub(super) fn probe(&self, key: Key) -> Option<(u8, u8)> {
        let b = self.bucket(key);
        self.entries[b..b + 2]
            .iter()
            .find(|e| e.key == key)
            .map(|e| (e.lower, e.upper))
    }

    /// Narrows the bounds for `key` to `lower..=upper`.
    #[inline]
    pub(super) fn store(&mut self, key: Key, lower: u8, upper: u8) {
        let b = self.bucket(key);
        for e in &mut self.entries[b..b + 2] {
            if e.key == key {
                e.lower = e.lower.max(lower);
                e.upper = e.upper.min(upper);
                return;
            }
        }
        let slot = if self.entries[b].key == 0 {
            b
        } else if self.entries[b + 1].key == 0 {
            b + 1
        } else {
            self.toggle ^= 1;
            b + self.toggle
        };
        self.entries[slot] = Entry { key, lower, upper };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_pext_packs_the_masked_bits() {
        assert_eq!(pext_soft(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(pext_soft(0b1010, 0b1010), 0b11);
        assert_eq!(pext_soft(u64::MAX, 0), 0);
    }

    #[test]
    fn runs_keep_their_lowest_card() {
        // Hand 4, 6, 9 of clubs; 5 is gone, 7 and 8 are live elsewhere: {4, 6} are one run.
        let hand = 1 << 4 | 1 << 6 | 1 << 9;
        let live = hand | 1 << 7 | 1 << 8 | 1 << 12;
        assert_eq!(run_bottoms(hand, live), 1 << 4 | 1 << 9);
        // The ace of clubs and the two of diamonds are not a run.
        let hand = 1 << 14 | 1 << 18;
        assert_eq!(run_bottoms(hand, hand), hand);
    }

    #[test]
    fn keys_depend_only_on_relative_ranks() {
        let ctx = KeyContext::new(3, 0, false, Some(0));
        // Clubs A, 9, 4 held by seats 0, 1, 2 versus 7, 6, 2 held the same way.
        let a = [1u64 << 14, 1 << 9, 1 << 4];
        let b = [1u64 << 7, 1 << 6, 1 << 2];
        let key = |h: &[u64; 3]| ctx.key(h, h[0] | h[1] | h[2], 1);
        assert_eq!(key(&a), key(&b));
        let c = [1u64 << 9, 1 << 14, 1 << 4];
        assert_ne!(key(&a), key(&c));
    }
}
