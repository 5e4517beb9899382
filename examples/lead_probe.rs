//! Scratch: opening leads where heuristic and PIMC disagree.
use napsim::analysis::solve::random_hands;
use napsim::bots::{bid_policy, play_policy};
use napsim::cards::Card;
use napsim::game::DealState;
use napsim::policy::{PlayView, Uniform, run_auction, settle_contract};
use napsim::rng::base_rng;
use napsim::rules::Profile;

fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let profile = Profile::default_profile();
    let pack: Vec<Card> = profile.pack(4).into_iter().collect();
    let bid = bid_policy("threshold", &profile).unwrap();
    let heur = play_policy("heuristic", &profile).unwrap();
    let pimc = play_policy("pimc:worlds=64", &profile).unwrap();
    let table = Uniform {
        bid: bid.as_ref(),
        play: heur.as_ref(),
    };
    let mut rng = base_rng(12);
    let (mut total, mut shown) = (0, 0);
    let mut kinds = std::collections::BTreeMap::new();
    while shown < n {
        let hands = random_hands(&pack, 4, &mut rng);
        let mut state = DealState::new(&profile, 3, &hands);
        run_auction(&mut state, &table, &mut rng);
        if state.contract().is_none() {
            continue;
        }
        settle_contract(&mut state, &table, &mut rng);
        let view = PlayView::new(&state);
        total += 1;
        let h = heur.play(&view, &mut rng);
        let p = pimc.play(&view, &mut rng);
        if h == p {
            continue;
        }
        let kind = if h.suit() == p.suit() {
            "same suit"
        } else {
            "other suit"
        };
        *kinds.entry(kind).or_insert(0) += 1;
        if shown < 40 {
            println!(
                "{} bid {} | heur {h} pimc {p} ({kind})",
                view.hand(),
                view.bid().name()
            );
        }
        shown += 1;
    }
    println!("contracts {total} differ {shown} {kinds:?}");
}
