//! `split:declarer=SPEC,defence=SPEC[,misere-defence=SPEC]`: one play policy for the declarer,
//! another for the defenders, and optionally a third for the defenders of a misère (where
//! PIMC's defence is measurably weak: `napsim hand` plays `expert` there by default). It
//! measures where a player's strength lies: an entrant
//! `split:declarer=(expert),defence=(pimc:worlds=16)` against `pimc:worlds=16` in a duplicate
//! tournament isolates the declarer's play from the defence's.

use std::sync::Arc;

use crate::cards::Card;
use crate::policy::{PlayPolicy, PlayView, Spec, SpecError};
use crate::rng::SimRng;
use crate::rules::Profile;

/// The declarer's policy and the defenders'.
pub struct Split {
    declarer: Arc<dyn PlayPolicy>,
    defence: Arc<dyn PlayPolicy>,
    /// The defenders' policy against a misère, when it is not `defence`.
    misere_defence: Option<Arc<dyn PlayPolicy>>,
}

impl Split {
    /// `split:declarer=SPEC,defence=SPEC[,misere-defence=SPEC]`, the first two required. A part
    /// that sees every hand (`dd`) is refused: the analyses take a cheat's values from the
    /// solver for every seat, which a split player is not.
    pub fn from_spec(
        spec: &Spec,
        profile: &Profile,
        bots: &super::ext::BotPool,
    ) -> Result<Split, SpecError> {
        spec.check_keys(&["declarer", "defence", "misere-defence"])?;
        let part = |key: &str| -> Result<Arc<dyn PlayPolicy>, SpecError> {
            let text = spec.get(key).ok_or_else(|| SpecError::Missing {
                policy: "split".into(),
                key: key.into(),
                hint: format!("{key}=SPEC, e.g. {key}=(pimc:worlds=16)"),
            })?;
            let policy = super::play_policy_in(text, profile, bots)?;
            if policy.sees_all_hands().is_some() {
                return Err(SpecError::BadValue {
                    policy: "split".into(),
                    key: key.into(),
                    value: text.into(),
                    reason: "a part may not see every hand (dd)".into(),
                });
            }
            Ok(Arc::from(policy))
        };
        Ok(Split {
            declarer: part("declarer")?,
            defence: part("defence")?,
            misere_defence: spec
                .get("misere-defence")
                .map(|_| part("misere-defence"))
                .transpose()?,
        })
    }
}

impl PlayPolicy for Split {
    fn play(&self, view: &PlayView, rng: &mut SimRng) -> Card {
        match &self.misere_defence {
            _ if view.is_declarer() => self.declarer.play(view, rng),
            Some(misere) if view.is_misere() => misere.play(view, rng),
            _ => self.defence.play(view, rng),
        }
    }

    /// Each part as it plays unrepeated information sets, when one of them differs there.
    fn unshared(&self) -> Option<Arc<dyn PlayPolicy>> {
        let part = |p: &Arc<dyn PlayPolicy>| p.unshared();
        let misere = self.misere_defence.as_ref().and_then(part);
        let (declarer, defence) = (part(&self.declarer), part(&self.defence));
        if declarer.is_none() && defence.is_none() && misere.is_none() {
            return None;
        }
        Some(Arc::new(Split {
            declarer: declarer.unwrap_or_else(|| Arc::clone(&self.declarer)),
            defence: defence.unwrap_or_else(|| Arc::clone(&self.defence)),
            misere_defence: misere.or_else(|| self.misere_defence.clone()),
        }))
    }

    fn plays_by_rules_only(&self) -> bool {
        self.declarer.plays_by_rules_only()
            && self.defence.plays_by_rules_only()
            && self
                .misere_defence
                .as_ref()
                .is_none_or(|p| p.plays_by_rules_only())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{DealState, Phase, Shuffler};
    use crate::policy::{Pass, Table, settle_contract};
    use crate::rng::base_rng;

    #[test]
    fn each_seat_plays_its_part_and_misere_defenders_their_own() {
        let profile = Profile::builtin("pub-guide").unwrap();
        let spec = "split:declarer=(heuristic),defence=(random),misere-defence=(expert)";
        let split =
            Split::from_spec(&spec.parse().unwrap(), &profile, &Default::default()).unwrap();
        let parts = ["heuristic", "random", "expert"]
            .map(|name| crate::bots::play_policy(name, &profile).unwrap());
        let table = Table::uniform(&Pass, &split);
        let mut shuffler = Shuffler::new(&profile, 4);
        let mut rng = base_rng(3);
        let mut asked = [0; 3];
        for _ in 0..30 {
            shuffler.reset();
            let hands = shuffler.deal(0, &mut rng).hands;
            for bid in profile.bid_ids() {
                let mut state = DealState::declared(&profile, &hands[..4], None, 0, bid);
                settle_contract(&mut state, &table, &mut rng);
                while state.phase() == Phase::Play {
                    let view = PlayView::new(&state);
                    let part = match () {
                        _ if view.is_declarer() => 0,
                        _ if view.is_misere() => 2,
                        _ => 1,
                    };
                    asked[part] += 1;
                    let card = split.play(&view, &mut rng.clone());
                    assert_eq!(card, parts[part].play(&view, &mut rng), "part {part}");
                    state.play_unchecked(card);
                }
            }
        }
        assert!(asked.iter().all(|&n| n > 100), "{asked:?}");
    }

    #[test]
    fn a_part_that_sees_every_hand_is_refused() {
        let profile = Profile::builtin("pub-guide").unwrap();
        let spec = "split:declarer=(heuristic),defence=(heuristic),misere-defence=(dd)";
        let error = Split::from_spec(&spec.parse().unwrap(), &profile, &Default::default())
            .err()
            .unwrap();
        assert!(error.to_string().contains("misere-defence"), "{error}");
    }

    #[test]
    fn unshared_it_differs_only_where_a_part_does() {
        let profile = Profile::builtin("heather-1875").unwrap();
        let split = |spec: &str| {
            Split::from_spec(&spec.parse().unwrap(), &profile, &Default::default()).unwrap()
        };
        let plain = split("split:declarer=(heuristic),defence=(random)");
        assert!(plain.unshared().is_none());
        let shared = "split:declarer=(pimc:worlds=4,opening=16),defence=(heuristic)";
        let unshared = split(shared)
            .unshared()
            .expect("the declarer's opening differs");
        // Still a split player: the defence plays as before.
        assert!(unshared.plays_by_rules_only());
        assert!(unshared.unshared().is_none(), "unshared once is unshared");
    }
}
