//! `always:bid=BID`: eldest bids one fixed level, everyone else passes.
//!
//! A baseline that plays every deal: the contract is always `BID` by the dealer's left.

use crate::game::Call;
use crate::policy::{BidPolicy, BidView, Spec, SpecError};
use crate::rng::SimRng;
use crate::rules::{BidId, Profile};

/// Eldest bids `bid`; every other seat passes.
#[derive(Clone, Copy, Debug)]
pub struct Always {
    bid: BidId,
}

impl Always {
    /// Builds the policy from `always:bid=NAME`.
    pub fn from_spec(spec: &Spec, profile: &Profile) -> Result<Always, SpecError> {
        spec.check_keys(&["bid"])?;
        let name = spec.get("bid").ok_or_else(|| SpecError::Missing {
            policy: "always".into(),
            key: "bid".into(),
            hint: format!("one of {}", profile.bid_names()),
        })?;
        let bad = |reason: String| SpecError::BadValue {
            policy: "always".into(),
            key: "bid".into(),
            value: name.to_string(),
            reason,
        };
        let bid = profile.bid_id(name).ok_or_else(|| {
            bad(format!(
                "profile {} has the bids {}",
                profile.name(),
                profile.bid_names()
            ))
        })?;
        if profile.bid(bid).only_over().is_some() {
            return Err(bad(
                "that bid may only be called over another, so eldest cannot open with it".into(),
            ));
        }
        Ok(Always { bid })
    }
}

impl BidPolicy for Always {
    fn call(&self, view: &BidView, _rng: &mut SimRng) -> Call {
        if view.position() == 0 {
            Call::Bid(self.bid)
        } else {
            Call::Pass
        }
    }
}
