//! The time zone a `date`, `timestamp` or `timestamptz` text may carry
//! (which the first two drop), split off
//! as the real system's `split_timestamp_string` and
//! `strip_era_from_timezone` split it (`repr/src/adt/datetime.rs`) and
//! read as its `Timezone::parse` reads an ISO zone (`pgtz/src/timezone.rs`),
//! for the zones the engine has: none, `Z`, `UTC` (any case), and a
//! numeric offset `+H`, `+HH`, `+HHMM`, `+H:MM`, `+HH:MM` or `+HH:MM:SS`
//! (or `-`), its hours at most 15 and its minutes and seconds below 60.
//! Any other named zone is refused by its name: the engine's session time
//! zone is UTC and it has no zone database. Any other form is refused as
//! an unread input format.

use super::super::unsupported;

/// The real system's `split_timestamp_string`: the text before the
/// zone, trimmed, the zone, trimmed, and whether an era of BC ended it.
/// A zone is cut at ` +` or ` -`, else at the first sign, space or letter
/// after the first colon, else (no time) at the first letter.
pub(super) fn split(s: &str) -> (&str, &str, bool) {
    let (datetime, zone) = split_zone(s);
    let (zone, bc) = strip_era(zone);
    (datetime, zone.trim(), bc)
}

/// `split` before the era is taken off the zone.
fn split_zone(s: &str) -> (&str, &str) {
    if let Some(cut) = s.find(" +").or_else(|| s.find(" -")) {
        let (datetime, zone) = s.split_at(cut);
        return (datetime.trim(), zone);
    }
    let cut = match s.find(':') {
        Some(colon) => s[colon..]
            .find(|c: char| c == '-' || c == '+' || c == ' ' || c.is_ascii_alphabetic())
            .map(|at| colon + at),
        None => s.find(|c: char| c.is_ascii_alphabetic()),
    };
    match cut {
        Some(cut) => (s[..cut].trim(), &s[cut..]),
        None => (s.trim(), ""),
    }
}

/// The real system's `strip_era_from_timezone`: the zone, trimmed, and
/// whether it ended in an era of BC.
fn strip_era(zone: &str) -> (&str, bool) {
    let zone = zone.trim();
    let upper = zone.to_uppercase();
    if zone.len() < 3 {
        return match upper.as_str() {
            "BC" => ("", true),
            "AD" => ("", false),
            _ => (zone, false),
        };
    }
    match (upper.strip_suffix(" BC"), upper.strip_suffix(" AD")) {
        (Some(_), None) => (&zone[..zone.len() - 3], true),
        (None, Some(_)) => (&zone[..zone.len() - 3], false),
        _ => (zone, false),
    }
}

/// The offset east of UTC, in seconds, of a zone the engine reads (none
/// is UTC); `Ok(None)` for a form it does not read; a named zone other
/// than `UTC` refused by its name.
pub(super) fn offset(zone: &str) -> Result<Option<i64>, String> {
    if zone.is_empty() || zone.eq_ignore_ascii_case("z") || zone.eq_ignore_ascii_case("utc") {
        return Ok(Some(0));
    }
    let sign = match zone.as_bytes()[0] {
        b'+' => 1,
        b'-' => -1,
        _ if zone
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/_-+".contains(&b)) =>
        {
            return Err(unsupported(format!("time zone \"{zone}\"")));
        }
        _ => return Ok(None),
    };
    let digits = |t: &str| {
        (!t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<i64>().expect("digits"))
    };
    let parts: Vec<&str> = zone[1..].split(':').collect();
    let fields = match parts.as_slice() {
        [hhmm] if hhmm.len() == 4 => [digits(&hhmm[..2]), digits(&hhmm[2..]), Some(0)],
        [h] => [digits(h), Some(0), Some(0)],
        [h, m] if m.len() == 2 => [digits(h), digits(m), Some(0)],
        [h, m, s] if m.len() == 2 && s.len() == 2 => [digits(h), digits(m), digits(s)],
        _ => return Ok(None),
    };
    let [Some(h), Some(m), Some(s)] = fields else {
        return Ok(None);
    };
    // Beyond these the real system fails with texts of its own.
    if h > 15 || m >= 60 || s >= 60 {
        return Ok(None);
    }
    Ok(Some(sign * (h * 3600 + m * 60 + s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_split_as_the_real_system_splits_them() {
        fn read(s: &str) -> Option<(&str, i64, bool)> {
            let (datetime, zone, bc) = split(s);
            offset(zone)
                .expect("not refused")
                .map(|o| (datetime, o, bc))
        }
        let at = |t, o, bc| Some((t, o, bc));
        let noon = "2020-01-01 12:00:00";
        assert_eq!(read(noon), at(noon, 0, false));
        assert_eq!(read("2020-01-01 12:00:00+05"), at(noon, 18_000, false));
        assert_eq!(read("2020-01-01 12:00:00 -07:30"), at(noon, -27_000, false));
        assert_eq!(
            read("2020-01-01 12:00:00.5-0130"),
            at("2020-01-01 12:00:00.5", -5_400, false)
        );
        assert_eq!(
            read("2020-01-01T12:00:00Z"),
            at("2020-01-01T12:00:00", 0, false)
        );
        assert_eq!(read("2020-01-01 12:00:00 utc"), at(noon, 0, false));
        assert_eq!(read("2020-01-01 12:00:00+01 BC"), at(noon, 3_600, true));
        assert_eq!(read("2020-01-01 12:00:00+01  BC"), at(noon, 3_600, true));
        assert_eq!(read("2020-01-01 12:00:00 BC"), at(noon, 0, true));
        assert_eq!(read("2020-01-01BC"), at("2020-01-01", 0, true));
        assert_eq!(read("2020-01-01 +02"), at("2020-01-01", 7_200, false));
        assert_eq!(read("  1970-01-01  "), at("1970-01-01", 0, false));
        assert_eq!(read("2020-01-01 12:00:00+16"), None);
        assert_eq!(read("2020-01-01 12:00:00+05:60"), None);
        assert_eq!(read("2020-01-01 12:00:00+5:3"), None);
        let refused = offset(split("2020-01-01 12:00:00 America/New_York").1).unwrap_err();
        assert_eq!(refused, "unsupported: time zone \"America/New_York\"");
        assert!(offset(split("2020-01-01 12:00:00 EST").1).is_err());
    }
}
