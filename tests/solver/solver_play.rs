//! The solver-based players: `dd` reaches the double-dummy value, and PIMC's worlds are
//! consistent with what the seat knows and uniform among such layouts.

use std::collections::HashMap;

use napsim::cards::{Card, CardSet, Suit};
use std::sync::atomic::{AtomicUsize, Ordering};

use napsim::bots::{bid_policy, play_policy};
use napsim::eval::worlds::Knowledge;
use napsim::game::{DealState, Shuffler};
use napsim::policy::{PlayPolicy, PlayView};
use napsim::policy::{Table, run_deal};
use napsim::rng::{SimRng, base_rng, block_streams};
use napsim::rules::Profile;
use napsim::solver::{Opening, Solver};

/// With every seat playing `dd`, the declarer ends with exactly the double-dummy value of the
/// deal (best opening lead for it, best defence against it); in a misère, which may stop at
/// the declarer's first trick, it is made exactly when the value is no trick.
fn dd_reaches_the_value(profile: &str, bid: &str, players: usize, deals: u64) {
    let profile = Profile::builtin(profile).unwrap();
    let bidder = bid_policy(&format!("always:bid={bid}"), &profile).unwrap();
    let dd = play_policy("dd", &profile).unwrap();
    let table = Table::uniform(bidder.as_ref(), dd.as_ref());
    let (mut deal_rng, mut policy_rng) = block_streams(11, 0);
    let mut shuffler = Shuffler::new(&profile, players);
    let mut solver = Solver::new(players);
    for deal in 0..deals {
        let dealer = (deal as usize) % players;
        let dealt = shuffler.deal(dealer, &mut deal_rng);
        let mut state = DealState::new(&profile, dealer, dealt.hands(players));
        run_deal(&mut state, &table, &mut policy_rng);
        let contract = state.contract().expect("always bids");
        let opening = Opening::for_bid(profile.bid(contract.bid), state.trump());
        let hands: Vec<CardSet> = (0..players).map(|s| state.dealt(s)).collect();
        let value = solver.best_opening(&hands, contract.declarer, &opening);
        let taken = state.tricks_won(contract.declarer);
        // A misère may stop at the declarer's first trick: compare made or not.
        let (got, want) = if opening.misere {
            (u8::from(taken == 0), u8::from(value == 0))
        } else {
            (taken, value)
        };
        assert_eq!(
            got,
            want,
            "deal {deal}: {hands:?}\n{}",
            napsim::report::narrate(&state, 1)
        );
    }
}

#[test]
fn double_dummy_play_reaches_the_solved_value() {
    dd_reaches_the_value("heather-1875", "three", 4, 300);
    dd_reaches_the_value("heather-1875", "three", 3, 200);
    dd_reaches_the_value("pub-guide", "misere", 4, 200);
    dd_reaches_the_value("heather-1875", "nap", 5, 100);
}

/// Checks a sampled layout against the true deal and what the seat knows.
fn check_world(view: &PlayView, world: &[CardSet], truth: &[CardSet]) {
    let seat = view.seat();
    assert_eq!(world[seat], view.hand(), "the seat's own hand");
    let mut seen = CardSet::EMPTY;
    for (s, hand) in world.iter().enumerate().take(view.players()) {
        assert_eq!(hand.count(), truth[s].count(), "hand size of seat {s}");
        assert!((*hand & seen).is_empty(), "a card dealt twice");
        assert!((*hand & view.played()).is_empty(), "a played card dealt");
        for suit in Suit::ALL {
            if view.known_void(s, suit) {
                assert!(
                    hand.of_suit(suit).is_empty(),
                    "seat {s} is void in {suit:?}"
                );
            }
        }
        seen |= *hand;
    }
}

/// The heuristic player, checking five sampled worlds against the truth at every decision.
struct Checking {
    inner: Box<dyn PlayPolicy>,
    checked: AtomicUsize,
}

impl PlayPolicy for Checking {
    fn play(&self, view: &PlayView, rng: &mut SimRng) -> Card {
        let truth = view.all_hands(napsim::bots::dd::DoubleDummy.sees_all_hands().unwrap());
        let knowledge = Knowledge::of(view);
        for _ in 0..5 {
            let world = knowledge.sample(rng);
            check_world(view, &world, &truth);
            self.checked.fetch_add(1, Ordering::Relaxed);
        }
        self.inner.play(view, rng)
    }
}

#[test]
fn worlds_respect_what_the_seat_knows_on_every_profile() {
    for name in [
        "heather-1875",
        "peep-nap",
        "purchase-nap",
        "sir-garnet",
        "pub-guide",
    ] {
        let profile = Profile::builtin(name).unwrap();
        let bidder = bid_policy("threshold", &profile).unwrap();
        let checking = Checking {
            inner: play_policy("heuristic", &profile).unwrap(),
            checked: AtomicUsize::new(0),
        };
        let table = Table::uniform(bidder.as_ref(), &checking);
        let (mut deal_rng, mut rng) = block_streams(5, 0);
        for players in [3, 4, 5] {
            let mut shuffler = Shuffler::new(&profile, players);
            for deal in 0..150 {
                let dealt = shuffler.deal(deal % players, &mut deal_rng);
                let mut state = DealState::new(&profile, deal % players, dealt.hands(players));
                run_deal(&mut state, &table, &mut rng);
            }
        }
        let checked = checking.checked.load(Ordering::Relaxed);
        assert!(checked > 1000, "{name}: only {checked} worlds checked");
    }
}

#[test]
fn worlds_are_uniform_among_consistent_layouts() {
    // Seven unseen cards: seat 1 needs 2 and is void in clubs, seat 2 needs 3, the other two
    // stay out of play. Count every consistent layout exactly and compare frequencies.
    let pool: Vec<Card> = ["AC", "KC", "QC", "AD", "KD", "AH", "KH"]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    let pool_set: CardSet = pool.iter().copied().collect();
    let own: CardSet = ["2S", "3S"]
        .iter()
        .map(|t| t.parse::<Card>().unwrap())
        .collect();
    let knowledge = Knowledge::new(
        &[own, CardSet::EMPTY, CardSet::EMPTY],
        &[0, 2, 3],
        &[vec![], vec![Suit::Clubs], vec![]],
        pool_set,
    );
    // Exact enumeration of the consistent layouts.
    let mut layouts = Vec::new();
    let n = pool.len();
    for a in 0..1u32 << n {
        if a.count_ones() != 2 {
            continue;
        }
        let seat1: CardSet = (0..n)
            .filter(|i| a >> i & 1 == 1)
            .map(|i| pool[i])
            .collect();
        if seat1.of_suit(Suit::Clubs).any() {
            continue;
        }
        let rest: Vec<Card> = (0..n)
            .filter(|i| a >> i & 1 == 0)
            .map(|i| pool[i])
            .collect();
        for b in 0..1u32 << rest.len() {
            if b.count_ones() == 3 {
                let seat2: CardSet = (0..rest.len())
                    .filter(|i| b >> i & 1 == 1)
                    .map(|i| rest[i])
                    .collect();
                layouts.push((seat1, seat2));
            }
        }
    }
    let mut counts: HashMap<(CardSet, CardSet), u64> = HashMap::new();
    let mut rng = base_rng(42);
    let samples = 60_000u64;
    for _ in 0..samples {
        let world = knowledge.sample(&mut rng);
        assert_eq!(world[0], own);
        *counts.entry((world[1], world[2])).or_default() += 1;
    }
    assert_eq!(
        counts.len(),
        layouts.len(),
        "every consistent layout occurs, no other"
    );
    let expected = samples as f64 / layouts.len() as f64;
    let chi2: f64 = layouts
        .iter()
        .map(|l| {
            let o = *counts.get(l).unwrap_or(&0) as f64;
            (o - expected).powi(2) / expected
        })
        .sum();
    // Degrees of freedom: layouts - 1 (= 59); the 99.9% point of chi-square(59) is about 98.
    assert_eq!(layouts.len(), 60);
    assert!(
        chi2 < 98.0,
        "chi-square {chi2:.1} over {} layouts",
        layouts.len()
    );
}
