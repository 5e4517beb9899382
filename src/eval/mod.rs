//! What policies and analyses both need: sampling the hidden cards consistently with what a seat
//! knows ([`worlds`]), the hand evaluator ([`hand`]: what one hand is worth as declarer, bid by
//! bid) and the hand classes that bid tables and the `table` policy key on ([`classes`]).

pub mod classes;
pub mod hand;
pub mod rating;
pub mod worlds;
