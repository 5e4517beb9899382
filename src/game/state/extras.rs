//! The variants' extras around the auction: buying from the stock (Purchase Nap), looking at
//! and taking the floater (Peep Nap), the spare hand (Sir Garnet), and naming trump.

use thiserror::Error;

use super::{Call, Contract, DealState, IllegalCall, Phase, next_seat};
use crate::cards::{Card, CardSet, Suit};
use crate::rules::{HAND_SIZE, LeadRule, TrumpRule};

/// Why a purchase was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalPurchase {
    /// The deal is not in its purchase phase.
    #[error("cards can only be bought before the auction of a Purchase Nap profile")]
    NotInPurchase,
    /// A discarded card is not in the hand.
    #[error("the seat does not hold every card it discards")]
    NotHeld,
    /// Fewer cards left in the stock than discarded.
    #[error("{wanted} cards wanted but only {left} left in the stock")]
    StockTooSmall {
        /// Cards asked for.
        wanted: usize,
        /// Cards left.
        left: usize,
    },
}

impl DealState<'_> {
    /// The floater dealt face down (Peep Nap).
    pub fn floater(&self) -> Option<Card> {
        self.floater
    }

    /// Whether `seat` paid to look at the floater.
    pub fn peeked(&self, seat: usize) -> bool {
        self.peeked & (1 << seat) != 0
    }

    /// The floater as `seat` knows it: seen if it paid to look, or took it as declarer.
    pub fn floater_seen_by(&self, seat: usize) -> Option<Card> {
        let took =
            self.floater_discard.is_some() && self.contract.is_some_and(|c| c.declarer == seat);
        self.floater.filter(|_| self.peeked(seat) || took)
    }

    /// The declarer's floater exchange, once made: the card it discarded (possibly the floater).
    pub fn floater_discard(&self) -> Option<Card> {
        self.floater_discard
    }

    /// Whether the seat to call may pay to look at the floater now (before its call).
    pub fn can_peek(&self) -> bool {
        self.phase == Phase::Auction && self.floater.is_some() && !self.peeked(self.next as usize)
    }

    /// The seat to call pays the profile's price into the kitty and looks at the floater.
    pub fn peek(&mut self) -> Result<Card, IllegalCall> {
        if !self.can_peek() {
            return Err(IllegalCall::NoFloater);
        }
        let seat = self.next as usize;
        self.peeked |= 1 << seat;
        self.paid_in[seat] += self.profile.peek_price();
        Ok(self.floater.expect("checked"))
    }

    /// The declarer of a bid with the floater takes it and discards `discard` (one of its six
    /// cards, possibly the floater).
    pub fn take_floater(&mut self, discard: Card) -> Result<(), IllegalCall> {
        if self.phase != Phase::Floater {
            return Err(IllegalCall::NoFloater);
        }
        let declarer = self.next as usize;
        let six = self.hands[declarer] | self.floater.expect("a floater in this phase").set();
        if !six.contains(discard) {
            return Err(IllegalCall::BadKeep);
        }
        self.hands[declarer] = six.without(discard);
        self.floater_discard = Some(discard);
        self.phase = self.phase_after_floater();
        Ok(())
    }

    /// The declarer names `trump` (a bid whose trump is named). With a lowest-non-trump lead
    /// rule, the hand must keep at least one card outside the trump suit.
    pub fn name_trump(&mut self, trump: Suit) -> Result<(), IllegalCall> {
        if self.phase != Phase::Trump {
            return Err(IllegalCall::NoTrumpToName);
        }
        let c = self.contract.expect("a contract");
        let hand = self.hands[c.declarer];
        if self.profile.bid(c.bid).lead() == LeadRule::LowestNonTrump
            && (hand - CardSet::suit_mask(trump)).is_empty()
        {
            return Err(IllegalCall::NoLeadAfterNaming);
        }
        self.set_trump(trump);
        self.phase = Phase::Play;
        Ok(())
    }

    fn phase_after_floater(&self) -> Phase {
        let bid = self.profile.bid(self.contract.expect("a contract").bid);
        if bid.trump() == TrumpRule::Named {
            Phase::Trump
        } else {
            Phase::Play
        }
    }

    /// The stock in order, top card first (Purchase Nap; empty otherwise).
    pub fn stock_order(&self) -> &[Card] {
        self.stock_order.as_slice()
    }

    /// Cards left in the stock to buy from (Purchase Nap).
    pub fn stock_left(&self) -> usize {
        self.stock_order.as_slice().len() - self.stock_drawn as usize
    }

    /// Buys for the seat to act in the purchase phase: gives up `discard` (empty: does not buy)
    /// and receives as many cards from the top of the stock, paying the stake into the kitty.
    pub fn purchase(&mut self, discard: CardSet) -> Result<(), IllegalPurchase> {
        self.purchase_paying(discard, discard.any())
    }

    /// Buys in for the seat to act in the purchase phase: pays the stake, gives up `discard`
    /// (any number of cards, none included: the source lets a player pay and discard any
    /// number) and receives as many cards from the top of the stock.
    pub fn buy_in(&mut self, discard: CardSet) -> Result<(), IllegalPurchase> {
        self.purchase_paying(discard, true)
    }

    fn purchase_paying(&mut self, discard: CardSet, pays: bool) -> Result<(), IllegalPurchase> {
        if self.phase != Phase::Purchase {
            return Err(IllegalPurchase::NotInPurchase);
        }
        let seat = self.next as usize;
        if !(discard - self.hands[seat]).is_empty() {
            return Err(IllegalPurchase::NotHeld);
        }
        let n = discard.count() as usize;
        if n > self.stock_left() {
            return Err(IllegalPurchase::StockTooSmall {
                wanted: n,
                left: self.stock_left(),
            });
        }
        if pays {
            let start = self.stock_drawn as usize;
            let received: CardSet = self.stock_order.as_slice()[start..start + n]
                .iter()
                .copied()
                .collect();
            self.stock_drawn += n as u8;
            self.hands[seat] = (self.hands[seat] - discard) | received;
            self.bought[seat] = (discard, received);
            self.bought_in |= 1 << seat;
            self.paid_in[seat] += self.profile.purchase_stake().unwrap_or(0);
        }
        self.purchases_done += 1;
        self.next = next_seat(seat, self.players as usize) as u8;
        if self.purchases_done == self.players {
            self.phase = Phase::Auction;
        }
        Ok(())
    }

    /// Whether `seat` paid the purchase stake (it may have discarded nothing).
    pub fn bought_in(&self, seat: usize) -> bool {
        self.bought_in & (1 << seat) != 0
    }

    /// What `seat` gave up and received when buying (empty sets when it did not buy).
    pub fn bought(&self, seat: usize) -> (CardSet, CardSet) {
        self.bought[seat]
    }

    /// The spare hand dealt face down (empty without one).
    pub fn spare(&self) -> CardSet {
        self.spare
    }

    /// Whether the spare hand was taken.
    pub fn spare_taken(&self) -> bool {
        self.spare_taken
    }

    /// The spare-hand exchange, once made: the taker, the cards it gave up and those it took.
    pub fn spare_exchange(&self) -> Option<(usize, CardSet, CardSet)> {
        let declarer = self.contract.filter(|_| self.spare_taken)?.declarer;
        let dealt = self.dealt[declarer];
        Some((declarer, dealt - self.kept, self.kept - dealt))
    }

    /// Whether the seat to call may take the spare hand now: the profile deals one, nobody has
    /// taken it, and the bid on the table is below the spare-hand bid.
    pub fn can_take_spare(&self) -> bool {
        self.check_call(Call::TakeSpare).is_ok()
    }

    /// Takes the spare hand for the seat to call, keeping `keep` (five of its ten cards); the
    /// seat is now the declarer of the profile's spare-hand bid.
    pub fn take_spare(&mut self, keep: CardSet) -> Result<(), IllegalCall> {
        self.check_call(Call::TakeSpare)?;
        let seat = self.next as usize;
        let ten = self.hands[seat] | self.spare;
        if keep.count() as usize != HAND_SIZE || !(keep - ten).is_empty() {
            return Err(IllegalCall::BadKeep);
        }
        let bid = self.profile.spare_hand().expect("checked").bid;
        self.hands[seat] = keep;
        self.kept = keep;
        self.spare_taken = true;
        self.contract = Some(Contract {
            declarer: seat,
            bid,
        });
        self.next = next_seat(seat, self.players as usize) as u8;
        self.calls[self.call_count as usize] = Call::TakeSpare;
        self.call_count += 1;
        if self.call_count == self.players {
            self.end_auction();
        }
        Ok(())
    }
}
