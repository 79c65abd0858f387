//! The functions of `bytea` in `BytesFunc`, each as the real system
//! evaluates it (its `expr/src/scalar/func.rs`, `func/impls/byte.rs`,
//! `func/encoding.rs` and `func/variadic.rs`, read for the facts), with
//! its texts for what can go wrong. Its digests and HMACs are the
//! RustCrypto crates' it uses itself; a text is digested as its UTF-8
//! bytes.

use std::fmt::Write;

use hmac::{Hmac, KeyInit, Mac};
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha224, Sha256, Sha384, Sha512};

use super::errors::{int4_out_of_range, length_too_large, MAX_RESULT_BYTES};
use crate::plan::BytesFunc;
use crate::repr::bytes::{parse_escaped, parse_hex};
use crate::repr::{quoted, DataflowError, Datum};

/// `func` of non-NULL `args` of the types it was resolved for (`None`:
/// not a function of this family).
pub fn apply(func: BytesFunc, args: &[Datum]) -> Option<Result<Datum, DataflowError>> {
    use Datum::{Bytes, Int32, Text};
    let length = |n: usize| {
        i32::try_from(n)
            .map(Int32)
            .map_err(|_| int4_out_of_range(n))
    };
    Some(match (func, args) {
        (BytesFunc::Length, [Bytes(b)]) => length(b.len()),
        (BytesFunc::BitLength, [Bytes(b)]) => length(b.len() * 8),
        (BytesFunc::GetByte, [Bytes(b), Int32(i)]) => get(b, *i, 1),
        (BytesFunc::GetBit, [Bytes(b), Int32(i)]) => get(b, *i, 8),
        (BytesFunc::Encode, [Bytes(b), Text(format)]) => {
            format_of(format).map(|f| Text(encode(f, b)))
        }
        (BytesFunc::Decode, [Text(s), Text(format)]) => {
            format_of(format).and_then(|f| decode(f, s)).map(Bytes)
        }
        (BytesFunc::ConvertFrom, [Bytes(b), Text(encoding)]) => convert_from(b, encoding),
        (BytesFunc::Md5, [x]) => Ok(Text(encode(Format::Hex, &Md5::digest(input(x))))),
        (BytesFunc::Digest, [x, Text(algorithm)]) => digest(input(x), algorithm).map(Bytes),
        (BytesFunc::Sha(algorithm), [x]) => digest(input(x), algorithm).map(Bytes),
        (BytesFunc::Hmac, [x, key, Text(algorithm)]) => {
            hmac(input(x), input(key), algorithm).map(Bytes)
        }
        _ => return None,
    })
}

/// The bytes a digest reads: a `bytea`'s, or a text's UTF-8 bytes.
fn input(d: &Datum) -> &[u8] {
    match d {
        Datum::Bytes(b) => b,
        Datum::Text(s) => s.as_bytes(),
        _ => unreachable!("a digest of a text or a bytea"),
    }
}

fn eval(what: impl std::fmt::Display) -> DataflowError {
    DataflowError::eval(&what.to_string())
}

/// `get_byte` (`per_byte` 1) or `get_bit` (8, the bit counted from each
/// byte's lowest) at `index`.
fn get(b: &[u8], index: i32, per_byte: usize) -> Result<Datum, DataflowError> {
    let count = b.len().saturating_mul(per_byte);
    let end = i32::try_from(count).expect("a bytea under 256 MiB") - 1;
    let out_of_range = || eval(format!("index {index} out of valid range, 0..{end}"));
    let index = usize::try_from(index).map_err(|_| out_of_range())?;
    let byte = b.get(index / per_byte).ok_or_else(out_of_range)?;
    Ok(Datum::Int32(match per_byte {
        1 => i32::from(*byte),
        _ => i32::from((byte >> (index % 8)) & 1),
    }))
}

/// The formats of `encode` and `decode`.
#[derive(Clone, Copy)]
enum Format {
    Base64,
    Escape,
    Hex,
}

/// The format a name means, in any case.
fn format_of(name: &str) -> Result<Format, DataflowError> {
    match name.to_lowercase().as_str() {
        "base64" => Ok(Format::Base64),
        "escape" => Ok(Format::Escape),
        "hex" => Ok(Format::Hex),
        _ => Err(eval(format!("invalid encoding name '{name}'"))),
    }
}

/// The base64 alphabet, PostgreSQL's (MIME's).
const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn encode(format: Format, bytes: &[u8]) -> String {
    let mut out = String::new();
    match format {
        Format::Hex => bytes.iter().for_each(|b| {
            write!(out, "{b:02x}").expect("a string takes any text");
        }),
        Format::Escape => bytes.iter().for_each(|&b| match b {
            0 | 0x80..=0xff => write!(out, "\\{b:03o}").expect("a string takes any text"),
            b'\\' => out.push_str("\\\\"),
            _ => out.push(char::from(b)),
        }),
        Format::Base64 => {
            for chunk in bytes.chunks(3) {
                let at = |i: usize| chunk.get(i).copied().unwrap_or(0);
                let sextets = [
                    at(0) >> 2,
                    (at(0) & 0b11) << 4 | at(1) >> 4,
                    (at(1) & 0b1111) << 2 | at(2) >> 6,
                    at(2) & 0b11_1111,
                ];
                for (i, s) in sextets.into_iter().enumerate() {
                    let written = i <= chunk.len();
                    out.push(if written {
                        char::from(BASE64[usize::from(s)])
                    } else {
                        '='
                    });
                }
                // The real system's line break, after its own count.
                if out.len() % 77 == 76 {
                    out.push('\n');
                }
            }
        }
    }
    out
}

fn decode(format: Format, s: &str) -> Result<Vec<u8>, DataflowError> {
    let out = match format {
        Format::Hex => parse_hex(s).map_err(eval)?,
        Format::Escape => parse_escaped(s).map_err(|detail| {
            eval(format!(
                "invalid input syntax for type bytea: {detail}: {}",
                quoted(s)
            ))
        })?,
        Format::Base64 => decode_base64(s)?,
    };
    match out.len() > MAX_RESULT_BYTES {
        true => Err(length_too_large()),
        false => Ok(out),
    }
}

/// Base64 in chunks of four symbols, whitespace skipped, as the real
/// system reads it: `=` only last in a chunk, and no partial chunk.
fn decode_base64(s: &str) -> Result<Vec<u8>, DataflowError> {
    let sextet = |b: u8| match BASE64.iter().position(|&c| c == b) {
        Some(p) => Ok(p as u8),
        None => Err(eval(format!(
            "invalid symbol \"{}\" found while decoding base64 sequence",
            char::from(b).escape_default()
        ))),
    };
    let mut out = vec![];
    let mut symbols = s
        .bytes()
        .filter(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    loop {
        let chunk = [0, 1, 2, 3].map(|_| symbols.next());
        let kept = match chunk {
            [Some(_), Some(_), Some(b'='), Some(b'=')] => 1,
            [Some(_), Some(_), Some(_), Some(b'=')] => 2,
            [Some(b'='), ..] | [_, Some(b'='), ..] | [_, _, Some(b'='), _] => {
                return Err(eval("unexpected \"=\" while decoding base64 sequence"))
            }
            [Some(_), Some(_), Some(_), Some(_)] => 3,
            [None, None, None, None] => return Ok(out),
            _ => return Err(eval("invalid base64 end sequence")),
        };
        let mut s = [0u8; 4];
        for (i, c) in chunk.into_iter().take(kept + 1).enumerate() {
            s[i] = sextet(c.expect("a symbol"))?;
        }
        let octets = [
            s[0] << 2 | s[1] >> 4,
            s[1] << 4 | s[2] >> 2,
            s[2] << 6 | s[3],
        ];
        out.extend_from_slice(&octets[..kept]);
    }
}

/// `convert_from`: UTF-8 alone, named as the WHATWG labels name it after
/// the real system lowercases the name and turns `_` into `-`.
fn convert_from(b: &[u8], encoding: &str) -> Result<Datum, DataflowError> {
    let name = encoding.to_lowercase().replace('_', "-");
    if name.trim() != name {
        // The labels' reader trims whitespace, which the engine does not
        // follow.
        return Err(eval(crate::repr::unsupported(
            "convert_from of an encoding name with whitespace",
        )));
    }
    if !matches!(name.as_str(), "utf-8" | "utf8" | "unicode-1-1-utf-8") {
        return Err(eval(format!("invalid encoding name '{name}'")));
    }
    match std::str::from_utf8(b) {
        Ok(s) => Ok(Datum::Text(s.to_string())),
        Err(e) => Err(eval(format!(
            "invalid byte sequence '{e}' for encoding '{name}'"
        ))),
    }
}

fn digest(bytes: &[u8], algorithm: &str) -> Result<Vec<u8>, DataflowError> {
    Ok(match algorithm {
        "md5" => Md5::digest(bytes).to_vec(),
        "sha1" => Sha1::digest(bytes).to_vec(),
        "sha224" => Sha224::digest(bytes).to_vec(),
        "sha256" => Sha256::digest(bytes).to_vec(),
        "sha384" => Sha384::digest(bytes).to_vec(),
        "sha512" => Sha512::digest(bytes).to_vec(),
        other => return Err(eval(format!("invalid hash algorithm '{other}'"))),
    })
}

fn hmac(bytes: &[u8], key: &[u8], algorithm: &str) -> Result<Vec<u8>, DataflowError> {
    fn mac<M: Mac + KeyInit>(bytes: &[u8], key: &[u8]) -> Vec<u8> {
        let mut mac = <M as KeyInit>::new_from_slice(key).expect("HMAC takes any key");
        mac.update(bytes);
        mac.finalize().into_bytes().to_vec()
    }
    Ok(match algorithm {
        "md5" => mac::<Hmac<Md5>>(bytes, key),
        "sha1" => mac::<Hmac<Sha1>>(bytes, key),
        "sha224" => mac::<Hmac<Sha224>>(bytes, key),
        "sha256" => mac::<Hmac<Sha256>>(bytes, key),
        "sha384" => mac::<Hmac<Sha384>>(bytes, key),
        "sha512" => mac::<Hmac<Sha512>>(bytes, key),
        other => return Err(eval(format!("invalid hash algorithm '{other}'"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Datum {
        Datum::Text(s.into())
    }

    fn call(f: BytesFunc, args: &[Datum]) -> Result<Datum, String> {
        apply(f, args)
            .expect("a bytea function")
            .map_err(|e| e.to_string())
    }

    #[test]
    fn base64_as_the_real_system() {
        let encoded = |b: &[u8]| {
            call(
                BytesFunc::Encode,
                &[Datum::Bytes(b.to_vec()), text("base64")],
            )
        };
        assert_eq!(encoded(b"").unwrap(), text(""));
        assert_eq!(encoded(b"a").unwrap(), text("YQ=="));
        assert_eq!(encoded(&[0xff, 0xfe, 0xfd]).unwrap(), text("//79"));
        // 57 bytes make 76 characters, then the line break.
        let long = encoded(&[0; 58]).unwrap().to_string();
        assert_eq!(long.find('\n'), Some(76));
        let decoded = |s: &str| call(BytesFunc::Decode, &[text(s), text("base64")]);
        assert_eq!(
            decoded("//79").unwrap(),
            Datum::Bytes(vec![0xff, 0xfe, 0xfd])
        );
        assert_eq!(decoded("YQ==YQ==").unwrap(), Datum::Bytes(b"aa".to_vec()));
        assert_eq!(
            decoded("=AAA").unwrap_err(),
            "Evaluation error: unexpected \"=\" while decoding base64 sequence"
        );
        assert_eq!(
            decoded("==AA").unwrap_err(),
            "Evaluation error: unexpected \"=\" while decoding base64 sequence"
        );
        // A chunk ending `==` reads its first two as symbols, `=` too.
        assert_eq!(
            decoded("A===").unwrap_err(),
            "Evaluation error: invalid symbol \"=\" found while decoding base64 sequence"
        );
        assert_eq!(
            decoded("AAAAA").unwrap_err(),
            "Evaluation error: invalid base64 end sequence"
        );
    }

    #[test]
    fn escape_and_bits_as_the_real_system() {
        let escaped = call(
            BytesFunc::Encode,
            &[
                Datum::Bytes(vec![0, b'\\', b'a', 0x80, 0x7f]),
                text("ESCAPE"),
            ],
        );
        assert_eq!(escaped.unwrap(), text("\\000\\\\a\\200\x7f"));
        let bit = |i: i32| {
            call(
                BytesFunc::GetBit,
                &[
                    Datum::Bytes(vec![0b0000_0010, 0b1000_0000]),
                    Datum::Int32(i),
                ],
            )
        };
        assert_eq!(bit(1).unwrap(), Datum::Int32(1));
        assert_eq!(bit(0).unwrap(), Datum::Int32(0));
        assert_eq!(bit(15).unwrap(), Datum::Int32(1));
        assert_eq!(
            bit(16).unwrap_err(),
            "Evaluation error: index 16 out of valid range, 0..15"
        );
        assert_eq!(
            bit(-1).unwrap_err(),
            "Evaluation error: index -1 out of valid range, 0..15"
        );
    }

    #[test]
    fn encodings_and_algorithms_by_name() {
        let from = |name: &str| {
            call(
                BytesFunc::ConvertFrom,
                &[Datum::Bytes(b"a".to_vec()), text(name)],
            )
        };
        assert_eq!(from("UTF_8").unwrap(), text("a"));
        assert_eq!(from("Unicode-1-1-UTF-8").unwrap(), text("a"));
        assert_eq!(
            from("LATIN_1").unwrap_err(),
            "Evaluation error: invalid encoding name 'latin-1'"
        );
        assert!(from(" utf8").unwrap_err().starts_with("unsupported: "));
        let digest = |name: &str| call(BytesFunc::Digest, &[text(""), text(name)]);
        assert_eq!(
            digest("sha1").unwrap(),
            Datum::Bytes(Sha1::digest(b"").to_vec())
        );
        assert_eq!(
            digest("Sha1").unwrap_err(),
            "Evaluation error: invalid hash algorithm 'Sha1'"
        );
    }
}
