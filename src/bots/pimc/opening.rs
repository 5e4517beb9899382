//! `pimc:...,opening=K`: the declarer's opening lead, decided once per information set.
//!
//! Every deal in which the declarer holds the same hand under the same contract and auction
//! starts from the same information set, and `napsim hand` plays thousands of such deals: at
//! six and seven players the opening lead of a misère was most of each deal's cost. With
//! `opening=K` the opening lead follows the PIMC rule over K worlds drawn from a stream seeded
//! by what the declarer sees (its hand, its seat, the table), never from the deal's stream.
//! The lead is then a function of the information set, the same card in every such deal, and
//! the answer is remembered per policy (shared by its threads) instead of found again.
//!
//! Hit or miss, the deal's stream is left as it was, so a run does not depend on which thread
//! asked first: the memo changes when a card is found, never which.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::cards::{Card, CardSet, Suit};
use crate::game::Call;
use crate::policy::PlayView;
use crate::rng::SimRng;
use rand_core::SeedableRng;

/// Information sets remembered before the memo starts afresh (random deals, as `simulate`
/// plays them, rarely repeat one; this only bounds the memory).
const MEMO_LIMIT: usize = 4096;

/// The opening-lead worlds of a PIMC player and its memo of answers.
pub(super) struct OpeningLeads {
    worlds: usize,
    memo: Mutex<HashMap<Key, Card>>,
}

impl std::fmt::Debug for OpeningLeads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpeningLeads")
            .field("worlds", &self.worlds)
            .finish_non_exhaustive()
    }
}

impl OpeningLeads {
    /// Opening leads decided over `worlds` worlds.
    pub(super) fn new(worlds: usize) -> OpeningLeads {
        OpeningLeads {
            worlds,
            memo: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `view` is the declarer's opening lead.
    pub(super) fn applies(view: &PlayView) -> bool {
        view.is_declarer() && view.history().is_empty()
    }

    /// The opening lead of `view`: remembered, or found by `decide` from the information set's
    /// own stream over [`OpeningLeads::worlds`] worlds.
    pub(super) fn lead(
        &self,
        view: &PlayView,
        decide: impl FnOnce(&mut SimRng, usize) -> Card,
    ) -> Card {
        let key = Key::of(view);
        // Not held while deciding: other threads' different leads would wait for this one.
        if let Some(&card) = self.lock().get(&key) {
            return card;
        }
        let mut rng = SimRng::seed_from_u64(key.seed());
        let card = decide(&mut rng, self.worlds);
        let mut memo = self.lock();
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        memo.insert(key, card);
        card
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Card>> {
        // A panic elsewhere cannot leave a wrong answer in the memo: entries are whole.
        self.memo
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Everything a seat's view shows before the first card is played: two views with the same
/// key are the same information set.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct Key {
    /// The profile's address: a policy may be asked under more than one profile.
    profile: usize,
    seats: [u8; 4],
    hand: CardSet,
    calls: Vec<Call>,
    bid: u8,
    trump: Option<Suit>,
    floater: Option<Card>,
    known_out: CardSet,
    unseen: CardSet,
    hand_lens: Vec<u8>,
    voids: Vec<u8>,
}

impl Key {
    pub(super) fn of(view: &PlayView) -> Key {
        let seats = 0..view.players();
        Key {
            profile: std::ptr::from_ref(view.profile()) as usize,
            seats: [
                view.seat() as u8,
                view.players() as u8,
                view.dealer() as u8,
                view.declarer() as u8,
            ],
            hand: view.hand(),
            calls: view.calls().to_vec(),
            bid: view.contract().bid.0,
            trump: view.trump(),
            floater: view.floater(),
            known_out: view.known_out(),
            unseen: view.unseen(),
            hand_lens: seats.clone().map(|s| view.hand_len(s) as u8).collect(),
            voids: seats.map(|s| view.void_mask(s)).collect(),
        }
    }

    /// The seed of the information set's stream. It leaves out the bid, so that bids played
    /// alike lead alike (`PlayPolicy::plays_by_rules_only`).
    pub(super) fn seed(&self) -> u64 {
        let words = [
            u64::from(u32::from_le_bytes(self.seats)),
            self.hand.bits(),
            self.trump.map_or(u64::MAX, |s| s as u64),
            self.floater.map_or(u64::MAX, |c| u64::from(c.index())),
            self.known_out.bits(),
            self.unseen.bits(),
        ];
        // SplitMix64's finaliser over the words in turn.
        words.iter().fold(0x006f_7065_6e69_6e67_u64, |h, &w| {
            let mut z = (h ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
    }
}
