//! `napsim bid-table`: per-bid success rates and expected values by hand class and seat.
//!
//! Each deal is dealt fresh; every seat's hand is evaluated as a prospective declarer for every
//! bid of the profile on that deal ([`HandQuery::evaluate_world`]: the same deal for every bid)
//! and tallied under its class and seat. A seat counts only when every earlier seat passed
//! under the opening bidder (the default threshold policy): its rows answer "the auction has
//! reached me, all passed". The double-dummy makes are counted on the first `dd_deals` deals.
//! Tallies are integers keyed by (seat, class) in ordered maps, so blocks merge exactly.

pub mod chart;
pub mod strata;

use std::collections::BTreeMap;

use crate::game::{Call, DealState, Shuffler};
use crate::policy::auction_turn;
use crate::policy::{BidPolicy, PlayPolicy};
use crate::rng::{below, next_u64};
use crate::rules::Profile;
use serde::{Deserialize, Serialize};

use crate::bots::ext::BotPool;
use crate::bots::{bid_policy, play_policy_in};
use crate::error::Error;
use crate::run::LongCommand;
use crate::sim::{Block, Tally, TallyError};
use crate::stats::{mean_se, wilson95};

pub use crate::eval::classes::{Class, Scheme};
use crate::eval::hand::worlds::{World, WorldDealer};
use crate::eval::hand::{AuctionTally, BidOutcomes, HandQuery, PASS_INDEX, call_index};
pub use chart::{BidChart, ChartGroup};
use strata::{ClassIndex, MAX_DRAWS_PER_HAND, PASSES};

/// Deals per block. Part of the determinism contract: changing it changes the results.
pub const BLOCK_SIZE: u64 = 1024;

/// What to tabulate.
pub struct BidTableConfig<'a> {
    /// The rules.
    pub profile: &'a Profile,
    /// Table size.
    pub players: usize,
    /// Deals to play.
    pub deals: u64,
    /// The seed.
    pub seed: u64,
    /// The play policy of every seat.
    pub play: &'a dyn PlayPolicy,
    /// The play of the contracts another seat wins in the auction view
    /// ([`TablePolicies::others_play`]).
    pub others_play: &'a dyn PlayPolicy,
    /// The double-dummy makes are counted on deals `0..dd_deals`.
    pub dd_deals: u64,
    /// How hands are grouped.
    pub scheme: Scheme,
    /// The bid policy deciding whether the earlier seats pass.
    pub opener: &'a dyn BidPolicy,
    /// Class-targeted sampling, or None for random deals.
    pub strata: Option<&'a Strata>,
    /// Also value every call, passing included, in the whole auction (the later seats bidding
    /// with `opener`).
    pub auction: bool,
}

/// What a stratified run (`--per-class N`) plays: N hands of each (seat, class) pair.
#[derive(Debug)]
pub struct Strata {
    /// Every hand of the pack by class.
    pub index: ClassIndex,
    /// The (seat, class) pairs, in the order their hands are played.
    pub pairs: Vec<(usize, Class)>,
    /// Hands per pair.
    pub per_class: u64,
    /// The double-dummy makes are counted on each pair's first `dd_hands` hands.
    pub dd_hands: u64,
}

/// The tallies of one (seat, class). Stored in files as the array `[hands, dd_hands, bids]`,
/// with the calls' tally as a fourth element in the auction view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassTally {
    /// Hands evaluated.
    pub hands: u64,
    /// Of those, on deals with the double-dummy count.
    pub dd_hands: u64,
    /// One entry per bid of the profile.
    pub bids: Vec<BidOutcomes>,
    /// Every call valued in the whole auction (`--auction`), else None.
    pub calls: Option<AuctionTally>,
}

impl Serialize for ClassTally {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let len = if self.calls.is_some() { 4 } else { 3 };
        let mut tuple = serializer.serialize_tuple(len)?;
        tuple.serialize_element(&self.hands)?;
        tuple.serialize_element(&self.dd_hands)?;
        tuple.serialize_element(&self.bids)?;
        if let Some(calls) = &self.calls {
            tuple.serialize_element(calls)?;
        }
        tuple.end()
    }
}

impl<'de> Deserialize<'de> for ClassTally {
    /// The array of three elements, or four with the calls. (Not an untagged enum: serde
    /// buffers those in a form without 128-bit integers, which the squares need.)
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<ClassTally, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = ClassTally;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("[hands, dd_hands, bids] or [hands, dd_hands, bids, calls]")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<ClassTally, A::Error> {
                let missing = |i| serde::de::Error::invalid_length(i, &self);
                Ok(ClassTally {
                    hands: seq.next_element()?.ok_or_else(|| missing(0))?,
                    dd_hands: seq.next_element()?.ok_or_else(|| missing(1))?,
                    bids: seq.next_element()?.ok_or_else(|| missing(2))?,
                    calls: seq.next_element()?,
                })
            }
        }
        deserializer.deserialize_seq(Visit)
    }
}

/// The tallies of a bid table.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BidTableTally {
    /// Deals played.
    pub deals: u64,
    /// Per (seat, class); stored in files as a list of `[[seat, class], tally]` entries (JSON
    /// keys must be strings).
    #[serde(with = "entries")]
    pub classes: BTreeMap<(usize, Class), ClassTally>,
    /// Stratified runs: per (seat, class), the deals drawn for its hands, those an earlier seat
    /// did not pass included.
    #[serde(default, with = "entries", skip_serializing_if = "BTreeMap::is_empty")]
    pub draws: BTreeMap<(usize, Class), u64>,
    /// Stratified runs: per seat, how many of the plain random deals (one per hand played)
    /// reached it with every earlier seat passing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reached: Vec<u64>,
}

/// A map with tuple keys (de)serialised as a list of `[key, value]` entries (JSON keys must be
/// strings); reading refuses a key that appears twice.
pub(crate) mod entries {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<K: Serialize, V: Serialize, S: Serializer>(
        map: &BTreeMap<K, V>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(map.iter())
    }

    pub fn deserialize<'de, K, V, D>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
    where
        K: Deserialize<'de> + Ord,
        V: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        let entries = Vec::<(K, V)>::deserialize(deserializer)?;
        let len = entries.len();
        let map: BTreeMap<K, V> = entries.into_iter().collect();
        if map.len() != len {
            return Err(serde::de::Error::custom("a key appears twice"));
        }
        Ok(map)
    }
}

impl Tally for BidTableTally {
    fn units(&self) -> Option<u64> {
        Some(self.deals)
    }

    fn check(&self, bids: usize) -> Result<(), TallyError> {
        for (key, &draws) in &self.draws {
            if self.classes.get(key).map_or(0, |t| t.hands) > draws {
                return Err(TallyError::ClassCounts);
            }
        }
        if self.reached.iter().any(|&r| r > self.deals) {
            return Err(TallyError::ClassCounts);
        }
        for t in self.classes.values() {
            if t.bids.len() != bids || t.dd_hands > t.hands {
                return Err(TallyError::ClassCounts);
            }
            for b in &t.bids {
                b.check(t.hands, t.dd_hands)?;
            }
            if t.calls
                .as_ref()
                .is_some_and(|c| !c.is_consistent(bids, t.hands))
            {
                return Err(TallyError::ClassCounts);
            }
        }
        Ok(())
    }

    fn merge(&mut self, other: BidTableTally) {
        self.deals += other.deals;
        for (key, draws) in other.draws {
            *self.draws.entry(key).or_default() += draws;
        }
        if self.reached.len() < other.reached.len() {
            self.reached.resize(other.reached.len(), 0);
        }
        for (a, b) in self.reached.iter_mut().zip(&other.reached) {
            *a += b;
        }
        for (key, theirs) in other.classes {
            let ours = self.classes.entry(key).or_default();
            ours.hands += theirs.hands;
            ours.dd_hands += theirs.dd_hands;
            if ours.bids.len() < theirs.bids.len() {
                ours.bids.resize(theirs.bids.len(), BidOutcomes::default());
            }
            for (a, b) in ours.bids.iter_mut().zip(&theirs.bids) {
                a.add(b);
            }
            if let Some(calls) = &theirs.calls {
                let bids = calls.calls.len().saturating_sub(1);
                let ours = ours.calls.get_or_insert_with(|| AuctionTally::new(bids));
                ours.merge(calls, |_| false);
            }
        }
    }
}

/// The deals of one block.
pub fn bid_table_block(config: &BidTableConfig, mut block: Block) -> BidTableTally {
    let profile = config.profile;
    let players = config.players;
    let dealer = players - 1;
    let mut tally = BidTableTally {
        deals: block.len,
        ..BidTableTally::default()
    };
    let mut shuffler = Shuffler::new(profile, players);
    for i in 0..block.len {
        let number = block.index * BLOCK_SIZE + i;
        // Every deal from a fresh shuffle, also under limited shuffling: deals are independent.
        shuffler.reset();
        let dealt = shuffler.deal(dealer, &mut block.deal_rng);
        let world = World {
            hands: dealt.hands,
            floater: dealt.floater,
            spare: dealt.spare,
        };
        let dd = number < config.dd_deals;
        let mut auction = DealState::with_table_cards(
            profile,
            dealer,
            dealt.hands(players),
            dealt.floater,
            dealt.spare,
        );
        for seat in 0..players {
            let seed = next_u64(&mut block.policy_rng);
            let before = config.auction.then(|| auction.clone());
            evaluate_seat(config, &mut tally, (&world, before), seat, dd, seed);
            // Later seats count only while everyone so far has passed (as in a real auction:
            // a seat may take the spare hand or look at the floater first).
            if auction_turn(&mut auction, config.opener, &mut block.policy_rng) != Call::Pass {
                break;
            }
        }
    }
    tally
}

/// Evaluates the hand of `seat` in `world` for every bid (the plays drawing from `seed`) and
/// tallies it under its class; with `before` (the deal at the seat's turn, the earlier seats
/// having passed), every call in the whole auction too.
fn evaluate_seat(
    config: &BidTableConfig,
    tally: &mut BidTableTally,
    (world, before): (&World, Option<DealState>),
    seat: usize,
    dd: bool,
    seed: u64,
) {
    let hand = world.hands[seat];
    let query = HandQuery {
        profile: config.profile,
        players: config.players,
        seat,
        hand,
        after: &[],
        others: config.opener,
        play: config.play,
        dd_column: dd,
        auction: false,
        session: None,
    };
    let entry = tally
        .classes
        .entry((seat, config.scheme.class(hand)))
        .or_insert_with(|| ClassTally {
            bids: vec![BidOutcomes::default(); config.profile.bids().len()],
            calls: before
                .is_some()
                .then(|| AuctionTally::new(config.profile.bids().len())),
            ..ClassTally::default()
        });
    entry.hands += 1;
    entry.dd_hands += u64::from(dd);
    match (before, &mut entry.calls) {
        (Some(before), Some(calls)) => {
            let before = (before, config.others_play);
            query.evaluate_world_with_calls(world, before, seed, &mut entry.bids, calls);
        }
        _ => query.evaluate_world(world, seed, &mut entry.bids),
    }
}

/// The hands of one block of a stratified run: unit `u` is hand `u % per_class` of pair
/// `u / per_class`. See [`strata`].
pub fn stratified_block(
    config: &BidTableConfig,
    strata: &Strata,
    mut block: Block,
) -> BidTableTally {
    let profile = config.profile;
    let players = config.players;
    let mut tally = BidTableTally {
        deals: block.len,
        reached: vec![0; players],
        ..BidTableTally::default()
    };
    let mut shuffler = Shuffler::new(profile, players);
    for i in 0..block.len {
        let unit = block.index * BLOCK_SIZE + i;
        let (seat, class) = strata.pairs[(unit / strata.per_class) as usize];
        let bucket = strata.index.hands(class);
        let mut drawn = 0;
        // None when the earlier seats keep bidding: the pair then ends short of its hands,
        // which the run reports.
        let world = loop {
            if drawn == MAX_DRAWS_PER_HAND {
                break None;
            }
            drawn += 1;
            let hand = bucket[below(&mut block.deal_rng, bucket.len() as u64) as usize];
            let dealer =
                WorldDealer::new(profile, players, seat, hand, &PASSES[..seat], config.opener);
            let world = dealer.draw(&mut block.deal_rng);
            if let Some(before) = dealer.before_hand(&world, &mut block.policy_rng) {
                break Some((world, before));
            }
        };
        *tally.draws.entry((seat, class)).or_default() += drawn;
        if let Some((world, before)) = world {
            let dd = unit % strata.per_class < strata.dd_hands;
            let seed = next_u64(&mut block.policy_rng);
            let before = config.auction.then_some(before);
            evaluate_seat(config, &mut tally, (&world, before), seat, dd, seed);
        }
        // One plain deal: how far its auction passes estimates how many hands reach each seat.
        shuffler.reset();
        let dealt = shuffler.deal(players - 1, &mut block.deal_rng);
        let mut auction = DealState::with_table_cards(
            profile,
            players - 1,
            dealt.hands(players),
            dealt.floater,
            dealt.spare,
        );
        for reached in tally.reached.iter_mut() {
            *reached += 1;
            if auction_turn(&mut auction, config.opener, &mut block.policy_rng) != Call::Pass {
                break;
            }
        }
    }
    tally
}

/// The arguments that decide a bid table's outputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BidTableJob {
    /// Table size.
    pub players: usize,
    /// Deals to play.
    pub deals: u64,
    /// The play policy of every seat (a spec).
    pub play: String,
    /// How hands are grouped: a [`Scheme`] shown in a table (`classes`, `exact`, `coarse`).
    pub by: String,
    /// The double-dummy makes are counted on the first `dd_deals` deals.
    pub dd_deals: u64,
    /// Rows with fewer hands are not shown.
    pub min_hands: u64,
    /// Files the policies read (`table:file=`), with a digest of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub input_files: BTreeMap<String, String>,
    /// Class-targeted sampling: hands per shown (seat, class) pair instead of `deals` random
    /// deals (`--per-class`); `dd_deals` then counts each pair's first hands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_class: Option<u64>,
    /// With `per_class`: the file the classes were read from (`--classes`), for the command
    /// that reproduces the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classes_file: Option<String>,
    /// With `per_class`: the classes read from `classes_file`, each at one seat or (None) at
    /// every seat, by label. With `class_labels` empty too: every class of the scheme.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<(Option<usize>, String)>,
    /// With `per_class`: classes named one by one (`--class`), played at every seat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub class_labels: Vec<String>,
    /// Also value every call, passing included, in the whole auction (`--auction`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auction: bool,
}

/// Rows with fewer hands than this are left out unless told otherwise (with class-targeted
/// sampling, the hands per class instead).
pub const DEFAULT_MIN_HANDS: u64 = 1000;

impl BidTableJob {
    /// The bid table of `deals` random deals at `players` seats as `napsim bid-table` makes it
    /// by default: grouped by the guide's `classes`, every seat playing `heuristic`, the
    /// double-dummy makes counted on every deal, rows of fewer than [`DEFAULT_MIN_HANDS`] hands
    /// left out, random deals (not class-targeted), no auction values.
    pub fn new(players: usize, deals: u64) -> BidTableJob {
        BidTableJob {
            players,
            deals,
            play: "heuristic".to_string(),
            by: "classes".to_string(),
            dd_deals: deals,
            min_hands: DEFAULT_MIN_HANDS,
            input_files: BTreeMap::new(),
            per_class: None,
            classes_file: None,
            classes: Vec::new(),
            class_labels: Vec::new(),
            auction: false,
        }
    }

    /// The same job with the sampling asked for: `per_class` hands of each class instead of
    /// random deals (None: random deals), the double-dummy makes on the first `dd_deals`
    /// deals or hands of each class (None: all of them), and rows of fewer than `min_hands`
    /// hands left out (None: [`DEFAULT_MIN_HANDS`], or with `per_class` its count).
    pub fn with_sampling(
        self,
        per_class: Option<u64>,
        dd_deals: Option<u64>,
        min_hands: Option<u64>,
    ) -> BidTableJob {
        // Per class, the double-dummy count runs on each pair's first hands.
        let dd_cap = per_class.unwrap_or(self.deals);
        BidTableJob {
            per_class,
            dd_deals: dd_deals.unwrap_or(dd_cap).min(dd_cap),
            min_hands: min_hands.unwrap_or(per_class.unwrap_or(DEFAULT_MIN_HANDS)),
            ..self
        }
    }
}

/// Reads the classes to play from a bid table's CSV (its seat and class columns, or a class
/// column alone), for class-targeted sampling; the error names the file.
pub fn read_class_file(path: &std::path::Path) -> Result<Vec<(Option<usize>, String)>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    let picks = strata::read_picks(&text).map_err(|e| format!("{shown}: {e}"))?;
    if picks.is_empty() {
        return Err(format!("{shown}: names no class"));
    }
    Ok(picks)
}

/// The schemes a bid table may be grouped by (`--by`).
pub const TABLE_SCHEMES: [Scheme; 3] = [Scheme::Classes, Scheme::Exact, Scheme::Coarse];

/// The policies a table plays with (`bid-table`, `thresholds`): every seat's play, and the
/// threshold bidder that decides whether the earlier seats pass.
pub struct TablePolicies {
    /// The play policy of every seat.
    pub play: Box<dyn PlayPolicy>,
    /// `play` as it plays the contracts other seats win, where that differs
    /// ([`PlayPolicy::unshared`]), made once for the whole table.
    pub unshared: Option<std::sync::Arc<dyn PlayPolicy>>,
    /// The bid policy of the earlier seats.
    pub opener: Box<dyn BidPolicy>,
}

impl TablePolicies {
    /// Builds the policies for `profile` with every seat playing `play` (its external bots in
    /// `bots`), and digests the files they read into `input_files` when it is empty (a job
    /// recorded by a run keeps its own).
    pub fn new(
        profile: &Profile,
        play: &str,
        input_files: &mut BTreeMap<String, String>,
        bots: &BotPool,
    ) -> Result<TablePolicies, Error> {
        let play_policy = play_policy_in(play, profile, bots)?;
        if input_files.is_empty() {
            *input_files = crate::bots::input_files(&[play])?;
        }
        Ok(TablePolicies {
            unshared: play_policy.unshared(),
            play: play_policy,
            opener: bid_policy("threshold", profile)?,
        })
    }

    /// The play of the contracts another seat wins in the auction view.
    pub fn others_play(&self) -> &dyn PlayPolicy {
        self.unshared.as_deref().unwrap_or(self.play.as_ref())
    }
}

/// `napsim bid-table`, prepared: the play policy and the opening bidder built.
pub struct BidTable {
    profile: Profile,
    job: BidTableJob,
    scheme: Scheme,
    policies: TablePolicies,
    strata: Option<Strata>,
}

impl BidTable {
    /// The table's configuration with `seed`.
    pub fn config(&self, seed: u64) -> BidTableConfig<'_> {
        BidTableConfig {
            profile: &self.profile,
            players: self.job.players,
            deals: self.job.deals,
            seed,
            play: self.policies.play.as_ref(),
            others_play: self.policies.others_play(),
            dd_deals: self.job.dd_deals,
            scheme: self.scheme,
            opener: self.policies.opener.as_ref(),
            strata: self.strata.as_ref(),
            auction: self.job.auction,
        }
    }
}

/// The strata of `job` (None without `per_class`): the pack's hands bucketed under `scheme`,
/// and the (seat, class) pairs its labels name.
fn strata(profile: &Profile, job: &BidTableJob, scheme: Scheme) -> Result<Option<Strata>, Error> {
    let Some(per_class) = job.per_class else {
        return Ok(None);
    };
    if per_class == 0 {
        return Err(Error::input("`per_class`: expected at least 1 hand"));
    }
    let mut index = ClassIndex::build(profile.pack(job.players), scheme, |_| true);
    let by_label: BTreeMap<String, Class> = index.classes().map(|c| (scheme.label(c), c)).collect();
    let named = job.class_labels.iter().map(|label| (None, label.clone()));
    let mut picks = Vec::new();
    for (seat, label) in job.classes.iter().cloned().chain(named) {
        if let Some(seat) = seat
            && seat >= job.players
        {
            return Err(Error::input(format!(
                "`classes`: seat {seat} is not at a table of {} players",
                job.players
            )));
        }
        let class = by_label.get(&label).ok_or_else(|| {
            Error::input(format!(
                "`classes`: no hand has the class '{label}' under `by` {}",
                job.by
            ))
        })?;
        picks.push((seat, *class));
    }
    if picks.is_empty() {
        picks = index.classes().map(|c| (None, c)).collect();
    }
    let pairs = strata::pairs(job.players, &picks);
    let shown: std::collections::BTreeSet<Class> = pairs.iter().map(|&(_, c)| c).collect();
    index.keep(|class| shown.contains(&class));
    Ok(Some(Strata {
        index,
        pairs,
        per_class,
        dd_hands: job.dd_deals,
    }))
}

impl LongCommand for BidTable {
    const NAME: &'static str = "bid-table";
    const UNIT: &'static str = "deals";
    const BLOCK_SIZE: u64 = BLOCK_SIZE;
    type Job = BidTableJob;
    type Tally = BidTableTally;

    fn prepare(profile: &Profile, mut job: BidTableJob, bots: &BotPool) -> Result<BidTable, Error> {
        profile.check_players(job.players)?;
        let scheme = TABLE_SCHEMES
            .into_iter()
            .find(|s| s.name() == job.by)
            .ok_or_else(|| {
                Error::input(format!(
                    "`by` {}: expected one of {}",
                    job.by,
                    TABLE_SCHEMES.map(Scheme::name).join(", ")
                ))
            })?;
        Ok(BidTable {
            policies: TablePolicies::new(profile, &job.play, &mut job.input_files, bots)?,
            strata: strata(profile, &job, scheme)?,
            profile: profile.clone(),
            scheme,
            job,
        })
    }

    fn profile(&self) -> &Profile {
        &self.profile
    }

    fn job(&self) -> &BidTableJob {
        &self.job
    }

    fn units(&self) -> u64 {
        match &self.strata {
            Some(strata) => strata.pairs.len() as u64 * strata.per_class,
            None => self.job.deals,
        }
    }

    fn block(&self, seed: u64, block: Block) -> BidTableTally {
        match &self.strata {
            Some(strata) => stratified_block(&self.config(seed), strata, block),
            None => bid_table_block(&self.config(seed), block),
        }
    }
}

/// One CSV row: a table size, seat, class and bid.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct BidTableRow {
    /// The profile's name.
    pub profile: String,
    /// Table size.
    pub players: usize,
    /// Position in the auction (0 = eldest).
    pub seat: usize,
    /// The class label.
    pub class: String,
    /// The bid's name.
    pub bid: String,
    /// Tricks needed (0 for misère).
    pub tricks_needed: u8,
    /// Hands of the class at the seat.
    pub hands: u64,
    /// P(make).
    pub p_make: f64,
    /// Wilson 95% interval.
    pub ci95_low: f64,
    /// Wilson 95% interval.
    pub ci95_high: f64,
    /// The declarer's expected units per deal if it bids it.
    pub ev: f64,
    /// Its standard error.
    pub ev_se: f64,
    /// The P(make) at which the bid breaks even.
    pub breakeven: f64,
    /// Hands with the double-dummy count.
    pub dd_hands: u64,
    /// Double-dummy P(make) (empty without the count).
    pub dd_p_make: Option<f64>,
    /// The class's best bid at this seat: the callable bid with the highest positive EV, or
    /// `pass`.
    pub best_bid: String,
    /// Stratified runs only: the class's share of the hands reaching the seat (exact at seat 0,
    /// estimated at later seats; see [`strata`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_share: Option<f64>,
    /// The auction view only (`--auction`, as every field below): the seat's expected units
    /// from the whole deal if it calls this bid, the later seats still to speak (empty when it
    /// may not call it after passes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auction_ev: Option<Option<f64>>,
    /// Its standard error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auction_ev_se: Option<Option<f64>>,
    /// The seat's expected units from the whole deal if it passes (the class's, on every row).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass_ev: Option<f64>,
    /// Its standard error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass_ev_se: Option<f64>,
    /// `auction_ev` less `pass_ev`, hand by hand: what calling the bid gains over passing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs_pass: Option<Option<f64>>,
    /// Its standard error (paired).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs_pass_se: Option<Option<f64>>,
    /// The class's best call in the whole auction: the callable call, passing included, with
    /// the highest `auction_ev` (ties to the earlier call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_call: Option<String>,
}

/// The share of `class` among the hands reaching `seat` in a stratified run: its exact share,
/// times the share of its draws that the earlier seats passed, over the share of plain deals
/// that reached the seat.
pub fn class_share(tally: &BidTableTally, strata: &Strata, seat: usize, class: Class) -> f64 {
    let exact = strata.index.share(class);
    if seat == 0 {
        return exact;
    }
    let hands = tally.classes.get(&(seat, class)).map_or(0, |t| t.hands);
    let draws = tally.draws.get(&(seat, class)).copied().unwrap_or(0);
    let reached = tally.reached.get(seat).copied().unwrap_or(0);
    if draws == 0 || reached == 0 {
        return 0.0;
    }
    exact * (hands as f64 / draws as f64) / (reached as f64 / tally.deals as f64)
}

/// The rows of a table: classes with at least `min_hands` hands, by seat, strongest class
/// (highest best EV) first, bids in ladder order.
pub fn rows(tally: &BidTableTally, config: &BidTableConfig, min_hands: u64) -> Vec<BidTableRow> {
    let profile = config.profile;
    let callable: Vec<bool> = profile
        .bid_ids()
        .map(|id| profile.bid(id).only_over().is_none())
        .collect();
    let mut classes: Vec<(&(usize, Class), &ClassTally, f64)> = tally
        .classes
        .iter()
        .filter(|(_, t)| t.hands >= min_hands)
        .map(|(key, t)| {
            let best = t
                .bids
                .iter()
                .map(|b| b.units as f64 / t.hands as f64)
                .fold(f64::NEG_INFINITY, f64::max);
            (key, t, best)
        })
        .collect();
    classes.sort_by(|a, b| {
        (a.0.0)
            .cmp(&b.0.0)
            .then(b.2.total_cmp(&a.2))
            .then(a.0.1.cmp(&b.0.1))
    });
    let mut rows = Vec::new();
    for ((seat, class), t, _) in classes {
        let evs: Vec<f64> = t
            .bids
            .iter()
            .map(|b| mean_se(t.hands, b.units, b.units_sq).map_or(0.0, |m| m.0))
            .collect();
        let best = (0..evs.len())
            .filter(|&i| callable[i] && evs[i] > 0.0)
            .fold(None::<usize>, |best, i| match best {
                Some(j) if evs[j] >= evs[i] => Some(j),
                _ => Some(i),
            });
        let best_bid = best.map_or("pass".to_string(), |i| profile.bids()[i].name().to_string());
        let share = config
            .strata
            .map(|strata| class_share(tally, strata, *seat, *class));
        // The auction view: each call's value (none for a call never valued), and the best.
        let call_value = |c: usize| t.calls.as_ref()?.ev(c);
        let vs_pass = |c: usize| t.calls.as_ref()?.paired(c, PASS_INDEX);
        let best_call = t.calls.as_ref().map(|calls| {
            let valued = (0..calls.calls.len()).filter(|&c| calls.call_worlds(c) > 0);
            let best = calls.best(valued).unwrap_or(PASS_INDEX);
            crate::eval::hand::call_at(best).name(profile).to_string()
        });
        let pass = call_value(PASS_INDEX);
        for (id, b) in profile.bid_ids().zip(&t.bids) {
            let auction = t.calls.is_some();
            let value = call_value(call_index(id));
            let gain = vs_pass(call_index(id));
            let bid = profile.bid(id);
            let ci = wilson95(b.made, t.hands).unwrap_or((0.0, 1.0));
            let (ev, ev_se) = mean_se(t.hands, b.units, b.units_sq).unwrap_or((0.0, 0.0));
            rows.push(BidTableRow {
                profile: profile.name().to_string(),
                players: config.players,
                seat: *seat,
                class: config.scheme.label(*class),
                bid: bid.name().to_string(),
                tricks_needed: bid.tricks_needed(),
                hands: t.hands,
                p_make: b.made as f64 / t.hands as f64,
                ci95_low: ci.0,
                ci95_high: ci.1,
                ev,
                ev_se,
                breakeven: bid.breakeven(config.players),
                dd_hands: t.dd_hands,
                dd_p_make: (t.dd_hands > 0).then(|| b.dd_made as f64 / t.dd_hands as f64),
                best_bid: best_bid.clone(),
                class_share: share,
                auction_ev: auction.then(|| value.map(|v| v.0)),
                auction_ev_se: auction.then(|| value.map(|v| v.1)),
                pass_ev: pass.map(|p| p.0),
                pass_ev_se: pass.map(|p| p.1),
                vs_pass: auction.then(|| gain.map(|g| g.0)),
                vs_pass_se: auction.then(|| gain.map(|g| g.1)),
                best_call: best_call.clone(),
            });
        }
    }
    rows
}

/// Checks that a stratified run's tally holds its hands: a (seat, class) whose earlier seats
/// would not pass in [`MAX_DRAWS_PER_HAND`] deals ends short, and is reported.
pub fn check_strata(tally: &BidTableTally, strata: &Strata, scheme: Scheme) -> Result<(), Error> {
    for &(seat, class) in &strata.pairs {
        let hands = tally.classes.get(&(seat, class)).map_or(0, |t| t.hands);
        if hands < strata.per_class {
            return Err(Error::runtime(format!(
                "class '{}' at seat {seat}: the earlier seats passed in none of {} deals drawn \
                 for one of its hands, so it cannot be sampled there",
                scheme.label(class),
                MAX_DRAWS_PER_HAND
            )));
        }
    }
    Ok(())
}

/// Checks that every class of `tally` is at a seat of a table of `players` (a tally read from a
/// file is checked before it is used).
pub fn check_seats(tally: &BidTableTally, players: usize) -> Result<(), TallyError> {
    match tally.classes.keys().find(|(seat, _)| *seat >= players) {
        Some(&(seat, _)) => Err(TallyError::SeatOutsideTable { seat, players }),
        None => Ok(()),
    }
}

/// Per seat: hands counted, and hands in classes too rare to show (fewer than `min_hands`).
pub fn coverage(tally: &BidTableTally, players: usize, min_hands: u64) -> Vec<(u64, u64)> {
    let mut seats = vec![(0, 0); players];
    for ((seat, _), t) in &tally.classes {
        seats[*seat].0 += t.hands;
        if t.hands < min_hands {
            seats[*seat].1 += t.hands;
        }
    }
    seats
}
