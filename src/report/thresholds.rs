//! The terminal table of `napsim thresholds`.

use crate::analysis::thresholds::{BestThreshold, ThresholdsJob};
use crate::rules::Profile;

/// The terminal table of `napsim thresholds`: the best threshold of each bid, with its range
/// and expected units, and how to read them.
pub fn thresholds_text(
    profile: &Profile,
    job: &ThresholdsJob,
    seed: u64,
    bests: &[BestThreshold],
) -> String {
    let mut text = format!(
        "{} | {} players | seat {} | play {} | seed {seed} | {} deals\n\n",
        profile.name(),
        job.players,
        job.seat,
        job.play,
        job.deals
    );
    text += &format!(
        "{:<28} {:>9} {:>13} {:>20}\n",
        "bid", "bid from", "95% range", "EV/deal ± se"
    );
    let mut overcalls = false;
    for best in bests {
        let bid = profile.bid_by_name(&best.bid);
        // A bid that can only overcall (Wellington over a Nap) is marked: no seat opens with it.
        let over = bid
            .and_then(|b| b.only_over())
            .map(|o| profile.bid(o).label());
        overcalls |= over.is_some();
        let name = bid.map_or(best.bid.as_str(), |b| b.label());
        let label = match over {
            Some(over) => format!("{name} (over {over})"),
            None => name.to_string(),
        };
        let from = if best.never {
            "never".to_string()
        } else {
            format!(
                "{} {}",
                best.score.replace("strength", "").trim(),
                best.threshold
            )
            .trim()
            .to_string()
        };
        text += &format!(
            "{:<28} {:>9} {:>13} {:>+12.4} ± {:.4}\n",
            label,
            from,
            format!("{}-{}", best.interval.0, best.interval.1),
            best.ev.0,
            best.ev.1
        );
    }
    text += "\nScores: the threshold policy's trick strength (2 per trump, trump A 4, K 3, Q 2, \
             J 1, side A 3, side K 1;\nbest suit as trump), its misère strength for misère bids. \
             Each bid is swept alone: bid it when the\nscore reaches the threshold, else pass. \
             'bid from' maximises expected units per deal reaching the\nseat; the range holds \
             every threshold not significantly worse (paired on the same deals, 95%).\n";
    if overcalls && !job.auction {
        text += "A bid marked (over X) can only overcall X: it is swept as if the seat could open \
                 with it, so\nits threshold says when the hand would earn it as declarer, not \
                 when the seat may call it.\n";
    }
    if job.auction {
        text += "In the whole auction: a hand that does not bid passes, and both are worth what \
                 they bring in the whole deal\n(the later seats bid by the threshold bidder and \
                 whoever wins plays), so passing is not worth 0.\nBids that may only overcall \
                 are left out.\n";
    }
    text
}
