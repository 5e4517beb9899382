//! The double-dummy solver: the exact value of a Nap position with every card visible.
//!
//! The declarer plays alone against the coalition of the other seats. In a trump contract the
//! value is the most tricks the declarer can guarantee; in a misère (the declarer wants none)
//! the fewest it can be held to. [`Solver::can_make`] answers the cheaper question "can the
//! declarer reach this many?"; [`Solver::value`] finds the exact value with a few such queries;
//! [`Solver::opening`] values every opening lead of a deal, each of which may choose trump.
//!
//! The search (`search.rs`) is a boolean alpha-beta over single cards with move ordering,
//! one card searched per run of equivalent cards, sure-trick bounds (at trick starts and
//! within tricks), and a transposition table (`table.rs`) at trick starts whose entries
//! generalise over the small cards a result did not depend on ("winning ranks") and stay valid
//! from deal to deal (keep one `Solver` per thread and reuse it).
//!
//! **Architecture invariant:** no IO, no clock, no randomness.

mod bounds;
mod endgame;
mod misere;
mod order;
mod position;
mod search;
mod table;
mod two_tricks;

pub use endgame::endgame_can_make;
pub use position::{Position, PositionError};

use crate::cards::{Card, CardSet, Suit};
use crate::game::opening_leads;
use crate::rules::{Bid, LeadRule, TrumpRule};
use order::run_bottoms;
use search::Search;
use table::Table;

/// How the opening lead of a deal sets the contract's trump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrumpChoice {
    /// The suit of the opening lead is trump.
    FirstLead,
    /// No trump.
    NoTrump,
    /// The declarer named this suit before the lead.
    Named(Suit),
}

/// The rules of a deal's opening lead: how trump is chosen, which leads are allowed, and
/// whether the declarer plays a misère.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// How trump is chosen.
    pub trump: TrumpChoice,
    /// The constraint on the opening lead.
    pub lead: LeadRule,
    /// Whether the declarer wants to take no trick.
    pub misere: bool,
}

impl Opening {
    /// A plain trump contract: any lead, whose suit is trump.
    pub const TRUMPS: Opening = Opening {
        trump: TrumpChoice::FirstLead,
        lead: LeadRule::Any,
        misere: false,
    };
    /// A misère at no trump with any lead.
    pub const MISERE: Opening = Opening {
        trump: TrumpChoice::NoTrump,
        lead: LeadRule::Any,
        misere: true,
    };

    /// The opening of a contract of `bid`; `named` is the trump suit when the bid has the
    /// declarer name it (None otherwise, or when no suit is named).
    pub fn for_bid(bid: &Bid, named: Option<Suit>) -> Opening {
        let trump = match (bid.trump(), named) {
            (TrumpRule::FirstLead, _) => TrumpChoice::FirstLead,
            (TrumpRule::Named, Some(suit)) => TrumpChoice::Named(suit),
            (TrumpRule::Named, None) | (TrumpRule::NoTrump, _) => TrumpChoice::NoTrump,
        };
        Opening {
            trump,
            lead: bid.lead(),
            misere: bid.is_misere(),
        }
    }

    /// The trump suit when `card` is led.
    pub fn trump_for(&self, card: Card) -> Option<Suit> {
        match self.trump {
            TrumpChoice::FirstLead => Some(card.suit()),
            TrumpChoice::NoTrump => None,
            TrumpChoice::Named(suit) => Some(suit),
        }
    }

    /// The suit named before the lead, if any.
    pub fn named(&self) -> Option<Suit> {
        match self.trump {
            TrumpChoice::Named(suit) => Some(suit),
            _ => None,
        }
    }
}

/// The cards of `cards` worth searching: the lowest of each run of cards adjacent among the
/// `live` cards (cards gone from play between them do not separate them). The cards of a run
/// are equivalent in play, so one stands for all.
pub fn one_per_run(cards: CardSet, live: CardSet) -> CardSet {
    CardSet::from_bits_truncate(run_bottoms(cards.bits(), live.bits() | cards.bits()))
}

thread_local! {
    static THREAD_SOLVER: std::cell::RefCell<Option<(usize, Solver)>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with this thread's solver for tables of `players` (made on first use, remade when
/// the player count changes). The table only speeds the search up, so sharing it between
/// callers changes no answer.
pub fn with_thread_solver<T>(players: usize, f: impl FnOnce(&mut Solver) -> T) -> T {
    THREAD_SOLVER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|(p, _)| *p != players) {
            *slot = Some((players, Solver::new(players)));
        }
        f(&mut slot.as_mut().expect("just made").1)
    })
}

/// Nodes first allowed to each opening lead when widening budgets.
const FIRST_BUDGET: u64 = 64;

/// The same in a misère, whose searches are larger and seldom hopeless: restarting them
/// costs more than it saves (4p nodes a deal 399 with 64, 336 with 1024; 7p unchanged).
const MISERE_FIRST_BUDGET: u64 = 1024;

/// The declarer's target from `position` in credited tricks (taken in a trump contract, lost
/// in a misère): at least `tricks` taken, or in a misère at most `tricks`.
fn credited_target(position: &Position, tricks: u8) -> i32 {
    if position.misere {
        i32::from(position.tricks_left()) - i32::from(tricks)
    } else {
        i32::from(tricks)
    }
}

/// Drops this thread's solver, so that the next [`with_thread_solver`] starts with an empty
/// table (for measurements that must not reuse earlier work).
pub fn reset_thread_solver() {
    THREAD_SOLVER.with(|cell| *cell.borrow_mut() = None);
}

/// The answer of [`Solver::can_make_after`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardOutcome {
    /// Whether the declarer reaches the target.
    pub reached: bool,
    /// Other cards of the seat that reach the same answer in the same position.
    pub alike: CardSet,
}

/// An exact double-dummy solver. Reuse one per thread: its table carries over between
/// positions and deals.
pub struct Solver {
    table: Table,
    nodes: u64,
}

impl Solver {
    /// A solver with its table sized for tables of `players` seats.
    pub fn new(players: usize) -> Solver {
        Solver::with_table(players, true)
    }

    /// A solver whose table entries never generalise over small cards: each is keyed on the
    /// owner of every live card. Slower; the reference that tests compare [`Solver::new`] to.
    pub fn with_exact_keys(players: usize) -> Solver {
        Solver::with_table(players, false)
    }

    fn with_table(players: usize, generalise: bool) -> Solver {
        // Small enough to stay in the cache: a miss on a table of 2^20 entries (90 MB) cost
        // more than the entries it kept saved (seven-player `hand` CPU 27% less at 2^15 than
        // at 2^20; at 2^14 its slowest misère deals solved twice as slowly; docs/performance.md).
        let bits = match players {
            0..=5 => 14,
            _ => 15,
        };
        Solver {
            table: Table::new(bits, generalise),
            nodes: 0,
        }
    }

    /// Search nodes visited so far (for measurements).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the declarer can reach `tricks` more tricks from `position` whatever the
    /// defenders do: at least that many in a trump contract, at most that many in a misère.
    pub fn can_make(&mut self, position: &Position, tricks: u8) -> bool {
        self.reach(position, credited_target(position, tricks))
    }

    /// [`Solver::can_make`] once the seat to play in `position` has played `card` (`tricks`
    /// counts from `position`, the trick in progress included), with the other cards of that
    /// seat sure to give the same answer in this layout: cards of `card`'s suit that the
    /// answer did not tell apart from it (see `search.rs`). Asking about those cards again
    /// would only repeat the search; PIMC skips them.
    pub fn can_make_after(&mut self, position: &Position, card: Card, tricks: u8) -> CardOutcome {
        debug_assert!(position.legal().contains(card), "{card} is not legal");
        let credited = credited_target(position, tricks);
        let mut search = Search::new(&mut self.table, position);
        let (reached, relevant) =
            search.try_card(position.to_play(), u32::from(card.index()), credited);
        self.nodes += search.nodes;
        let alike = if self.table.generalises() {
            search::alike_below(u32::from(card.index()), relevant)
        } else {
            0
        };
        CardOutcome {
            reached,
            alike: CardSet::from_bits_truncate(alike)
                & (position.hands[position.to_play()] - card.set()),
        }
    }

    /// The declarer's tricks from `position` on under best play by every seat: the most it
    /// can guarantee in a trump contract, the fewest it can be held to in a misère.
    pub fn value(&mut self, position: &Position) -> u8 {
        let left = position.tricks_left();
        let (mut low, mut high) = (0, i32::from(left));
        while low < high {
            let mid = (low + high + 1) / 2;
            if self.reach(position, mid) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        if position.misere {
            left - low as u8
        } else {
            low as u8
        }
    }

    /// The value of every legal opening lead of a deal (`hands` by seat, the declarer on lead):
    /// the declarer's tricks over the whole deal after that lead, highest card first.
    ///
    /// # Panics
    /// If the hands do not make a position (see [`Position::new`]).
    pub fn opening(
        &mut self,
        hands: &[CardSet],
        declarer: usize,
        opening: &Opening,
    ) -> Vec<(Card, u8)> {
        let leads = opening_leads(hands[declarer], opening.lead, opening.named());
        let live = hands.iter().fold(0, |a, h| a | h.bits());
        let mut values: Vec<(Card, u8)> = Vec::with_capacity(leads.count() as usize);
        for card in leads.iter_desc() {
            // A card next to one already valued (equivalent, same suit) has the same value.
            let twin = values.iter().find(|(c, _)| {
                c.same_suit(card)
                    && run_bottoms(c.set().bits() | card.set().bits(), live).count_ones() == 1
            });
            let value = match twin {
                Some(&(_, v)) => v,
                None => {
                    let (position, gained) = self.after_lead(hands, declarer, opening, card);
                    gained + self.value(&position)
                }
            };
            values.push((card, value));
        }
        values
    }

    /// Whether the declarer, with some legal opening lead, can reach `tricks` tricks over the
    /// whole deal (at most that many in a misère).
    pub fn can_make_opening(
        &mut self,
        hands: &[CardSet],
        declarer: usize,
        opening: &Opening,
        tricks: u8,
    ) -> bool {
        let leads = opening_leads(hands[declarer], opening.lead, opening.named());
        let live = hands.iter().fold(0, |a, h| a | h.bits());
        let candidates =
            CardSet::from_bits_truncate(run_bottoms(leads.bits(), live) & leads.bits());
        let positions: Vec<Position> = candidates
            .iter_desc()
            .map(|card| self.after_lead(hands, declarer, opening, card).0)
            .collect();
        // Widening budgets over the leads: each gets a few nodes, the undecided ones four
        // times as many, and so on. One lead's proof can be millions of nodes where another's
        // is one, so trying them in turn to the end could be hopeless; finished subtrees stay
        // in the table, so little is redone.
        let mut open: Vec<&Position> = positions.iter().collect();
        let mut budget = if opening.misere {
            MISERE_FIRST_BUDGET
        } else {
            FIRST_BUDGET
        };
        while !open.is_empty() {
            let mut still_open = Vec::with_capacity(open.len());
            for position in open {
                let credited = credited_target(position, tricks);
                match self.reach_within(position, credited, budget) {
                    Some(true) => return true,
                    Some(false) => {}
                    None => still_open.push(position),
                }
            }
            open = still_open;
            budget = budget.saturating_mul(4);
        }
        false
    }

    /// Whether the declarer, leading `card`, can reach `tricks` tricks over the whole deal.
    pub fn can_make_after_lead(
        &mut self,
        hands: &[CardSet],
        declarer: usize,
        opening: &Opening,
        card: Card,
        tricks: u8,
    ) -> bool {
        let (position, _) = self.after_lead(hands, declarer, opening, card);
        self.can_make(&position, tricks)
    }

    /// The best value over the opening leads (the most tricks, or the fewest in a misère),
    /// found with target queries over all leads at once, cheaper than valuing every lead.
    pub fn best_opening(&mut self, hands: &[CardSet], declarer: usize, opening: &Opening) -> u8 {
        let tricks = hands[declarer].count() as u8;
        if opening.misere {
            return self.best_opening_at_most(hands, declarer, opening, tricks);
        }
        // Binary search for the largest reachable target, where "reachable" is monotone.
        let (mut low, mut high) = (0, tricks);
        while low < high {
            let mid = (low + high).div_ceil(2);
            if self.can_make_opening(hands, declarer, opening, mid) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        low
    }

    /// The smaller of [`Solver::best_opening`] and `cap`, cheaper in a misère: its value is
    /// found from none up, so a query stops at the cap (a cap of 1 answers only whether the
    /// misère is made).
    pub fn best_opening_at_most(
        &mut self,
        hands: &[CardSet],
        declarer: usize,
        opening: &Opening,
        cap: u8,
    ) -> u8 {
        if !opening.misere {
            return self.best_opening(hands, declarer, opening).min(cap);
        }
        // Upward from "held to none": the sure-trick bounds of a misère settle the small
        // targets quickly, and most values are small (measured: 4p nodes a deal 628 with the
        // binary search, 556 this way; 7p 53,022 to 47,731).
        let mut t = 0;
        while t < cap && !self.can_make_opening(hands, declarer, opening, t) {
            t += 1;
        }
        t
    }

    fn after_lead(
        &self,
        hands: &[CardSet],
        declarer: usize,
        opening: &Opening,
        card: Card,
    ) -> (Position, u8) {
        let trump = opening.trump_for(card);
        let start = Position::new(hands, declarer, trump, opening.misere, declarer, &[])
            .unwrap_or_else(|e| panic!("not a deal: {e}"));
        start.after(card)
    }

    fn reach(&mut self, position: &Position, credited: i32) -> bool {
        self.reach_within(position, credited, u64::MAX)
            .expect("an unlimited search finishes")
    }

    /// The search with a node budget: None when it ran out.
    fn reach_within(&mut self, position: &Position, credited: i32, budget: u64) -> Option<bool> {
        let mut search = Search::new(&mut self.table, position);
        search.limit = budget;
        let reached = search.reach(credited);
        self.nodes += search.nodes;
        (!search.aborted).then_some(reached)
    }
}
