//! The grounding ratio as an exact fraction, and the threshold it is held to.
//!
//! Loa computed the ratio with `bc`, printed it with two decimals and compared it as a float:
//! 18 grounded decisions of 19 printed as `0.95` and failed against a threshold of `0.95`, and
//! nobody could see why. Here the threshold is read from its decimal text exactly (`0.95` is
//! 95/100, never the double nearest to it), the comparison is `grounded × den ≥ num × total` in
//! integers, and the ratio is shown rounded *down* to at least as many places as the threshold
//! has, next to the fraction: `0.947 (18/19)`. Rounded down at that precision, the ratio shown
//! is at or above the threshold exactly when the ratio is.

use std::fmt;

/// The most decimal places a threshold may have (10^18 fits in a u64).
const MAX_PLACES: u32 = 18;

/// The lowest passing ratio: `num / 10^places`, from 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threshold {
    num: u64,
    places: u32,
}

/// Why a threshold's text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ThresholdError {
    #[error("`{0}` is not a decimal number (write it like 0.95)")]
    Syntax(String),
    #[error("`{0}` is not between 0 and 1 (write 0.95, not 95)")]
    Range(String),
    #[error("`{0}` has more than 18 decimal places")]
    Precision(String),
}

impl Threshold {
    /// Loa's default, and trail's.
    pub const DEFAULT: Threshold = Threshold { num: 95, places: 2 };

    /// `0.95`, `.95`, `1`, `1.0`, `0`: a decimal from 0 to 1, read exactly.
    pub fn parse(text: &str) -> Result<Threshold, ThresholdError> {
        let t = text.trim();
        let (int, frac) = t.split_once('.').unwrap_or((t, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if (int.is_empty() && frac.is_empty()) || !digits(int) || !digits(frac) {
            return Err(ThresholdError::Syntax(t.to_string()));
        }
        let frac = frac.trim_end_matches('0');
        let places = u32::try_from(frac.len()).unwrap_or(u32::MAX);
        if places > MAX_PLACES {
            return Err(ThresholdError::Precision(t.to_string()));
        }
        let int = int.trim_start_matches('0');
        let whole: u64 = match int {
            "" => 0,
            "1" => 1,
            _ => return Err(ThresholdError::Range(t.to_string())),
        };
        let frac_n: u64 = if frac.is_empty() {
            0
        } else {
            frac.parse()
                .map_err(|_| ThresholdError::Syntax(t.to_string()))?
        };
        let den = 10u64.pow(places);
        let num = whole * den + frac_n;
        if num > den {
            return Err(ThresholdError::Range(t.to_string()));
        }
        Ok(Threshold { num, places })
    }

    /// The fraction `(num, den)`.
    pub fn fraction(self) -> (u64, u64) {
        (self.num, 10u64.pow(self.places))
    }

    /// Decimal places, as written without trailing zeros.
    pub fn places(self) -> u32 {
        self.places
    }
}

/// The shortest decimal that reads back the same: `0.95`, `1`, `0`.
impl fmt::Display for Threshold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (num, den) = self.fraction();
        if self.places == 0 {
            return write!(f, "{}", num / den);
        }
        write!(
            f,
            "{}.{:0width$}",
            num / den,
            num % den,
            width = self.places as usize
        )
    }
}

impl std::str::FromStr for Threshold {
    type Err = ThresholdError;
    fn from_str(s: &str) -> Result<Threshold, ThresholdError> {
        Threshold::parse(s)
    }
}

/// Grounded decisions over all decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub grounded: u64,
    pub total: u64,
}

impl Ratio {
    pub fn new(grounded: u64, total: u64) -> Ratio {
        debug_assert!(grounded <= total);
        Ratio { grounded, total }
    }

    /// Whether it reaches `t`, exactly. No decisions is a pass: a session that decided nothing
    /// claimed nothing ungrounded (Loa's zero-claim rule).
    pub fn meets(self, t: Threshold) -> bool {
        if self.total == 0 {
            return true;
        }
        let (num, den) = t.fraction();
        u128::from(self.grounded) * u128::from(den) >= u128::from(num) * u128::from(self.total)
    }

    /// `18/19`.
    pub fn exact(self) -> String {
        format!("{}/{}", self.grounded, self.total)
    }

    /// The ratio rounded down to `places` decimals, as text (`0.947`); no decisions is `1`.
    pub fn decimal(self, places: u32) -> String {
        let scale = 10u128.pow(places);
        let scaled = if self.total == 0 {
            scale
        } else {
            u128::from(self.grounded) * scale / u128::from(self.total)
        };
        if places == 0 {
            return scaled.to_string();
        }
        format!(
            "{}.{:0width$}",
            scaled / scale,
            scaled % scale,
            width = places as usize
        )
    }

    /// The places to show it with next to `t`: three, or the threshold's when it has more.
    pub fn places_for(t: Threshold) -> u32 {
        t.places().max(3)
    }

    /// `0.947 (18/19)`.
    pub fn shown(self, t: Threshold) -> String {
        format!("{} ({})", self.decimal(Self::places_for(t)), self.exact())
    }
}

/// What happens when the ratio is below the threshold (`grounding_enforcement` in Loa).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Enforcement {
    /// The checkpoint blocks (and with it `/clear` and, at the red zone, edits).
    Strict,
    /// The checkpoint warns and lets the session go on.
    #[default]
    Warn,
    /// Nothing is enforced; the ratio is still measured and shown.
    Disabled,
}

impl Enforcement {
    pub const NAMES: &'static str = "strict, warn or disabled";

    pub fn parse(s: &str) -> Option<Enforcement> {
        match s.trim().to_ascii_lowercase().as_str() {
            "strict" => Some(Enforcement::Strict),
            "warn" => Some(Enforcement::Warn),
            "disabled" => Some(Enforcement::Disabled),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Enforcement::Strict => "strict",
            Enforcement::Warn => "warn",
            Enforcement::Disabled => "disabled",
        }
    }
}

impl fmt::Display for Enforcement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn t(s: &str) -> Threshold {
        Threshold::parse(s).unwrap()
    }

    #[test]
    fn eighteen_of_nineteen_fails_at_095_and_nineteen_of_twenty_passes() {
        let r = Ratio::new(18, 19);
        assert!(!r.meets(t("0.95")));
        assert_eq!(r.shown(t("0.95")), "0.947 (18/19)");
        assert_eq!(r.decimal(3), "0.947");
        let r = Ratio::new(19, 20);
        assert!(r.meets(t("0.95")));
        assert_eq!(r.shown(t("0.95")), "0.950 (19/20)");
        assert!(Ratio::new(0, 0).meets(t("1")));
        assert_eq!(Ratio::new(0, 0).shown(t("0.95")), "1.000 (0/0)");
        assert!(Ratio::new(0, 3).meets(t("0")));
        assert!(!Ratio::new(2, 3).meets(t("1")));
    }

    #[test]
    fn thresholds_are_read_exactly() {
        assert_eq!(t("0.95").fraction(), (95, 100));
        assert_eq!(t(".95").fraction(), (95, 100));
        assert_eq!(t("0.950").fraction(), (95, 100));
        assert_eq!(t("1").fraction(), (1, 1));
        assert_eq!(t("1.000").fraction(), (1, 1));
        assert_eq!(t("0").fraction(), (0, 1));
        assert_eq!(t(" 0.1 ").to_string(), "0.1");
        assert_eq!(t("0.950").to_string(), "0.95");
        assert_eq!(t("0.05").to_string(), "0.05");
        assert_eq!(t("1.0").to_string(), "1");
        for bad in [
            "", ".", "95", "1.5", "-0.5", "0.9.5", "1e-2", "0,95", "abc", "95%", "+0.5",
        ] {
            assert!(Threshold::parse(bad).is_err(), "{bad}");
        }
        assert!(matches!(
            Threshold::parse("0.1234567890123456789"),
            Err(ThresholdError::Precision(_))
        ));
        assert_eq!(t("0.123456789012345678").places(), 18);
    }

    /// The comparison against an oracle that never multiplies across: the ratio's decimal
    /// expansion, digit by digit, to the threshold's number of places, compared with the
    /// threshold's digits (`g/t ≥ n/10^k` ⇔ `⌊g·10^k/t⌋ ≥ n`, by long division).
    fn oracle(g: u64, total: u64, threshold: &str) -> bool {
        if total == 0 {
            return true;
        }
        let (int, frac) = threshold.split_once('.').unwrap_or((threshold, ""));
        let mut digits = vec![g / total];
        let mut rem = g % total;
        for _ in 0..frac.len() {
            rem *= 10;
            digits.push(rem / total);
            rem %= total;
        }
        let mine: Vec<u64> = std::iter::once(int.parse::<u64>().unwrap_or(0))
            .chain(frac.bytes().map(|b| u64::from(b - b'0')))
            .collect();
        digits >= mine
    }

    proptest! {
        #[test]
        fn meets_agrees_with_long_division(
            total in 0u64..5000,
            pick in 0u64..5000,
            int in 0u8..=1,
            frac in "[0-9]{0,6}",
        ) {
            let g = if total == 0 { 0 } else { pick % (total + 1) };
            let text = if int == 1 { "1".to_string() } else if frac.is_empty() { "0".to_string() } else { format!("0.{frac}") };
            let th = t(&text);
            let r = Ratio::new(g, total);
            prop_assert_eq!(r.meets(th), oracle(g, total, &text), "{}/{} vs {}", g, total, text);
            // Shown rounded down at the threshold's precision: at or above it exactly when
            // the ratio is.
            let shown = r.decimal(Ratio::places_for(th));
            let back = t(&shown);
            let (a, b) = back.fraction();
            let (c, d) = th.fraction();
            prop_assert_eq!(u128::from(a) * u128::from(d) >= u128::from(c) * u128::from(b), r.meets(th));
        }

        #[test]
        fn display_reads_back_the_same(
            (num, places) in (0u32..=6).prop_flat_map(|p| (0..=10u64.pow(p), Just(p)))
        ) {
            let den = 10u64.pow(places);
            let th = Threshold { num, places };
            let back = t(&th.to_string());
            prop_assert_eq!(back.fraction().0 * den, num * back.fraction().1);
        }
    }
}
