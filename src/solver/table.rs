//! The transposition table: bounds on the declarer's future tricks at trick starts, stored
//! so that one entry serves every position that differs only in small cards that did not
//! matter ("winning ranks", after Bo Haglund's DDS).
//!
//! Once cards are gone only the order of the cards still out matters: a position where the
//! remaining clubs are A, 9, 4 plays exactly like one where they are 7, 6, 2 held by the same
//! seats. Beyond that, a search result depends only on the ranks it compared: the search
//! returns the set of cards whose rank mattered, and an entry records, suit by suit, the
//! owners of the live cards from the lowest relevant one up; below it only how many cards of
//! the suit each seat holds counts. So a lookup has two parts: a *coarse key* (the seat on
//! lead, each seat's length in each suit, the trump suit, the declarer, the player count and
//! the misère flag) picks a bucket, and each entry of the bucket with that coarse key is
//! compared on the owners of its relevant cards only. Both parts are exact, never a hash, so
//! entries stay valid from one deal to the next.

use crate::cards::bits;

/// Bits of the coarse key's header below the suit lengths: players, declarer, misère, trump
/// and the leader.
const HEADER_BITS: u32 = 3 + 3 + 1 + 3 + 3;

/// The key of a trick start: the coarse key and the owner of every live card.
#[derive(Clone, Copy)]
pub(super) struct Key {
    /// Everything but the owners of the cards (never 0: the player count is at least 3).
    coarse: u128,
    /// For each bit of the seat number, the live cards (compressed, lowest club first) held
    /// by a seat with that bit set.
    planes: [u64; 3],
    /// The live cards, to translate between cards and compressed positions.
    live: u64,
}

/// The context of a search that does not change from node to node.
#[derive(Clone, Copy)]
pub(super) struct KeyContext {
    /// Player count, declarer, misère flag and trump in the low bits, ready to OR in.
    header: u128,
    players: usize,
}

impl KeyContext {
    pub(super) fn new(players: usize, declarer: usize, misere: bool, trump: Option<u8>) -> Self {
        let trump = trump.map_or(4, u128::from);
        let header =
            players as u128 | (declarer as u128) << 3 | u128::from(misere) << 6 | trump << 7;
        KeyContext { header, players }
    }

    /// The key of the trick start with `leader` on lead and `hands` (whose union is `live`).
    #[inline]
    pub(super) fn key(&self, hands: &[u64], live: u64, leader: usize) -> Key {
        let hands = &hands[..self.players];
        let mut coarse = self.header | (leader as u128) << 10;
        let mut shift = HEADER_BITS;
        for &hand in hands {
            for lane in 0..4 {
                // Each suit length fits in 4 bits: 7 seats x 4 suits x 4 bits + 13 = 125.
                coarse |= u128::from(bits::lane_bits(hand, lane).count_ones()) << shift;
                shift += 4;
            }
        }
        Key {
            coarse,
            planes: owner_planes(hands, live),
            live,
        }
    }
}

/// The live cards of each suit from the lowest card of `relevant` in that suit up: the cards
/// whose owners a table entry records.
#[inline]
pub(super) fn close_up(relevant: u64, live: u64) -> u64 {
    bits::smear_up(relevant) & live
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

/// Parallel bit deposit: the low bits of `x` spread to the positions of `mask`.
#[inline]
fn pdep(x: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU supports BMI2, checked just above.
        return unsafe { std::arch::x86_64::_pdep_u64(x, mask) };
    }
    pdep_soft(x, mask)
}

/// Parallel bit extract without BMI2: the bits of `x` at the positions of `mask`, packed.
fn pext_soft(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let lowest = bits::lowest_bit(mask);
        if x & lowest != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask ^= lowest;
    }
    out
}

/// Parallel bit deposit without BMI2: the low bits of `x` spread to the positions of `mask`.
fn pdep_soft(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let lowest = bits::lowest_bit(mask);
        if x & bit != 0 {
            out |= lowest;
        }
        bit <<= 1;
        mask ^= lowest;
    }
    out
}

/// One entry: the owners of the relevant cards, and bounds on the credited tricks still to
/// come for every position with its coarse key that matches them.
#[derive(Clone, Copy)]
struct Entry {
    /// The owner planes, restricted to `mask`.
    planes: [u64; 3],
    /// The compressed positions of the relevant cards (the top cards of each suit).
    mask: u64,
    /// The next entry with the same coarse key (`NONE` ends the chain).
    next: u32,
    lower: u8,
    upper: u8,
}

impl Entry {
    #[inline]
    fn matches(&self, planes: &[u64; 3]) -> bool {
        (planes[0] & self.mask) == self.planes[0]
            && (planes[1] & self.mask) == self.planes[1]
            && (planes[2] & self.mask) == self.planes[2]
    }
}

/// The end of a chain.
const NONE: u32 = u32::MAX;

/// A slot of the open-addressed index: a coarse key and the first entry of its chain.
#[derive(Clone, Copy)]
struct Head {
    /// The coarse key as two halves (keeps the slot 8-byte aligned); 0 marks an empty slot.
    coarse: [u64; 2],
    first: u32,
}

const EMPTY: Head = Head {
    coarse: [0, 0],
    first: NONE,
};

fn halves(coarse: u128) -> [u64; 2] {
    [coarse as u64, (coarse >> 64) as u64]
}

/// The table: an open-addressed index of coarse keys, each the head of a chain of entries in
/// one arena. Positions with one coarse key can differ in many owner patterns, so a fixed
/// number of slots per key would thrash; the chains grow instead, and the whole table is
/// emptied when the arena is full (cheap: no allocation per entry).
pub(super) struct Table {
    heads: Vec<Head>,
    entries: Vec<Entry>,
    /// Whether entries generalise over small cards (false keys every live card exactly).
    generalise: bool,
}

impl Table {
    /// A table of `2^bits` entries.
    pub(super) fn new(bits: u32, generalise: bool) -> Table {
        Table {
            // At most one head per entry, so the index is never more than half full.
            heads: vec![EMPTY; 2 << bits],
            entries: Vec::with_capacity(1 << bits),
            generalise,
        }
    }

    /// Whether entries generalise over small cards.
    pub(super) fn generalises(&self) -> bool {
        self.generalise
    }

    /// The index slot of `coarse`: its own, or the empty slot where it would go.
    #[inline]
    fn slot(&self, coarse: [u64; 2]) -> usize {
        let mask = self.heads.len() - 1;
        let mixed = (coarse[0] ^ coarse[1].rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut i = (mixed >> 32) as usize & mask;
        loop {
            let head = &self.heads[i];
            if head.coarse == coarse || head.coarse == [0, 0] {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// Whether a stored entry matching `key` settles the query "at least `target` more
    /// credited tricks?", and if so the answer and the live cards whose owners it compared.
    #[inline]
    pub(super) fn probe(&self, key: &Key, target: i32) -> Option<(bool, u64)> {
        let mut at = self.heads[self.slot(halves(key.coarse))].first;
        while at != NONE {
            let e = &self.entries[at as usize];
            if e.matches(&key.planes) {
                if i32::from(e.lower) >= target {
                    return Some((true, pdep(e.mask, key.live)));
                }
                if i32::from(e.upper) < target {
                    return Some((false, pdep(e.mask, key.live)));
                }
            }
            at = e.next;
        }
        None
    }

    /// Narrows the bounds to `lower..=upper` for every position that matches `key` on the
    /// owners of the live cards from the lowest card of `relevant` in each suit up.
    #[inline]
    pub(super) fn store(&mut self, key: &Key, relevant: u64, lower: u8, upper: u8) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            // SAFETY: the CPU supports BMI2, checked just above.
            return unsafe { self.store_bmi2(key, relevant, lower, upper) };
        }
        self.store_with(key, relevant, lower, upper, pext_soft);
    }

    /// [`Table::store`] with the hardware bit extract inlined (a call to it cost more than
    /// the instruction).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn store_bmi2(&mut self, key: &Key, relevant: u64, lower: u8, upper: u8) {
        self.store_with(key, relevant, lower, upper, |x, mask| {
            std::arch::x86_64::_pext_u64(x, mask)
        });
    }

    /// [`Table::store`]'s body, with `pext` the bit extract to use.
    #[inline(always)]
    fn store_with(
        &mut self,
        key: &Key,
        relevant: u64,
        lower: u8,
        upper: u8,
        pext: impl Fn(u64, u64) -> u64,
    ) {
        let relevant = if self.generalise { relevant } else { key.live };
        let mask = pext(close_up(relevant, key.live), key.live);
        let planes = key.planes.map(|p| p & mask);
        let coarse = halves(key.coarse);
        let slot = self.slot(coarse);
        let mut at = self.heads[slot].first;
        while at != NONE {
            let e = &mut self.entries[at as usize];
            if e.mask == mask && e.planes == planes {
                e.lower = e.lower.max(lower);
                e.upper = e.upper.min(upper);
                return;
            }
            at = e.next;
        }
        if self.entries.len() == self.entries.capacity() {
            return self.store_after_emptying(key, relevant, lower, upper);
        }
        let head = &mut self.heads[slot];
        head.coarse = coarse;
        self.entries.push(Entry {
            planes,
            mask,
            next: head.first,
            lower,
            upper,
        });
        head.first = (self.entries.len() - 1) as u32;
    }

    /// The arena is full: empties the table, then stores (rare, and kept out of the hot
    /// path, whose setup it bloated).
    #[cold]
    #[inline(never)]
    fn store_after_emptying(&mut self, key: &Key, relevant: u64, lower: u8, upper: u8) {
        self.heads.fill(EMPTY);
        self.entries.clear();
        self.store(key, relevant, lower, upper);
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
    fn soft_pdep_undoes_pext() {
        assert_eq!(pdep_soft(0b1011, 0b1111_0000), 0b1011_0000);
        assert_eq!(pdep_soft(0b11, 0b1010), 0b1010);
        let mask: u64 = 0x00f0_1234_8000_0f0f;
        for x in [0u64, 1, 0x55, 0xffff_ffff, 0x1234_5678] {
            let low = (1u64 << mask.count_ones()) - 1;
            assert_eq!(pext_soft(pdep_soft(x, mask), mask), x & low);
        }
    }

    #[test]
    fn closing_up_takes_the_live_cards_above_the_lowest_relevant() {
        let live = 1 << 3 | 1 << 5 | 1 << 9 | 1 << 14 | 1 << 20;
        assert_eq!(close_up(1 << 9, live), 1 << 9 | 1 << 14);
        assert_eq!(close_up(1 << 20, live), 1 << 20);
        assert_eq!(close_up(0, live), 0);
    }

    /// Clubs A, 9, 4 held by seats 0, 1, 2, or 7, 6, 2, or A, 9 and a club lower than 4.
    fn three_club_tables() -> [[u64; 3]; 3] {
        [
            [1u64 << 14, 1 << 9, 1 << 4],
            [1u64 << 7, 1 << 6, 1 << 2],
            [1u64 << 14, 1 << 9, 1 << 3],
        ]
    }

    #[test]
    fn keys_depend_only_on_relative_ranks() {
        let ctx = KeyContext::new(3, 0, false, Some(0));
        let [a, b, _] = three_club_tables();
        let key = |h: &[u64; 3]| ctx.key(h, h[0] | h[1] | h[2], 1);
        let mut table = Table::new(6, true);
        table.store(&key(&a), a[2], 1, 1);
        assert_eq!(table.probe(&key(&b), 1), Some((true, b[0] | b[1] | b[2])));
        let c = [1u64 << 9, 1 << 14, 1 << 4];
        assert_eq!(table.probe(&key(&c), 1), None);
    }

    #[test]
    fn entries_generalise_below_the_relevant_cards() {
        let ctx = KeyContext::new(3, 0, false, Some(0));
        let key = |h: &[u64; 3]| ctx.key(h, h[0] | h[1] | h[2], 1);
        let mut table = Table::new(6, true);
        // Seat 0 holds the ace and the 4 of clubs, seat 1 the 9 and the 3; only the ace and
        // the nine mattered.
        let a = [1u64 << 14 | 1 << 4, 1 << 9 | 1 << 3, 0];
        table.store(&key(&a), 1 << 9, 0, 0);
        // The small clubs the other way round: the same entry.
        let b = [1u64 << 14 | 1 << 3, 1 << 9 | 1 << 4, 0];
        assert_eq!(table.probe(&key(&b), 1), Some((false, 1 << 14 | 1 << 9)));
        // The nine with the other seat: no match.
        let c = [1u64 << 9 | 1 << 4, 1 << 14 | 1 << 3, 0];
        assert_eq!(table.probe(&key(&c), 1), None);
        // Different suit lengths: a different coarse key.
        let d = [1u64 << 14 | 1 << 4 | 1 << 3, 1 << 9, 0];
        assert_eq!(table.probe(&key(&d), 1), None);
    }
}
