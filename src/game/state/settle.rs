//! The result of a finished deal and what it pays.
//!
//! One computation decides what a deal pays (`DealState::outcome`): the transfers between the
//! declarer, the defenders and the kitty. Each seat's units follow from it by one formula
//! (`DealState::seat_units`), and every figure the rest of napsim reads is a projection of the
//! two: [`DealState::payments`] (every seat), [`DealState::kitty_after`], and
//! [`DealState::settlement`] (the simulation's hot path: the declarer's units and the kitty), so
//! they cannot disagree. The bid's own stakes come from the profile
//! ([`Bid::declarer_units`](crate::rules::Bid::declarer_units) uses the same rule).

use super::{Contract, DealState, Phase};
use crate::game::SessionState;
use crate::rules::{Bid, BidId, MAX_PLAYERS, Profile};

/// A finished deal's contract and result ([`DealState::settlement`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settlement {
    /// The declarer's seat.
    pub declarer: usize,
    /// The contract's bid.
    pub bid: BidId,
    /// Whether the contract was made.
    pub made: bool,
    /// The declarer's units (positive: won).
    pub units: i64,
    /// The kitty after the deal.
    pub kitty_after: i64,
}

/// What a deal pays, decided once. A seat's units are its share of the transfers below less
/// what it paid into the kitty during the deal (antes, peeks, stakes); the kitty keeps the rest.
#[derive(Clone, Copy, Debug)]
struct Outcome {
    /// The scored contract and whether it was made (None: passed out or unfinished, and nobody
    /// scores beyond what it paid in).
    result: Option<(Contract, bool)>,
    /// The declarer's seat (`usize::MAX` when nothing is scored, so that no seat matches).
    declarer: usize,
    /// Units each defender pays the declarer (negative: the declarer pays each defender).
    each: i64,
    /// A revoking defender, who alone pays every defender's share (the others pay nothing).
    sole_payer: Option<usize>,
    /// Units the declarer takes from the kitty (negative: pays into it).
    from_kitty: i64,
    /// The kitty after the deal.
    kitty_after: i64,
}

impl<'p> DealState<'p> {
    /// Starts the deal with `kitty` units in the kitty (carried over from the previous deal).
    pub fn set_kitty(&mut self, kitty: i64) {
        self.kitty_before = kitty;
    }

    /// The kitty when the deal began.
    pub fn kitty_before(&self) -> i64 {
        self.kitty_before
    }

    /// Plays the deal as part of a session: which deal it is and the balances before it.
    pub fn set_session(&mut self, session: SessionState) {
        self.session = Some(session);
    }

    /// The session this deal is part of, if any.
    pub fn session(&self) -> Option<&SessionState> {
        self.session.as_ref()
    }

    /// Tricks taken by the declarer (0 when passed out).
    pub fn declarer_tricks(&self) -> u8 {
        self.contract.map_or(0, |c| self.tricks_won[c.declarer])
    }

    /// Whether the finished deal's contract was made (None when passed out or unfinished).
    pub fn made(&self) -> Option<bool> {
        self.result().map(|(_, _, made)| made)
    }

    /// The scored contract, its bid and whether it was made: None when passed out or
    /// unfinished.
    #[inline]
    fn result(&self) -> Option<(Contract, &'p Bid, bool)> {
        if self.phase != Phase::Finished {
            return None;
        }
        let c = self.contract?;
        let bid = self.profile.bid(c.bid);
        let made = match self.at_fault() {
            // A revoking declarer loses; a revoking defender pays as if the contract were made.
            Some(seat) => seat != c.declarer,
            None => bid.is_made(self.tricks_won[c.declarer]),
        };
        Some((c, bid, made))
    }

    /// The seat whose revoke, or forfeit, settles the deal.
    #[inline]
    fn at_fault(&self) -> Option<usize> {
        self.revoke
            .map(|(seat, _)| seat)
            .or(self.forfeit)
            .map(usize::from)
    }

    /// Settles the deal as a revoke by `seat` would (a declarer loses its contract, a defender
    /// alone pays what every defender would pay for a made one), whatever was played: a seat
    /// whose bot failed forfeits it (`tournament --forfeit`). A passed-out deal pays nothing
    /// still. The first forfeit stands.
    pub fn forfeit(&mut self, seat: usize) {
        self.forfeit.get_or_insert(seat as u8);
    }

    /// The one computation of what the deal pays (see the module's doc).
    #[inline]
    fn outcome(&self) -> Outcome {
        self.outcome_of(self.result())
    }

    /// [`DealState::outcome`] given the deal's result, for `settlement`, which needs the result
    /// first: a passed-out deal returns before anything is summed.
    #[inline(always)]
    fn outcome_of(&self, result: Option<(Contract, &Bid, bool)>) -> Outcome {
        let paid: i64 = self.paid_in.iter().sum();
        let mut outcome = Outcome {
            result: None,
            declarer: usize::MAX,
            each: 0,
            sole_payer: None,
            from_kitty: 0,
            kitty_after: self.kitty_before + paid,
        };
        let Some((c, bid, made)) = result else {
            return outcome;
        };
        outcome.result = Some((c, made));
        outcome.declarer = c.declarer;
        if let Some(seat) = self.at_fault()
            && seat != c.declarer
        {
            // The revoking defender alone pays what all the defenders would have paid, and the
            // kitty is untouched.
            outcome.each = bid.made();
            outcome.sole_payer = Some(seat);
            return outcome;
        }
        // Taking the spare hand multiplies a failure's payout.
        let multiplier = match self.spare_taken && !made {
            true => self.profile.spare_hand().map_or(1, |s| s.failed_multiplier),
            false => 1,
        };
        let players = usize::from(self.players);
        (outcome.each, outcome.from_kitty) =
            contract_transfers(bid, made, outcome.kitty_after, players, multiplier);
        outcome.kitty_after -= outcome.from_kitty;
        outcome
    }

    /// The units `seat` wins (positive) or pays (negative) under `outcome`.
    #[inline]
    fn seat_units(&self, outcome: &Outcome, seat: usize) -> i64 {
        let opponents = self.players as i64 - 1;
        let transfers = match outcome.sole_payer {
            Some(payer) if seat != outcome.declarer => match payer == seat {
                true => -outcome.each * opponents,
                false => 0,
            },
            _ => seat_transfer(
                seat == outcome.declarer,
                outcome.each,
                outcome.from_kitty,
                opponents,
            ),
        };
        transfers - self.paid_in[seat]
    }

    /// The kitty after the deal: what was in it, plus what was paid in, less what a winning
    /// declarer took or plus what a failed one paid into it (only meaningful once finished).
    pub fn kitty_after(&self) -> i64 {
        self.outcome().kitty_after
    }

    /// The finished deal's result for a simulation's tally: whether the contract was made, the
    /// declarer's units (its entry of [`DealState::payments`]) and the kitty after the deal
    /// ([`DealState::kitty_after`]). None when passed out or unfinished.
    // The simulation loop needs only these numbers: settling every seat as `payments` does
    // would cost a loop per deal.
    #[inline]
    pub fn settlement(&self) -> Option<Settlement> {
        let result = self.result()?;
        let outcome = self.outcome_of(Some(result));
        let (c, made) = outcome.result?;
        Some(Settlement {
            declarer: c.declarer,
            bid: c.bid,
            made,
            units: self.seat_units(&outcome, c.declarer),
            kitty_after: outcome.kitty_after,
        })
    }

    /// The units each seat wins (positive) or pays (negative) for the deal, counting what it
    /// paid into the kitty during the deal (antes, peeks, stakes). With the kitty's change they
    /// sum to zero: `payments` summed plus `kitty_after() - kitty_before()` is 0. When passed
    /// out (or unfinished) a seat has paid only what it put into the kitty.
    pub fn payments(&self) -> [i64; MAX_PLAYERS] {
        let outcome = self.outcome();
        let mut pay = [0; MAX_PLAYERS];
        for (seat, p) in pay.iter_mut().enumerate().take(self.players as usize) {
            *p = self.seat_units(&outcome, seat);
        }
        pay
    }
}

/// What a contract of `bid` transfers, made or failed: the units each defender pays the
/// declarer (negative: the declarer pays each), and the units the declarer takes from the kitty
/// (negative: pays into it), `kitty` holding what this deal has paid into it; a failure's
/// stakes multiplied by `multiplier` (the spare hand's). The one rule both [`DealState`]'s
/// settlement and [`contract_payments`] follow.
#[inline(always)]
fn contract_transfers(
    bid: &Bid,
    made: bool,
    kitty: i64,
    players: usize,
    multiplier: i64,
) -> (i64, i64) {
    let (each, into_kitty_each) = bid.stakes(made);
    let from_kitty = match made {
        true if bid.takes_kitty() => kitty,
        true => 0,
        false => -into_kitty_each * multiplier * players as i64,
    };
    (each * multiplier, from_kitty)
}

/// A seat's transfers under a contract where each defender pays the declarer `each` and the
/// declarer takes `from_kitty` from the kitty (`opponents`: the declarer's opponents).
#[inline(always)]
fn seat_transfer(is_declarer: bool, each: i64, from_kitty: i64, opponents: i64) -> i64 {
    match is_declarer {
        true => each * opponents + from_kitty,
        false => -each,
    }
}

/// What each seat of a table of `players` wins (positive) or pays for a deal that `contract`
/// ends (the declarer's index, the bid and whether it was made; None: passed out), the kitty
/// holding `kitty` before it: settled as [`DealState::payments`] settles a deal in which every
/// seat paid the profile's ante and nothing else (no peek, purchase or spare hand), and the
/// kitty after it. For valuing a deal's possible endings before it is played.
pub fn contract_payments(
    profile: &Profile,
    players: usize,
    kitty: i64,
    contract: Option<(usize, BidId, bool)>,
) -> ([i64; MAX_PLAYERS], i64) {
    let ante = profile.ante();
    let mut kitty = kitty + ante * players as i64;
    let mut pay = [0; MAX_PLAYERS];
    pay[..players].fill(-ante);
    if let Some((declarer, id, made)) = contract {
        let (each, from_kitty) = contract_transfers(profile.bid(id), made, kitty, players, 1);
        let opponents = players as i64 - 1;
        for (seat, p) in pay.iter_mut().enumerate().take(players) {
            *p += seat_transfer(seat == declarer, each, from_kitty, opponents);
        }
        kitty -= from_kitty;
    }
    (pay, kitty)
}
