//! What policies and analyses both need: sampling the hidden cards consistently with what a seat
//! knows ([`worlds`]), the hand evaluator ([`hand`]: what one hand is worth as declarer, bid by
//! bid) and the hand classes that bid tables and the `table` policy key on ([`classes`]); the
//! chance of winning a session from where it stands ([`equity`]).

pub mod classes;
pub mod equity;
pub mod hand;
pub mod rating;
pub mod worlds;
