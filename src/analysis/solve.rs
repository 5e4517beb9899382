//! `napsim solve`: double-dummy values of a given deal's opening leads, or the distribution of
//! the best value over random deals with the solve time per deal.

use std::time::{Duration, Instant};

use crate::cards::{Card, CardSet, Suit, parse_cards};
use crate::rng::{SimRng, base_rng, below};
use crate::rules::{HAND_SIZE, Profile, TrumpRule};
use crate::solver::{Opening, Solver};

/// Parses a deal for the solver: hands separated by `/`, seat 0 first, all of one size from 1
/// to 5 cards, no card twice, every card in the profile's pack for that many players.
pub fn parse_solve_deal(text: &str, profile: &Profile) -> Result<Vec<CardSet>, String> {
    let parts: Vec<&str> = text.split('/').collect();
    let players = parts.len();
    profile
        .check_players(players)
        .map_err(|e| format!("the deal has {players} hands: {e}"))?;
    let pack = profile.pack(players);
    let mut seen = CardSet::EMPTY;
    let mut hands = Vec::with_capacity(players);
    for (seat, part) in parts.iter().enumerate() {
        let cards = parse_cards(part).map_err(|e| e.to_string())?;
        let mut hand = CardSet::EMPTY;
        for card in cards {
            if seen.contains(card) {
                return Err(format!("{card} appears twice in the deal"));
            }
            if !pack.contains(card) {
                return Err(format!(
                    "{card} is not in the pack ({})",
                    profile.pack_description(players)
                ));
            }
            seen.insert(card);
            hand.insert(card);
        }
        let size = hand.count() as usize;
        if size == 0 || size > HAND_SIZE {
            return Err(format!(
                "seat {seat} holds {size} cards: a hand has 1 to {HAND_SIZE}"
            ));
        }
        if let Some(first) = hands.first().map(|h: &CardSet| h.count() as usize)
            && first != size
        {
            return Err(format!(
                "seat {seat} holds {size} cards but seat 0 holds {first}: hands must be equal"
            ));
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
) -> Result<Opening, String> {
    if misere {
        if bid.is_some() || trump.is_some() {
            return Err(
                "--misere plays no trump with any lead: leave out --bid and --trump".into(),
            );
        }
        return Ok(Opening::MISERE);
    }
    let chosen = match bid {
        Some(name) => profile.bid_by_name(name).ok_or_else(|| {
            format!(
                "no bid '{name}' in profile {}; its bids are: {}",
                profile.name(),
                profile.bid_names()
            )
        })?,
        // The lowest trick-taking bid: a plain contract whose opening lead may be any card.
        None => profile
            .bids()
            .iter()
            .find(|b| !b.is_misere())
            .ok_or("the profile has no trick-taking bid")?,
    };
    match (chosen.trump(), trump) {
        (TrumpRule::Named, None) => Err(format!(
            "bid {} has the declarer name trump: give --trump C|D|H|S",
            chosen.name()
        )),
        (TrumpRule::Named, Some(_)) => Ok(Opening::for_bid(chosen, trump)),
        (_, Some(_)) => Err(format!(
            "bid {} does not name trump (the opening lead or no trump decides): leave out --trump",
            chosen.name()
        )),
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
        best: best_of(&leads, opening.misere),
        leads,
    }
}

fn best_of(leads: &[(Card, u8)], misere: bool) -> u8 {
    let values = leads.iter().map(|&(_, v)| v);
    if misere { values.min() } else { values.max() }.expect("a legal opening lead")
}

/// Random deals solved: how often each best value occurred and how long each solve took.
#[derive(Clone, Debug)]
pub struct RandomSolves {
    /// Deals whose best value was 0, 1, .., 5 tricks.
    pub counts: [u64; HAND_SIZE + 1],
    /// Wall time of each solve, in deal order.
    pub times: Vec<Duration>,
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
    let mut times = Vec::with_capacity(deals as usize);
    for _ in 0..deals {
        let hands = random_hands(&pack, players, &mut rng);
        let start = Instant::now();
        let best = solver.best_opening(&hands, 0, opening);
        times.push(start.elapsed());
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

/// Mean, median, 99th percentile and maximum of `times`, in microseconds.
pub fn time_summary(times: &[Duration]) -> [f64; 4] {
    let mut us: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1e6).collect();
    us.sort_by(f64::total_cmp);
    if us.is_empty() {
        return [0.0; 4];
    }
    let at = |q: f64| us[((us.len() - 1) as f64 * q).round() as usize];
    let mean = us.iter().sum::<f64>() / us.len() as f64;
    [mean, at(0.5), at(0.99), us[us.len() - 1]]
}
