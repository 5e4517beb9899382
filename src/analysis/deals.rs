//! `deal`: one continuous sequence of complete deals, the deal passing left.

use crate::cards::CardSet;
use crate::game::{DealState, Shuffler};
use crate::policy::{Table, run_deal};
use crate::rng::{below, block_streams};
use crate::rules::Profile;

/// What `napsim deal` plays.
pub struct DealsConfig<'a> {
    /// The rules.
    pub profile: &'a Profile,
    /// Table size (checked against the profile).
    pub players: usize,
    /// Deals to play.
    pub count: u64,
    /// The seed.
    pub seed: u64,
    /// The first dealer; None draws it as the profile says.
    pub first_dealer: Option<usize>,
    /// Fixed hands for every deal, seat 0 first; None deals from the pack.
    pub hands: Option<Vec<CardSet>>,
}

/// Plays the deals in order and hands each finished deal to `visit` with its number (from 1).
/// Cards and the first dealer come from block 0's deal stream, policies from its policy stream,
/// so the sequence is a pure function of the seed and the arguments.
pub fn play_deals<E>(
    config: &DealsConfig,
    table: &Table,
    mut visit: impl FnMut(&DealState, u64) -> Result<(), E>,
) -> Result<(), E> {
    let players = config.players;
    let (mut deal_rng, mut policy_rng) = block_streams(config.seed, 0);
    let mut shuffler = Shuffler::new(config.profile, players);
    let mut dealer = config
        .first_dealer
        .unwrap_or_else(|| below(&mut deal_rng, players as u64) as usize);
    // A kitty carries over from deal to deal, from empty.
    let mut kitty = 0;
    for number in 1..=config.count {
        let dealt = match &config.hands {
            Some(fixed) => shuffler.around(fixed, &mut deal_rng),
            None => shuffler.deal(dealer, &mut deal_rng),
        };
        let mut state = DealState::from_dealt(config.profile, dealer, &dealt, players);
        state.set_kitty(kitty);
        run_deal(&mut state, table, &mut policy_rng);
        kitty = state.kitty_after();
        if config.hands.is_none() {
            shuffler.collect(&state);
        }
        visit(&state, number)?;
        dealer = (dealer + 1) % players;
    }
    Ok(())
}
