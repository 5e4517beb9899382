//! `napsim play`: a session at the table against napsim's bots, with the coach one word away.
//!
//! The person sits at one seat; the bots (one bid and one play policy) at the others. Each deal
//! is shown as it happens: the hand, every call, every card and trick, the payments and the
//! running balance. The person is asked for each of their decisions (a call, a card, and where
//! the profile has them, a purchase, a look at the floater, its discard, a named trump, the
//! spare hand), one line per answer, so a session can be scripted. A wrong answer gets one line
//! saying why and the question again; `quit` or the end of the input ends the session, which
//! is saved as `deal --json` records (finished deals only) for `napsim review`.
//!
//! Cards and the bots' choices come from the seed's streams alone; hints draw from a stream of
//! their own, so asking for one never changes the game.

mod io;

use std::io::{BufRead, Write};
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::analysis::coach::{CallCoach, call_hint, card_hint};
use crate::analysis::tournament::parse_entrant;
use crate::bots::pimc::Pimc;
use crate::bots::{bid_policy, ext, play_policy};
use crate::cards::{Card, CardSet, Suit, parse_cards};
use crate::error::Error;
use crate::game::{Call, DealState, Phase, SessionState, Shuffler};
use crate::policy::{BidPolicy, BidView, PlayPolicy, PlayView, Table, auction_turn};
use crate::policy::{settle_contract, strength};
use crate::report::DealRecord;
use crate::rng::{SimRng, below, block_streams, next_u64};
use crate::rules::{HAND_SIZE, MAX_PLAYERS, Profile, TrumpRule, load_profile};
use io::{Answer, Io};

/// The bots of `napsim play` when `--bots` is not given: the strongest pair that answers in
/// well under a second at every table size.
pub const DEFAULT_BOTS: &str = "lookahead:worlds=64,play=expert/pimc:worlds=16";

/// The play policy of the coach's evaluator (a call hint): `napsim hand`'s default, PIMC with
/// the opening lead decided once per hand and `expert` against a misère, about ten times
/// cheaper than plain `pimc:worlds=16` at seven players and stronger against misères.
pub const HINT_PLAY: &str = crate::eval::hand::DEFAULT_PLAY;

/// What `napsim play` plays.
#[derive(Clone, Debug)]
pub struct PlayJob {
    /// Table size.
    pub players: usize,
    /// The person's seat.
    pub seat: usize,
    /// The other seats' policies, `BID/PLAY`.
    pub bots: String,
    /// The seed (None: `fresh_seed` chooses one once the flags are checked).
    pub seed: Option<u64>,
    /// Deals to play (None: the profile's session).
    pub deals: Option<u64>,
    /// JSON objects instead of text.
    pub json: bool,
    /// Colour the red suits.
    pub color: bool,
    /// Echo each answer after its prompt (the input is not a terminal, so a transcript reads
    /// as the session went).
    pub echo: bool,
    /// Where the session's records go (None: `napsim-session-SEED.jsonl`).
    pub save: Option<PathBuf>,
    /// Replace an existing file at the save path (otherwise the session is refused before it
    /// starts).
    pub force: bool,
    /// Worlds the coach's evaluator plays for a call hint.
    pub hint_worlds: u64,
    /// Worker threads for the coach.
    pub threads: usize,
}

/// Where a session's finished deals are saved, shared with whoever must report them on the
/// way out (the command line's signal handler): the file is written anew after every finished
/// deal, under the lock, so whatever ends the session (quit, the end of the input, a signal, a
/// bot failure, an error) finds its finished deals saved, and a report waits for a write under
/// way.
#[derive(Clone, Debug, Default)]
pub struct SessionFile(std::sync::Arc<std::sync::Mutex<Saved>>);

/// What a [`SessionFile`] holds so far.
#[derive(Debug, Default)]
struct Saved {
    path: Option<PathBuf>,
    deals: usize,
    /// Closed for a process on its way out: no write starts any more.
    closed: bool,
}

impl SessionFile {
    /// A session file not chosen yet.
    pub fn new() -> SessionFile {
        SessionFile::default()
    }

    /// Where the finished deals are, in words: `the 3 finished deals are saved in FILE`, or
    /// that no deal was finished (nothing is written then). Waits for a save under way.
    pub fn report(&self) -> String {
        let saved = self.0.lock().unwrap_or_else(|e| e.into_inner());
        Self::describe(&saved)
    }

    /// [`SessionFile::report`], for a process about to exit (on a signal): once a write under
    /// way has finished, no other starts, so no temporary file is left behind.
    pub fn close(&self) -> String {
        let mut saved = self.0.lock().unwrap_or_else(|e| e.into_inner());
        saved.closed = true;
        Self::describe(&saved)
    }

    fn describe(saved: &Saved) -> String {
        match (&saved.path, saved.deals) {
            (Some(path), deals) if deals > 0 => format!(
                "the {deals} finished deal{} saved in {}",
                if deals == 1 { " is" } else { "s are" },
                path.display()
            ),
            _ => "no deal was finished: nothing is saved".to_string(),
        }
    }

    fn choose(&self, path: PathBuf) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).path = Some(path);
    }

    /// Writes `records` (every finished deal so far) over the file.
    fn write(&self, records: &[DealRecord]) -> Result<(), Error> {
        let mut saved = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if saved.closed {
            return Ok(());
        }
        let path = saved.path.clone().expect("chosen before the first deal");
        // A device or pipe is not rewritten: it gets the records it has not had yet.
        let new = if crate::files::is_special_file(&path) {
            &records[saved.deals.min(records.len())..]
        } else {
            records
        };
        let mut text = String::new();
        for record in new {
            text += &serde_json::to_string(record)
                .map_err(|e| Error::runtime(format!("cannot write a record: {e}")))?;
            text.push('\n');
        }
        crate::files::write_atomic(&path, text.as_bytes())
            .map_err(|e| Error::runtime(format!("cannot save {}: {e}", path.display())))?;
        saved.deals = records.len();
        Ok(())
    }
}

/// The bots and the coach of one session.
struct Seats {
    bid: Box<dyn BidPolicy>,
    play: Box<dyn PlayPolicy>,
    coach_play: Box<dyn PlayPolicy>,
    coach_others: Box<dyn BidPolicy>,
    pimc: Pimc,
}

/// `napsim play`: a session on `rules`' profile, reading the person's answers from `input`
/// and writing the table to `out`. Returns once the session ends (or is quit); its finished
/// deals are saved in `file` as each one ends (never an empty file: a session that finished no
/// deal writes nothing). A bot that fails ends the session with an error, the deals finished
/// before it saved.
pub fn play_session(
    rules: &str,
    job: &PlayJob,
    fresh_seed: impl FnOnce() -> u64,
    (input, out): (&mut dyn BufRead, &mut dyn Write),
    file: &SessionFile,
) -> Result<(), Error> {
    let profile = load_profile(rules)?;
    profile.check_players(job.players)?;
    if job.seat >= job.players {
        return Err(Error::input(format!(
            "--seat {} is not a seat: seats are 0 to {}",
            job.seat,
            job.players - 1
        )));
    }
    let bots = parse_entrant(&format!("bots={}", job.bots), &profile)?;
    bots.bid
        .check_table(job.players)
        .map_err(|reason| Error::input(format!("--bots {}: {reason}", job.bots)))?;
    let seats = Seats {
        bid: bots.bid,
        play: bots.play,
        coach_play: play_policy(HINT_PLAY, &profile)?,
        coach_others: bid_policy("threshold", &profile)?,
        pimc: Pimc::from_spec(&"pimc:worlds=32".parse().expect("a valid spec"))?,
    };
    let seed = job.seed.unwrap_or_else(fresh_seed);
    let save = job
        .save
        .clone()
        .unwrap_or_else(|| format!("napsim-session-{seed}.jsonl").into());
    check_save(&save, job.force, job.save.is_some())?;
    file.choose(save.clone());
    let mut io = Io::new(input, out, job.json, job.color, job.echo);
    let mut session = Session {
        profile: &profile,
        job,
        seed,
        file,
        seats: &seats,
        balances: vec![0; job.players],
        records: Vec::new(),
        hint_rng: block_streams(seed, 1).1,
    };
    // A bot that fails unwinds out of its decision ([`crate::sim::abort`]): the session ends
    // there, its finished deals already saved.
    let result = crate::sim::attempt(|| session.run(&mut io))
        .unwrap_or_else(|abort| Err(Error::runtime(abort.0)));
    let deals = session.records.len();
    if let Err(e) = result {
        return Err(match e {
            Error::Runtime(why) => Error::runtime(format!("{why}; {}", file.report())),
            other => other,
        });
    }
    if deals == 0 {
        return io.tell(
            "no deal was finished: nothing is saved",
            json!({"type": "saved", "path": null, "deals": 0}),
        );
    }
    let text = format!(
        "session saved to {} ({deals} deal{}): review it with `napsim review {}`",
        save.display(),
        plural(deals as u32),
        save.display()
    );
    io.tell(
        &text,
        json!({"type": "saved", "path": save.display().to_string(), "deals": deals}),
    )
}

/// Checks, before the session starts, that its records can be saved at `path`: no saved
/// session there unless `force`, and a file that can be created in its folder (a folder of
/// `/proc`, say, cannot hold one).
/// A device or pipe (`/dev/stdout`) is written as it is, each record once.
fn check_save(path: &std::path::Path, force: bool, given: bool) -> Result<(), Error> {
    if crate::files::is_special_file(path) {
        return Ok(());
    }
    crate::files::check_writable(path)?;
    if !force && std::fs::symlink_metadata(path).is_ok() {
        let which = if given {
            format!("--save {}", path.display())
        } else {
            format!(
                "the session file {} (the default for this seed)",
                path.display()
            )
        };
        return Err(Error::input(format!(
            "{which}: the file exists; give --save another path, or add --force to replace it \
             once a deal is finished"
        )));
    }
    crate::files::probe_writable(path)?;
    Ok(())
}

/// A session in progress.
struct Session<'a> {
    profile: &'a Profile,
    job: &'a PlayJob,
    seed: u64,
    file: &'a SessionFile,
    seats: &'a Seats,
    balances: Vec<i64>,
    records: Vec<DealRecord>,
    hint_rng: SimRng,
}

/// Whether the session goes on after a decision.
type Go = Result<bool, Error>;

impl Session<'_> {
    /// Plays the deals; stops early on `quit`.
    fn run(&mut self, io: &mut Io) -> Result<(), Error> {
        let players = self.job.players;
        let deals = self
            .job
            .deals
            .unwrap_or(self.profile.session_deals() as u64);
        let (mut deal_rng, mut policy_rng) = block_streams(self.seed, 0);
        let mut shuffler = Shuffler::new(self.profile, players);
        let mut dealer = below(&mut deal_rng, players as u64) as usize;
        let mut kitty = 0;
        let intro = format!(
            "napsim play: {}, {players} players, you are seat {}; the other seats play {}. \
             {deals} deal{}, seed {}. Type help for the commands.",
            self.profile.name(),
            self.job.seat,
            self.job.bots,
            plural(deals as u32),
            self.seed
        );
        io.tell(
            &intro,
            json!({"type": "session", "profile": self.profile.name(), "players": players,
                   "seat": self.job.seat, "deals": deals, "seed": self.seed,
                   "bots": self.job.bots}),
        )?;
        for number in 1..=deals {
            let dealt = shuffler.deal(dealer, &mut deal_rng);
            let mut state = DealState::from_dealt(self.profile, dealer, &dealt, players);
            state.set_kitty(kitty);
            state.set_session(self.session_state(number, deals));
            let mut history = Vec::new();
            if !self.deal(io, &mut state, number, deals, &mut policy_rng, &mut history)? {
                io.say("you quit: the deal in progress is not saved")?;
                return Ok(());
            }
            kitty = state.kitty_after();
            shuffler.collect(&state);
            self.settle(io, &state, number, deals)?;
            dealer = (dealer + 1) % players;
        }
        let text = format!("session over: {}", self.balance_text());
        io.tell(&text, json!({"type": "end", "balances": self.balances}))
    }

    /// The session as the seats see it before deal `number` of `deals`.
    fn session_state(&self, number: u64, deals: u64) -> SessionState {
        let mut balances = [0; MAX_PLAYERS];
        balances[..self.balances.len()].copy_from_slice(&self.balances);
        // A person plays far fewer than 2^32 deals; the count saturates rather than wraps.
        let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        SessionState {
            deal: clamp(number),
            deals: clamp(deals),
            balances,
        }
    }

    /// Plays one deal to its end; false when the person quit.
    fn deal(
        &mut self,
        io: &mut Io,
        state: &mut DealState,
        number: u64,
        deals: u64,
        rng: &mut SimRng,
        history: &mut Vec<String>,
    ) -> Go {
        let me = self.job.seat;
        let text = format!(
            "\n== deal {number} of {deals}: seat {} deals; your hand: {}",
            state.dealer(),
            io.cards(state.hand(me))
        );
        io.tell(
            &text,
            json!({"type": "deal", "number": number, "dealer": state.dealer(),
                   "hand": state.hand(me).to_string()}),
        )?;
        while state.phase() == Phase::Purchase {
            let seat = state.to_act().expect("a seat to buy");
            if seat == me {
                if !self.purchase(io, state, history)? {
                    return Ok(false);
                }
            } else {
                let discard = self.seats.bid.purchase(&BidView::new(state), rng);
                state.purchase(discard).expect("the bot buys legally");
                if discard.any() {
                    let n = discard.count();
                    self.event(
                        io,
                        history,
                        &format!("seat {seat} buys {n} card{}", plural(n)),
                    )?;
                }
            }
        }
        while state.phase() == Phase::Auction {
            let seat = state.to_act().expect("a seat to call");
            if seat == me {
                if !self.call(io, state, history)? {
                    return Ok(false);
                }
                continue;
            }
            let call = auction_turn(state, self.seats.bid.as_ref(), rng);
            if state.peeked(seat) && state.floater().is_some() {
                self.event(io, history, &format!("seat {seat} looks at the floater"))?;
            }
            let text = match call {
                Call::TakeSpare => format!("seat {seat} takes the spare hand"),
                _ => format!("seat {seat}: {}", call.name(self.profile)),
            };
            self.tell_event(
                io,
                history,
                &text,
                json!({"type": "call", "seat": seat, "call": call.name(self.profile)}),
            )?;
        }
        let Some(contract) = state.contract() else {
            return Ok(true);
        };
        let bid = self.profile.bid(contract.bid);
        let who = if contract.declarer == me {
            "you".to_string()
        } else {
            format!("seat {}", contract.declarer)
        };
        self.event(
            io,
            history,
            &format!(
                "{who} declare{} {}",
                if contract.declarer == me { "" } else { "s" },
                bid.label()
            ),
        )?;
        if contract.declarer == me {
            if state.phase() == Phase::Floater && !self.floater(io, state, history)? {
                return Ok(false);
            }
            if state.phase() == Phase::Trump && !self.trump(io, state, history)? {
                return Ok(false);
            }
        } else {
            let took_floater = state.phase() == Phase::Floater;
            let table = Table::uniform(self.seats.bid.as_ref(), self.seats.play.as_ref());
            settle_contract(state, &table, rng);
            if took_floater {
                self.event(
                    io,
                    history,
                    &format!("{who} takes the floater and discards a card"),
                )?;
            }
        }
        if let Some(trump) = state.trump().filter(|_| state.tricks_done() == 0) {
            self.event(io, history, &format!("trump: {}", trump.symbol()))?;
        }
        while state.phase() == Phase::Play {
            let seat = state.to_act().expect("a seat to play");
            let trick = state.tricks_done();
            let card = if seat == me {
                match self.card(io, state, history)? {
                    Some(card) => card,
                    None => return Ok(false),
                }
            } else {
                let view = PlayView::new(state);
                let legal = view.legal();
                if legal.at_most_one() {
                    legal.first().expect("a card")
                } else {
                    self.seats.play.play(&view, rng)
                }
            };
            state.play(card).expect("a legal card");
            let who = if seat == me {
                "you".to_string()
            } else {
                format!("seat {seat}")
            };
            let text = format!("  {who}: {}", io.card(card));
            self.tell_event(
                io,
                history,
                &text,
                json!({"type": "card", "seat": seat, "card": card.to_string()}),
            )?;
            let opening = trick == 0 && state.current_trick().len() == 1;
            if opening && bid.trump() == TrumpRule::FirstLead {
                let suit = card.suit().symbol();
                self.event(
                    io,
                    history,
                    &format!("  {suit} is trump (the opening lead's suit)"),
                )?;
            }
            if state.tricks_done() > trick {
                let winner = state.trick_winner(trick);
                let won = state.tricks_won(contract.declarer);
                let goal = if bid.is_misere() {
                    "wants none".to_string()
                } else {
                    format!("needs {}", bid.tricks_needed())
                };
                let text = format!(
                    "  trick {}: {} win{}; the declarer has {won} trick{} ({goal})",
                    trick + 1,
                    self.seat_name(winner),
                    if winner == me { "" } else { "s" },
                    plural(u32::from(won))
                );
                self.tell_event(
                    io,
                    history,
                    &text,
                    json!({"type": "trick", "number": trick + 1, "winner": winner}),
                )?;
            }
        }
        Ok(true)
    }

    /// Records and tells a finished deal's payments and the running balance.
    fn settle(
        &mut self,
        io: &mut Io,
        state: &DealState,
        number: u64,
        deals: u64,
    ) -> Result<(), Error> {
        let record = DealRecord::from_state(state);
        let payments = state.payments();
        for (balance, pay) in self.balances.iter_mut().zip(payments) {
            *balance += pay;
        }
        let outcome = match (state.contract(), state.made()) {
            (Some(c), Some(made)) => format!(
                "{} {} {} with {} trick{}",
                self.seat_name(c.declarer),
                if made { "made" } else { "lost" },
                self.profile.bid(c.bid).label(),
                state.declarer_tricks(),
                plural(u32::from(state.declarer_tricks()))
            ),
            _ => "every seat passed".to_string(),
        };
        let pays: Vec<String> = (0..self.job.players)
            .map(|s| format!("{} {:+}", self.seat_name(s), payments[s]))
            .collect();
        let mut text = format!("deal {number}: {outcome}. Payments: {}.", pays.join(", "));
        if self.profile.has_kitty() {
            text += &format!(" Kitty: {}.", state.kitty_after());
        }
        text += &format!("\nafter {number} of {deals} deals: {}", self.balance_text());
        // Saved before it is told: a deal shown finished is a deal saved.
        self.records.push(record.clone());
        self.file.write(&self.records)?;
        io.tell(
            &text,
            json!({"type": "result", "record": record, "balances": self.balances}),
        )
    }

    /// "you +6, seat 1 -2, ...".
    fn balance_text(&self) -> String {
        (0..self.job.players)
            .map(|s| format!("{} {:+}", self.seat_name(s), self.balances[s]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn seat_name(&self, seat: usize) -> String {
        if seat == self.job.seat {
            "you".to_string()
        } else {
            format!("seat {seat}")
        }
    }

    /// Tells a plain event and keeps it in the deal's history.
    fn event(&self, io: &mut Io, history: &mut Vec<String>, text: &str) -> Result<(), Error> {
        self.tell_event(io, history, text, json!({"type": "event", "text": text}))
    }

    fn tell_event(
        &self,
        io: &mut Io,
        history: &mut Vec<String>,
        text: &str,
        object: Value,
    ) -> Result<(), Error> {
        history.push(text.trim().to_string());
        io.tell(text, object)
    }

    /// Asks until `parse` accepts an answer; None when the person quit. `hint` answers `hint`.
    fn ask<T>(
        &mut self,
        io: &mut Io,
        state: &DealState,
        history: &[String],
        (prompt, request): (&str, &str),
        mut hint: impl FnMut(&mut Self, &mut Io) -> Result<(), Error>,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Option<T>, Error> {
        let hand = io.cards(state.hand(self.job.seat));
        loop {
            match io.ask(prompt, request, &hand, history)? {
                Answer::Quit => return Ok(None),
                Answer::Hint => hint(self, io)?,
                Answer::Text(text) => match parse(&text) {
                    Ok(answer) => return Ok(Some(answer)),
                    Err(reason) => io.refuse(&reason)?,
                },
            }
        }
    }

    /// The person's purchase (Purchase Nap).
    fn purchase(&mut self, io: &mut Io, state: &mut DealState, history: &mut Vec<String>) -> Go {
        let stake = self.profile.purchase_stake().unwrap_or(0);
        let hand = state.hand(self.job.seat);
        let prompt = format!(
            "buy: the cards to give up for as many from the stock ({stake} to the pool), or none"
        );
        let request = json!({"type": "purchase", "hand": hand.to_string(), "stake": stake,
                             "stock": state.stock_left()})
        .to_string();
        let left = state.stock_left();
        let answer = self.ask(io, state, history, (&prompt, &request), no_hint, |text| {
            if matches!(text.to_ascii_lowercase().as_str(), "none" | "no" | "pass") {
                return Ok(None);
            }
            let cards = held_cards(text, hand)?;
            if cards.count() as usize > left {
                return Err(format!("only {left} cards are left in the stock"));
            }
            Ok(Some(cards))
        })?;
        let Some(choice) = answer else {
            return Ok(false);
        };
        match choice {
            None => state.purchase(CardSet::EMPTY),
            Some(cards) => state.buy_in(cards),
        }
        .map_err(|e| Error::runtime(format!("purchase refused: {e}")))?;
        let (gave, got) = state.bought(self.job.seat);
        if state.bought_in(self.job.seat) {
            let text = format!("you give up {} and take {}", io.cards(gave), io.cards(got));
            self.event(io, history, &text)?;
        }
        Ok(true)
    }

    /// The person's auction turn: a look at the floater where it may, then a call (or the
    /// spare hand).
    fn call(&mut self, io: &mut Io, state: &mut DealState, history: &mut Vec<String>) -> Go {
        let me = self.job.seat;
        if state.can_peek() {
            let price = self.profile.peek_price();
            let prompt = format!("look at the floater for {price}? (yes or no)");
            let request = json!({"type": "peek", "price": price}).to_string();
            let answer = self.ask(io, state, history, (&prompt, &request), no_hint, yes_no)?;
            match answer {
                None => return Ok(false),
                Some(true) => {
                    let floater = state.peek().expect("checked");
                    self.event(
                        io,
                        history,
                        &format!("you look: the floater is {}", io.card(floater)),
                    )?;
                }
                Some(false) => {}
            }
        }
        let profile = self.profile;
        if !state.any_legal_bid() && !state.can_take_spare() {
            state.call(Call::Pass).expect("passing is legal");
            self.tell_event(
                io,
                history,
                "you pass (no bid is left to call)",
                json!({"type": "call", "seat": me, "call": "pass"}),
            )?;
            return Ok(true);
        }
        let (request, mut legal) = ext::bid_request(&BidView::new(state), 0);
        if state.can_take_spare() {
            legal.push(Call::TakeSpare);
        }
        let names: Vec<&str> = legal.iter().map(|c| c.name(profile)).collect();
        let prompt = format!("your call ({})", names.join(", "));
        let probe = state.clone();
        let answer = self.ask(
            io,
            state,
            history,
            (&prompt, &request),
            |session, io| session.call_hint(io, &probe),
            |text| {
                let call = Call::parse(text, profile).ok_or_else(|| {
                    format!("'{text}' is not a call: say one of {}", names.join(", "))
                })?;
                if !legal.contains(&call) {
                    let reason = probe
                        .check_call(call)
                        .err()
                        .map_or("it is not allowed here".to_string(), |e| e.explain(profile));
                    return Err(format!("you cannot call {}: {reason}", call.name(profile)));
                }
                Ok(call)
            },
        )?;
        let Some(call) = answer else {
            return Ok(false);
        };
        if call == Call::TakeSpare {
            return self.take_spare(io, state, history);
        }
        state.call(call).expect("a legal call");
        let text = format!("you: {}", call.name(profile));
        self.tell_event(
            io,
            history,
            &text,
            json!({"type": "call", "seat": me, "call": call.name(profile)}),
        )?;
        Ok(true)
    }

    /// The person takes the spare hand and keeps five of the ten cards.
    fn take_spare(&mut self, io: &mut Io, state: &mut DealState, history: &mut Vec<String>) -> Go {
        let ten = state.hand(self.job.seat) | state.spare();
        let prompt = format!(
            "the spare hand is {}: keep five of {}",
            io.cards(state.spare()),
            io.cards(ten)
        );
        let request = json!({"type": "keep", "cards": ten.to_string()}).to_string();
        let answer = self.ask(io, state, history, (&prompt, &request), no_hint, |text| {
            let keep = held_cards(text, ten)?;
            if keep.count() as usize != HAND_SIZE {
                return Err(format!("keep exactly {HAND_SIZE} cards"));
            }
            Ok(keep)
        })?;
        let Some(keep) = answer else {
            return Ok(false);
        };
        state.take_spare(keep).expect("five of the ten");
        let text = format!("you take the spare hand and keep {}", io.cards(keep));
        self.event(io, history, &text)?;
        Ok(true)
    }

    /// The person, declaring with the floater, discards one of six cards.
    fn floater(&mut self, io: &mut Io, state: &mut DealState, history: &mut Vec<String>) -> Go {
        let floater = state.floater().expect("a floater");
        let six = state.hand(self.job.seat).with(floater);
        let prompt = format!(
            "the floater is {}: discard one of {}",
            io.card(floater),
            io.cards(six)
        );
        let request = json!({"type": "discard", "cards": six.to_string()}).to_string();
        let answer = self.ask(io, state, history, (&prompt, &request), no_hint, |text| {
            let card = one_card(text)?;
            if six.contains(card) {
                Ok(card)
            } else {
                Err(format!("{card} is not one of your six cards"))
            }
        })?;
        let Some(card) = answer else {
            return Ok(false);
        };
        state.take_floater(card).expect("one of the six");
        self.event(
            io,
            history,
            &format!("you take the floater and discard {}", io.card(card)),
        )?;
        Ok(true)
    }

    /// The person, declaring a bid whose trump is named, names it.
    fn trump(&mut self, io: &mut Io, state: &mut DealState, history: &[String]) -> Go {
        let hand = state.hand(self.job.seat);
        let suggested = strength::named_trump(hand);
        let prompt = "name trump (C, D, H or S)".to_string();
        let request = json!({"type": "trump", "hand": hand.to_string()}).to_string();
        let probe = state.clone();
        let answer = self.ask(
            io,
            state,
            history,
            (&prompt, &request),
            |_, io| {
                let text = format!("hint: the strongest suit to name is {}", suggested.symbol());
                io.tell(
                    &text,
                    json!({"type": "hint", "trump": suggested.to_string()}),
                )
            },
            |text| {
                let mut chars = text.trim().chars();
                let suit = match (chars.next().and_then(Suit::from_char), chars.next()) {
                    (Some(suit), None) => suit,
                    _ => return Err(format!("'{text}' is not a suit: say C, D, H or S")),
                };
                let mut check = probe.clone();
                check
                    .name_trump(suit)
                    .map(|()| suit)
                    .map_err(|e| format!("you cannot name {}: {e}", suit.symbol()))
            },
        )?;
        let Some(suit) = answer else {
            return Ok(false);
        };
        state.name_trump(suit).expect("checked");
        Ok(true)
    }

    /// The person's card; None when they quit. The last card is played for them.
    fn card(
        &mut self,
        io: &mut Io,
        state: &DealState,
        history: &[String],
    ) -> Result<Option<Card>, Error> {
        let me = self.job.seat;
        let legal = state.legal_cards();
        if state.hand(me).at_most_one() {
            return Ok(legal.first());
        }
        let view = PlayView::new(state);
        let request = ext::play_request(&view, 0);
        let trick = state.current_trick();
        let held = io.cards(state.hand(me));
        let prompt = if trick.is_empty() {
            format!("[{held}] your lead")
        } else {
            let cards: Vec<String> = trick.iter().map(|&c| io.card(c)).collect();
            format!("[{held}] to {}: your card", cards.join(" "))
        };
        let hand = state.hand(me);
        let led = trick.first().map(|c| c.suit());
        self.ask(
            io,
            state,
            history,
            (&prompt, &request),
            |session, io| session.card_hint(io, state),
            |text| {
                let card = one_card(text)?;
                if !hand.contains(card) {
                    return Err(format!("you do not hold {card}"));
                }
                if legal.contains(card) {
                    return Ok(card);
                }
                Err(match led {
                    Some(suit) => format!("you must follow suit: play a {}", suit.symbol()),
                    None => format!(
                        "the contract's opening lead rule allows only {}",
                        legal
                            .iter_desc()
                            .map(|c| c.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                })
            },
        )
    }

    /// The evaluator's view of the person's call.
    fn call_hint(&mut self, io: &mut Io, state: &DealState) -> Result<(), Error> {
        let coach = CallCoach {
            play: self.seats.coach_play.as_ref(),
            others: self.seats.coach_others.as_ref(),
            worlds: self.job.hint_worlds,
            threads: self.job.threads,
        };
        let seed = next_u64(&mut self.hint_rng);
        let summary = call_hint(state, &coach, seed).map_err(|e| Error::runtime(e.to_string()))?;
        let Some(summary) = summary else {
            return io.say("hint: the calls so far are too rare for the evaluator to sample");
        };
        let mut text = format!(
            "hint ({} worlds, every seat playing as `napsim hand` does by default):\nbid          P(make)  95% interval       EV     ± SE   double dummy\n",
            summary.worlds
        );
        let mut bids = Vec::new();
        for b in summary.bids.iter().filter(|b| b.callable) {
            let bid = self.profile.bid(b.id);
            let interval = format!("{:.1}-{:.1}%", 100.0 * b.ci95.0, 100.0 * b.ci95.1);
            text += &format!(
                "{:<12} {:>6.1}%  {interval:<13}  {:>+6.2}  {:>5.2}   {}\n",
                bid.name(),
                100.0 * b.p_make,
                b.ev,
                b.ev_se,
                b.dd_p_make
                    .map_or("-".to_string(), |p| format!("{:.1}%", 100.0 * p))
            );
            bids.push(
                json!({"bid": bid.name(), "p_make": b.p_make, "ci95": [b.ci95.0, b.ci95.1],
                             "ev": b.ev, "ev_se": b.ev_se, "dd_p_make": b.dd_p_make}),
            );
        }
        text += "in the whole auction (the seats still to speak bid too):\ncall         EV     ± SE   vs best  ± SE   contract\n";
        let mut calls = Vec::new();
        for c in &summary.calls {
            text += &format!(
                "{:<12} {:>+6.2}  {:>5.2}  {:>+6.2}  {:>5.2}  {:>6.1}%\n",
                c.call.name(self.profile),
                c.auction_ev,
                c.auction_ev_se,
                c.diff_best,
                c.diff_best_se,
                100.0 * c.p_contract
            );
            calls.push(
                json!({"call": c.call.name(self.profile), "auction_ev": c.auction_ev,
                "auction_ev_se": c.auction_ev_se, "diff_best": c.diff_best,
                "diff_best_se": c.diff_best_se, "p_contract": c.p_contract}),
            );
        }
        let name =
            |bid: Option<crate::rules::BidId>| bid.map_or("pass", |id| self.profile.bid(id).name());
        let (best, as_declarer) = (
            name(summary.recommended),
            name(summary.declarer_recommended),
        );
        text += &format!("best: {best} (as declarer alone, passing worth 0: {as_declarer})");
        io.tell(
            &text,
            json!({"type": "hint", "worlds": summary.worlds, "play": HINT_PLAY, "bids": bids, "calls": calls,
                   "best": best, "best_as_declarer": as_declarer}),
        )
    }

    /// Each legal card's value under PIMC and double dummy.
    fn card_hint(&mut self, io: &mut Io, state: &DealState) -> Result<(), Error> {
        let seed = next_u64(&mut self.hint_rng);
        let hints = card_hint(state, &self.seats.pimc, seed);
        let mut text = format!(
            "hint: card, PIMC's share of {} sampled worlds won for your side, the declarer's \
             tricks double dummy (every hand visible)\n",
            self.seats.pimc.worlds()
        );
        let mut cards = Vec::new();
        for h in &hints {
            text += &format!(
                "{:<4} {:>5.0}%  {}\n",
                io.card(h.card),
                100.0 * h.pimc,
                h.dd
            );
            cards.push(json!({"card": h.card.to_string(), "pimc": h.pimc, "dd": h.dd}));
        }
        io.tell(text.trim_end(), json!({"type": "hint", "cards": cards}))
    }
}

/// No hint for this question.
fn no_hint(_: &mut Session, io: &mut Io) -> Result<(), Error> {
    io.say("no hint for this question")
}

/// `yes` or `no`.
fn yes_no(text: &str) -> Result<bool, String> {
    match text.to_ascii_lowercase().as_str() {
        "yes" | "y" => Ok(true),
        "no" | "n" => Ok(false),
        _ => Err(format!("'{text}' is not yes or no")),
    }
}

/// One card, in the usual notation.
fn one_card(text: &str) -> Result<Card, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("'{}' is not a card: write it as AS, 10h or A♠", text.trim()))
}

/// Cards of `from`, written in the usual notation.
fn held_cards(text: &str, from: CardSet) -> Result<CardSet, String> {
    let cards = parse_cards(text).map_err(|e| e.to_string())?;
    let set: CardSet = cards.iter().copied().collect();
    if set.count() as usize != cards.len() {
        return Err("a card is named twice".to_string());
    }
    match (set - from).first() {
        Some(card) => Err(format!("you do not hold {card}")),
        None => Ok(set),
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}
