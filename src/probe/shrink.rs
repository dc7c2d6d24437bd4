//! One step smaller: the values a failing explored call's arguments shrink to, as property
//! testers shrink a counterexample. Every candidate is strictly smaller than what it comes
//! from (fewer members or items, a shorter string, a number nearer zero), so a chain of
//! steps ends.

use serde_json::{Value, json};

/// The members of an object, or items of an array, taken apart one by one; the rest shrink
/// only all together.
const MAX_PARTS: usize = 16;

/// The values one step smaller than `value`, the smallest first, made one at a time: each
/// is a copy of `value`, which may be large.
pub fn smaller(value: &Value) -> Box<dyn Iterator<Item = Value> + '_> {
    match value {
        Value::Object(members) => {
            let fewer = members.keys().take(MAX_PARTS).map(move |name| {
                let mut fewer = members.clone();
                fewer.remove(name);
                Value::Object(fewer)
            });
            let simpler = members
                .iter()
                .take(MAX_PARTS)
                .flat_map(move |(name, member)| {
                    smaller(member).map(move |simpler| {
                        let mut changed = members.clone();
                        changed.insert(name.clone(), simpler);
                        Value::Object(changed)
                    })
                });
            Box::new(fewer.chain(simpler))
        }
        Value::Array(items) if items.is_empty() => Box::new(std::iter::empty()),
        Value::Array(items) => {
            let taken = items.len().min(MAX_PARTS);
            let split = if items.len() > 1 { taken } else { 0 };
            let fewer = (0..split).map(move |i| {
                let mut fewer = items.clone();
                fewer.remove(i);
                Value::Array(fewer)
            });
            let simpler = items
                .iter()
                .enumerate()
                .take(taken)
                .flat_map(move |(i, item)| {
                    smaller(item).map(move |simpler| {
                        let mut changed = items.clone();
                        changed[i] = simpler;
                        Value::Array(changed)
                    })
                });
            Box::new(std::iter::once(json!([])).chain(fewer).chain(simpler))
        }
        Value::String(text) => {
            let chars: Vec<char> = text.chars().collect();
            let prefixes = toward_zero(chars.len() as i64).into_iter();
            Box::new(prefixes.map(move |n| json!(chars[..n as usize].iter().collect::<String>())))
        }
        Value::Number(n) => Box::new(
            match n.as_i64() {
                Some(n) => toward_zero(n).into_iter().map(Value::from).collect(),
                // A u64 over i64::MAX: zero, then i64::MAX, which the steps above go on from.
                None if n.is_u64() => vec![json!(0), json!(i64::MAX)],
                None => smaller_float(n.as_f64().unwrap_or_default()),
            }
            .into_iter(),
        ),
        Value::Bool(true) => Box::new(std::iter::once(json!(false))),
        Value::Bool(false) | Value::Null => Box::new(std::iter::empty()),
    }
}

/// The integers strictly between zero and `n` that a binary search toward zero tries: 0,
/// n/2, 3n/4, ..., n∓1.
fn toward_zero(n: i64) -> Vec<i64> {
    let mut steps = Vec::new();
    let mut cut = n;
    while cut != 0 {
        steps.push(n - cut);
        cut /= 2;
    }
    steps
}

/// A float shrinks to zero, then to its whole part, then as an integer while it is one
/// exactly.
fn smaller_float(f: f64) -> Vec<Value> {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if f == 0.0 || !f.is_finite() {
        return Vec::new();
    }
    if f.fract() != 0.0 {
        let mut candidates = vec![json!(0.0)];
        candidates.extend((f.trunc() != 0.0).then(|| json!(f.trunc())));
        return candidates;
    }
    if f.abs() > EXACT {
        return vec![json!(0.0)];
    }
    toward_zero(f as i64)
        .into_iter()
        .map(|n| json!(n as f64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn smaller(value: &Value) -> Vec<Value> {
        super::smaller(value).collect()
    }

    #[test]
    fn each_kind_steps_toward_the_empty_and_zero() {
        assert_eq!(toward_zero(10), [0, 5, 8, 9]);
        assert_eq!(toward_zero(-3), [0, -2]);
        assert_eq!(
            smaller(&json!("abcd")),
            [json!(""), json!("ab"), json!("abc")]
        );
        assert_eq!(smaller(&json!(1.5)), [json!(0.0), json!(1.0)]);
        assert_eq!(smaller(&json!(4.0)), [json!(0.0), json!(2.0), json!(3.0)]);
        assert_eq!(smaller(&json!(1e308)), [json!(0.0)]);
        assert_eq!(smaller(&json!(u64::MAX)), [json!(0), json!(i64::MAX)]);
        assert_eq!(smaller(&json!(true)), [json!(false)]);
        assert!(smaller(&json!(null)).is_empty() && smaller(&json!(0)).is_empty());
        assert_eq!(
            smaller(&json!([1, 2])),
            [
                json!([]),
                json!([2]),
                json!([1]),
                json!([0, 2]),
                json!([1, 0]),
                json!([1, 1])
            ]
        );
        let wide: serde_json::Map<String, Value> =
            (0..10_000).map(|i| (format!("m{i}"), json!(1))).collect();
        let parts = MAX_PARTS;
        assert_eq!(smaller(&Value::Object(wide)).len(), parts + parts);
        assert_eq!(
            smaller(&json!({"a": 1, "b": false})),
            [
                json!({"b": false}),
                json!({"a": 1}),
                json!({"a": 0, "b": false})
            ]
        );
    }

    /// What every step makes smaller: members and items first, then lengths and magnitudes
    /// (doubled, so that a float's whole part is smaller than it).
    fn size(value: &Value) -> (usize, u128) {
        match value {
            Value::Object(m) => m.values().map(size).fold((m.len() + 1, 0), add),
            Value::Array(a) => a.iter().map(size).fold((a.len() + 1, 0), add),
            Value::String(s) => (0, s.chars().count() as u128),
            Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => (0, 2 * u128::from(i.unsigned_abs())),
                (None, Some(u)) => (0, 2 * u128::from(u)),
                _ => (0, (2.0 * n.as_f64().unwrap().abs()).ceil() as u128),
            },
            Value::Bool(b) => (0, u128::from(*b)),
            Value::Null => (0, 0),
        }
    }

    fn add(a: (usize, u128), b: (usize, u128)) -> (usize, u128) {
        (a.0 + b.0, a.1 + b.1)
    }

    #[test]
    fn every_step_is_smaller() {
        let value =
            json!({"q": "xyz", "n": [i64::MIN, 1e9, -2.5, "ab", {"t": true}], "u": u64::MAX});
        let mut seen = vec![value];
        for _ in 0..2 {
            let next: Vec<Value> = seen
                .iter()
                .flat_map(|v| {
                    let candidates = smaller(v);
                    for c in &candidates {
                        assert!(size(c) < size(v), "{c} from {v}");
                    }
                    candidates
                })
                .collect();
            seen = next;
        }
        assert!(!seen.is_empty());
    }
}
