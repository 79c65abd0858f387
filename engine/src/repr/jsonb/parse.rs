//! `jsonb`'s text read as the real system reads it (`strconv::parse_jsonb`
//! and `JsonbPacker`, read for the facts): trimmed, then read by serde_json
//! (its syntax, its 128 levels of nesting, its error texts with their line
//! and column), every number's text read as a `numeric` (out of range an
//! error there), and an error `invalid input syntax for type jsonb:
//! <serde_json's error>: "<text>"`.
//!
//! serde_json's `arbitrary_precision` hands a number over as a map of one
//! entry under a private key, its value the number's text; that key is
//! told apart from an object's keys here, as the real system's reader does.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::Jsonb;
use crate::repr::decimal;

/// The key under which serde_json hands over a number's text.
const NUMBER_KEY: &str = "$serde_json::private::Number";

/// `s` read as a `jsonb`, or the real system's error.
pub fn parse(s: &str) -> Result<Jsonb, String> {
    let mut reader = serde_json::Deserializer::from_str(s.trim());
    let read = Reader
        .deserialize(&mut reader)
        .and_then(|value| reader.end().map(|()| value));
    read.map_err(|e| format!("invalid input syntax for type jsonb: {e}: \"{s}\""))
}

/// Builds a `Jsonb` from what serde_json reads.
struct Reader;

impl<'de> DeserializeSeed<'de> for Reader {
    type Value = Jsonb;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Jsonb, D::Error> {
        d.deserialize_any(self)
    }
}

/// A number's text as a `numeric`, its error serde_json's.
fn number<E: de::Error>(text: &str) -> Result<Jsonb, E> {
    decimal::parse(text).map(Jsonb::Number).map_err(E::custom)
}

impl<'de> Visitor<'de> for Reader {
    type Value = Jsonb;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Jsonb, E> {
        Ok(Jsonb::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Jsonb, E> {
        Ok(Jsonb::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Jsonb, E> {
        number(&i.to_string())
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Jsonb, E> {
        number(&u.to_string())
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Jsonb, E> {
        number(&f.to_string())
    }

    fn visit_str<E>(self, s: &str) -> Result<Jsonb, E> {
        Ok(Jsonb::String(s.to_owned()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Jsonb, A::Error> {
        let mut elements = Vec::new();
        while let Some(e) = seq.next_element_seed(Reader)? {
            elements.push(e);
        }
        Ok(Jsonb::Array(elements))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Jsonb, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if entries.is_empty() && key == NUMBER_KEY {
                let text: String = map.next_value()?;
                return number(&text);
            }
            let value = map.next_value_seed(Reader)?;
            entries.push((key, value));
        }
        Ok(Jsonb::object(entries))
    }
}
