//! The worlds of the hand evaluator: the other hands (and the floater or the spare hand, where
//! the profile deals one) dealt at random from the cards the evaluated hand does not show, and,
//! when the calls of the earlier seats are given, kept only if those seats, taking their turns
//! as in a real auction ([`auction_turn`]: the spare hand, a peek at the floater, the call),
//! would have made them. Purchases (Purchase Nap) are not modelled: the hands are the hands
//! after buying.

use crate::cards::{Card, CardSet};
use crate::game::{Call, DealState};
use crate::policy::BidPolicy;
use crate::policy::auction_turn;
use crate::rng::{SimRng, below};
use crate::rules::{HAND_SIZE, MAX_PLAYERS, Profile};

/// One world: every hand, the evaluated one included, and the floater.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct World {
    /// The hands by seat (position in the auction).
    pub hands: [CardSet; MAX_PLAYERS],
    /// The floater, where the profile deals one.
    pub floater: Option<Card>,
    /// The spare hand, where the profile deals one (else empty).
    pub spare: CardSet,
}

/// The deal of `world` at the start of its auction (seat 0 calls first), with the cards on the
/// table the auction may use.
pub fn auction_start<'a>(profile: &'a Profile, players: usize, world: &World) -> DealState<'a> {
    DealState::with_table_cards(
        profile,
        players - 1,
        &world.hands[..players],
        world.floater,
        world.spare,
    )
}

/// Deals worlds around one hand.
pub struct WorldDealer<'a> {
    profile: &'a Profile,
    players: usize,
    seat: usize,
    hand: CardSet,
    /// The cards the hand does not hold, in a fixed order.
    unseen: [Card; 52],
    unseen_len: usize,
    /// The calls of the seats before `seat`, when the worlds are conditioned on them.
    after: &'a [Call],
    /// The bid policy those seats are assumed to use.
    others: &'a dyn BidPolicy,
}

impl<'a> WorldDealer<'a> {
    /// A dealer of worlds for `hand` at `seat` of a table of `players`. With `after` non-empty
    /// (the calls of seats `0..after.len()`, checked legal), [`WorldDealer::accepts`] keeps
    /// only the worlds in which `others` makes those calls.
    pub fn new(
        profile: &'a Profile,
        players: usize,
        seat: usize,
        hand: CardSet,
        after: &'a [Call],
        others: &'a dyn BidPolicy,
    ) -> WorldDealer<'a> {
        let mut unseen = [Card::try_from_index(2).expect("a card"); 52];
        let mut unseen_len = 0;
        for card in profile.pack(players) - hand {
            unseen[unseen_len] = card;
            unseen_len += 1;
        }
        WorldDealer {
            profile,
            players,
            seat,
            hand,
            unseen,
            unseen_len,
            after,
            others,
        }
    }

    /// Whether worlds are conditioned on earlier calls.
    pub fn conditioned(&self) -> bool {
        !self.after.is_empty()
    }

    /// One world, uniform among the deals of the unseen cards.
    pub fn draw(&self, rng: &mut SimRng) -> World {
        let mut pool = self.unseen;
        let mut left = self.unseen_len;
        let mut take = |rng: &mut SimRng| {
            // A partial Fisher-Yates shuffle: the drawn card moves past the end of the pool.
            let pick = below(rng, left as u64) as usize;
            left -= 1;
            pool.swap(pick, left);
            pool[left]
        };
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        for (seat, hand) in hands.iter_mut().enumerate().take(self.players) {
            if seat == self.seat {
                *hand = self.hand;
                continue;
            }
            for _ in 0..HAND_SIZE {
                hand.insert(take(rng));
            }
        }
        let floater = self.profile.has_floater().then(|| take(rng));
        let mut spare = CardSet::EMPTY;
        if self.profile.spare_hand().is_some() {
            for _ in 0..HAND_SIZE {
                spare.insert(take(rng));
            }
        }
        World {
            hands,
            floater,
            spare,
        }
    }

    /// Whether the seats before the evaluated one, holding their hands of `world` and bidding
    /// with the assumed policy, make exactly the given calls (always true when unconditioned).
    pub fn accepts(&self, world: &World, rng: &mut SimRng) -> bool {
        self.before_hand(world, rng).is_some()
    }

    /// [`WorldDealer::accepts`], returning the deal at the hand's turn when it accepts: with
    /// the given calls made (unconditioned: at the start of the auction, nobody has called).
    pub fn before_hand(&self, world: &World, rng: &mut SimRng) -> Option<DealState<'a>> {
        let mut state = auction_start(self.profile, self.players, world);
        self.after
            .iter()
            .all(|&wanted| auction_turn(&mut state, self.others, rng) == wanted)
            .then_some(state)
    }
}
