//! `napsim._napsim.Game`: the library's step-by-step session ([`napsim::analysis::game`]) for
//! Python. It owns its profile, which the game borrows; everything crosses as JSON text, which
//! the package's `napsim.Game` turns into Python values.

use napsim::analysis::game::{Event, Game, GameSettings, Question};
use napsim::report::{DealRecord, call_hint_json, card_hints_json, event_json, view_json};
use napsim::rules::Profile;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::{bot_pool, described, python_error};

/// The game's type with its profile's lifetime, for [`self_cell`].
type GameOf<'p> = Game<'p>;

self_cell::self_cell!(
    /// A profile and the game that borrows it.
    struct Owned {
        owner: Profile,
        #[covariant]
        dependent: GameOf,
    }
);

/// A session against napsim's bots, one decision at a time.
#[pyclass(module = "napsim._napsim", name = "Game")]
pub struct PyGame {
    owned: Owned,
}

/// Events as a JSON array.
fn events_json(game: &Game, events: &[Event]) -> String {
    let values: Vec<serde_json::Value> = events.iter().map(|e| event_json(game, e)).collect();
    serde_json::Value::Array(values).to_string()
}

#[pymethods]
impl PyGame {
    /// A new session (see `napsim.Game`).
    #[new]
    #[pyo3(signature = (rules, players, seat, bots, seed, deals, hint_worlds, threads, move_time))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: String,
        players: usize,
        seat: usize,
        bots: Option<String>,
        seed: Option<u64>,
        deals: Option<u64>,
        hint_worlds: Option<u64>,
        threads: Option<usize>,
        move_time: Option<f64>,
    ) -> PyResult<PyGame> {
        let profile =
            napsim::rules::load_profile(&rules).map_err(|e| python_error(described(e.into())))?;
        let defaults =
            GameSettings::new(players, seat, seed.unwrap_or_else(napsim::rng::fresh_seed));
        let settings = GameSettings {
            bots: bots.unwrap_or(defaults.bots.clone()),
            deals,
            hint_worlds: hint_worlds.unwrap_or(defaults.hint_worlds),
            threads: threads.unwrap_or(defaults.threads),
            bot_pool: bot_pool(move_time)?,
            ..defaults
        };
        let owned = Owned::try_new(profile, |profile| Game::new(profile, settings))
            .map_err(|e| python_error(described(e)))?;
        Ok(PyGame { owned })
    }

    /// Lets the bots act until this seat must decide: the events as a JSON array, and the
    /// question (None when the session is over). The GIL is released while the bots think.
    fn advance(&mut self, py: Python<'_>) -> PyResult<(String, Option<String>)> {
        let owned = &mut self.owned;
        py.detach(|| {
            owned.with_dependent_mut(|_, game| {
                let mut events = Vec::new();
                let question = game.advance(&mut events).map_err(described)?;
                Ok((
                    events_json(game, &events),
                    question.map(|q| q.name().to_string()),
                ))
            })
        })
        .map_err(python_error)
    }

    /// Takes `text`, the answer in words as `napsim play` takes it: the events it caused as a
    /// JSON array; a `ValueError` with the reason when it is not an answer the game allows.
    fn answer(&mut self, text: &str) -> PyResult<String> {
        self.owned.with_dependent_mut(|_, game| {
            let answer = game.parse_answer(text).map_err(PyValueError::new_err)?;
            let mut events = Vec::new();
            game.answer(answer, &mut events)
                .map_err(PyValueError::new_err)?;
            Ok(events_json(game, &events))
        })
    }

    /// What this seat sees now, as a JSON object.
    fn view(&self) -> String {
        view_json(self.owned.borrow_dependent()).to_string()
    }

    /// The coach's hint for the question standing (a call or a card), as `napsim play --json`
    /// writes it; `null` for a call too rare to sample.
    fn hint(&mut self, py: Python<'_>) -> PyResult<String> {
        let owned = &mut self.owned;
        py.detach(|| {
            owned.with_dependent_mut(|profile, game| {
                let json = match game.pending() {
                    Some(Question::Card) => card_hints_json(&game.card_hint().map_err(described)?),
                    _ => match game.call_hint().map_err(described)? {
                        Some(summary) => call_hint_json(profile, &summary),
                        None => serde_json::Value::Null,
                    },
                };
                Ok(json.to_string())
            })
        })
        .map_err(python_error)
    }

    /// The finished deals as `napsim deal --json` records, a JSON array.
    fn records(&self) -> String {
        let records: Vec<DealRecord> = self
            .owned
            .borrow_dependent()
            .finished()
            .iter()
            .map(DealRecord::from_state)
            .collect();
        serde_json::to_string(&records).unwrap_or_default()
    }
}
