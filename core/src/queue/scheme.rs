//! What a scheme declares about itself: its catalogue entry ([`SchemeInfo`]),
//! its parameters, each declared once with [`scheme_params!`], and the
//! resolved values an instance is built from ([`ParamValues`]). The
//! [`super::registry`] lists the schemes; the schemes use only this module.

use super::markov::ModelPoint;
use super::{switch_on, Limit, ParamError, ParamSpec, ProbeSpec, Qdisc, QueueSetup};

/// Declares a scheme's parameters once each, as ns-3 declares attributes:
/// every item is a field (its name is the parameter's id, unless an id is
/// given before `=>`, e.g. `"interval_ms" => interval` for a value given in ms
/// and held in ns), the type the scheme reads, optionally `as` a conversion
/// from the catalogue's number, and the [`ParamSpec`] the catalogue, the
/// sliders and the range checks use. It yields the struct, `SPECS` (the
/// catalogue's list, in order), `Default` (every spec's default, converted)
/// and `set(id, value)` for live changes.
///
/// ```
/// use aqm_core::kernel::{ms, Nanos};
/// use aqm_core::queue::scheme::scheme_params;
/// use aqm_core::queue::{ParamSpec, ECN_PARAM};
///
/// scheme_params! {
///     pub struct Example {
///         gain: f64 = ParamSpec::number("gain α", "", 0.0..=1.0, 0.01, 0.125,
///             "How far each update moves the estimate."),
///         "period_ms" => period: Nanos as ms = ParamSpec::number("update period", "ms", 1.0..=1000.0, 1.0, 16.0,
///             "Time between two updates."),
///         ecn: bool = ECN_PARAM,
///     }
/// }
///
/// let mut p = Example::default();
/// assert_eq!((p.gain, p.period, p.ecn), (0.125, ms(16.0), false));
/// p.set("period_ms", 20.0).unwrap();
/// assert_eq!(p.period, ms(20.0));
/// assert_eq!(Example::SPECS.iter().map(|s| s.id).collect::<Vec<_>>(), ["gain", "period_ms", "ecn"]);
/// assert!(p.set("nope", 1.0).is_err());
/// ```
#[macro_export]
macro_rules! scheme_params {
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident {
            $($($id:literal =>)? $field:ident : $ty:ty $(as $conv:path)? = $spec:expr),* $(,)?
        }
    ) => {
        $(#[$attr])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        $vis struct $name {
            $(pub $field: $ty,)*
        }

        impl $name {
            /// The catalogue's parameter list, in declaration order.
            pub const SPECS: &'static [$crate::queue::ParamSpec] =
                &[$($crate::queue::ParamSpec { id: $crate::scheme_params!(@id $field $($id)?), ..$spec }),*];

            /// The declaration of parameter `id`, for a scheme that runs this
            /// one inside (FQ-PIE's PIE): a const item naming an id not
            /// declared here does not compile.
            #[allow(dead_code)]
            pub const fn spec(id: &str) -> $crate::queue::ParamSpec {
                let mut i = 0;
                while i < Self::SPECS.len() {
                    if $crate::queue::scheme::same_id(Self::SPECS[i].id, id) {
                        return Self::SPECS[i];
                    }
                    i += 1;
                }
                panic!("no parameter of that id")
            }

            /// Apply one parameter, already range-checked; an id not declared here is an error.
            pub fn set(&mut self, id: &str, v: f64) -> Result<(), $crate::queue::ParamError> {
                match id {
                    $($crate::scheme_params!(@id $field $($id)?) => self.$field = $crate::scheme_params!(@value v $(, $conv)?),)*
                    _ => return Err($crate::queue::ParamError::unknown(id)),
                }
                Ok(())
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $crate::scheme_params!(@value ($spec).default $(, $conv)?),)* }
            }
        }

        impl $crate::queue::scheme::SchemeParams for $name {
            fn set(&mut self, id: &str, v: f64) -> Result<(), $crate::queue::ParamError> {
                $name::set(self, id, v)
            }
        }
    };
    (@id $field:ident) => { stringify!($field) };
    (@id $field:ident $id:literal) => { $id };
    (@value $v:expr) => { $crate::queue::scheme::FromParam::from_param($v) };
    (@value $v:expr, $conv:path) => { $conv($v) };
}
pub use scheme_params;

/// `a == b`, in a const fn.
pub const fn same_id(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A parameter struct declared with [`scheme_params!`], for code generic over schemes.
pub trait SchemeParams: Default {
    /// Apply one parameter, already range-checked; an id not declared is an error.
    fn set(&mut self, id: &str, v: f64) -> Result<(), ParamError>;
}

/// How a parameter field takes the catalogue's number (already range-checked).
pub trait FromParam {
    fn from_param(v: f64) -> Self;
}

impl FromParam for f64 {
    fn from_param(v: f64) -> f64 {
        v
    }
}

/// A switch: see [`switch_on`].
impl FromParam for bool {
    fn from_param(v: f64) -> bool {
        switch_on(v)
    }
}

/// Counts and sizes: the whole part.
macro_rules! whole_from_param {
    ($($t:ty),*) => {$(
        impl FromParam for $t {
            fn from_param(v: f64) -> $t {
                v as $t
            }
        }
    )*};
}
whole_from_param!(u32, u64, usize, i64);

/// Fully resolved parameter values of one scheme instance, in catalogue order.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValues {
    values: Vec<(&'static str, f64)>,
}

impl ParamValues {
    /// Every parameter at its default for `limit`'s unit.
    pub fn defaults(info: &SchemeInfo, limit: Limit) -> ParamValues {
        ParamValues { values: info.params.iter().map(|p| (p.id, p.for_limit(limit).default)).collect() }
    }

    /// The value of one of the scheme's own parameters.
    pub fn get(&self, id: &str) -> f64 {
        let found = self.values.iter().find(|(k, _)| *k == id);
        debug_assert!(found.is_some(), "scheme asked for a parameter it does not declare: {id}");
        found.map_or(0.0, |(_, v)| *v)
    }

    /// The value of one of the scheme's own switch parameters.
    pub fn flag(&self, id: &str) -> bool {
        switch_on(self.get(id))
    }

    pub fn set(&mut self, id: &str, value: f64) -> bool {
        match self.values.iter_mut().find(|(k, _)| *k == id) {
            Some(slot) => {
                slot.1 = value;
                true
            }
            None => false,
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.values.iter().copied()
    }
}

/// A relation between parameters that ranges alone cannot express, e.g.
/// RED's `min_th < max_th`, refused with the offending parameter's id.
pub type CrossCheck = fn(&ParamValues) -> Result<(), ParamError>;

/// A scheme's theory curve (drop probability and delay against offered
/// load) for its current parameters, drawn beside a run; see [`super::markov`].
pub type TheoryModel = fn(&ParamValues, &super::markov::ModelSetup, &[f64]) -> Vec<ModelPoint>;

pub struct SchemeInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub paper: &'static str,
    pub summary: &'static str,
    pub params: &'static [ParamSpec],
    pub probes: &'static [ProbeSpec],
    pub build: fn(&QueueSetup, &ParamValues) -> Box<dyn Qdisc>,
    pub cross_check: CrossCheck,
    /// The theory the page draws beside a run, for schemes that have one.
    pub model: Option<TheoryModel>,
}

/// A scheme instance with every parameter applied through its own
/// `set_param`, so that building and live changes share one path.
pub fn configured<Q: Qdisc + 'static>(mut q: Q, params: &ParamValues) -> Box<dyn Qdisc> {
    apply(&mut q, params);
    Box::new(q)
}

/// Apply every parameter through the scheme's own `set_param`.
pub fn apply<Q: Qdisc>(q: &mut Q, params: &ParamValues) {
    for (id, v) in params.iter() {
        // ParamValues holds exactly the scheme's catalogue ids, and the
        // registry tests apply each of them, so this cannot fail at run time.
        let applied = q.set_param(id, v);
        debug_assert!(applied.is_ok(), "{applied:?}");
    }
}

/// `q` with every parameter of `specs` at its default for `limit`'s unit,
/// through its own `set_param`: for schemes whose parameter values live in
/// state they share with others (the RED family's), so that the default is
/// still the declared one.
pub fn with_defaults<Q: Qdisc>(mut q: Q, specs: &[ParamSpec], limit: Limit) -> Q {
    for p in specs {
        let applied = q.set_param(p.id, p.for_limit(limit).default);
        debug_assert!(applied.is_ok(), "{applied:?}");
    }
    q
}

pub fn no_cross_check(_: &ParamValues) -> Result<(), ParamError> {
    Ok(())
}

impl std::fmt::Debug for SchemeInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "SchemeInfo({})", self.id)
    }
}

impl SchemeInfo {
    pub fn param(&self, id: &str) -> Option<&'static ParamSpec> {
        self.params.iter().find(|p| p.id == id)
    }

    /// `value` for parameter `id` if the scheme has it and the value is in
    /// range for a buffer of `limit`'s unit.
    pub fn check_param(&self, id: &str, value: f64, limit: Limit) -> Result<f64, ParamError> {
        let spec =
            self.param(id).ok_or_else(|| ParamError::new(id, format!("`{}` has no parameter `{id}`", self.id)))?;
        spec.for_limit(limit).check(value)
    }
}
