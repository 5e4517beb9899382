//! The fastest bare loop we could write that deals four Nap hands into bitboards and plays five
//! tricks with the lowest legal card: a speed baseline for the simulator, not part of it. It
//! uses nothing from `napsim` (std only).
//!
//! Build for this CPU and run (the argument is the number of deals, default 20 000 000):
//!
//! ```text
//! RUSTFLAGS="-C target-cpu=native" cargo build --release --example bare_loop --target-dir /tmp/bare-target
//! /tmp/bare-target/release/examples/bare_loop 20000000
//! ```
//!
//! It prints the number of deals, the elapsed time, ns per deal and a checksum: the total tricks
//! won by seat 0, so the optimiser cannot drop any of the work. The seed is fixed, so the
//! checksum is too (29414207 for 20 000 000 deals).
//!
//! **Deal.** Each hand is a `u64` with one 16-bit lane per suit and rank `r` (2..=14) at bit
//! `r` of its lane, as in `napsim::cards`. Twenty distinct cards are drawn uniformly from the
//! 52-card pack, five to each of four hands, by an exact partial Fisher-Yates: the `i`-th card
//! is the `k`-th card still in the pack, `k` uniform in `0..52 - i`. The twenty indices are
//! the mixed-radix digits of two 64-bit draws, ten digits per draw (batched Lemire
//! multiply-and-reject, Brackett-Rowe and Lemire 2024: a draw is rejected with probability
//! under 0.11%, which makes the digits exactly uniform), and "the `k`-th card still in the pack"
//! is one PDEP (BMI2). Random numbers come from xoshiro256++.
//!
//! **Play.** Seat 0 leads its lowest card (lowest bit index: by rank within a suit, clubs lane
//! first across suits), and that card's suit is trumps.
//! Every other seat plays its lowest card of the led suit if it has one, else its lowest card.
//! The highest trump wins, else the highest card of the led suit; the winner leads the next
//! trick. Everything is branch-free.
//!
//! **Overlap.** Dealing and playing are each a chain of dependent steps. The loop deals one
//! deal ahead and interleaves the two: while it plays deal `n`, it deals one hand of deal
//! `n + 1` after each trick, so the CPU can run the two independent chains side by side. Every
//! played deal is dealt and played in full; one extra deal is dealt and never played.

use std::hint::{black_box, select_unpredictable};
use std::time::Instant;

/// Ranks 2..=14 of one suit lane.
const LANE: u64 = 0x7FFC;
/// The 52-card pack.
const PACK: u64 = LANE | LANE << 16 | LANE << 32 | LANE << 48;

/// xoshiro256++ (Blackman and Vigna), seeded through SplitMix64.
struct Xoshiro256pp {
    s0: u64,
    s1: u64,
    s2: u64,
    s3: u64,
}

impl Xoshiro256pp {
    fn new(mut seed: u64) -> Self {
        let mut next = || {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            // black_box: stops LLVM from vectorising the seeding with AVX-512 (vpmullq),
            // which valgrind cannot run.
            black_box(z ^ (z >> 31))
        };
        Self {
            s0: next(),
            s1: next(),
            s2: next(),
            s3: next(),
        }
    }

    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        let out = self
            .s0
            .wrapping_add(self.s3)
            .rotate_left(23)
            .wrapping_add(self.s0);
        let t = self.s1 << 17;
        self.s2 ^= self.s0;
        self.s3 ^= self.s1;
        self.s1 ^= self.s2;
        self.s0 ^= self.s3;
        self.s2 ^= t;
        self.s3 = self.s3.rotate_left(45);
        out
    }
}

/// `first * (first - 1) * .. * (first - 9)`: the outcomes of ten draws without replacement.
const fn falling10(first: u64) -> u64 {
    let mut p = 1;
    let mut i = 0;
    while i < 10 {
        p *= first - i;
        i += 1;
    }
    p
}

/// Outcomes of the first ten cards (52 * .. * 43 < 2^64) and of the last ten (42 * .. * 33).
const P1: u64 = falling10(52);
const P2: u64 = falling10(42);
/// `2^64 mod P`: a draw `r` is rejected when `r * P mod 2^64` is below it.
const T1: u64 = P1.wrapping_neg() % P1;
const T2: u64 = P2.wrapping_neg() % P2;

/// A 64-bit draw whose mixed-radix digits for a product `p` (with `t = 2^64 mod p`) are exactly
/// uniform: digit `i` is the high word of the running low word times the `i`-th radix.
#[inline(always)]
fn batch(rng: &mut Xoshiro256pp, p: u64, t: u64) -> u64 {
    loop {
        let r = rng.next_u64();
        if r.wrapping_mul(p) >= t {
            return r;
        }
    }
}

/// The `k`-th lowest set bit of `set`, as a one-bit mask.
#[cfg(target_feature = "bmi2")]
#[inline(always)]
fn select(set: u64, k: u32) -> u64 {
    // SAFETY: only compiled when the target has BMI2.
    unsafe { core::arch::x86_64::_pdep_u64(1 << k, set) }
}

/// The `k`-th lowest set bit of `set`, as a one-bit mask (portable fallback, much slower).
#[cfg(not(target_feature = "bmi2"))]
#[inline(always)]
fn select(mut set: u64, k: u32) -> u64 {
    for _ in 0..k {
        set &= set - 1;
    }
    set & set.wrapping_neg()
}

/// A deal in progress: what is left of the pack and of the two draws.
struct Dealer {
    pack: u64,
    left: u64,
    draws: [u64; 2],
}

impl Dealer {
    #[inline(always)]
    fn new(rng: &mut Xoshiro256pp) -> Self {
        let draws = [batch(rng, P1, T1), batch(rng, P2, T2)];
        Dealer {
            pack: PACK,
            left: 52,
            draws,
        }
    }

    /// The hand of `seat` (call for seats 0, 1, 2, 3 in order): five cards, each the `k`-th
    /// card left in the pack for the next digit `k`. Seats 0 and 1 use the first draw's ten
    /// digits, seats 2 and 3 the second's.
    #[inline(always)]
    fn hand(&mut self, seat: usize) -> u64 {
        let r = &mut self.draws[seat / 2];
        let before = self.pack;
        for _ in 0..5 {
            let m = u128::from(*r) * u128::from(self.left);
            *r = m as u64;
            self.left -= 1;
            self.pack ^= select(self.pack, (m >> 64) as u32);
        }
        before ^ self.pack
    }
}

/// `x`, which the optimiser can no longer see through: an empty asm block, no code.
#[inline(always)]
fn opaque(mut x: u64) -> u64 {
    // SAFETY: the asm is empty.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags))
    };
    x
}

/// `x`, made to depend on `token` as far as the optimiser knows: an empty asm block, no code.
#[inline(always)]
fn after(mut x: u64, token: u32) -> u64 {
    // SAFETY: the asm is empty.
    unsafe {
        core::arch::asm!(
            "/* {0} {1:e} */",
            inout(reg) x,
            in(reg) token,
            options(pure, nomem, nostack, preserves_flags),
        )
    };
    x
}

/// Removes and returns the lowest card of the `led` suit in `hand`, else the lowest card.
#[inline(always)]
fn follow(hand: &mut u64, led: u64) -> u64 {
    // `opaque` keeps the hand and the card in general registers. Without it LLVM packs the
    // four seats into one vector, whose inserts and extracts cost more than they save (the
    // loop took about 38 ns a deal instead of 24).
    let h = opaque(*hand);
    let of_suit = h & led;
    let from = select_unpredictable(of_suit != 0, of_suit, h);
    let card = opaque(from & from.wrapping_neg());
    *hand = h ^ card;
    card
}

/// The lane (0, 16, 32 or 48) of the lowest card of `hand`.
#[inline(always)]
fn lane_of(hand: u64) -> u32 {
    hand.trailing_zeros() & 48
}

/// A deal being played.
struct Game {
    hands: [u64; 4],
    /// The lane of the suit to be led (the suit of the leader's lowest card).
    lane: u32,
    trumps: u64,
    /// Tricks won by seat 0 so far.
    won: u32,
}

impl Game {
    #[inline(always)]
    fn new(hands: [u64; 4]) -> Self {
        let lane = lane_of(hands[0]);
        Game {
            hands,
            lane,
            trumps: 0xFFFF << lane,
            won: 0,
        }
    }

    /// Plays one trick; `first` for the first trick, whose led suit is trumps.
    #[inline(always)]
    fn trick(&mut self, first: bool) {
        let [h0, h1, h2, h3] = &mut self.hands;
        // Every seat, the leader too, plays its lowest card of the led suit, else its lowest
        // card: for the leader that is its lowest card, which fixed the led suit.
        let led = 0xFFFF << self.lane;
        let c0 = follow(h0, led);
        let c1 = follow(h1, led);
        let c2 = follow(h2, led);
        let c3 = follow(h3, led);
        let played = c0 | c1 | c2 | c3;
        let ruffs = played & self.trumps;
        let contenders = select_unpredictable(first || ruffs != 0, ruffs, played & led);
        // The winning card is the highest contender: the one with its leading-zero count.
        let top = contenders.leading_zeros();
        self.won += u32::from(c0.leading_zeros() == top);
        // The winner leads next from the lane of its lowest card (each seat's is computed
        // before the winner is known, to keep it off the critical path).
        let lane = select_unpredictable(c1.leading_zeros() == top, lane_of(*h1), lane_of(*h0));
        let lane = select_unpredictable(c2.leading_zeros() == top, lane_of(*h2), lane);
        self.lane = select_unpredictable(c3.leading_zeros() == top, lane_of(*h3), lane);
    }
}

fn main() {
    let deals: u64 = match std::env::args().nth(1) {
        Some(arg) => arg.replace('_', "").parse().expect("the number of deals"),
        None => 20_000_000,
    };
    let mut rng = Xoshiro256pp::new(black_box(0x5EED));
    let start = Instant::now();
    let mut checksum = 0u64;
    let mut dealer = Dealer::new(&mut rng);
    let mut hands = [0, 1, 2, 3].map(|seat| dealer.hand(seat));
    for _ in 0..deals {
        // Play `hands` while dealing the next deal, one hand after each trick. `after` ties
        // each hand to the lane its trick started from, so that LLVM keeps this order instead
        // of hoisting the whole next deal above the play (which made the loop 10% slower).
        let mut game = Game::new(hands);
        let mut dealer = Dealer::new(&mut rng);
        let lane = game.lane;
        game.trick(true);
        dealer.pack = after(dealer.pack, lane);
        let h0 = dealer.hand(0);
        let lane = game.lane;
        game.trick(false);
        dealer.pack = after(dealer.pack, lane);
        let h1 = dealer.hand(1);
        let lane = game.lane;
        game.trick(false);
        dealer.pack = after(dealer.pack, lane);
        let h2 = dealer.hand(2);
        let lane = game.lane;
        game.trick(false);
        dealer.pack = after(dealer.pack, lane);
        let h3 = dealer.hand(3);
        game.trick(false);
        checksum += u64::from(game.won);
        hands = [h0, h1, h2, h3];
    }
    let elapsed = start.elapsed();
    let checksum = black_box(checksum);
    // Conversions go through i64: u64-to-f64 is an AVX-512 instruction, which valgrind
    // cannot run.
    let secs = elapsed.as_nanos() as i64 as f64 * 1e-9;
    let ns = secs * 1e9 / deals.max(1) as i64 as f64;
    println!("deals:    {deals}");
    println!("elapsed:  {secs:.3} s");
    println!("ns/deal:  {ns:.2}");
    println!("checksum: {checksum} (tricks won by seat 0)");
}
