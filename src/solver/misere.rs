//! Sure-trick bounds in a misère at no trump: what settles a query without searching on.
//!
//! A misère counts credited tricks too (tricks the declarer loses), so a query asks "can the
//! declarer lose at least `target` more?". The declarer loses a trick when it plays under a
//! card of the suit led before it (or has none of the suit), and wins one when it must play
//! above every other card of the suit in the trick. Two kinds of bounds settle queries:
//!
//! - *Ducking* ([`Search::duck_check`]): off lead, the declarer surely loses each of the next
//!   tricks if in each suit its i-th lowest card is below the i-th lowest card that the
//!   defenders who can ever lead may lead, or below the i-th lowest of the seat before it
//!   (which plays before it to every trick a defender leads). It plays its highest card under
//!   the cards before it, and the count survives every trick, so it never gets the lead.
//! - *Forced floors* ([`Search::forced_floors`]): in each suit, the highest of the lowest
//!   cards of the defenders holding it. A declarer card below it loses when led (that
//!   defender must play above it); when every declarer card of a suit is above it, the
//!   declarer wins a trick of the suit it must follow (the defenders all play under), and
//!   keeps winning the tricks it leads while the defenders' low cards last
//!   ([`Search::lead_wins`]).
//!
//! In the middle of a trick the trick's own outcome is often sure already; the bounds then
//! apply to the tricks after it. The marks (the cards a settled result reports as compared,
//! see [`super::search`]) are the higher card of each compared pair: the cards a declarer
//! card ducked under, the floor a led card is below, the declarer's lowest card of a suit it
//! wins in, the lowest card of the other defenders that a defender who never leads is below.

use super::search::Search;
use crate::cards::bits;

impl Search<'_> {
    /// At a trick start of a no-trump misère, whether sure-trick bounds settle the query, with
    /// the cards whose ranks they compared.
    pub(super) fn misere_trick_start(&self, target: i32, left: i32) -> Option<(bool, u64)> {
        if self.trumps != 0 {
            return None;
        }
        let mine = self.hands[self.declarer];
        let theirs = self.live & !mine;
        let everyone = ((1u32 << self.players) - 1) & !(1 << self.declarer);
        if self.leader != self.declarer {
            // Ducking waits for the lead, whose suit the next node knows: checked here it
            // settled too few nodes (4p instructions 4% fewer without, 7p 16%). The leader
            // leads a suit it holds.
            let first = bits::whole_lanes(self.hands[self.leader]);
            // The leader may lead a suit in which the declarer must win, and then the
            // declarer leads.
            let floors = self.forced_floors(theirs);
            let mut lanes = bits::suit_bottoms(mine & stuck_suits(mine, floors) & first);
            while lanes != 0 {
                let bottom = bits::lowest_bit(lanes);
                lanes ^= bottom;
                if target == left {
                    return Some((false, bottom));
                }
                let lane = bits::lane_of_bit(bottom.trailing_zeros());
                let wins = 1 + self.lead_wins(mine, everyone, lane).min(left - 1);
                if left - wins < target {
                    return Some((false, contested_bottoms(mine, theirs)));
                }
            }
            return None;
        }
        let floors = self.forced_floors(theirs);
        let exits = floors & !stuck_suits(mine, floors) & bits::whole_lanes(mine);
        if exits == 0 {
            // Whatever the declarer leads wins (the defenders all play under it).
            let compared = contested_bottoms(mine, theirs);
            if target == left || left - self.lead_wins(mine, 0, 0).min(left) < target {
                return Some((false, compared));
            }
            return None;
        }
        // Leading the highest card below a floor loses this trick; then ducking may lose the
        // rest.
        let mut floors_left = exits;
        while floors_left != 0 {
            let floor = floors_left.trailing_zeros();
            floors_left = bits::clear_lowest(floors_left);
            let lane = bits::lane_of_bit(floor);
            let card = highest(mine & lane & bits::below(floor));
            let horizon = Horizon {
                tricks: target - 1,
                spending: everyone,
                led: lane,
                first: ANY_SUIT,
                // Only a defender holding the suit led can win the trick.
                leading: Leaders::seats(self.holders(lane)),
                // The cheap count only: the stronger one settled too few nodes here (4p
                // instructions 2% fewer, 7p 4%).
                thorough: false,
            };
            if let Some(compared) = self.ducks(mine & !card, &horizon) {
                return Some((true, compared | 1 << floor));
            }
        }
        None
    }

    /// Right after a defender's lead in a no-trump misère, whether the trick's outcome and
    /// ducking after it settle the query, with the cards whose ranks they compared.
    pub(super) fn misere_mid_trick(&self, target: i32) -> Option<(bool, u64)> {
        // Later in the trick the checks settled too few nodes to pay: the declarer's own
        // node weighs much the same hands as the node after the lead, and once it has played
        // the next trick start weighs them (4p instructions 12% fewer without, 7p 25%).
        if self.trumps != 0 || self.trick_len != 1 || self.leader == self.declarer {
            return None;
        }
        let mine = self.hands[self.declarer];
        let later = self.hands[self.leader].count_ones() as i32;
        // The highest of the lowest cards of the suit led that the defenders still to play
        // hold: each declarer card below it loses, since that defender must play above it.
        let mut floor = 0u64;
        let mut spending = 0u32;
        // The seats that may win the trick, and so lead the next: their cards of the suit led
        // were compared with the winning card.
        let mut winners = Leaders::seat(self.win_seat);
        if (self.trick_cards & self.led).count_ones() > 1 {
            winners.compared = 1 << self.win_card;
        }
        let mut seat = self.leader + self.trick_len;
        for _ in self.trick_len..self.players {
            if seat >= self.players {
                seat -= self.players;
            }
            if seat != self.declarer {
                let follow = self.hands[seat] & self.led;
                floor = floor.max(bits::lowest_bit(follow));
                spending |= 1 << seat;
                if follow != 0 {
                    winners.compared = 1 << self.win_card;
                }
                if follow & bits::above(self.win_card) != 0 {
                    winners.seats |= 1 << seat;
                }
            }
            seat += 1;
        }
        let horizon = Horizon {
            tricks: target - 1,
            spending,
            led: self.led,
            first: ANY_SUIT,
            leading: winners,
            thorough: true,
        };
        match self.declarer_to_play(mine, floor, &horizon)? {
            // The declarer's wins on lead after it are left to the next trick start (counted
            // here they settled too few nodes: 4p instructions 1% fewer without).
            Trick::Won(compared) => (target > later).then_some((false, compared)),
            Trick::Lost(compared, after) => self
                .ducks(after, &horizon)
                .map(|ducked| (true, compared | ducked)),
            Trick::Ducked(compared) => Some((true, compared)),
        }
    }

    /// The trick's outcome when the declarer is still to play to it (a defender's card is
    /// winning; `floor` as in [`Search::misere_mid_trick`], `horizon` the tricks after it),
    /// None when neither is sure.
    fn declarer_to_play(&self, mine: u64, floor: u64, horizon: &Horizon) -> Option<Trick> {
        let winning = 1u64 << self.win_card;
        let follow = mine & self.led;
        if follow == 0 {
            // A discard loses. Discarding the top card of a suit keeps every other suit's
            // ducks, and may mend its own.
            let (failing, compared) = self.duck_check(mine, horizon, true);
            if failing == 0 {
                return Some(Trick::Ducked(compared));
            }
            if (failing & bits::LANE_ONES).count_ones() > 1 {
                return None;
            }
            return Some(Trick::Lost(0, mine & !bits::suit_tops(mine & failing)));
        }
        let ducks = follow & (winning - 1);
        if ducks != 0 {
            // Duck with the highest card under the winning one.
            return Some(Trick::Lost(winning, mine & !highest(ducks)));
        }
        let lowest = bits::lowest_bit(follow);
        if floor > lowest {
            // A defender still to play must go above the highest card below its floor.
            let card = highest(follow & (floor - 1));
            return Some(Trick::Lost(floor, mine & !card));
        }
        // Every defender still to play can go under the declarer's lowest card of the suit.
        Some(Trick::Won(lowest))
    }

    /// How many tricks in a row the declarer is sure to win from the next trick start on, on
    /// lead there with at most `mine` (`i32::MAX` for all of them); the seats of `spending`
    /// first play to the trick in progress, whose suit led is `led`.
    ///
    /// A defender holding only cards below the declarer's lowest of a suit (*low* cards) plays
    /// one under each lead of the suit; one that also holds higher cards does so as long as
    /// its low cards last, and only then must go above. Defenders that cannot follow discard
    /// a higher card, or a low card of a suit they hold no higher card of, which never hurts.
    /// The declarer leads at most as many cards of a suit as it holds.
    fn lead_wins(&self, mine: u64, spending: u32, led: u64) -> i32 {
        let held = bits::whole_lanes(mine);
        let above = bits::smear_up(mine);
        let mut wins = i32::MAX;
        for seat in 0..self.players {
            let hand = self.hands[seat];
            let high = hand & above;
            if seat == self.declarer || high == 0 {
                continue;
            }
            let low = hand & held & !above;
            let mut lanes = bits::suit_bottoms(high);
            while lanes != 0 {
                let lane = bits::lane_of_bit(lanes.trailing_zeros());
                lanes = bits::clear_lowest(lanes);
                // A defender following the trick in progress may spend a low card on it.
                let spent = spending >> seat & 1 != 0 && lane == led;
                let lows = (low & lane).count_ones() as i32 - i32::from(spent);
                if lows < (mine & lane).count_ones() as i32 {
                    wins = wins.min(lows.max(0));
                }
            }
        }
        wins
    }

    /// Whether the declarer, holding `mine` and off lead, is sure to lose each trick of the
    /// horizon, and if so the cards compared (see [`Search::duck_check`]).
    fn ducks(&self, mine: u64, horizon: &Horizon) -> Option<u64> {
        let (failing, compared) = self.duck_check(mine, horizon, false);
        (failing == 0).then_some(compared)
    }

    /// The suits (whole lanes) in which the declarer, holding `mine` and off lead, may have to
    /// win a trick of the horizon (the first such suit found, unless `every_suit`), and the
    /// cards compared for the other suits.
    ///
    /// In each suit the declarer plays its highest card under the cards played before it.
    /// Take the tricks of the suit in the order of that top: the i-th has under its top at
    /// least i cards led by the defenders that can lead (see [`Search::leads_and_floors`]), and
    /// i cards of the seat before the declarer if that seat holds the suit throughout. So if
    /// for every i up to the tricks of the suit that can happen the declarer's i-th lowest
    /// card is below either, it keeps ducking: a trick of the suit takes from the defenders a
    /// card under its top and the declarer's card under it, and a discard takes the
    /// declarer's top card of a suit (or any defender card), which keeps the count.
    fn duck_check(&self, mine: u64, horizon: &Horizon, every_suit: bool) -> (u64, u64) {
        if horizon.tricks <= 0 {
            return (0, 0);
        }
        let theirs = self.live & !self.hands[self.declarer] & !self.trick_cards;
        let before = self.persistent_before(horizon);
        if !horizon.thorough {
            return cheap_ballot(mine, theirs, before, horizon, every_suit);
        }
        // The stronger counts only for the suits the cheap one fails (each suit's counts are
        // its own), so that one goes over every suit.
        let (failing, cheap) = cheap_ballot(mine, theirs, before, horizon, true);
        if failing == 0 {
            return (0, cheap);
        }
        // Only the defenders that can win a trick lead one; and a declarer playing its lowest
        // card of a suit loses the trick if a defender holding the suit must play above it.
        let (leads, floor, unbeaten) = self.leads_and_floors(theirs, horizon);
        if leads == theirs && floor == 0 {
            return (failing, cheap);
        }
        let count = ballot(
            mine & failing,
            [theirs, leads],
            before,
            floor,
            horizon,
            every_suit,
        );
        let mut compared = cheap | count.compared;
        if count.by_leads != 0 {
            // The marks that keep out of the leads the defenders holding those suits.
            compared |= horizon.leading.compared;
            compared |= self.unbeaten_marks(theirs, unbeaten, count.by_leads);
        }
        (count.failing, compared)
    }

    /// The cards of the defenders that may lead a trick of the horizon; the highest of the
    /// lowest cards of each suit of the defenders holding it throughout the horizon (0 in a
    /// suit none does); and the other defenders, as a seat mask.
    ///
    /// The declarer never leads in the horizon, so who may lead are the seats that may win the
    /// trick before it (`horizon.leading`) and the defenders with a card of some suit above
    /// another defender's lowest of it. A defender whose every card is below every other
    /// defender's card of its suit never beats the card led to a trick (the declarer plays
    /// under it), so never leads; that stays so as the others' cards go.
    fn leads_and_floors(&self, theirs: u64, horizon: &Horizon) -> (u64, u64, u32) {
        let (mut leads, mut bottoms, mut unbeaten) = (0, 0, 0);
        for seat in 0..self.players {
            let hand = self.hands[seat];
            if seat == self.declarer || hand == 0 {
                continue;
            }
            // Its cards above the others' lowest of their suit (none in a suit they lack).
            let others = bits::suit_bottoms(theirs & !hand);
            if horizon.leading.seats >> seat & 1 != 0 || hand & !bits::below_each(others) != 0 {
                leads |= hand;
            } else {
                unbeaten |= 1 << seat;
            }
            bottoms |= bits::suit_bottoms(self.persistent(seat, horizon));
        }
        (leads, bits::suit_tops(bottoms), unbeaten)
    }

    /// The cards compared to keep out of the leads the defenders of `unbeaten` (a seat mask)
    /// that hold a card of the suits `suits`: the other defenders' lowest card of each of
    /// their suits.
    fn unbeaten_marks(&self, theirs: u64, unbeaten: u32, suits: u64) -> u64 {
        let mut marks = 0;
        for seat in 0..self.players {
            let hand = self.hands[seat];
            if unbeaten >> seat & 1 != 0 && hand & suits != 0 {
                marks |= bits::suit_bottoms(theirs & !hand) & bits::whole_lanes(hand);
            }
        }
        marks
    }

    /// The cards of the suits that the seat before the declarer holds throughout the horizon.
    fn persistent_before(&self, horizon: &Horizon) -> u64 {
        let seat = if self.declarer == 0 {
            self.players - 1
        } else {
            self.declarer - 1
        };
        self.persistent(seat, horizon)
    }

    /// The cards of the suits that `seat` holds throughout the horizon.
    fn persistent(&self, seat: usize, horizon: &Horizon) -> u64 {
        let hand = self.hands[seat];
        if (hand.count_ones() as i32) < horizon.tricks {
            return 0;
        }
        // It may spend a card of the suit led, or of any suit if void in it.
        let spent = if horizon.spending >> seat & 1 == 0 {
            0
        } else if hand & horizon.led == 0 {
            bits::LANE_ONES
        } else {
            horizon.led & bits::LANE_ONES
        };
        let needed = horizon.tricks as u64 * bits::LANE_ONES + spent;
        // Bit 15 of a lane stays set when its length is at least the number needed.
        let enough = (bits::lane_lengths(hand) | bits::LANE_TOPS).wrapping_sub(needed);
        hand & bits::whole_lanes(enough & bits::LANE_TOPS)
    }

    /// The defenders holding a card of the suit of `lane`, as a seat mask.
    fn holders(&self, lane: u64) -> u32 {
        let mut seats = 0;
        for seat in 0..self.players {
            if seat != self.declarer && self.hands[seat] & lane != 0 {
                seats |= 1 << seat;
            }
        }
        seats
    }

    /// In each suit, the highest of the lowest cards of the defenders holding it (of
    /// `theirs`), as bits: the floors above which a defender must play to a lead of the suit.
    pub(super) fn forced_floors(&self, theirs: u64) -> u64 {
        let mut bottoms = 0;
        for seat in 0..self.players {
            if seat != self.declarer {
                bottoms |= bits::suit_bottoms(self.hands[seat] & theirs);
            }
        }
        bits::suit_tops(bottoms)
    }
}

/// The suits (whole lanes) in which the declarer's cards `mine` fail the first count of
/// [`ballot`] (under the cards led by any defender, `theirs`, or of the seat before, `before`),
/// and the cards compared for the others.
#[inline]
fn cheap_ballot(
    mine: u64,
    theirs: u64,
    before: u64,
    horizon: &Horizon,
    every_suit: bool,
) -> (u64, u64) {
    let mut my = mine & bits::whole_lanes(theirs);
    let (mut their, mut befores) = (theirs, before);
    let first = bits::lane_flags(horizon.first);
    let (mut failing, mut compared) = (0, 0);
    for i in 0..horizon.tricks {
        let mut active = bits::lane_flags(my) & bits::lane_flags(their) & !failing;
        if i + 1 == horizon.tricks {
            active &= first;
        }
        if active == 0 {
            break;
        }
        let card = bits::suit_bottoms(my) & flagged(active);
        let (lowest, lowest_before) = (bits::suit_bottoms(their), bits::suit_bottoms(befores));
        let above = (lowest | lowest_before) & flagged(active) & !bits::below_each(card);
        failing |= active & !bits::lane_flags(above);
        if failing != 0 && !every_suit {
            break;
        }
        compared |= above;
        my &= !card;
        their &= !lowest;
        befores &= !lowest_before;
    }
    (flagged(failing), compared & !flagged(failing))
}

/// How the suits failing the cheap count fare in the stronger counts of
/// [`Search::duck_check`]: the suits (whole lanes) failing them too, the cards compared for
/// the others, and the suits that only the count with the defenders that may lead passed.
struct Ballot {
    failing: u64,
    compared: u64,
    by_leads: u64,
}

/// The stronger counts of [`Search::duck_check`] for the declarer's cards `mine` (of the
/// suits that failed [`cheap_ballot`]): under `floor`, the highest of the lowest cards of
/// each suit of the defenders holding it throughout (0 for none), while the defenders
/// (`theirs`) hold the suit; and under the cards led by the defenders that may lead (`leads`,
/// a subset of `theirs`) or the seat before (`before`, the cards it holds throughout the
/// horizon). A suit passes by the first count that passes in this order (the last needs the
/// most marks).
#[inline]
fn ballot(
    mine: u64,
    [theirs, leads]: [u64; 2],
    before: u64,
    floor: u64,
    horizon: &Horizon,
    every_suit: bool,
) -> Ballot {
    let mut my = mine;
    let (mut all, mut led, mut befores) = (theirs, leads, before);
    let first = bits::lane_flags(horizon.first);
    // The suits (as lane flags) failing each count and the cards each compared (with no
    // floor, or no smaller set of leaders, every suit fails that count).
    let mut fails = [
        if floor == 0 { bits::LANE_TOPS } else { 0 },
        if leads == theirs { bits::LANE_TOPS } else { 0 },
    ];
    let mut found = [0u64; 2];
    for i in 0..horizon.tricks {
        let mut active = bits::lane_flags(my) & !(fails[0] & fails[1]);
        if i + 1 == horizon.tricks {
            // A suit the first trick cannot be led in has a trick fewer.
            active &= first;
        }
        // No further trick of a suit the defenders (or those that may lead) are out of.
        let counted = [
            active & bits::lane_flags(all),
            active & bits::lane_flags(led),
        ];
        if counted[0] | counted[1] == 0 {
            break;
        }
        let card = bits::suit_bottoms(my) & flagged(active);
        let under = !bits::below_each(card) & flagged(active);
        let (lowest, lowest_led, lowest_before) = (
            bits::suit_bottoms(all),
            bits::suit_bottoms(led),
            bits::suit_bottoms(befores),
        );
        // The floor, or the i-th lowest card led or of the seat before, above the declarer's.
        let above = [floor & under, (lowest_led | lowest_before) & under];
        for way in 0..2 {
            fails[way] |= counted[way] & !bits::lane_flags(above[way]);
            found[way] |= above[way];
        }
        if fails[0] & fails[1] != 0 && !every_suit {
            break;
        }
        my &= !card;
        all &= !lowest;
        led &= !lowest_led;
        befores &= !lowest_before;
    }
    let by_floor = !flagged(fails[0]);
    let by_leads = !flagged(fails[1]) & !by_floor;
    Ballot {
        failing: !(by_floor | by_leads) & bits::whole_lanes(mine),
        compared: found[0] & by_floor | found[1] & by_leads,
        by_leads,
    }
}

/// The whole lanes of the lanes whose flag (bit 15) is set in `flags`.
#[inline]
fn flagged(flags: u64) -> u64 {
    (flags >> 15) * bits::LANE
}

/// The tricks a ducking count covers: how many, and what happens before them.
#[derive(Clone, Copy)]
struct Horizon {
    /// The number of tricks.
    tricks: i32,
    /// The defenders still to play to the trick in progress, before the horizon: each spends
    /// a card of the suit led, or of any suit if void in it.
    spending: u32,
    /// The suit led to the trick in progress (its whole lane).
    led: u64,
    /// The suits (whole lanes) the first trick of the horizon may be led in.
    first: u64,
    /// Who may lead that first trick.
    leading: Leaders,
    /// Whether to try the stronger count (with the defenders that can lead, and the holders'
    /// floors) when the cheap one fails.
    thorough: bool,
}

/// The defenders that may lead the first trick of a horizon, and the cards compared to know
/// it.
#[derive(Clone, Copy)]
struct Leaders {
    seats: u32,
    compared: u64,
}

impl Leaders {
    fn seat(seat: usize) -> Leaders {
        Leaders::seats(1 << seat)
    }

    fn seats(seats: u32) -> Leaders {
        Leaders { seats, compared: 0 }
    }
}

/// Every suit, as whole lanes: the first trick of a horizon may be led in any suit.
const ANY_SUIT: u64 = u64::MAX;

/// How a trick in progress surely ends for the declarer, with the cards compared: won; lost
/// with the declarer's hand after it; or lost with every later trick of the query.
enum Trick {
    Won(u64),
    Lost(u64, u64),
    Ducked(u64),
}

/// The highest bit of `bits` alone (`bits` not empty).
#[inline]
fn highest(bits: u64) -> u64 {
    1 << (63 - bits.leading_zeros())
}

/// The declarer's lowest card of each suit the defenders hold too: what its wins on lead
/// compared (in a suit they lack its lead wins by the suit lengths alone).
#[inline]
fn contested_bottoms(mine: u64, theirs: u64) -> u64 {
    bits::suit_bottoms(mine & bits::whole_lanes(theirs))
}

/// The whole lanes of the suits in which every card of `mine` is above the forced floor (or
/// no defender holds the suit): a lead of the suit that the declarer must follow it wins.
#[inline]
fn stuck_suits(mine: u64, floors: u64) -> u64 {
    bits::whole_lanes(mine) & !bits::whole_lanes(floors & bits::smear_up(mine))
}
