//! `split:declarer=SPEC,defence=SPEC`: one play policy for the declarer, another for the
//! defenders. It measures where a player's strength lies: an entrant
//! `split:declarer=(expert),defence=(pimc:worlds=16)` against `pimc:worlds=16` in a duplicate
//! tournament isolates the declarer's play from the defence's.

use crate::cards::Card;
use crate::policy::{PlayPolicy, PlayView, Spec, SpecError};
use crate::rng::SimRng;
use crate::rules::Profile;

/// The declarer's policy and the defenders'.
pub struct Split {
    declarer: Box<dyn PlayPolicy>,
    defence: Box<dyn PlayPolicy>,
}

impl Split {
    /// `split:declarer=SPEC,defence=SPEC`, both required. A part that sees every hand (`dd`)
    /// is refused: the analyses take a cheat's values from the solver for every seat, which
    /// a split player is not.
    pub fn from_spec(spec: &Spec, profile: &Profile) -> Result<Split, SpecError> {
        spec.check_keys(&["declarer", "defence"])?;
        let part = |key: &str| -> Result<Box<dyn PlayPolicy>, SpecError> {
            let text = spec.get(key).ok_or_else(|| SpecError::Missing {
                policy: "split".into(),
                key: key.into(),
                hint: format!("{key}=SPEC, e.g. {key}=(pimc:worlds=16)"),
            })?;
            let policy = super::play_policy(text, profile)?;
            if policy.sees_all_hands().is_some() {
                return Err(SpecError::BadValue {
                    policy: "split".into(),
                    key: key.into(),
                    value: text.into(),
                    reason: "a part may not see every hand (dd)".into(),
                });
            }
            Ok(policy)
        };
        Ok(Split {
            declarer: part("declarer")?,
            defence: part("defence")?,
        })
    }
}

impl PlayPolicy for Split {
    fn play(&self, view: &PlayView, rng: &mut SimRng) -> Card {
        if view.is_declarer() {
            self.declarer.play(view, rng)
        } else {
            self.defence.play(view, rng)
        }
    }

    fn plays_by_rules_only(&self) -> bool {
        self.declarer.plays_by_rules_only() && self.defence.plays_by_rules_only()
    }
}
