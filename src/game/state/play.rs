//! The play: legal cards under the lead rules, playing a card (checked, replayed with revokes,
//! and the unchecked fast path), tricks and who wins them.

use thiserror::Error;

use super::{DealState, Phase};
use crate::cards::{Card, CardSet, Suit};
use crate::rules::{HAND_SIZE, LeadRule, Revoke, TrumpRule};

/// Why a card could not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalPlay {
    /// The deal is not in its play phase.
    #[error("no card can be played now (the deal is not in its play phase)")]
    NotInPlay,
    /// The seat to play does not hold the card.
    #[error("the seat to play does not hold that card")]
    NotHeld,
    /// The seat can follow suit and did not.
    #[error("the seat must follow suit")]
    MustFollowSuit,
    /// The opening lead breaks the contract's lead rule (Bonaparte, Wellington).
    #[error("the opening lead must follow the contract's lead rule")]
    LeadRule,
}

impl DealState<'_> {
    /// The cards the seat to play may play.
    #[inline]
    pub fn legal_cards(&self) -> CardSet {
        if self.phase != Phase::Play {
            return CardSet::EMPTY;
        }
        let hand = self.hands[self.next as usize];
        if self.in_trick != 0 {
            hand.follow(self.led_suit())
        } else if self.played_count == 0 {
            self.opening_leads(hand)
        } else {
            hand
        }
    }

    /// The cards the declarer may lead to the first trick under its bid's lead rule.
    fn opening_leads(&self, hand: CardSet) -> CardSet {
        let bid = self.profile.bid(self.contract.expect("a contract").bid);
        opening_leads(hand, bid.lead(), self.trump)
    }

    /// The suit led to the trick in progress (only meaningful while a trick is in progress).
    #[inline]
    fn led_suit(&self) -> Suit {
        self.led
    }

    /// Plays `card` for the seat to play, or returns why it is illegal (state unchanged).
    pub fn play(&mut self, card: Card) -> Result<(), IllegalPlay> {
        if self.phase != Phase::Play {
            return Err(IllegalPlay::NotInPlay);
        }
        let seat = self.to_act().expect("a seat plays in the play phase");
        if !self.hands[seat].contains(card) {
            return Err(IllegalPlay::NotHeld);
        }
        if !self.legal_cards().contains(card) {
            return Err(if self.in_trick == 0 {
                IllegalPlay::LeadRule
            } else {
                IllegalPlay::MustFollowSuit
            });
        }
        self.play_unchecked(card);
        Ok(())
    }

    /// Plays `card` from a replayed game: as [`DealState::play`], except that under a profile
    /// whose revoke rule is [`Revoke::SettleAtOnce`] a failure to follow suit ends the deal, to
    /// be settled as that rule says.
    pub fn play_replayed(&mut self, card: Card) -> Result<(), IllegalPlay> {
        match self.play(card) {
            Err(IllegalPlay::MustFollowSuit) if self.profile.revoke() == Revoke::SettleAtOnce => {
                let seat = self.next;
                self.revoke = Some((seat, card));
                self.phase = Phase::Finished;
                Ok(())
            }
            other => other,
        }
    }

    /// The revoke that ended a replayed deal: the seat and the card.
    pub fn revoke(&self) -> Option<(usize, Card)> {
        self.revoke.map(|(seat, card)| (seat as usize, card))
    }

    /// Plays `card` without checking it (debug builds assert legality).
    // Always inlined: as a call it saves and restores six registers and reloads the trick
    // state for every card (measured 9% of a deal once the policy is inlined beside it).
    #[inline(always)]
    pub fn play_unchecked(&mut self, card: Card) {
        debug_assert!(self.legal_cards().contains(card), "illegal play {card}");
        let n = self.players;
        let in_trick = self.in_trick;
        let seat = self.next;
        if in_trick == 0 {
            if self.played_count == 0 {
                self.opening_lead(card);
            }
            self.led = card.suit();
            self.winning = (card, seat);
        } else {
            // Branch-free on purpose: which card wins, and who shows void, is random data that
            // a branch predictor cannot learn.
            let led = self.led_suit();
            self.voids |= u32::from(card.suit() != led) << (4 * seat as u32 + led as u32);
            let (best, best_seat) = self.winning;
            let wins = beats_trumps(card, best, self.trumps);
            self.winning = (
                if wins { card } else { best },
                if wins { seat } else { best_seat },
            );
        }
        self.hands[seat as usize].remove(card);
        self.played.insert(card);
        self.history[self.played_count as usize] = card;
        self.played_count += 1;
        if in_trick + 1 == n {
            self.end_trick();
        } else {
            self.in_trick = in_trick + 1;
            self.next = if seat + 1 == n { 0 } else { seat + 1 };
        }
    }

    /// The opening lead `card` names trump where the contract's trump rule says so.
    #[cold]
    fn opening_lead(&mut self, card: Card) {
        let bid = self.contract.expect("a contract in the play phase").bid;
        if self.profile.bid(bid).trump() == TrumpRule::FirstLead {
            self.set_trump(card.suit());
        }
    }

    /// The last card of a trick was played: the trick goes to its winner, who leads next.
    fn end_trick(&mut self) {
        let trick = self.trick as usize;
        let winner = self.winning.1;
        self.trick_winners[trick] = winner;
        self.tricks_won[winner as usize] += 1;
        self.in_trick = 0;
        self.next = winner;
        self.trick += 1;
        // A misère fails, and the deal ends, as soon as the declarer takes a trick.
        let misere_lost = self.misere && self.declarer == winner;
        if trick + 1 == HAND_SIZE || misere_lost {
            self.phase = Phase::Finished;
        } else {
            self.trick_leaders[trick + 1] = winner;
        }
    }
}

/// The cards of `hand` the declarer may lead to the first trick under `rule`, with `trump` the
/// suit named before the lead (if any).
pub fn opening_leads(hand: CardSet, rule: LeadRule, trump: Option<Suit>) -> CardSet {
    match rule {
        LeadRule::Any => hand,
        // The lowest card of each suit: whichever suit it leads names trump.
        LeadRule::LowestOfSuit => Suit::ALL
            .into_iter()
            .filter_map(|s| hand.of_suit(s).first())
            .collect(),
        // Every card of the lowest rank outside trump: when two suits tie, either is that
        // lowest card.
        LeadRule::LowestNonTrump => {
            let trumps = trump.map_or(CardSet::EMPTY, CardSet::suit_mask);
            let side = hand - trumps;
            match side.lowest_rank() {
                Some(lowest) => side
                    .into_iter()
                    .filter(|c| c.rank() == lowest.rank())
                    .collect(),
                None => hand,
            }
        }
    }
}

/// Whether `card` beats `best` (the card now winning the trick) under `trump`.
#[inline]
pub fn beats(card: Card, best: Card, trump: Option<Suit>) -> bool {
    beats_trumps(card, best, trump.map_or(CardSet::EMPTY, CardSet::suit_mask))
}

/// [`beats`] with the trump suit as a mask (`trumps`, empty without trump).
#[inline]
fn beats_trumps(card: Card, best: Card, trumps: CardSet) -> bool {
    // Within a suit the bit index orders the ranks; across suits only a trump beats.
    let same = card.same_suit(best);
    let higher = card.index() > best.index();
    (same & higher) | (!same & trumps.contains(card))
}

/// The seat that wins a complete trick: `cards` in play order from `leader`.
pub fn trick_winner(cards: &[Card], leader: usize, players: usize, trump: Option<Suit>) -> usize {
    let mut best = 0;
    for i in 1..cards.len() {
        if beats(cards[i], cards[best], trump) {
            best = i;
        }
    }
    (leader + best) % players
}
