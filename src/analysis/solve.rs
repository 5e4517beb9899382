//! `napsim solve`: double-dummy values of a given deal's opening leads, or the distribution of
//! the best value over random deals with the solve time per deal.

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::cards::{Card, CardError, CardSet, Suit, parse_cards};
use crate::error::InputError;
use crate::rng::{SimRng, base_rng, below};
use crate::rules::{HAND_SIZE, Profile, RulesError, TrumpRule};
use crate::solver::{Opening, Position, Solver};

/// Why a deal to solve was refused.
#[derive(Debug, Error)]
pub enum SolveDealError {
    /// A number of hands the profile does not play.
    #[error("the deal has {players} hands: {source}")]
    Players {
        /// Hands given.
        players: usize,
        /// The profile's refusal.
        #[source]
        source: RulesError,
    },
    /// A hand that cannot be read.
    #[error(transparent)]
    Cards(#[from] CardError),
    /// A card in two hands (or twice in one).
    #[error("{card} appears twice in the deal")]
    Twice {
        /// The card.
        card: Card,
    },
    /// A card outside the profile's pack.
    #[error("{card} is not in the pack ({pack})")]
    OutsidePack {
        /// The card.
        card: Card,
        /// The pack, described.
        pack: String,
    },
    /// A hand of no cards or more than a hand holds.
    #[error("seat {seat} holds {size} cards: a hand has 1 to {HAND_SIZE}")]
    HandSize {
        /// The seat.
        seat: usize,
        /// Its cards.
        size: usize,
    },
    /// Hands of different sizes.
    #[error("seat {seat} holds {size} cards but seat 0 holds {first}: hands must be equal")]
    Unequal {
        /// The seat.
        seat: usize,
        /// Its cards.
        size: usize,
        /// Seat 0's cards.
        first: usize,
    },
}

impl InputError for SolveDealError {}

/// Why the contract to solve was refused.
#[derive(Debug, Error)]
pub enum OpeningError {
    /// A misère with a bid or a trump suit.
    #[error("`misere` plays no trump with any lead: leave out `bid` and `trump`")]
    MisereWithBid,
    /// A bid the profile does not have.
    #[error("no bid '{name}' in profile {profile}; its bids are: {bids}")]
    UnknownBid {
        /// The bid as written.
        name: String,
        /// The profile's name.
        profile: String,
        /// Its bid names.
        bids: String,
    },
    /// A profile of misères only.
    #[error("the profile has no trick-taking bid")]
    NoTrickBid,
    /// A bid whose declarer names trump, without `--trump`.
    #[error("bid {bid} has the declarer name trump: give `trump` C|D|H|S")]
    TrumpNeeded {
        /// The bid's name.
        bid: String,
    },
    /// `--trump` for a bid that does not name trump.
    #[error(
        "bid {bid} does not name trump (the opening lead or no trump decides): leave out `trump`"
    )]
    TrumpNotNamed {
        /// The bid's name.
        bid: String,
    },
}

impl InputError for OpeningError {}

/// Parses a deal for the solver: hands separated by `/`, seat 0 first, all of one size from 1
/// to 5 cards, no card twice, every card in the profile's pack for that many players.
pub fn parse_solve_deal(text: &str, profile: &Profile) -> Result<Vec<CardSet>, SolveDealError> {
    let parts: Vec<&str> = text.split('/').collect();
    let players = parts.len();
    profile
        .check_players(players)
        .map_err(|source| SolveDealError::Players { players, source })?;
    let pack = profile.pack(players);
    let mut seen = CardSet::EMPTY;
    let mut hands = Vec::with_capacity(players);
    for (seat, part) in parts.iter().enumerate() {
        let cards = parse_cards(part)?;
        let mut hand = CardSet::EMPTY;
        for card in cards {
            if seen.contains(card) {
                return Err(SolveDealError::Twice { card });
            }
            if !pack.contains(card) {
                return Err(SolveDealError::OutsidePack {
                    card,
                    pack: profile.pack_description(players),
                });
            }
            seen.insert(card);
            hand.insert(card);
        }
        let size = hand.count() as usize;
        if size == 0 || size > HAND_SIZE {
            return Err(SolveDealError::HandSize { seat, size });
        }
        if let Some(first) = hands.first().map(|h: &CardSet| h.count() as usize)
            && first != size
        {
            return Err(SolveDealError::Unequal { seat, size, first });
        }
        hands.push(hand);
    }
    Ok(hands)
}

/// Which contract to solve: the opening rules from the profile's bid, or a misère.
pub fn opening_for(
    profile: &Profile,
    bid: Option<&str>,
    misere: bool,
    trump: Option<Suit>,
) -> Result<Opening, OpeningError> {
    if misere {
        if bid.is_some() || trump.is_some() {
            return Err(OpeningError::MisereWithBid);
        }
        return Ok(Opening::MISERE);
    }
    let chosen = match bid {
        Some(name) => profile
            .bid_by_name(name)
            .ok_or_else(|| OpeningError::UnknownBid {
                name: name.to_string(),
                profile: profile.name().to_string(),
                bids: profile.bid_names(),
            })?,
        // The lowest trick-taking bid: a plain contract whose opening lead may be any card.
        None => profile
            .bids()
            .iter()
            .find(|b| !b.is_misere())
            .ok_or(OpeningError::NoTrickBid)?,
    };
    match (chosen.trump(), trump) {
        (TrumpRule::Named, None) => Err(OpeningError::TrumpNeeded {
            bid: chosen.name().to_string(),
        }),
        (TrumpRule::Named, Some(_)) => Ok(Opening::for_bid(chosen, trump)),
        (_, Some(_)) => Err(OpeningError::TrumpNotNamed {
            bid: chosen.name().to_string(),
        }),
        (_, None) => Ok(Opening::for_bid(chosen, None)),
    }
}

/// The values of a deal's opening leads and the best of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeadValues {
    /// Each legal opening lead and the declarer's tricks after it, highest card first.
    pub leads: Vec<(Card, u8)>,
    /// The best value (the most tricks; the fewest in a misère).
    pub best: u8,
}

/// Solves one deal with seat 0 declaring and leading.
pub fn solve_deal(hands: &[CardSet], opening: &Opening) -> LeadValues {
    let mut solver = Solver::new(hands.len());
    let leads = solver.opening(hands, 0, opening);
    LeadValues {
        // The declarer, on lead, wants more tricks, or fewer in a misère.
        best: best_value(&leads, !opening.misere),
        leads,
    }
}

/// Why the cards played before a position to solve were refused.
#[derive(Debug, Error)]
pub enum SolvePlaysError {
    /// A card the seat to play may not play there.
    #[error("card {index} ({card}) cannot be played by seat {seat} there: {why}")]
    Illegal {
        /// 1-based position in the cards.
        index: usize,
        /// The card.
        card: Card,
        /// The seat to play.
        seat: usize,
        /// Why.
        why: &'static str,
    },
    /// Every card has been played.
    #[error("after {0} cards every card has been played: nothing is left to solve")]
    Over(usize),
}

impl InputError for SolvePlaysError {}

/// The values of the cards the seat to play may play in a position of a deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayValues {
    /// The seat to play (seat 0 declares).
    pub seat: usize,
    /// Each legal card and the declarer's tricks over the whole deal after it (tricks already
    /// won included), highest card first.
    pub cards: Vec<(Card, u8)>,
    /// The best value for the seat: the most tricks for the declarer, the fewest for a
    /// defender (reversed in a misère).
    pub best: u8,
}

/// Solves the position of a deal (seat 0 declaring and leading) after `plays`, its first cards
/// in order: the value of each card the seat to play may play next.
pub fn solve_after(
    hands: &[CardSet],
    opening: &Opening,
    plays: &[Card],
) -> Result<PlayValues, SolvePlaysError> {
    let mut solver = Solver::new(hands.len());
    let Some((&lead, rest)) = plays.split_first() else {
        let values = solve_deal(hands, opening);
        return Ok(PlayValues {
            seat: 0,
            cards: values.leads,
            best: values.best,
        });
    };
    let illegal = |index: usize, card, seat, why| SolvePlaysError::Illegal {
        index,
        card,
        seat,
        why,
    };
    let leads = crate::game::opening_leads(hands[0], opening.lead, opening.named());
    if !leads.contains(lead) {
        return Err(illegal(1, lead, 0, "not a lead the contract allows"));
    }
    let mut position = Position::new(hands, 0, opening.trump_for(lead), opening.misere, 0, &[])
        .expect("a parsed deal is a position");
    let (next, mut won) = position.after(lead);
    position = next;
    for (i, &card) in rest.iter().enumerate() {
        let seat = position.to_play();
        if position.tricks_left() == 0 {
            return Err(SolvePlaysError::Over(i + 1));
        }
        if !position.hand(seat).contains(card) {
            return Err(illegal(i + 2, card, seat, "the seat does not hold it"));
        }
        if !position.legal().contains(card) {
            return Err(illegal(i + 2, card, seat, "it must follow suit"));
        }
        let (next, gained) = position.after(card);
        position = next;
        won += gained;
    }
    if position.tricks_left() == 0 {
        return Err(SolvePlaysError::Over(plays.len()));
    }
    let cards = values_after(&mut solver, &position, won);
    let seat = position.to_play();
    let best = best_value(&cards, (seat == 0) != opening.misere);
    Ok(PlayValues { seat, cards, best })
}

/// Each legal card of the seat to play in `position` with the declarer's tricks over the
/// whole deal after it (`won` already taken), highest card first.
pub fn values_after(solver: &mut Solver, position: &Position, won: u8) -> Vec<(Card, u8)> {
    position
        .legal()
        .iter_desc()
        .map(|card| {
            let (next, gained) = position.after(card);
            (card, won + gained + solver.value(&next))
        })
        .collect()
}

/// The best of `values` for a seat that wants more tricks for the declarer, or fewer.
pub fn best_value(values: &[(Card, u8)], wants_more: bool) -> u8 {
    let each = values.iter().map(|&(_, v)| v);
    if wants_more { each.max() } else { each.min() }.expect("a legal card")
}

/// Random deals solved: how often each best value occurred and how long the solves took, in
/// memory that does not grow with the number of deals.
#[derive(Clone, Debug)]
pub struct RandomSolves {
    /// Deals whose best value was 0, 1, .., 5 tricks (exact).
    pub counts: [u64; HAND_SIZE + 1],
    /// The wall time of each solve, summarised.
    pub times: SolveTimes,
}

/// Solves `deals` random deals of `players` hands from the profile's pack (seat 0 declaring,
/// every lead valued), on one thread, reusing one solver as a simulation would.
pub fn solve_random(
    profile: &Profile,
    players: usize,
    deals: u64,
    seed: u64,
    opening: &Opening,
) -> RandomSolves {
    let mut rng = base_rng(seed);
    let pack: Vec<Card> = profile.pack(players).into_iter().collect();
    let mut solver = Solver::new(players);
    let mut counts = [0; HAND_SIZE + 1];
    let mut times = SolveTimes::new();
    for _ in 0..deals {
        let hands = random_hands(&pack, players, &mut rng);
        let start = Instant::now();
        let best = solver.best_opening(&hands, 0, opening);
        times.record(start.elapsed());
        counts[usize::from(best)] += 1;
    }
    RandomSolves { counts, times }
}
/// Five cards to each of `players` seats, uniformly from `pack`.
pub fn random_hands(pack: &[Card], players: usize, rng: &mut SimRng) -> Vec<CardSet> {
    let mut cards = pack.to_vec();
    let mut hands = vec![CardSet::EMPTY; players];
    for hand in &mut hands {
        for _ in 0..HAND_SIZE {
            let i = below(rng, cards.len() as u64) as usize;
            hand.insert(cards.swap_remove(i));
        }
    }
    hands
}

/// Sub-buckets per power of two in [`SolveTimes`]: the relative width of a bucket is at most
/// `1 / SUB`.
const SUB: u64 = 128;
/// Buckets: exact below `SUB` nanoseconds, then `SUB` per power of two up to `u64::MAX`.
const BUCKETS: usize = (SUB as usize) * (64 - SUB.trailing_zeros() as usize + 1);

/// Solve times summarised in fixed memory, however many deals: the exact count, sum and maximum,
/// and a log-linear histogram of nanoseconds (exact below 128 ns, then 128 buckets per power of
/// two) for the median and the 99th percentile. A percentile is the middle of the bucket holding
/// the value of that rank (clamped to the smallest and largest time seen), so it is within 0.4%
/// of the exact order statistic.
#[derive(Clone, Debug)]
pub struct SolveTimes {
    count: u64,
    total_ns: u128,
    min_ns: u64,
    max_ns: u64,
    buckets: Box<[u64]>,
}

impl Default for SolveTimes {
    fn default() -> SolveTimes {
        SolveTimes::new()
    }
}

impl SolveTimes {
    /// No times yet.
    pub fn new() -> SolveTimes {
        SolveTimes {
            count: 0,
            total_ns: 0,
            min_ns: u64::MAX,
            max_ns: 0,
            buckets: vec![0; BUCKETS].into_boxed_slice(),
        }
    }

    /// Adds one solve's time.
    pub fn record(&mut self, time: Duration) {
        let ns = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
        self.count += 1;
        self.total_ns += u128::from(ns);
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
        self.buckets[bucket_of(ns)] += 1;
    }

    /// How many times were recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Mean, median, 99th percentile and maximum, in microseconds (all 0 with no times). The
    /// percentile of rank `q` is the value at position `round((n - 1) q)` in sorted order.
    pub fn summary(&self) -> [f64; 4] {
        if self.count == 0 {
            return [0.0; 4];
        }
        let us = |ns: f64| ns / 1e3;
        let mean = self.total_ns as f64 / self.count as f64;
        let at = |q: f64| {
            let rank = ((self.count - 1) as f64 * q).round() as u64;
            let mut seen = 0;
            let bucket = self
                .buckets
                .iter()
                .position(|&n| {
                    seen += n;
                    seen > rank
                })
                .expect("the ranks are below the count");
            let (low, high) = bucket_range(bucket);
            let middle = low / 2 + high / 2 + (low % 2 + high % 2) / 2;
            middle.clamp(self.min_ns, self.max_ns) as f64
        };
        [us(mean), us(at(0.5)), us(at(0.99)), us(self.max_ns as f64)]
    }
}

/// The bucket of `ns` nanoseconds.
fn bucket_of(ns: u64) -> usize {
    if ns < SUB {
        return ns as usize;
    }
    // `ns` has `bits` significant bits; keep the top log2(SUB) + 1 of them.
    let shift = (64 - ns.leading_zeros()) - (SUB.trailing_zeros() + 1);
    let top = ns >> shift; // SUB..2 SUB
    ((shift as u64 + 1) * SUB + (top - SUB)) as usize
}

/// The smallest and largest nanoseconds of `bucket`.
fn bucket_range(bucket: usize) -> (u64, u64) {
    let bucket = bucket as u64;
    if bucket < SUB {
        return (bucket, bucket);
    }
    let shift = bucket / SUB - 1;
    let top = SUB + bucket % SUB;
    let low = top << shift;
    (low, low + ((1u64 << shift) - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::next_u64;

    #[test]
    fn buckets_cover_every_time_in_order() {
        let mut last = None;
        for bucket in 0..BUCKETS {
            let (low, high) = bucket_range(bucket);
            assert!(low <= high);
            assert_eq!(last.map_or(0, |l: u64| l + 1), low, "bucket {bucket}");
            assert_eq!((bucket_of(low), bucket_of(high)), (bucket, bucket));
            // At most 1/SUB of its values wide.
            assert!(
                (high - low) as f64 <= low as f64 / SUB as f64,
                "bucket {bucket}"
            );
            last = Some(high);
        }
        assert_eq!(last, Some(u64::MAX));
    }

    #[test]
    fn summary_is_within_the_bucket_width_of_the_exact_statistics() {
        for (seed, n) in [(1, 1), (2, 2), (3, 7), (4, 1000), (5, 20_001)] {
            let mut rng = crate::rng::base_rng(seed);
            let mut times = SolveTimes::new();
            let mut exact: Vec<u64> = (0..n)
                .map(|_| {
                    // Spread over six orders of magnitude, as solve times are.
                    let ns = 10 + (next_u64(&mut rng) >> (44 + next_u64(&mut rng) % 20));
                    times.record(Duration::from_nanos(ns));
                    ns
                })
                .collect();
            exact.sort_unstable();
            let at = |q: f64| exact[((n - 1) as f64 * q).round() as usize] as f64 / 1e3;
            let mean = exact.iter().sum::<u64>() as f64 / n as f64 / 1e3;
            let [m, median, p99, max] = times.summary();
            assert_eq!(times.count(), n as u64);
            assert!((m - mean).abs() <= mean * 1e-12, "seed {seed}: {m} {mean}");
            assert_eq!(max, *exact.last().unwrap() as f64 / 1e3);
            for (got, want) in [(median, at(0.5)), (p99, at(0.99))] {
                assert!(
                    (got - want).abs() <= want / SUB as f64 / 2.0 + 1e-9,
                    "seed {seed}: {got} against {want}"
                );
            }
        }
        assert_eq!(SolveTimes::new().summary(), [0.0; 4]);
    }
}
