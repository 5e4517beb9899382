//! The sequential probability ratio test of a tournament (`napsim tournament --sprt D0,D1`): on
//! the mean paired difference per card set between two entrants, H0: mean <= D0 against
//! H1: mean >= D1.
//!
//! The differences are taken as normal with the variance estimated from the sample so far
//! (the usual approximation of engine testers), so the log-likelihood ratio of H1 against H0
//! after n card sets with differences summing to S is
//!
//! ```text
//! LLR = (D1 - D0) / var * (S - n (D0 + D1) / 2)
//! ```
//!
//! and the test accepts H1 once LLR >= ln((1 - beta) / alpha), H0 once LLR <= ln(beta / (1 -
//! alpha)) (Wald's bounds). **The variance floor**: var is at least ((D1 - D0) / 10)^2, so that
//! differences that are all the same value (identical entrants in duplicate play tie every card
//! set) still decide: their LLR is -(D1 - D0) n (D0 + D1) / (2 var), which accepts H0 when
//! D0 + D1 > 0 (the usual D0 = 0 < D1) and H1 when D0 + D1 < 0; with D0 + D1 = 0 a zero
//! difference sits exactly between the hypotheses and the test runs to its maximum.

use serde::{Deserialize, Serialize};

/// The test asked for: the hypotheses' bounds on the mean difference and the error rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// H0: the mean difference is at most this.
    pub d0: f64,
    /// H1: the mean difference is at least this (above `d0`).
    pub d1: f64,
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The difference is at least D1.
    AcceptedH1,
    /// The difference is at most D0.
    AcceptedH0,
    /// Neither, at the most card sets allowed.
    NoDecision,
}

impl Decision {
    /// How the summary line says it.
    pub fn words(self) -> &'static str {
        match self {
            Decision::AcceptedH1 => "accepted H1",
            Decision::AcceptedH0 => "accepted H0",
            Decision::NoDecision => "no decision",
        }
    }
}

/// Where the test stands after some card sets.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// The log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// Wald's lower bound (accept H0 at or below it).
    pub lower: f64,
    /// Wald's upper bound (accept H1 at or above it).
    pub upper: f64,
    /// The card sets counted.
    pub sets: u64,
}

impl Sprt {
    /// Checks the bounds and rates: D0 < D1, both finite and small enough that the test's
    /// arithmetic stays finite ([`Sprt::check_bounds`]); alpha and beta in (0, 1/2).
    pub fn check(&self) -> Result<(), String> {
        Sprt::check_bounds(self.d0, self.d1)?;
        for (name, rate) in [("`alpha`", self.alpha), ("`beta`", self.beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(format!(
                    "{name} {rate}: an error rate above 0 and below 0.5"
                ));
            }
        }
        Ok(())
    }

    /// Checks the hypotheses' bounds: D0 below D1, and the variance floor `((D1 - D0) /
    /// 10)^2` and the midpoint `(D0 + D1) / 2` finite and the floor above zero, so that the LLR
    /// is a number (`0,1e308` would overflow the floor into infinity and the LLR into NaN).
    pub fn check_bounds(d0: f64, d1: f64) -> Result<(), String> {
        if !(d0.is_finite() && d1.is_finite() && d0 < d1) {
            return Err(format!(
                "`sprt` {d0},{d1}: D0 must be below D1 (H0: difference <= D0, H1: difference >= D1)"
            ));
        }
        let floor = ((d1 - d0) / 10.0).powi(2);
        if !(floor.is_finite() && floor > 0.0 && (d0 + d1).is_finite()) {
            return Err(format!(
                "`sprt` {d0},{d1}: bounds too far apart or too close for the test's arithmetic \
                 (use differences in units per session, e.g. 0,1)"
            ));
        }
        Ok(())
    }

    /// Wald's bounds on the LLR: (accept H0 at or below, accept H1 at or above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The standing after `n` differences with sum `sum` and sum of squares `sum_sq`.
    pub fn standing(&self, n: u64, sum: f64, sum_sq: f64) -> Standing {
        let (lower, upper) = self.bounds();
        let llr = if n < 2 {
            0.0
        } else {
            let nf = n as f64;
            let variance = ((sum_sq - sum * sum / nf) / (nf - 1.0)).max(0.0);
            let floor = ((self.d1 - self.d0) / 10.0).powi(2);
            let variance = variance.max(floor);
            (self.d1 - self.d0) / variance * (sum - nf * (self.d0 + self.d1) / 2.0)
        };
        Standing {
            llr,
            lower,
            upper,
            sets: n,
        }
    }

    /// The decision at `standing`, if it crossed a bound.
    pub fn crossed(standing: &Standing) -> Option<Decision> {
        if standing.llr >= standing.upper {
            Some(Decision::AcceptedH1)
        } else if standing.llr <= standing.lower {
            Some(Decision::AcceptedH0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test() -> Sprt {
        Sprt {
            d0: 0.0,
            d1: 1.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    #[test]
    fn the_bounds_are_walds() {
        let (lower, upper) = test().bounds();
        assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-12);
        assert!((lower + upper).abs() < 1e-12, "symmetric when alpha = beta");
    }

    #[test]
    fn the_llr_is_the_normal_likelihood_ratio() {
        // Differences 0.5 +- 1 over 100 sets: S = 50, sample variance 100/99.
        let n = 100u64;
        let (sum, sum_sq) = (50.0, 50.0 * 0.5 + 100.0);
        let s = test().standing(n, sum, sum_sq);
        let variance = (sum_sq - sum * sum / 100.0) / 99.0;
        let expected = 1.0 / variance * (sum - 100.0 * 0.5);
        assert!((s.llr - expected).abs() < 1e-12, "{s:?}");
        // Halfway between the hypotheses, the evidence is even.
        assert!(s.llr.abs() < 1e-12);
        // A mean at D1 favours H1, at D0 favours H0.
        assert!(test().standing(n, 100.0, 200.0).llr > 0.0);
        assert!(test().standing(n, 0.0, 100.0).llr < 0.0);
    }

    #[test]
    fn identical_entrants_accept_h0_through_the_variance_floor() {
        let s = test().standing(64, 0.0, 0.0);
        assert_eq!(Sprt::crossed(&s), Some(Decision::AcceptedH0));
        // With the hypotheses symmetric about zero, a zero difference never decides.
        let symmetric = Sprt { d0: -1.0, ..test() };
        assert_eq!(Sprt::crossed(&symmetric.standing(64, 0.0, 0.0)), None);
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert!(test().check().is_ok());
        assert!(Sprt { d1: 0.0, ..test() }.check().is_err());
        assert!(
            Sprt {
                alpha: 0.5,
                ..test()
            }
            .check()
            .is_err()
        );
        assert!(
            Sprt {
                beta: 0.0,
                ..test()
            }
            .check()
            .is_err()
        );
        assert!(
            Sprt {
                d0: f64::NAN,
                ..test()
            }
            .check()
            .is_err()
        );
    }
}
