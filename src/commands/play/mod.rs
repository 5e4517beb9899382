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

pub use crate::analysis::game::{DEFAULT_BOTS, HINT_PLAY};
use crate::analysis::game::{Event, Game, GameSettings, Question, Settlement};
use crate::bots::ext;
use crate::error::Error;
use crate::game::Call;
use crate::policy::{BidView, PlayView};
use crate::report::{DealRecord, call_hint_json, card_hints_json};
use crate::rules::Profile;
use io::{Answer as Reply, Io};

/// Whether the session goes on after a question.
type Go = Result<bool, Error>;

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
    /// Where the bots run, if they are external programs.
    pub bot_pool: crate::bots::ext::BotPool,
}

/// Where a session's finished deals are saved, shared with whoever must report them on the
/// way out (the command line's signal handler): the file is written anew after every finished
/// deal, under the lock, so whatever ends the session (quit, the end of the input, a signal, a
/// bot failure, an error) finds its finished deals saved, and a report waits for a write under
/// way. A session kept in memory ([`SessionFile::in_memory`]) writes no file: its records are
/// in the `result` messages.
#[derive(Clone, Debug, Default)]
pub struct SessionFile(std::sync::Arc<std::sync::Mutex<Saved>>);

/// What a [`SessionFile`] holds so far.
#[derive(Debug, Default)]
struct Saved {
    path: Option<PathBuf>,
    deals: usize,
    /// Closed for a process on its way out: no write starts any more.
    closed: bool,
    /// No file: the session's caller keeps the records (a web page).
    in_memory: bool,
}

impl SessionFile {
    /// A session file not chosen yet.
    pub fn new() -> SessionFile {
        SessionFile::default()
    }

    /// A session that saves no file (`save` and `force` are not read): its finished deals are
    /// only told, each in its `result` message, as `napsim serve` plays a session.
    pub fn in_memory() -> SessionFile {
        let file = SessionFile::default();
        file.0.lock().unwrap_or_else(|e| e.into_inner()).in_memory = true;
        file
    }

    fn is_in_memory(&self) -> bool {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).in_memory
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
        if saved.in_memory {
            saved.deals = records.len();
            return Ok(());
        }
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
        // The session's own lock, not a gate, holds a signal's report back until the write
        // is done (`close`).
        let gate = crate::files::WriteGate::default();
        crate::files::write_atomic(&path, text.as_bytes(), &gate)
            .map_err(|e| Error::runtime(format!("cannot save {}: {e}", path.display())))?;
        saved.deals = records.len();
        Ok(())
    }
}

/// `napsim play`: a session on `profile`, reading the person's answers from `input`
/// and writing the table to `out`. Returns once the session ends (or is quit); its finished
/// deals are saved in `file` as each one ends (never an empty file: a session that finished no
/// deal writes nothing). A bot that fails ends the session with an error, the deals finished
/// before it saved.
pub fn play_session(
    profile: &Profile,
    job: &PlayJob,
    fresh_seed: impl FnOnce() -> u64,
    (input, out): (&mut dyn BufRead, &mut dyn Write),
    file: &SessionFile,
) -> Result<(), Error> {
    let mut settings = GameSettings {
        players: job.players,
        seat: job.seat,
        bots: job.bots.clone(),
        seed: 0,
        deals: job.deals,
        hint_worlds: job.hint_worlds,
        threads: job.threads,
        bot_pool: job.bot_pool.clone(),
    };
    // Checked before a seed is chosen: bad flags get their one error line alone.
    settings.check(profile)?;
    let seed = job.seed.unwrap_or_else(fresh_seed);
    settings.seed = seed;
    let game = Game::new(profile, settings)?;
    let save = job
        .save
        .clone()
        .unwrap_or_else(|| format!("napsim-session-{seed}.jsonl").into());
    let in_memory = file.is_in_memory();
    if !in_memory {
        check_save(&save, job.force, job.save.is_some())?;
        file.choose(save.clone());
    }
    let mut io = Io::new(input, out, job.json, job.color, job.echo);
    let mut session = Session {
        profile,
        job,
        file,
        game,
        history: Vec::new(),
    };
    // A bot that fails ends the session with its failure ([`Game::advance`]), its finished
    // deals already saved.
    let result = session.run(&mut io);
    let deals = session.game.finished().len();
    if let Err(e) = result {
        return Err(match e {
            Error::Runtime(why) => Error::runtime(format!("{why}; {}", file.report())),
            other => other,
        });
    }
    if in_memory {
        let text = format!(
            "session over: {deals} deal{} finished",
            plural(deals as u32)
        );
        return io.tell(
            &text,
            json!({"type": "saved", "path": null, "deals": deals}),
        );
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
            format!("`save` {}", path.display())
        } else {
            format!(
                "the session file {} (the default for this seed)",
                path.display()
            )
        };
        return Err(Error::input(format!(
            "{which}: the file exists; give `save` another path, or add `force` to replace it \
             once a deal is finished"
        )));
    }
    crate::files::probe_writable(path)?;
    Ok(())
}

/// A session in progress: the [`Game`] and the person's end of it.
struct Session<'a, 'p> {
    profile: &'p Profile,
    job: &'a PlayJob,
    file: &'a SessionFile,
    game: Game<'p>,
    /// What has been told of the deal in progress (the `history` command).
    history: Vec<String>,
}

impl Session<'_, '_> {
    /// Plays the deals; stops early on `quit`.
    fn run(&mut self, io: &mut Io) -> Result<(), Error> {
        let deals = self.game.deals();
        let seed = self.game.settings().seed;
        let intro = format!(
            "napsim play: {}, {} players, you are seat {}; the other seats play {}. \
             {deals} deal{}, seed {seed}. Type help for the commands.",
            self.profile.name(),
            self.job.players,
            self.job.seat,
            self.job.bots,
            plural(deals as u32),
        );
        io.tell(
            &intro,
            json!({"type": "session", "profile": self.profile.name(), "players": self.job.players,
                   "seat": self.job.seat, "deals": deals, "seed": seed,
                   "bots": self.job.bots}),
        )?;
        let mut events = Vec::new();
        loop {
            let question = self.game.advance(&mut events)?;
            for event in events.drain(..) {
                self.tell(io, event)?;
            }
            let Some(question) = question else {
                return Ok(());
            };
            if !self.ask(io, question, &mut events)? {
                io.say("you quit: the deal in progress is not saved")?;
                return Ok(());
            }
            for event in events.drain(..) {
                self.tell(io, event)?;
            }
        }
    }

    /// Tells the person what happened.
    fn tell(&mut self, io: &mut Io, event: Event) -> Result<(), Error> {
        let profile = self.profile;
        let me = self.job.seat;
        match event {
            Event::Deal {
                number,
                deals,
                dealer,
                hand,
            } => {
                self.history.clear();
                let text = format!(
                    "\n== deal {number} of {deals}: seat {dealer} deals; your hand: {}",
                    io.cards(hand)
                );
                io.tell(
                    &text,
                    json!({"type": "deal", "number": number, "dealer": dealer,
                           "hand": hand.to_string()}),
                )
            }
            Event::Bought { seat, count } => self.event(
                io,
                &format!("seat {seat} buys {count} card{}", plural(count)),
            ),
            Event::Exchanged { gave, got } => {
                let text = format!("you give up {} and take {}", io.cards(gave), io.cards(got));
                self.event(io, &text)
            }
            Event::Peeked { seat } => self.event(io, &format!("seat {seat} looks at the floater")),
            Event::Saw { floater } => {
                let text = format!("you look: the floater is {}", io.card(floater));
                self.event(io, &text)
            }
            Event::Called { seat, call, forced } => {
                let text = if forced {
                    "you pass (no bid is left to call)".to_string()
                } else if seat == me {
                    format!("you: {}", call.name(profile))
                } else if call == Call::TakeSpare {
                    format!("seat {seat} takes the spare hand")
                } else {
                    format!("seat {seat}: {}", call.name(profile))
                };
                let object = json!({"type": "call", "seat": seat, "call": call.name(profile)});
                self.tell_event(io, &text, object)
            }
            Event::Kept { keep } => {
                let text = format!("you take the spare hand and keep {}", io.cards(keep));
                self.event(io, &text)
            }
            Event::Declared { declarer, bid } => {
                let (who, verb) = if declarer == me {
                    ("you".to_string(), "declare")
                } else {
                    (format!("seat {declarer}"), "declares")
                };
                self.event(io, &format!("{who} {verb} {}", profile.bid(bid).label()))
            }
            Event::TookFloater { seat } => {
                let text = format!(
                    "{} takes the floater and discards a card",
                    self.seat_name(seat)
                );
                self.event(io, &text)
            }
            Event::Discarded { card } => {
                let text = format!("you take the floater and discard {}", io.card(card));
                self.event(io, &text)
            }
            Event::Trump { suit } => self.event(io, &format!("trump: {}", suit.symbol())),
            Event::Played { seat, card } => {
                let text = format!("  {}: {}", self.seat_name(seat), io.card(card));
                let object = json!({"type": "card", "seat": seat, "card": card.to_string()});
                self.tell_event(io, &text, object)
            }
            Event::LeadTrump { suit } => {
                let text = format!("  {} is trump (the opening lead's suit)", suit.symbol());
                self.event(io, &text)
            }
            Event::Trick {
                number,
                winner,
                declarer_tricks,
                needs,
            } => {
                let goal = match needs {
                    Some(n) => format!("needs {n}"),
                    None => "wants none".to_string(),
                };
                let text = format!(
                    "  trick {number}: {} win{}; the declarer has {declarer_tricks} trick{} ({goal})",
                    self.seat_name(winner),
                    if winner == me { "" } else { "s" },
                    plural(u32::from(declarer_tricks))
                );
                let object = json!({"type": "trick", "number": number, "winner": winner});
                self.tell_event(io, &text, object)
            }
            Event::Settled(settled) => self.settled(io, &settled),
            Event::End { balances } => {
                let text = format!("session over: {}", self.balance_text(&balances));
                io.tell(&text, json!({"type": "end", "balances": balances}))
            }
        }
    }

    /// Saves the finished deals and tells the person how the deal ended, its payments and the
    /// running balance.
    fn settled(&mut self, io: &mut Io, settled: &Settlement) -> Result<(), Error> {
        let outcome = match settled.outcome {
            Some((declarer, bid, made, tricks)) => format!(
                "{} {} {} with {tricks} trick{}",
                self.seat_name(declarer),
                if made { "made" } else { "lost" },
                self.profile.bid(bid).label(),
                plural(u32::from(tricks))
            ),
            None => "every seat passed".to_string(),
        };
        let pays: Vec<String> = (0..self.job.players)
            .map(|s| format!("{} {:+}", self.seat_name(s), settled.payments[s]))
            .collect();
        let number = settled.number;
        let mut text = format!("deal {number}: {outcome}. Payments: {}.", pays.join(", "));
        if let Some(kitty) = settled.kitty {
            text += &format!(" Kitty: {kitty}.");
        }
        text += &format!(
            "\nafter {number} of {} deals: {}",
            settled.deals,
            self.balance_text(&settled.balances)
        );
        // Saved before it is told: a deal shown finished is a deal saved.
        let records: Vec<DealRecord> = self
            .game
            .finished()
            .iter()
            .map(DealRecord::from_state)
            .collect();
        self.file.write(&records)?;
        let record = records.last().expect("the deal just finished");
        io.tell(
            &text,
            json!({"type": "result", "record": record, "balances": settled.balances}),
        )
    }

    /// "you +6, seat 1 -2, ...".
    fn balance_text(&self, balances: &[i64]) -> String {
        balances
            .iter()
            .enumerate()
            .map(|(s, b)| format!("{} {b:+}", self.seat_name(s)))
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
    fn event(&mut self, io: &mut Io, text: &str) -> Result<(), Error> {
        self.tell_event(io, text, json!({"type": "event", "text": text}))
    }

    fn tell_event(&mut self, io: &mut Io, text: &str, object: Value) -> Result<(), Error> {
        self.history.push(text.trim().to_string());
        io.tell(text, object)
    }

    /// Asks the person `question` until the game takes an answer (what it did goes to
    /// `events`); false when they quit.
    fn ask(&mut self, io: &mut Io, question: Question, events: &mut Vec<Event>) -> Go {
        let state = self.game.state().expect("a deal in progress");
        let me = self.job.seat;
        let profile = self.profile;
        let hand = state.hand(me);
        let (prompt, request) = match question {
            Question::Purchase => {
                let stake = profile.purchase_stake().unwrap_or(0);
                let prompt = format!(
                    "buy: the cards to give up for as many from the stock ({stake} to the \
                     pool), or none"
                );
                let request = json!({"type": "purchase", "hand": hand.to_string(),
                                     "stake": stake, "stock": state.stock_left()});
                (prompt, request.to_string())
            }
            Question::Peek => {
                let price = profile.peek_price();
                let prompt = format!("look at the floater for {price}? (yes or no)");
                (prompt, json!({"type": "peek", "price": price}).to_string())
            }
            Question::Call => {
                let (request, _) = ext::bid_request(&BidView::new(state), 0);
                let names: Vec<&str> = self
                    .game
                    .legal_calls()
                    .iter()
                    .map(|c| c.name(profile))
                    .collect();
                (format!("your call ({})", names.join(", ")), request)
            }
            Question::Keep => {
                let ten = hand | state.spare();
                let prompt = format!(
                    "the spare hand is {}: keep five of {}",
                    io.cards(state.spare()),
                    io.cards(ten)
                );
                (
                    prompt,
                    json!({"type": "keep", "cards": ten.to_string()}).to_string(),
                )
            }
            Question::Discard => {
                let floater = state.floater().expect("a floater");
                let six = hand.with(floater);
                let prompt = format!(
                    "the floater is {}: discard one of {}",
                    io.card(floater),
                    io.cards(six)
                );
                (
                    prompt,
                    json!({"type": "discard", "cards": six.to_string()}).to_string(),
                )
            }
            Question::Trump => {
                let prompt = "name trump (C, D, H or S)".to_string();
                (
                    prompt,
                    json!({"type": "trump", "hand": hand.to_string()}).to_string(),
                )
            }
            Question::Card => {
                let request = ext::play_request(&PlayView::new(state), 0);
                let trick = state.current_trick();
                let held = io.cards(hand);
                let prompt = if trick.is_empty() {
                    format!("[{held}] your lead")
                } else {
                    let cards: Vec<String> = trick.iter().map(|&c| io.card(c)).collect();
                    format!("[{held}] to {}: your card", cards.join(" "))
                };
                (prompt, request)
            }
        };
        let hand = io.cards(hand);
        loop {
            match io.ask(&prompt, &request, &hand, &self.history)? {
                Reply::Quit => return Ok(false),
                Reply::Hint => self.hint(io, question)?,
                Reply::Text(text) => {
                    let taken = self
                        .game
                        .parse_answer(&text)
                        .and_then(|answer| self.game.answer(answer, events));
                    match taken {
                        Ok(()) => return Ok(true),
                        Err(reason) => io.refuse(&reason)?,
                    }
                }
            }
        }
    }

    /// The hint for `question`, where it has one.
    fn hint(&mut self, io: &mut Io, question: Question) -> Result<(), Error> {
        match question {
            Question::Call => self.call_hint(io),
            Question::Card => self.card_hint(io),
            Question::Trump => {
                let suit = self.game.suggested_trump().expect("a deal in progress");
                let text = format!("hint: the strongest suit to name is {}", suit.symbol());
                io.tell(&text, json!({"type": "hint", "trump": suit.to_string()}))
            }
            _ => io.say("no hint for this question"),
        }
    }

    /// The evaluator's view of the person's call.
    fn call_hint(&mut self, io: &mut Io) -> Result<(), Error> {
        let summary = self.game.call_hint()?;
        let Some(summary) = summary else {
            return io.say("hint: the calls so far are too rare for the evaluator to sample");
        };
        let mut text = format!(
            "hint ({} worlds, every seat playing as `napsim hand` does by default):\nbid          P(make)  95% interval       EV     ± SE   double dummy\n",
            summary.worlds
        );
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
        }
        text += "in the whole auction (the seats still to speak bid too):\ncall         EV     ± SE   vs best  ± SE   contract\n";
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
        }
        let name =
            |bid: Option<crate::rules::BidId>| bid.map_or("pass", |id| self.profile.bid(id).name());
        let (best, as_declarer) = (
            name(summary.recommended),
            name(summary.declarer_recommended),
        );
        text += &format!("best: {best} (as declarer alone, passing worth 0: {as_declarer})");
        io.tell(&text, call_hint_json(self.profile, &summary))
    }

    /// Each legal card's value under PIMC and double dummy.
    fn card_hint(&mut self, io: &mut Io) -> Result<(), Error> {
        let hints = self.game.card_hint()?;
        let mut text = format!(
            "hint: each card with PIMC's share of {} sampled worlds won for your side, and the \
             declarer's tricks double dummy (every hand visible)\n",
            self.game.card_hint_worlds()
        );
        // Each figure says what it is, so that a defender's share (won for the defence) and
        // the declarer's tricks read apart at a glance.
        for h in &hints {
            text += &format!(
                "{:<4}{:>4.0}% won for your side   declarer {} trick{}\n",
                io.card(h.card),
                100.0 * h.pimc,
                h.dd,
                plural(u32::from(h.dd))
            );
        }
        io.tell(text.trim_end(), card_hints_json(&hints))
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}
