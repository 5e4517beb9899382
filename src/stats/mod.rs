//! Intervals and standard errors from integer tallies, and the tournament's sequential test
//! ([`sprt`]).

pub mod sprt;

/// The 97.5% standard normal quantile, for 95% two-sided intervals.
pub const Z95: f64 = 1.959963984540054;

/// The standard normal quantile: the `z` with P(Z <= z) = `p`, for 0 < p < 1 (Acklam's
/// rational approximation, relative error below 1.2e-9). None outside (0, 1).
pub fn normal_quantile(p: f64) -> Option<f64> {
    if !(p > 0.0 && p < 1.0) {
        return None;
    }
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.38357751867269e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let tail = |q: f64| {
        let q = (-2.0 * q.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    const LOW: f64 = 0.02425;
    Some(if p < LOW {
        tail(p)
    } else if p > 1.0 - LOW {
        -tail(1.0 - p)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    })
}

/// The 95% Wilson score interval for `successes` out of `trials`, clamped so that
/// `0 <= low <= p <= high <= 1` exactly (low is 0 with no success, high is 1 with no failure).
/// None when `trials` is 0 (or, for counts that cannot be, below `successes`).
pub fn wilson95(successes: u64, trials: u64) -> Option<(f64, f64)> {
    if trials == 0 || successes > trials {
        return None;
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let mut low = (centre - half).clamp(0.0, p);
    let mut high = (centre + half).clamp(p, 1.0);
    if successes == 0 {
        low = 0.0;
    }
    if successes == trials {
        high = 1.0;
    }
    Some((low, high))
}

/// Mean and standard error of the mean from the count, sum and sum of squares of integer
/// samples. The variance numerator is computed exactly in integers. None when `n` is 0; the
/// standard error is 0 for a single sample.
pub fn mean_se(n: u64, sum: i64, sum_sq: u128) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let mean = sum as f64 / n as f64;
    if n == 1 {
        return Some((mean, 0.0));
    }
    // n * sum_sq - sum^2 >= 0 by Cauchy-Schwarz; i128 holds it for any realistic run.
    // Counts read from a damaged file may not fit: then f64 arithmetic, never a panic.
    let exact = i128::try_from(sum_sq)
        .ok()
        .and_then(|sq| (n as i128).checked_mul(sq))
        .and_then(|a| a.checked_sub((sum as i128) * (sum as i128)));
    let numerator = match exact {
        Some(v) => v.max(0) as f64,
        None => (n as f64 * sum_sq as f64 - (sum as f64) * (sum as f64)).max(0.0),
    };
    let variance = numerator / (n as f64 * (n as f64 - 1.0));
    Some((mean, (variance / n as f64).sqrt()))
}

/// Mean and standard error of the differences `x - y` of `n` paired integer samples, from each
/// side's sum and sum of squares and the sum of their products `cross`. The squared differences
/// are summed exactly in integers (x² + y² - 2xy, never negative; saturating only for counts
/// read from a damaged file). None when `n` is 0.
pub fn paired_mean_se(
    n: u64,
    (x_sum, x_sq): (i64, u128),
    (y_sum, y_sq): (i64, u128),
    cross: i128,
) -> Option<(f64, f64)> {
    let square = |sq: u128| i128::try_from(sq).unwrap_or(i128::MAX);
    let squares = square(x_sq)
        .saturating_add(square(y_sq))
        .saturating_sub(cross.saturating_mul(2));
    mean_se(n, x_sum - y_sum, squares.max(0) as u128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_quantiles_match_tables() {
        for (p, z) in [
            (0.975, Z95),
            (0.5, 0.0),
            (0.999, 3.090232306167813),
            (0.01, -2.326347874040841),
            (0.99999, 4.264890793922602),
        ] {
            assert!((normal_quantile(p).unwrap() - z).abs() < 1e-8, "{p}");
        }
        assert_eq!(normal_quantile(1.0), None);
        assert_eq!(normal_quantile(0.0), None);
    }

    #[test]
    fn wilson_known_values_and_clamps() {
        let (lo, hi) = wilson95(50, 100).unwrap();
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        assert_eq!(wilson95(0, 10).unwrap().0, 0.0);
        assert_eq!(wilson95(10, 10).unwrap().1, 1.0);
        assert_eq!(wilson95(0, 0), None);
        for n in 1..60 {
            for k in 0..=n {
                let (lo, hi) = wilson95(k, n).unwrap();
                let p = k as f64 / n as f64;
                assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0);
            }
        }
    }

    #[test]
    fn mean_and_se() {
        // Samples 1, 2, 3, 4: mean 2.5, sample variance 5/3, se sqrt(5/12).
        let (m, se) = mean_se(4, 10, 30).unwrap();
        assert_eq!(m, 2.5);
        assert!((se - (5.0f64 / 12.0).sqrt()).abs() < 1e-12);
    }
}
