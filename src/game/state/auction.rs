//! The auction: calls, their legality, and the contract it ends with.

use thiserror::Error;

use super::{DealState, Phase, next_seat};
use crate::rules::{BidId, Profile, TrumpRule};

/// A seat's call in the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    /// No bid.
    Pass,
    /// A bid of the profile's ladder.
    Bid(BidId),
    /// Take the spare hand (Sir Garnet): keep five of the ten cards and play the profile's
    /// spare-hand bid, which nobody may overcall. Made with [`DealState::take_spare`].
    TakeSpare,
}

impl Call {
    /// The lowercase ASCII name used in records: `pass` or the bid's name.
    pub fn name(self, profile: &Profile) -> &str {
        match self {
            Call::Pass => "pass",
            Call::Bid(id) => profile.bid(id).name(),
            Call::TakeSpare => "take-spare",
        }
    }

    /// Parses `pass` or a bid name of `profile`.
    pub fn parse(text: &str, profile: &Profile) -> Option<Call> {
        let text = text.trim().to_ascii_lowercase();
        if text == "pass" {
            Some(Call::Pass)
        } else if text == "take-spare" && profile.spare_hand().is_some() {
            Some(Call::TakeSpare)
        } else {
            profile.bid_id(&text).map(Call::Bid)
        }
    }
}

/// The winning bid of an auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contract {
    /// The seat that plays alone.
    pub declarer: usize,
    /// The bid it won with.
    pub bid: BidId,
}

/// Why a call was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalCall {
    /// The auction is over.
    #[error("the auction is over")]
    NotInAuction,
    /// The bid does not beat the bid on the table.
    #[error("a bid must be higher than the bid on the table")]
    NotHigher,
    /// The bid may only overcall another bid (Wellington over a Nap), which is not on the
    /// table; [`IllegalCall::explain`] names both.
    #[error("this bid may only overcall a bid that is not on the table")]
    NotOverRequiredBid {
        /// The bid called.
        bid: BidId,
        /// The bid it may only overcall.
        required: BidId,
    },
    /// The spare hand was taken: nobody may overcall.
    #[error("the spare hand was taken: nobody may overcall")]
    SpareTaken,
    /// The profile has no spare hand, or it can no longer be taken.
    #[error("the spare hand cannot be taken now")]
    NoSpare,
    /// Taking the spare hand needs the five cards kept ([`DealState::take_spare`]).
    #[error("taking the spare hand needs the five cards kept")]
    KeepNeeded,
    /// The kept cards are not five of the hand and the spare hand (or the floater's discard is
    /// not one of the six cards).
    #[error("the cards kept or discarded are not the seat's")]
    BadKeep,
    /// No floater to look at or take now.
    #[error("there is no floater to look at or take now")]
    NoFloater,
    /// No trump to name now.
    #[error("no trump suit is to be named now")]
    NoTrumpToName,
    /// Naming that suit would leave no non-trump card to lead.
    #[error("the declarer must keep a non-trump card to lead: name another suit")]
    NoLeadAfterNaming,
}

impl IllegalCall {
    /// Why the call was refused, in the words of `profile` (whose bids the reason names):
    /// "Wellington may only overcall a Nap".
    pub fn explain(&self, profile: &Profile) -> String {
        match *self {
            IllegalCall::NotOverRequiredBid { bid, required } => {
                let label = profile.bid(required).label();
                let article = if label.starts_with(['A', 'E', 'I', 'O', 'U']) {
                    "an"
                } else {
                    "a"
                };
                // Over the bid just below it only that bid can be on the table.
                let higher = if required.0 + 1 == bid.0 {
                    ""
                } else {
                    " or a higher bid"
                };
                format!(
                    "{} may only overcall {article} {label}{higher}",
                    profile.bid(bid).label()
                )
            }
            other => other.to_string(),
        }
    }
}

impl DealState<'_> {
    /// Whether `call` is legal now.
    pub fn check_call(&self, call: Call) -> Result<(), IllegalCall> {
        if self.phase != Phase::Auction {
            return Err(IllegalCall::NotInAuction);
        }
        let current = self.contract.map(|c| c.bid);
        let bid = match call {
            Call::Pass => return Ok(()),
            Call::TakeSpare => {
                let Some(spare) = self.profile.spare_hand() else {
                    return Err(IllegalCall::NoSpare);
                };
                if self.spare_taken || self.spare.is_empty() {
                    return Err(IllegalCall::NoSpare);
                }
                return if current.is_some_and(|c| c >= spare.bid) {
                    Err(IllegalCall::NotHigher)
                } else {
                    Ok(())
                };
            }
            Call::Bid(bid) => bid,
        };
        if self.spare_taken {
            return Err(IllegalCall::SpareTaken);
        }
        if current.is_some_and(|c| bid <= c) {
            return Err(IllegalCall::NotHigher);
        }
        if let Some(required) = self.profile.bid(bid).only_over() {
            // "Only over an existing Nap": the required bid, or one above it, is on the table.
            if current.is_none_or(|c| c < required) {
                return Err(IllegalCall::NotOverRequiredBid { bid, required });
            }
        }
        Ok(())
    }

    /// Whether the seat to call has any legal bid (when it has none, it can only pass).
    pub fn any_legal_bid(&self) -> bool {
        self.phase == Phase::Auction
            && !self.spare_taken
            && self.profile.can_overcall(self.contract.map(|c| c.bid))
    }

    /// Makes the next call, or returns why it is illegal (leaving the state unchanged).
    pub fn call(&mut self, call: Call) -> Result<(), IllegalCall> {
        self.check_call(call)?;
        if call == Call::TakeSpare {
            return Err(IllegalCall::KeepNeeded);
        }
        self.call_unchecked(call);
        Ok(())
    }

    /// Makes the next call without checking it (debug builds assert legality).
    pub fn call_unchecked(&mut self, call: Call) {
        debug_assert_eq!(self.check_call(call), Ok(()));
        let seat = self.next as usize;
        self.next = next_seat(seat, self.players as usize) as u8;
        self.calls[self.call_count as usize] = call;
        self.call_count += 1;
        if let Call::Bid(bid) = call {
            self.contract = Some(Contract {
                declarer: seat,
                bid,
            });
        }
        if self.call_count == self.players {
            self.end_auction();
        }
    }

    pub(super) fn end_auction(&mut self) {
        match self.contract {
            None => self.phase = Phase::Finished,
            Some(c) => {
                let bid = self.profile.bid(c.bid);
                self.phase = if bid.with_floater() && self.floater.is_some() {
                    Phase::Floater
                } else if bid.trump() == TrumpRule::Named {
                    Phase::Trump
                } else {
                    Phase::Play
                };
                self.misere = bid.is_misere();
                self.declarer = c.declarer as u8;
                self.trick_leaders[0] = c.declarer as u8;
                self.next = c.declarer as u8;
            }
        }
    }
}
