//! A session against napsim's bots, one step at a time: the engine of `napsim play`, and what
//! a script, a notebook or a web page drives.
//!
//! [`Game::advance`] lets the bots act until the caller's seat must decide, and says what
//! happened on the way ([`Event`]s) and what is asked ([`Question`]); [`Game::answer`] takes
//! the decision, or refuses it with the reason in words. The cards and the bots' choices come
//! from the seed's streams alone, so the same seed and the same answers play the same session
//! whoever drives it; the hints draw from a stream of their own, so asking for one never
//! changes the game.

use crate::analysis::coach::{CallCoach, CardHint, call_hint, card_hint};
use crate::analysis::tournament::parse_entrant;
use crate::bots::ext::BotPool;
use crate::bots::pimc::Pimc;
use crate::bots::{bid_policy, play_policy};
use crate::cards::{Card, CardSet, Suit, parse_cards};
use crate::error::Error;
use crate::eval::hand::HandSummary;
use crate::game::{Call, DealState, Phase, SessionState, Shuffler};
use crate::policy::{BidPolicy, BidView, PlayPolicy, PlayView, Table, auction_turn};
use crate::policy::{settle_contract, strength};
use crate::rng::{SimRng, below, block_streams, next_u64};
use crate::rules::{BidId, HAND_SIZE, MAX_PLAYERS, Profile, TrumpRule};

/// The bots of a game when none are named: the strongest pair that answers in well under a
/// second at every table size.
pub const DEFAULT_BOTS: &str = "lookahead:worlds=64,play=expert/pimc:worlds=16";

/// The play policy of a call hint's evaluator: `napsim hand`'s default.
pub const HINT_PLAY: &str = crate::eval::hand::DEFAULT_PLAY;

/// Worlds a call hint's evaluator plays by default.
pub const DEFAULT_HINT_WORLDS: u64 = 512;

/// Why a game cannot start, beyond a table the profile does not seat and bots whose specs do
/// not parse.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The caller's seat is not at the table.
    #[error("`seat` {seat} is not a seat: seats are 0 to {}", players - 1)]
    Seat {
        /// The seat asked for.
        seat: usize,
        /// Table size.
        players: usize,
    },
    /// The bots cannot bid at this table.
    #[error("`bots` {bots}: {reason}")]
    Bots {
        /// The bots' spec, `BID/PLAY`.
        bots: String,
        /// Why not.
        reason: String,
    },
}

impl crate::error::InputError for GameError {}

/// What a game is: the table, the caller's seat, the bots, the seed and the deals.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Table size.
    pub players: usize,
    /// The caller's seat.
    pub seat: usize,
    /// The other seats' policies, `BID/PLAY`.
    pub bots: String,
    /// The seed of the cards and the bots' choices.
    pub seed: u64,
    /// Deals to play (None: the profile's session).
    pub deals: Option<u64>,
    /// Worlds a call hint plays.
    pub hint_worlds: u64,
    /// Worker threads for the hints.
    pub threads: usize,
    /// Where the bots run, if they are external programs.
    pub bot_pool: BotPool,
}

impl GameSettings {
    /// Checks the settings on `profile` (the table, the seat, the bots) and returns the bots.
    fn bots(&self, profile: &Profile) -> Result<crate::analysis::tournament::Entrant, Error> {
        profile.check_players(self.players)?;
        if self.seat >= self.players {
            return Err(GameError::Seat {
                seat: self.seat,
                players: self.players,
            }
            .into());
        }
        let bots = parse_entrant(&format!("bots={}", self.bots), profile, &self.bot_pool)?;
        bots.bid
            .check_table(self.players)
            .map_err(|reason| GameError::Bots {
                bots: self.bots.clone(),
                reason,
            })?;
        Ok(bots)
    }

    /// Checks the settings on `profile` as [`Game::new`] does: a table the profile seats, a
    /// seat at it, bots that parse and can bid there.
    pub fn check(&self, profile: &Profile) -> Result<(), Error> {
        self.bots(profile).map(|_| ())
    }

    /// A session of the profile's length at a table of `players`, the caller at `seat`, the
    /// [`DEFAULT_BOTS`] at the other seats, with `seed`; hints over [`DEFAULT_HINT_WORLDS`]
    /// worlds on every core.
    pub fn new(players: usize, seat: usize, seed: u64) -> GameSettings {
        GameSettings {
            players,
            seat,
            bots: DEFAULT_BOTS.to_string(),
            seed,
            deals: None,
            hint_worlds: DEFAULT_HINT_WORLDS,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            bot_pool: BotPool::default(),
        }
    }
}

/// Something that happened at the table, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A deal begins: its number of `deals`, the dealer, the caller's hand.
    Deal {
        /// The deal's number, from 1.
        number: u64,
        /// Deals in the session.
        deals: u64,
        /// The dealer's seat.
        dealer: usize,
        /// The caller's five cards.
        hand: CardSet,
    },
    /// Purchase Nap: a seat bought `count` cards from the stock (a bot's purchase; nothing is
    /// told when it buys none).
    Bought {
        /// The seat.
        seat: usize,
        /// Cards bought.
        count: u32,
    },
    /// Purchase Nap: the caller gave up `gave` and took `got`.
    Exchanged {
        /// The cards given up.
        gave: CardSet,
        /// The cards taken.
        got: CardSet,
    },
    /// Peep Nap: a bot looked at the floater.
    Peeked {
        /// The seat.
        seat: usize,
    },
    /// Peep Nap: the caller looked at the floater.
    Saw {
        /// The floater.
        floater: Card,
    },
    /// A call.
    Called {
        /// The seat.
        seat: usize,
        /// The call.
        call: Call,
        /// The caller's pass made for it because no bid was left to call.
        forced: bool,
    },
    /// The caller took the spare hand and kept these five of the ten cards.
    Kept {
        /// The cards kept.
        keep: CardSet,
    },
    /// The auction ended with a contract.
    Declared {
        /// The declarer's seat.
        declarer: usize,
        /// The contract.
        bid: BidId,
    },
    /// A bot declaring with the floater took it and discarded a card (unseen).
    TookFloater {
        /// The seat.
        seat: usize,
    },
    /// The caller, declaring, took the floater and discarded `card`.
    Discarded {
        /// The card discarded.
        card: Card,
    },
    /// The trump suit is known before the first card (named, or fixed by the bid).
    Trump {
        /// The suit.
        suit: Suit,
    },
    /// A card was played.
    Played {
        /// The seat.
        seat: usize,
        /// The card.
        card: Card,
    },
    /// The opening lead's suit became trump.
    LeadTrump {
        /// The suit.
        suit: Suit,
    },
    /// A trick was completed.
    Trick {
        /// The trick's number, from 1.
        number: usize,
        /// The seat that won it.
        winner: usize,
        /// The declarer's tricks so far.
        declarer_tricks: u8,
        /// The tricks the contract needs (None: a misère, which wants none).
        needs: Option<u8>,
    },
    /// A deal was settled.
    Settled(Box<Settlement>),
    /// The session is over.
    End {
        /// Every seat's balance.
        balances: Vec<i64>,
    },
}

/// How a deal ended and what it paid.
#[derive(Clone, Debug, PartialEq)]
pub struct Settlement {
    /// The deal's number, from 1.
    pub number: u64,
    /// Deals in the session.
    pub deals: u64,
    /// The contract, its declarer, whether it was made and the declarer's tricks (None: every
    /// seat passed).
    pub outcome: Option<(usize, BidId, bool, u8)>,
    /// Every seat's payment.
    pub payments: Vec<i64>,
    /// The kitty after the deal, where the profile has one.
    pub kitty: Option<i64>,
    /// Every seat's balance after the deal.
    pub balances: Vec<i64>,
}

/// What the caller is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Purchase Nap: cards to give up for as many from the stock, or none.
    Purchase,
    /// Peep Nap: look at the floater for its price?
    Peek,
    /// A call (the legal ones: [`Game::legal_calls`]).
    Call,
    /// After taking the spare hand: five of the ten cards to keep.
    Keep,
    /// Declaring with the floater: the card to discard of six.
    Discard,
    /// Declaring a bid whose trump is named: the suit.
    Trump,
    /// A card to play (the legal ones: [`DealState::legal_cards`]).
    Card,
}

/// The caller's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The cards to give up in a purchase (empty: none).
    Purchase(CardSet),
    /// Whether to look at the floater.
    Peek(bool),
    /// A call.
    Call(Call),
    /// The five cards to keep of the spare hand and the own.
    Keep(CardSet),
    /// The card to discard with the floater.
    Discard(Card),
    /// The trump suit to name.
    Trump(Suit),
    /// A card to play.
    Card(Card),
}

/// A session in progress.
pub struct Game<'p> {
    profile: &'p Profile,
    settings: GameSettings,
    deals: u64,
    bid: Box<dyn BidPolicy>,
    play: Box<dyn PlayPolicy>,
    coach_play: Box<dyn PlayPolicy>,
    coach_others: Box<dyn BidPolicy>,
    pimc: Pimc,
    deal_rng: SimRng,
    policy_rng: SimRng,
    hint_rng: SimRng,
    shuffler: Shuffler,
    dealer: usize,
    kitty: i64,
    /// The number of the deal in progress (0 before the first).
    number: u64,
    state: Option<DealState<'p>>,
    /// Where the deal in progress stands beyond its phase.
    told: Told,
    balances: Vec<i64>,
    finished: Vec<DealState<'p>>,
    over: bool,
}

/// What has been asked and told in the deal in progress.
#[derive(Clone, Copy, Debug, Default)]
struct Told {
    /// The caller has answered the question to look at the floater this turn.
    peek_answered: bool,
    /// The caller called for the spare hand and must say what to keep.
    keeping: bool,
    /// The contract has been told (and a bot declarer's extras settled).
    declared: bool,
    /// The trump suit has been told (or there was none to tell).
    trump: bool,
}

impl<'p> Game<'p> {
    /// A new session on `profile`. Refused: a table the profile does not seat, a seat not at
    /// it, bots that do not parse or cannot bid at the table.
    pub fn new(profile: &'p Profile, settings: GameSettings) -> Result<Game<'p>, Error> {
        let bots = settings.bots(profile)?;
        let (mut deal_rng, policy_rng) = block_streams(settings.seed, 0);
        let dealer = below(&mut deal_rng, settings.players as u64) as usize;
        Ok(Game {
            profile,
            deals: settings.deals.unwrap_or(profile.session_deals() as u64),
            bid: bots.bid,
            play: bots.play,
            coach_play: play_policy(HINT_PLAY, profile)?,
            coach_others: bid_policy("threshold", profile)?,
            pimc: Pimc::from_spec(&"pimc:worlds=32".parse().expect("a valid spec"))?,
            deal_rng,
            policy_rng,
            hint_rng: block_streams(settings.seed, 1).1,
            shuffler: Shuffler::new(profile, settings.players),
            dealer,
            kitty: 0,
            number: 0,
            state: None,
            told: Told::default(),
            balances: vec![0; settings.players],
            finished: Vec::new(),
            over: false,
            settings,
        })
    }

    /// The profile.
    pub fn profile(&self) -> &'p Profile {
        self.profile
    }

    /// The settings.
    pub fn settings(&self) -> &GameSettings {
        &self.settings
    }

    /// The number of the deal in progress, or of the last one (0 before the first).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Deals in the session.
    pub fn deals(&self) -> u64 {
        self.deals
    }

    /// The deal in progress (None before the first and after the last).
    pub fn state(&self) -> Option<&DealState<'p>> {
        self.state.as_ref()
    }

    /// Every seat's balance so far.
    pub fn balances(&self) -> &[i64] {
        &self.balances
    }

    /// The finished deals, in order (`deal --json` records them:
    /// [`crate::report::DealRecord::from_state`]).
    pub fn finished(&self) -> &[DealState<'p>] {
        &self.finished
    }

    /// Whether the session is over.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The calls the caller may make now (passing first, then the bids, then the spare hand
    /// where it may be taken); empty when no call is asked.
    pub fn legal_calls(&self) -> Vec<Call> {
        let Some(state) = &self.state else {
            return Vec::new();
        };
        if state.phase() != Phase::Auction || state.to_act() != Some(self.settings.seat) {
            return Vec::new();
        }
        let mut legal = BidView::new(state).legal_calls();
        if state.can_take_spare() {
            legal.push(Call::TakeSpare);
        }
        legal
    }

    /// Lets the bots act until the caller must decide or the session ends, adding what
    /// happened to `events`; returns what the caller is asked (None: the session is over).
    /// Asked again without an answer, it asks the same question.
    pub fn advance(&mut self, events: &mut Vec<Event>) -> Result<Option<Question>, Error> {
        loop {
            if self.over {
                return Ok(None);
            }
            if self.state.is_none() {
                self.start_deal(events);
                continue;
            }
            let asked = self.step(events)?;
            // A bot that failed decided by a stand-in: the session ends with its failure.
            Error::bots_held(&self.settings.bot_pool)?;
            if let Some(question) = asked {
                return Ok(Some(question));
            }
        }
    }

    /// Deals the next deal, or ends the session.
    fn start_deal(&mut self, events: &mut Vec<Event>) {
        if self.number == self.deals {
            self.over = true;
            events.push(Event::End {
                balances: self.balances.clone(),
            });
            return;
        }
        self.number += 1;
        let players = self.settings.players;
        let dealt = self.shuffler.deal(self.dealer, &mut self.deal_rng);
        let mut state = DealState::from_dealt(self.profile, self.dealer, &dealt, players);
        state.set_kitty(self.kitty);
        state.set_session(self.session_state());
        events.push(Event::Deal {
            number: self.number,
            deals: self.deals,
            dealer: self.dealer,
            hand: state.hand(self.settings.seat),
        });
        self.state = Some(state);
        self.told = Told::default();
    }

    /// The session as the seats see it before the deal in progress.
    fn session_state(&self) -> SessionState {
        let mut balances = [0; MAX_PLAYERS];
        balances[..self.balances.len()].copy_from_slice(&self.balances);
        // A person plays far fewer than 2^32 deals; the count saturates rather than wraps.
        let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        SessionState {
            deal: clamp(self.number),
            deals: clamp(self.deals),
            balances,
        }
    }

    /// One step of the deal in progress: a bot's decision (None), or the caller's question.
    fn step(&mut self, events: &mut Vec<Event>) -> Result<Option<Question>, Error> {
        let me = self.settings.seat;
        let state = self.state.as_mut().expect("a deal in progress");
        let rng = &mut self.policy_rng;
        match state.phase() {
            Phase::Purchase => {
                let seat = state.to_act().expect("a seat to buy");
                if seat == me {
                    return Ok(Some(Question::Purchase));
                }
                let discard = self.bid.purchase(&BidView::new(state), rng);
                state.purchase(discard).expect("the bot buys legally");
                if discard.any() {
                    events.push(Event::Bought {
                        seat,
                        count: discard.count(),
                    });
                }
            }
            Phase::Auction => {
                let seat = state.to_act().expect("a seat to call");
                if seat == me {
                    if state.can_peek() && !self.told.peek_answered {
                        return Ok(Some(Question::Peek));
                    }
                    if self.told.keeping {
                        return Ok(Some(Question::Keep));
                    }
                    if !state.any_legal_bid() && !state.can_take_spare() {
                        state.call(Call::Pass).expect("passing is legal");
                        self.told.peek_answered = false;
                        events.push(Event::Called {
                            seat,
                            call: Call::Pass,
                            forced: true,
                        });
                        return Ok(None);
                    }
                    return Ok(Some(Question::Call));
                }
                let call = auction_turn(state, self.bid.as_ref(), rng);
                if state.peeked(seat) && state.floater().is_some() {
                    events.push(Event::Peeked { seat });
                }
                events.push(Event::Called {
                    seat,
                    call,
                    forced: false,
                });
            }
            _ if !self.told.declared => {
                self.told.declared = true;
                let Some(contract) = state.contract() else {
                    self.settle(events);
                    return Ok(None);
                };
                events.push(Event::Declared {
                    declarer: contract.declarer,
                    bid: contract.bid,
                });
                if contract.declarer != me {
                    let took_floater = state.phase() == Phase::Floater;
                    let table = Table::uniform(self.bid.as_ref(), self.play.as_ref());
                    settle_contract(state, &table, rng);
                    if took_floater {
                        events.push(Event::TookFloater {
                            seat: contract.declarer,
                        });
                    }
                }
            }
            Phase::Floater => return Ok(Some(Question::Discard)),
            Phase::Trump => return Ok(Some(Question::Trump)),
            Phase::Play => {
                if !self.told.trump {
                    self.told.trump = true;
                    if let Some(suit) = state.trump().filter(|_| state.tricks_done() == 0) {
                        events.push(Event::Trump { suit });
                    }
                }
                let seat = state.to_act().expect("a seat to play");
                let card = if seat == me {
                    if !state.hand(me).at_most_one() {
                        return Ok(Some(Question::Card));
                    }
                    // The last card is played for the caller.
                    state.legal_cards().first().expect("a card")
                } else {
                    let view = PlayView::new(state);
                    let legal = view.legal();
                    if legal.at_most_one() {
                        legal.first().expect("a card")
                    } else {
                        self.play.play(&view, rng)
                    }
                };
                self.play_card(card, events);
            }
            Phase::Finished => self.settle(events),
        }
        Ok(None)
    }

    /// Plays `card` for the seat to play and tells what followed from it.
    fn play_card(&mut self, card: Card, events: &mut Vec<Event>) {
        let state = self.state.as_mut().expect("a deal in progress");
        let seat = state.to_act().expect("a seat to play");
        let trick = state.tricks_done();
        state.play(card).expect("a legal card");
        events.push(Event::Played { seat, card });
        let contract = state.contract().expect("a contract in play");
        let bid = self.profile.bid(contract.bid);
        let opening = trick == 0 && state.current_trick().len() == 1;
        if opening && bid.trump() == TrumpRule::FirstLead {
            events.push(Event::LeadTrump { suit: card.suit() });
        }
        if state.tricks_done() > trick {
            events.push(Event::Trick {
                number: trick + 1,
                winner: state.trick_winner(trick),
                declarer_tricks: state.tricks_won(contract.declarer),
                needs: (!bid.is_misere()).then(|| bid.tricks_needed()),
            });
        }
    }

    /// Settles the finished deal and makes ready for the next.
    fn settle(&mut self, events: &mut Vec<Event>) {
        let state = self.state.take().expect("a deal in progress");
        self.kitty = state.kitty_after();
        self.shuffler.collect(&state);
        self.dealer = (self.dealer + 1) % self.settings.players;
        let payments = state.payments();
        for (balance, pay) in self.balances.iter_mut().zip(payments) {
            *balance += pay;
        }
        let outcome = match (state.contract(), state.made()) {
            (Some(c), Some(made)) => Some((c.declarer, c.bid, made, state.declarer_tricks())),
            _ => None,
        };
        let kitty = self.profile.has_kitty().then(|| state.kitty_after());
        self.finished.push(state);
        events.push(Event::Settled(Box::new(Settlement {
            number: self.number,
            deals: self.deals,
            outcome,
            payments: payments[..self.settings.players].to_vec(),
            kitty,
            balances: self.balances.clone(),
        })));
    }

    /// Takes the caller's decision (the answer to the question [`Game::advance`] asked) and
    /// adds what it did to `events`; `Err` with the reason, in words, when it is not allowed
    /// (the question stands).
    pub fn answer(&mut self, answer: Answer, events: &mut Vec<Event>) -> Result<(), String> {
        let question = self.pending().ok_or("nothing is asked now")?;
        let me = self.settings.seat;
        let profile = self.profile;
        let state = self.state.as_mut().expect("a deal in progress");
        match (question, answer) {
            (Question::Purchase, Answer::Purchase(cards)) => {
                let hand = state.hand(me);
                if let Some(card) = (cards - hand).first() {
                    return Err(format!("you do not hold {card}"));
                }
                let left = state.stock_left();
                if cards.count() as usize > left {
                    return Err(format!("only {left} cards are left in the stock"));
                }
                let bought = if cards.any() {
                    state.buy_in(cards)
                } else {
                    state.purchase(CardSet::EMPTY)
                };
                bought.map_err(|e| format!("purchase refused: {e}"))?;
                if state.bought_in(me) {
                    let (gave, got) = state.bought(me);
                    events.push(Event::Exchanged { gave, got });
                }
            }
            (Question::Peek, Answer::Peek(look)) => {
                self.told.peek_answered = true;
                if look {
                    let floater = state.peek().map_err(|e| e.to_string())?;
                    events.push(Event::Saw { floater });
                }
            }
            (Question::Call, Answer::Call(call)) => {
                let legal = self.legal_calls();
                let state = self.state.as_mut().expect("a deal in progress");
                if !legal.contains(&call) {
                    let reason = state
                        .check_call(call)
                        .err()
                        .map_or("it is not allowed here".to_string(), |e| e.explain(profile));
                    return Err(format!("you cannot call {}: {reason}", call.name(profile)));
                }
                if call == Call::TakeSpare {
                    self.told.keeping = true;
                    return Ok(());
                }
                state.call(call).expect("a legal call");
                self.told.peek_answered = false;
                events.push(Event::Called {
                    seat: me,
                    call,
                    forced: false,
                });
            }
            (Question::Keep, Answer::Keep(keep)) => {
                let ten = state.hand(me) | state.spare();
                if let Some(card) = (keep - ten).first() {
                    return Err(format!("you do not hold {card}"));
                }
                if keep.count() as usize != HAND_SIZE {
                    return Err(format!("keep exactly {HAND_SIZE} cards"));
                }
                state.take_spare(keep).map_err(|e| e.to_string())?;
                self.told.keeping = false;
                self.told.peek_answered = false;
                events.push(Event::Kept { keep });
            }
            (Question::Discard, Answer::Discard(card)) => {
                let six = state.hand(me).with(state.floater().expect("a floater"));
                if !six.contains(card) {
                    return Err(format!("{card} is not one of your six cards"));
                }
                state.take_floater(card).map_err(|e| e.to_string())?;
                events.push(Event::Discarded { card });
            }
            (Question::Trump, Answer::Trump(suit)) => {
                state
                    .name_trump(suit)
                    .map_err(|e| format!("you cannot name {}: {e}", suit.symbol()))?;
            }
            (Question::Card, Answer::Card(card)) => {
                if !state.hand(me).contains(card) {
                    return Err(format!("you do not hold {card}"));
                }
                let legal = state.legal_cards();
                if !legal.contains(card) {
                    return Err(match state.current_trick().first() {
                        Some(led) => {
                            format!("you must follow suit: play a {}", led.suit().symbol())
                        }
                        None => format!(
                            "the contract's opening lead rule allows only {}",
                            legal
                                .iter_desc()
                                .map(|c| c.to_string())
                                .collect::<Vec<_>>()
                                .join(" ")
                        ),
                    });
                }
                self.play_card(card, events);
            }
            (question, _) => {
                return Err(format!("the question is {}", question.words()));
            }
        }
        Ok(())
    }

    /// Reads `text`, the caller's answer in words as `napsim play` takes it (a call's name,
    /// a card such as `AS`, `10h` or `A♠`, cards separated by spaces, `yes` or `no`, a suit's
    /// letter, `none` for no purchase), as the answer to the question standing; `Err` with
    /// what is wrong with it. Whether the game allows it is [`Game::answer`]'s to say.
    pub fn parse_answer(&self, text: &str) -> Result<Answer, String> {
        let question = self.pending().ok_or("nothing is asked now")?;
        let state = self.state.as_ref().expect("a question stands in a deal");
        let hand = state.hand(self.settings.seat);
        match question {
            Question::Purchase => {
                if matches!(text.to_ascii_lowercase().as_str(), "none" | "no" | "pass") {
                    return Ok(Answer::Purchase(CardSet::EMPTY));
                }
                let cards = held_cards(text, hand)?;
                let left = state.stock_left();
                if cards.count() as usize > left {
                    return Err(format!("only {left} cards are left in the stock"));
                }
                Ok(Answer::Purchase(cards))
            }
            Question::Peek => yes_no(text).map(Answer::Peek),
            Question::Call => {
                let profile = self.profile;
                Call::parse(text, profile).map(Answer::Call).ok_or_else(|| {
                    let names: Vec<&str> =
                        self.legal_calls().iter().map(|c| c.name(profile)).collect();
                    format!("'{text}' is not a call: say one of {}", names.join(", "))
                })
            }
            Question::Keep => {
                let keep = held_cards(text, hand | state.spare())?;
                if keep.count() as usize != HAND_SIZE {
                    return Err(format!("keep exactly {HAND_SIZE} cards"));
                }
                Ok(Answer::Keep(keep))
            }
            Question::Discard => {
                let card = one_card(text)?;
                let six = hand.with(state.floater().expect("a floater"));
                if six.contains(card) {
                    Ok(Answer::Discard(card))
                } else {
                    Err(format!("{card} is not one of your six cards"))
                }
            }
            Question::Trump => {
                let mut chars = text.trim().chars();
                match (chars.next().and_then(Suit::from_char), chars.next()) {
                    (Some(suit), None) => Ok(Answer::Trump(suit)),
                    _ => Err(format!("'{text}' is not a suit: say C, D, H or S")),
                }
            }
            Question::Card => one_card(text).map(Answer::Card),
        }
    }

    /// The question standing for the caller now, if any (what [`Game::advance`] last asked,
    /// not answered yet).
    pub fn pending(&self) -> Option<Question> {
        let state = self.state.as_ref()?;
        let me = self.settings.seat;
        if state.to_act() != Some(me) && !matches!(state.phase(), Phase::Floater | Phase::Trump) {
            return None;
        }
        match state.phase() {
            Phase::Purchase => Some(Question::Purchase),
            Phase::Auction if state.can_peek() && !self.told.peek_answered => Some(Question::Peek),
            Phase::Auction if self.told.keeping => Some(Question::Keep),
            Phase::Auction if !state.any_legal_bid() && !state.can_take_spare() => None,
            Phase::Auction => Some(Question::Call),
            Phase::Floater if self.told.declared && state.declarer() == me => {
                Some(Question::Discard)
            }
            Phase::Trump if self.told.declared && state.declarer() == me => Some(Question::Trump),
            Phase::Play if self.told.trump && !state.hand(me).at_most_one() => Some(Question::Card),
            _ => None,
        }
    }

    /// The evaluator's view of the caller's call: every bid's P(make) and EV as declarer and
    /// every legal call valued in the whole auction. None when the calls so far are too rare
    /// to sample. Draws from the hints' own stream.
    pub fn call_hint(&mut self) -> Result<Option<HandSummary>, Error> {
        let state = self
            .state
            .as_ref()
            .filter(|_| self.pending() == Some(Question::Call))
            .ok_or_else(|| Error::input("a call hint is given when a call is asked"))?;
        let coach = CallCoach {
            play: self.coach_play.as_ref(),
            others: self.coach_others.as_ref(),
            worlds: self.settings.hint_worlds,
            threads: self.settings.threads,
        };
        let seed = next_u64(&mut self.hint_rng);
        let hint = call_hint(state, &coach, seed).map_err(|e| Error::runtime(e.to_string()))?;
        // The other seats may bid as the session's bots do.
        Error::bots_held(&self.settings.bot_pool)?;
        Ok(hint)
    }

    /// Each legal card's share of PIMC's sampled worlds won for the caller's side and its
    /// double-dummy value, highest card first. Draws from the hints' own stream.
    pub fn card_hint(&mut self) -> Result<Vec<CardHint>, Error> {
        let state = self
            .state
            .as_ref()
            .filter(|_| self.pending() == Some(Question::Card))
            .ok_or_else(|| Error::input("a card hint is given when a card is asked"))?;
        let seed = next_u64(&mut self.hint_rng);
        Ok(card_hint(state, &self.pimc, seed))
    }

    /// The worlds PIMC samples for a card hint.
    pub fn card_hint_worlds(&self) -> usize {
        self.pimc.worlds()
    }

    /// The strongest suit to name as trump from the caller's hand.
    pub fn suggested_trump(&self) -> Option<Suit> {
        let state = self.state.as_ref()?;
        Some(strength::named_trump(state.hand(self.settings.seat)))
    }
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

impl Question {
    /// The question's name in JSON: `purchase`, `peek`, `call`, `keep`, `discard`, `trump`,
    /// `card`.
    pub fn name(self) -> &'static str {
        match self {
            Question::Purchase => "purchase",
            Question::Peek => "peek",
            Question::Call => "call",
            Question::Keep => "keep",
            Question::Discard => "discard",
            Question::Trump => "trump",
            Question::Card => "card",
        }
    }

    /// The question in a few words, for messages.
    pub fn words(self) -> &'static str {
        match self {
            Question::Purchase => "which cards to buy",
            Question::Peek => "whether to look at the floater",
            Question::Call => "a call",
            Question::Keep => "which five cards to keep",
            Question::Discard => "the card to discard",
            Question::Trump => "the trump suit",
            Question::Card => "a card",
        }
    }
}
