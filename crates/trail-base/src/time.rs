//! Timestamps. In the ledger time is identity, so `Ts` is exact: microseconds since the Unix
//! epoch, always UTC, formatted as RFC 3339 with six fractional digits.

#![expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "civil-date arithmetic: each cast value is already reduced to its range (month 1..=12, day 1..=31, seconds of day)"
)]

use std::fmt;
use std::str::FromStr;

/// A UTC instant with microsecond resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ts(i64);

/// Why a timestamp string was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TsError {
    #[error("`{0}` is not an RFC 3339 timestamp (expected e.g. 2026-11-26T03:34:39.525123Z)")]
    Syntax(String),
    /// A bound a person gives (`--since`, `--until`), which may also be a date.
    #[error("`{0}` is neither an RFC 3339 time (2026-11-26T03:34:39Z) nor a date (2026-11-26)")]
    Bound(String),
    #[error("`{0}` is not in UTC: end it with `Z` (or `+00:00`)")]
    NotUtc(String),
    #[error("`{0}` has less than millisecond precision: give at least three fractional digits")]
    Coarse(String),
}

impl Ts {
    pub const fn from_micros(us: i64) -> Ts {
        Ts(us)
    }

    pub const fn as_micros(self) -> i64 {
        self.0
    }

    /// The current time from the system clock.
    pub fn now() -> Ts {
        let d = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        Ts(i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
    }

    /// The next representable instant: how a writer keeps timestamps strictly increasing when its
    /// clock lags the stream.
    #[must_use]
    pub fn succ(self) -> Ts {
        Ts(self.0.saturating_add(1))
    }

    /// Parse a timestamp as the ledger reads it: RFC 3339, UTC, at least milliseconds.
    pub fn parse_strict(s: &str) -> Result<Ts, TsError> {
        let t = s.trim();
        let utc = t.ends_with('Z') || t.ends_with('z') || t.ends_with("+00:00");
        let ts = jiff::Timestamp::from_str(t).map_err(|_| TsError::Syntax(t.to_string()))?;
        if !utc {
            return Err(TsError::NotUtc(t.to_string()));
        }
        let frac_digits = t.find('.').map_or(0, |dot| {
            t[dot + 1..].bytes().take_while(u8::is_ascii_digit).count()
        });
        if frac_digits < 3 {
            return Err(TsError::Coarse(t.to_string()));
        }
        Ok(Ts(ts.as_microsecond()))
    }

    /// Parse a user-given bound (e.g. `--since`): any RFC 3339 instant, or a bare date.
    pub fn parse_loose(s: &str) -> Result<Ts, TsError> {
        let t = s.trim();
        if let Ok(ts) = jiff::Timestamp::from_str(t) {
            return Ok(Ts(ts.as_microsecond()));
        }
        if jiff::civil::Date::from_str(t).is_ok()
            && let Ok(ts) = jiff::Timestamp::from_str(&format!("{t}T00:00:00Z"))
        {
            return Ok(Ts(ts.as_microsecond()));
        }
        // Both forms named (issue 22: the error named only one).
        Err(TsError::Bound(t.to_string()))
    }

    /// Read exactly the form trail writes (`2026-11-26T03:34:39.525123Z`, what [`Ts`] displays)
    /// without a general parser: a search reads the time of every record that matches, and
    /// [`Ts::parse_strict`] costs ten times as much. Anything else, even a valid timestamp in
    /// another shape, is `None` (ask `parse_strict`).
    pub fn parse_canonical(b: &[u8]) -> Option<Ts> {
        if b.len() != 27 || b[26] != b'Z' {
            return None;
        }
        let num = |r: std::ops::Range<usize>| -> Option<i64> {
            b[r].iter().try_fold(0i64, |n, &c| {
                c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
            })
        };
        for (i, sep) in [
            (4, b'-'),
            (7, b'-'),
            (10, b'T'),
            (13, b':'),
            (16, b':'),
            (19, b'.'),
        ] {
            if b[i] != sep {
                return None;
            }
        }
        let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
        let (h, mi, s, us) = (num(11..13)?, num(14..16)?, num(17..19)?, num(20..26)?);
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        let month_days = [
            31,
            if leap { 29 } else { 28 },
            31,
            30,
            31,
            30,
            31,
            31,
            30,
            31,
            30,
            31,
        ];
        if !(1..=12).contains(&mo) || d < 1 || d > month_days[(mo - 1) as usize] {
            return None;
        }
        if h > 23 || mi > 59 || s > 59 {
            return None;
        }
        // Howard Hinnant's days_from_civil, the inverse of `civil`.
        let y = if mo <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (mo + 9) % 12;
        let doy = (153 * mp + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let days = era * 146_097 + doe - 719_468;
        Some(Ts(
            ((days * 86_400 + h * 3600 + mi * 60 + s) * 1_000_000) + us
        ))
    }

    /// `YYYYMMDD-HHMMSS.mmmZ`, the spec's archive file stamp.
    pub fn file_stamp(self) -> String {
        let (y, mo, d, h, mi, s, us) = self.civil();
        format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}.{:03}Z", us / 1000)
    }

    /// This instant in the system's time zone (`TZ`, else the system's setting, else UTC).
    pub fn local(self) -> Local {
        self.in_zone(jiff::tz::TimeZone::system())
    }

    /// This instant in `tz`.
    pub fn in_zone(self, tz: jiff::tz::TimeZone) -> Local {
        Local { ts: self, tz }
    }

    /// This instant as read in UTC: for what must not depend on the machine (tests, the demo).
    pub fn in_utc(self) -> Local {
        self.in_zone(jiff::tz::TimeZone::UTC)
    }

    /// Broken-down UTC time: (year, month, day, hour, minute, second, microsecond).
    fn civil(self) -> (i64, u32, u32, u32, u32, u32, u32) {
        let us = self.0.rem_euclid(1_000_000) as u32;
        let secs = self.0.div_euclid(1_000_000);
        let days = secs.div_euclid(86_400);
        let sod = secs.rem_euclid(86_400) as u32;
        // Howard Hinnant's days_from_civil inverse; exact for the whole i64 day range we use.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let y = yoe + era * 400 + i64::from(m <= 2);
        (y, m, d, sod / 3600, sod / 60 % 60, sod % 60, us)
    }
}

/// An instant and the time zone a person reads it in. The stream stores [`Ts`] (UTC); what a
/// person finds by date — daily-memory files and their headings, dream diaries — is named by
/// their local date and time, so a session at 23:30 in Auckland lands in that evening's file.
#[derive(Clone, Debug)]
pub struct Local {
    ts: Ts,
    tz: jiff::tz::TimeZone,
}

impl Local {
    /// Now, in the system's time zone.
    pub fn now() -> Local {
        Ts::now().local()
    }

    pub fn ts(&self) -> Ts {
        self.ts
    }

    /// The local date (`YYYY-MM-DD`) and wall-clock minute (`HH:MM`).
    pub fn day_and_minute(&self) -> (String, String) {
        let Ok(t) = jiff::Timestamp::from_microsecond(self.ts.0) else {
            // Outside jiff's range (beyond the years ±9999): say it in UTC rather than not at all.
            let s = self.ts.to_string();
            return (s[..10].to_string(), s[11..16].to_string());
        };
        let d = self.tz.to_datetime(t);
        (
            d.date().to_string(),
            format!("{:02}:{:02}", d.hour(), d.minute()),
        )
    }
}

impl fmt::Display for Ts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, mo, d, h, mi, s, us) = self.civil();
        write!(f, "{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{us:06}Z")
    }
}

impl serde::Serialize for Ts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The form [`Ts`] displays (what trail writes); a state file holding anything else is not one
/// trail wrote.
impl<'de> serde::Deserialize<'de> for Ts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Ts, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Ts::parse_strict(&s).map_err(serde::de::Error::custom)
    }
}

/// `Ts` as text in a serde field (`#[serde(with = "crate::time::text")]`): written as [`Ts`]
/// displays it, read from any RFC 3339 instant (Loa's trajectory writes whole seconds).
pub mod text {
    use super::Ts;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(ts: &Ts, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(ts)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Ts, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Ts::parse_loose(&s).map_err(serde::de::Error::custom)
    }
}

impl FromStr for Ts {
    type Err = TsError;
    fn from_str(s: &str) -> Result<Ts, TsError> {
        Ts::parse_strict(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn formats_with_microseconds_in_utc() {
        let ts = Ts::parse_strict("2026-11-26T03:34:39.525123Z").unwrap();
        assert_eq!(ts.to_string(), "2026-11-26T03:34:39.525123Z");
        assert_eq!(ts.file_stamp(), "20261126-033439.525Z");
    }

    #[test]
    fn the_local_day_and_minute_follow_the_zone() {
        use jiff::tz::{TimeZone, offset};
        let ts = Ts::parse_strict("2026-11-26T20:34:39.525123Z").unwrap();
        assert_eq!(
            ts.in_utc().day_and_minute(),
            ("2026-11-26".into(), "20:34".into())
        );
        assert_eq!(
            ts.in_zone(TimeZone::fixed(offset(14))).day_and_minute(),
            ("2026-11-27".into(), "10:34".into())
        );
        let early = Ts::parse_strict("2026-11-26T03:05:00.000Z").unwrap();
        assert_eq!(
            early.in_zone(TimeZone::fixed(offset(-11))).day_and_minute(),
            ("2026-11-25".into(), "16:05".into())
        );
    }

    #[test]
    fn reads_millisecond_precision_and_utc_offsets() {
        let a = Ts::parse_strict("2025-12-22T21:18:12.483Z").unwrap();
        let b = Ts::parse_strict("2025-12-22T21:18:12.483+00:00").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "2025-12-22T21:18:12.483000Z");
    }

    #[test]
    fn refuses_coarse_local_and_malformed_times() {
        assert!(matches!(
            Ts::parse_strict("2025-12-22T21:18:12Z"),
            Err(TsError::Coarse(_))
        ));
        assert!(matches!(
            Ts::parse_strict("2025-12-22T21:18:12.483+01:00"),
            Err(TsError::NotUtc(_))
        ));
        assert!(matches!(
            Ts::parse_strict("yesterday"),
            Err(TsError::Syntax(_))
        ));
        assert!(matches!(
            Ts::parse_strict("2025-02-30T00:00:00.000Z"),
            Err(TsError::Syntax(_))
        ));
        // A bound a person gives names both forms it takes (issue 22).
        let e = Ts::parse_loose("yesterday").unwrap_err().to_string();
        assert!(
            e.contains("RFC 3339") && e.contains("a date (2026-11-26)"),
            "{e}"
        );
    }

    #[test]
    fn the_canonical_reader_refuses_every_other_shape() {
        for bad in [
            "2026-11-26T03:34:39.525Z",
            "2026-11-26T03:34:39.525123+00:00",
            "2026-02-30T03:34:39.525123Z",
            "2026-11-26T24:00:00.000000Z",
            "2026-11-26 03:34:39.525123Z",
            "2026-1a-26T03:34:39.525123Z",
        ] {
            assert_eq!(Ts::parse_canonical(bad.as_bytes()), None, "{bad}");
        }
        assert!(Ts::parse_canonical(b"2024-02-29T23:59:59.999999Z").is_some());
    }

    proptest! {
        #[test]
        fn display_matches_jiff_and_round_trips(us in -62_135_596_800_000_000i64..253_402_300_799_999_999i64) {
            let ts = Ts::from_micros(us);
            let s = ts.to_string();
            let ours = Ts::parse_strict(&s).unwrap();
            prop_assert_eq!(ours, ts);
            let jiff = jiff::Timestamp::from_microsecond(us).unwrap();
            prop_assert_eq!(jiff.as_microsecond(), us);
            prop_assert_eq!(&s[..19], &jiff.to_string()[..19]);
        }

        #[test]
        fn the_canonical_reader_agrees_with_the_strict_one(us in 0i64..253_402_300_799_999_999i64) {
            let s = Ts::from_micros(us).to_string();
            prop_assert_eq!(Ts::parse_canonical(s.as_bytes()), Some(Ts::parse_strict(&s).unwrap()));
        }
    }
}
