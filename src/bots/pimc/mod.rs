//! `pimc:worlds=K`: perfect-information Monte Carlo play.
//!
//! The decision rule, for the seat to play:
//!
//! 1. **Candidates**: the legal cards, one per run of cards adjacent among those not yet seen
//!    played (the cards of a run are equivalent in every world). One candidate: play it.
//! 2. **A sealed contract**: once the declarer has taken the tricks it needs, or can no longer
//!    take them (a misère: has taken one), the payout no longer depends on the play, so the seat
//!    plays the [`heuristic`](super::heuristic)'s card without sampling or solving.
//! 3. **Worlds**: otherwise K layouts of the hidden hands are sampled uniformly among those
//!    consistent with what the seat knows ([`worlds`](crate::eval::worlds)), from the RNG the
//!    driver hands in. Every such decision uses all K worlds: no rule stops sampling early (one
//!    that stopped comparing cards that agreed so far lost much of PIMC's strength), so the
//!    stream's use does not depend on what is solved.
//! 4. **The card**: a candidate *wins* a world when, solved double dummy after it is played,
//!    the contract is made (for the declarer) or defeated (for a defender); the target query
//!    [`Solver::can_make`] answers it. The seat plays the candidate that wins the most worlds;
//!    ties go to the earliest in the preference order: the run of the heuristic's card first
//!    (played as the heuristic's card itself), then the other candidates from the lowest card
//!    up. The payout depends only on whether the contract is made, so trick counts beyond it
//!    are not compared.
//! 5. **How the counts are found** (the same card as counting every candidate in every world,
//!    which the tests check): the preferred candidate is solved in every world and becomes the
//!    best so far; each next candidate in preference order *challenges* it and replaces it only
//!    by winning more worlds. A challenger can gain only in the worlds the best lost, so it is
//!    solved there first, then in the worlds the best won, and is dropped as soon as its gains
//!    plus the worlds the best lost that it has not yet tried cannot exceed its losses. A
//!    candidate that wins exactly where the best does costs one query per world the best lost
//!    instead of K. A card solved in a world also names the seat's cards its search did not
//!    tell apart from it there (cards of its suit below every card the answer relied on,
//!    [`Solver::can_make_after`]): their result in that world is known without a search.
//!
//! 6. **The opening lead** (only with `opening=K`): decided over K worlds from a stream of its
//!    own, once per information set ([`opening`]).
//!
//! The solver's table, shared per thread, changes no answer, so runs are reproducible whatever
//! the thread count. What was measured for this rule (and what was dropped) is in
//! `docs/performance.md`, section PIMC.

mod opening;

use std::cell::Cell;
use std::sync::Arc;

use super::heuristic::Heuristic;
use super::solved::{Goal, layout, lead_names_trump};
use crate::cards::{Card, CardSet};
use crate::eval::worlds::Knowledge;
use crate::policy::{PlayPolicy, PlayView, Spec, SpecError};
use crate::rng::SimRng;
use crate::rules::HAND_SIZE;
use crate::solver::{CardOutcome, Position, Solver, one_per_run, with_thread_solver};

/// Largest world count accepted.
pub const MAX_WORLDS: usize = 100_000;

/// The PIMC player.
#[derive(Clone, Debug)]
pub struct Pimc {
    worlds: usize,
    /// With `opening=K`: the declarer's opening lead, over K worlds of its own.
    opening: Option<Arc<opening::OpeningLeads>>,
    /// The declarer leads the heuristic's card ([`PlayPolicy::unshared`] of `opening=K`).
    natural_opening: bool,
}

impl Pimc {
    /// `pimc:worlds=K[,opening=L]` (K defaults to 32; without `opening`, the opening lead is
    /// decided like every other card).
    pub fn from_spec(spec: &Spec) -> Result<Pimc, SpecError> {
        spec.check_keys(&["worlds", "opening"])?;
        let max = MAX_WORLDS as u64;
        let worlds = spec.count("worlds", 32, max, "a whole number of worlds")? as usize;
        let opening = match spec.get("opening") {
            Some(_) => {
                let lead = spec.count("opening", 1, max, "a whole number of worlds")?;
                Some(Arc::new(opening::OpeningLeads::new(lead as usize)))
            }
            None => None,
        };
        Ok(Pimc {
            worlds,
            opening,
            natural_opening: false,
        })
    }

    /// The number of worlds per decision.
    pub fn worlds(&self) -> usize {
        self.worlds
    }
}

impl PlayPolicy for Pimc {
    /// The decision reads of the bid only its tricks needed, misère, trump rule and floater
    /// use (through [`Goal`] and the heuristic's card); the opening lead's memo tells bids
    /// apart, but its stream does not ([`opening`]).
    fn plays_by_rules_only(&self) -> bool {
        true
    }

    /// With `opening=K`, the declarer leads the heuristic's card: a lead decided over K worlds
    /// pays only when its information set comes back, and over the ordinary worlds it is the
    /// dearest card of a deal (a whole deal to solve), several times the rest of the play at
    /// six and seven players. Every later card is PIMC's.
    fn unshared(&self) -> Option<Arc<dyn PlayPolicy>> {
        self.opening.as_ref().map(|_| {
            Arc::new(Pimc {
                worlds: self.worlds,
                opening: None,
                natural_opening: true,
            }) as Arc<dyn PlayPolicy>
        })
    }

    fn play(&self, view: &PlayView, rng: &mut SimRng) -> Card {
        let best = |scan: &mut Scan, solver: &mut Solver, order: &[Card]| scan.best(solver, order);
        match &self.opening {
            None if self.natural_opening && opening::OpeningLeads::applies(view) => {
                Heuristic.play(view, rng)
            }
            Some(leads) if opening::OpeningLeads::applies(view) => {
                leads.lead(view, |rng, worlds| self.decide(view, rng, worlds, best))
            }
            _ => self.decide(view, rng, self.worlds, best),
        }
    }
}

impl Pimc {
    /// Steps 1-4 of the module's rule over `count` worlds, with `pick` finding the card among
    /// the candidates in preference order (the challenges, or in tests every count).
    fn decide(
        &self,
        view: &PlayView,
        rng: &mut SimRng,
        count: usize,
        pick: impl Fn(&mut Scan, &mut Solver, &[Card]) -> Card,
    ) -> Card {
        let live = live_cards(view);
        // On the stack, in card order: the seat holds at most a hand.
        let runs = one_per_run(view.legal(), live);
        let mut buffer = [runs.first().expect("a legal card"); HAND_SIZE];
        for (slot, card) in buffer.iter_mut().zip(runs) {
            *slot = card;
        }
        let candidates = &mut buffer[..runs.count() as usize];
        if candidates.len() == 1 {
            return candidates[0];
        }
        let natural = Heuristic.play(view, rng);
        if sealed(view) {
            return natural;
        }
        prefer(candidates, natural);
        let mut scan = Scan::new(view, rng, count);
        let card = with_thread_solver(view.players(), |solver| pick(&mut scan, solver, candidates));
        if card == candidates[0] { natural } else { card }
    }
}

impl Pimc {
    /// What PIMC weighs for each legal card of the seat in `view`: the share of its sampled
    /// worlds in which the card wins (the contract made for the declarer, defeated for a
    /// defender), every candidate counted in every world (a coach's hint, not the fast
    /// decision). Cards of one run share their run's share; a sealed contract gives every card
    /// 1 or 0. Highest card first.
    pub fn card_shares(&self, view: &PlayView, rng: &mut SimRng) -> Vec<(Card, f64)> {
        let legal = view.legal();
        if sealed(view) {
            let declarer = view.contract().declarer;
            let won = view.tricks_won(declarer);
            let made = !view.is_misere() && won >= view.bid().tricks_needed();
            let share = if made == view.is_declarer() { 1.0 } else { 0.0 };
            return legal.iter_desc().map(|c| (c, share)).collect();
        }
        let live = live_cards(view);
        let candidates = one_per_run(legal, live);
        let mut scan = Scan::new(view, rng, self.worlds);
        let count = scan.storage.worlds.len();
        let wins: Vec<(Card, usize)> = with_thread_solver(view.players(), |solver| {
            candidates
                .into_iter()
                .map(|card| {
                    let won = (0..count).filter(|&w| scan.wins(solver, card, w)).count();
                    (card, won)
                })
                .collect()
        });
        legal
            .iter_desc()
            .map(|card| {
                // A card's run is led by the highest candidate of its suit at or below it.
                let (_, won) = wins
                    .iter()
                    .filter(|(c, _)| c.same_suit(card) && *c <= card)
                    .max_by_key(|(c, _)| *c)
                    .expect("every legal card is in a candidate's run");
                (card, *won as f64 / count as f64)
            })
            .collect()
    }
}

/// The decision's worlds, put in `worlds`: `count` layouts of the hidden hands consistent
/// with `view` (at least one).
fn sample_worlds(view: &PlayView, rng: &mut SimRng, count: usize, worlds: &mut Vec<Position>) {
    let knowledge = Knowledge::of(view);
    // Every world is the first with other hands: checked once, not at every world.
    let first = layout(view, &knowledge.sample(rng));
    worlds.clear();
    worlds.push(first);
    worlds.extend((1..count).map(|_| first.with_hands(&knowledge.sample(rng))));
}

/// The cards still live for the seat in `view`: those not yet seen played, its hand and the
/// trick's cards. Cards adjacent among them are equivalent in every world; the trick's cards
/// separate runs too (with the 8 on the table, the 9 and the 7 differ).
fn live_cards(view: &PlayView) -> CardSet {
    let trick = view
        .current_trick()
        .iter()
        .fold(CardSet::EMPTY, |a, c| a | c.set());
    (view.unseen() - view.known_out()) | view.hand() | trick
}

/// Whether the contract's result is already decided, whatever is played from here: the
/// declarer has its tricks, or cannot reach them (a misère: has taken one).
fn sealed(view: &PlayView) -> bool {
    let won = view.tricks_won(view.contract().declarer);
    if view.is_misere() {
        return won > 0;
    }
    let needed = view.bid().tricks_needed();
    // The seat to play still holds a card for every trick left, the current one included.
    let left = view.hand().count() as u8;
    won >= needed || won + left < needed
}

/// Moves the run of `natural` (the heuristic's card) to the front of `candidates` (run
/// bottoms in card order, which the rest keep): the bottom of its run is the highest
/// candidate of its suit at or below it.
fn prefer(candidates: &mut [Card], natural: Card) {
    let run = candidates
        .iter()
        .rposition(|&c| c.same_suit(natural) && c <= natural)
        .expect("the heuristic plays a legal card");
    candidates[..=run].rotate_right(1);
}

/// What a decision keeps for each of its worlds. Kept from one decision to the next on each
/// thread ([`STORAGE`]), so that a decision allocates nothing once the thread is warm (the
/// allocations were 2% of PIMC's instructions).
#[derive(Default)]
struct Storage {
    /// The sampled worlds.
    worlds: Vec<Position>,
    /// For each world, the seat's cards known to win it and known to lose it: each solved
    /// card with the cards its search did not tell apart from it
    /// ([`Solver::can_make_after`]), which then cost no search.
    known: Vec<[CardSet; 2]>,
    /// Whether the best card so far wins each world ([`Scan::best`]).
    won: Vec<bool>,
    /// A challenger's results in each world ([`Scan::challenge`]).
    results: Vec<bool>,
}

/// The most worlds whose storage a thread keeps between decisions (a decision over more
/// allocates its own: beside solving that many worlds, the allocation is nothing).
const KEPT_WORLDS: usize = 4096;

thread_local! {
    static STORAGE: Cell<Storage> = const {
        Cell::new(Storage {
            worlds: Vec::new(),
            known: Vec::new(),
            won: Vec::new(),
            results: Vec::new(),
        })
    };
}

/// One decision's sampled worlds, what the seat to play wants of them, and the results
/// found so far.
struct Scan {
    /// Whether the seat is the declarer (it wins a world by making the contract).
    declarer: bool,
    /// The target query's tricks ([`Goal::still_needed`]).
    target: u8,
    /// Whether the card played names trump (an opening lead of the suit that becomes trump);
    /// otherwise the worlds already hold the trump and are solved as they are.
    names_trump: bool,
    /// The worlds and what is known of them, in this thread's kept storage.
    storage: Storage,
}

impl Scan {
    /// `count` worlds sampled for the seat to play in `view` from `rng` ([`sample_worlds`]),
    /// nothing known of them yet.
    fn new(view: &PlayView, rng: &mut SimRng, count: usize) -> Scan {
        let goal = Goal::of(view);
        let mut storage = STORAGE.take();
        sample_worlds(view, rng, count, &mut storage.worlds);
        storage.known.clear();
        storage
            .known
            .resize(storage.worlds.len(), [CardSet::EMPTY; 2]);
        Scan {
            declarer: view.is_declarer(),
            target: goal.still_needed(),
            names_trump: lead_names_trump(view),
            storage,
        }
    }

    /// Whether `card` wins world `w` for the seat to play: the contract made for the
    /// declarer, defeated for a defender.
    fn wins(&mut self, solver: &mut Solver, card: Card, w: usize) -> bool {
        let [won, lost] = self.storage.known[w];
        if won.contains(card) || lost.contains(card) {
            return won.contains(card);
        }
        let world = &self.storage.worlds[w];
        let CardOutcome { reached, alike } = if self.names_trump {
            let world = world.with_trump(Some(card.suit()));
            solver.can_make_after(&world, card, self.target)
        } else {
            solver.can_make_after(world, card, self.target)
        };
        let wins = reached == self.declarer;
        self.storage.known[w][usize::from(!wins)] |= alike | card.set();
        wins
    }

    /// The plain query, with no results shared between cards (the tests' reference).
    #[cfg(test)]
    fn wins_alone(view: &PlayView, solver: &mut Solver, card: Card, world: &Position) -> bool {
        let (position, gained) = super::solved::play(view, world, card);
        Goal::of(view).made(solver, &position, gained) == view.is_declarer()
    }

    /// The card of the module's rule, by challenges (step 5); `order` is the candidates in
    /// preference order.
    fn best(&mut self, solver: &mut Solver, order: &[Card]) -> Card {
        let mut best = order[0];
        // Out of the storage while the worlds are solved, and back after.
        let mut won = std::mem::take(&mut self.storage.won);
        let mut results = std::mem::take(&mut self.storage.results);
        won.clear();
        for w in 0..self.storage.worlds.len() {
            let wins = self.wins(solver, best, w);
            won.push(wins);
        }
        for &card in &order[1..] {
            if self.challenge(solver, card, &won, &mut results) {
                best = card;
                std::mem::swap(&mut won, &mut results);
            }
        }
        (self.storage.won, self.storage.results) = (won, results);
        best
    }

    /// Whether `card` wins more worlds than the best so far (which won the worlds flagged in
    /// `best`), with its result in every world then in `results`; false as soon as it cannot.
    fn challenge(
        &mut self,
        solver: &mut Solver,
        card: Card,
        best: &[bool],
        results: &mut Vec<bool>,
    ) -> bool {
        results.clear();
        results.resize(best.len(), false);
        // Worlds the best lost and `card` has not been tried in: its only chances to gain.
        let mut open = best.iter().filter(|&&won| !won).count();
        let (mut gains, mut losses) = (0, 0);
        let lost_first = (0..best.len())
            .filter(|&w| !best[w])
            .chain((0..best.len()).filter(|&w| best[w]));
        for w in lost_first {
            if gains + open <= losses {
                return false;
            }
            let won = self.wins(solver, card, w);
            results[w] = won;
            if best[w] {
                losses += usize::from(!won);
            } else {
                open -= 1;
                gains += usize::from(won);
            }
        }
        gains > losses
    }

    /// The same card as [`Scan::best`], by counting every candidate's wins in every world
    /// (the reference the tests compare the challenges to).
    #[cfg(test)]
    fn exhaustive(&self, view: &PlayView, solver: &mut Solver, order: &[Card]) -> Card {
        let mut best: Option<(Card, usize)> = None;
        for &card in order {
            let won = self
                .storage
                .worlds
                .iter()
                .filter(|world| Scan::wins_alone(view, solver, card, world))
                .count();
            if best.is_none_or(|(_, b)| won > b) {
                best = Some((card, won));
            }
        }
        best.expect("a candidate").0
    }
}

impl Drop for Scan {
    /// Gives the storage back to the thread for its next decision.
    fn drop(&mut self) {
        if self.storage.worlds.capacity() <= KEPT_WORLDS {
            STORAGE.set(std::mem::take(&mut self.storage));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{DealState, Phase, Shuffler};
    use crate::policy::{Pass, Table, run_auction, settle_contract};
    use crate::rng::{base_rng, below};
    use crate::rules::Profile;

    /// Deals of `profile` bid by the threshold bidder and played by the heuristic to a random
    /// point of the play, each with the view's seat still to decide.
    fn positions(profile: &Profile, players: usize, count: usize, seed: u64) -> Vec<DealState<'_>> {
        let bid = crate::bots::bid_policy("threshold", profile).unwrap();
        let mut rng = base_rng(seed);
        let mut out = Vec::new();
        let mut shuffler = Shuffler::new(profile, players);
        while out.len() < count {
            shuffler.reset();
            let dealt = shuffler.deal(0, &mut rng);
            let mut state = DealState::from_dealt(profile, 0, &dealt, players);
            let table = Table::uniform(bid.as_ref(), &Heuristic);
            run_auction(&mut state, &table, &mut rng);
            settle_contract(&mut state, &table, &mut rng);
            if state.phase() != Phase::Play {
                continue;
            }
            let stop = below(&mut rng, 4 * players as u64) as usize;
            for _ in 0..stop {
                if state.phase() != Phase::Play {
                    break;
                }
                let card = Heuristic.play(&PlayView::new(&state), &mut rng);
                state.play_unchecked(card);
            }
            if state.phase() == Phase::Play {
                out.push(state);
            }
        }
        out
    }

    #[test]
    fn the_challenges_pick_the_card_of_the_full_count() {
        for (name, players, seed) in [
            ("heather-1875", 4, 1),
            ("pub-guide", 4, 2),
            ("heather-1875", 6, 3),
        ] {
            let profile = Profile::builtin(name).unwrap();
            let pimc = Pimc {
                worlds: 12,
                opening: None,
                natural_opening: false,
            };
            let (mut differ, mut misere) = (0, 0);
            for state in positions(&profile, players, 500, seed) {
                let view = PlayView::new(&state);
                misere += usize::from(view.is_misere());
                let mut a = base_rng(seed);
                let mut b = a.clone();
                let fast = pimc.decide(&view, &mut a, 12, |s, solver, o| s.best(solver, o));
                let full = pimc.decide(&view, &mut b, 12, |s, solver, o| {
                    s.exhaustive(&view, solver, o)
                });
                assert_eq!(fast, full, "{name} {players}p: {state:?}");
                differ += usize::from(fast != Heuristic.play(&view, &mut a));
            }
            assert!(
                differ > 10,
                "{name}: PIMC left the heuristic's card {differ} times"
            );
            assert!(
                name != "pub-guide" || misere > 20,
                "{name}: {misere} misère positions"
            );
        }
    }

    #[test]
    fn an_opening_lead_is_one_card_per_information_set_and_draws_nothing_from_the_deal() {
        use rand_core::SeedableRng;
        for (name, players) in [("heather-1875", 4), ("pub-guide", 5)] {
            let profile = Profile::builtin(name).unwrap();
            let table = Table::uniform(&Pass, &Heuristic);
            let spec: Spec = "pimc:worlds=4,opening=24".parse().unwrap();
            let remembering = Pimc::from_spec(&spec).unwrap();
            let mut shuffler = Shuffler::new(&profile, players);
            let mut rng = base_rng(7);
            let (mut leads, mut not_natural) = (0, 0);
            for deal in 0..30 {
                shuffler.reset();
                let hands = shuffler.deal(0, &mut rng).hands;
                // The same hand for seat 0, the hidden cards laid out otherwise.
                let mut other = hands;
                other.swap(1, 2);
                for bid in profile.bid_ids() {
                    let declare = |hands: &[CardSet]| {
                        let mut state = DealState::declared(&profile, hands, None, 0, bid);
                        settle_contract(&mut state, &table, &mut base_rng(0));
                        state
                    };
                    let (first, second) = (declare(&hands[..players]), declare(&other[..players]));
                    let view = PlayView::new(&first);
                    assert!(opening::OpeningLeads::applies(&view));
                    let mut stream = base_rng(deal);
                    let untouched = stream.clone();
                    let card = remembering.play(&view, &mut stream);
                    assert_eq!(stream, untouched, "nothing drawn from the deal's stream");
                    // Remembered, and found again by a fresh player from another deal.
                    let again = PlayView::new(&second);
                    assert_eq!(remembering.play(&again, &mut base_rng(99)), card);
                    let fresh = Pimc::from_spec(&spec).unwrap();
                    assert_eq!(fresh.play(&again, &mut base_rng(98)), card);
                    // PIMC's card over 24 worlds drawn from the information set's stream.
                    let mut own = SimRng::seed_from_u64(opening::Key::of(&view).seed());
                    let full = remembering.decide(&view, &mut own, 24, |s, solver, o| {
                        s.exhaustive(&view, solver, o)
                    });
                    assert_eq!(card, full, "{name} {bid:?}: {first:?}");
                    leads += 1;
                    not_natural += usize::from(card != Heuristic.play(&view, &mut base_rng(0)));
                }
            }
            assert!(
                leads >= 120 && not_natural >= 4,
                "{name}: {not_natural} of {leads}"
            );
        }
    }

    #[test]
    fn unshared_it_leads_the_heuristics_card_and_plays_on_as_pimc() {
        let profile = Profile::builtin("heather-1875").unwrap();
        let table = Table::uniform(&Pass, &Heuristic);
        let with = Pimc::from_spec(&"pimc:worlds=4,opening=24".parse().unwrap()).unwrap();
        let unshared = with.unshared().expect("opening=K differs unshared");
        let plain = Pimc::from_spec(&"pimc:worlds=4".parse().unwrap()).unwrap();
        assert!(plain.unshared().is_none());
        let mut shuffler = Shuffler::new(&profile, 4);
        let mut rng = base_rng(5);
        for deal in 0..20 {
            shuffler.reset();
            let hands = shuffler.deal(0, &mut rng).hands;
            let bid = profile.bid_id("three").unwrap();
            let mut state = DealState::declared(&profile, &hands[..4], None, 0, bid);
            settle_contract(&mut state, &table, &mut base_rng(0));
            let view = PlayView::new(&state);
            let lead = unshared.play(&view, &mut base_rng(deal));
            assert_eq!(lead, Heuristic.play(&view, &mut base_rng(deal)));
            state.play(lead).unwrap();
            let view = PlayView::new(&state);
            let (mut a, mut b) = (base_rng(deal), base_rng(deal));
            assert_eq!(unshared.play(&view, &mut a), plain.play(&view, &mut b));
            assert_eq!(a, b, "the same draws from the deal's stream");
        }
    }

    #[test]
    fn a_sealed_contract_is_played_as_the_heuristic_plays_without_drawing() {
        let profile = Profile::builtin("pub-guide").unwrap();
        let pimc = Pimc {
            worlds: 8,
            opening: None,
            natural_opening: false,
        };
        let mut sealed_seen = 0;
        for state in positions(&profile, 4, 500, 4) {
            let view = PlayView::new(&state);
            if !sealed(&view) {
                continue;
            }
            sealed_seen += 1;
            let mut rng = base_rng(5);
            let untouched = rng.clone();
            assert_eq!(
                pimc.play(&view, &mut rng),
                Heuristic.play(&view, &mut base_rng(0))
            );
            assert_eq!(rng, untouched, "no world drawn");
        }
        assert!(sealed_seen > 30, "{sealed_seen} sealed positions");
    }
}
