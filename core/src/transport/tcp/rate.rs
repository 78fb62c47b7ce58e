//! Delivery-rate estimation (draft-cheng-iccrg-delivery-rate-estimation-00)
//! as ns-3's `TcpRateLinux` does it, for BBR.
//!
//! ```text
//! on send:    stamp the segment with the connection's delivered count, when
//!             it last rose, and when the current flight's first segment left
//! on ACK:     delivered += bytes newly ACKed or SACKed; the newest of those
//!             segments (highest stamped delivered count) starts the sample
//! sample:     rate = (delivered − its stamped delivered)
//!                    / max(send phase, ACK phase) of that segment's flight
//! ```
//!
//! The stamps ride on [`super::rtt`]'s per-segment send record, which knows
//! which segments an ACK newly acknowledges; this module keeps the counters
//! and turns an ACK's [`Delivery`] into a [`RateSample`].

use crate::kernel::{Nanos, NS_PER_S};

/// What the sender knew when it last sent a segment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateStamp {
    /// The connection's delivered bytes then, and when they last rose.
    pub delivered: u64,
    pub delivered_at: Nanos,
    /// When the flight the segment belongs to began.
    pub first_sent_at: Nanos,
    pub app_limited: bool,
}

/// The segments one ACK newly delivered, cumulatively or by SACK.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delivery {
    pub bytes: u64,
    /// The newest of them: when it was last sent, and its stamp. The first
    /// with the highest delivered count wins, as ns-3 keeps it.
    pub newest: Option<(Nanos, RateStamp)>,
}

impl Delivery {
    pub fn add(&mut self, bytes: u64, sent_at: Nanos, stamp: RateStamp) {
        self.bytes += bytes;
        if self.newest.is_none_or(|(_, n)| stamp.delivered > n.delivered) {
            self.newest = Some((sent_at, stamp));
        }
    }
}

/// A delivery rate sample: the bytes delivered between sending a packet
/// and its ACK, over the longer of the send and ACK phases of that flight.
#[derive(Clone, Copy, Debug, Default)]
pub struct RateSample {
    /// Bytes delivered over `interval`; None when the sample is invalid.
    pub delivered: Option<u64>,
    pub interval: Nanos,
    /// Bytes per second (kept from the last valid sample, as ns-3 keeps it).
    pub rate: f64,
    pub app_limited: bool,
    /// The connection's `delivered` when the newest ACKed packet was sent.
    pub prior_delivered: u64,
    /// Bytes this ACK newly acknowledged or SACKed.
    pub acked_sacked: u64,
    /// Bytes found lost since the last ACK.
    pub lost: u64,
    /// Bytes in flight before this ACK.
    pub prior_inflight: u64,
    /// The RTT this ACK measured (the latest segment it newly acknowledges, if sent once).
    pub rtt: Option<Nanos>,
}

/// The connection's delivery counters and the sample being built.
#[derive(Debug, Default)]
pub struct DeliveryRate {
    /// Bytes delivered so far, and when the last were.
    delivered: u64,
    delivered_at: Nanos,
    first_sent_at: Nanos,
    /// Nonzero: samples are app-limited until `delivered` passes it.
    app_limited_until: u64,
    sample: RateSample,
    /// The sample's start: when its packet's flight began, if known.
    prior_at: Option<Nanos>,
    send_elapsed: Nanos,
    ack_elapsed: Nanos,
    /// The last sample that counted: bytes and interval.
    rate_delivered: u64,
    rate_interval: Nanos,
    /// The smallest RTT seen (the sample interval's floor).
    min_rtt: Option<Nanos>,
}

impl DeliveryRate {
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// A segment leaves; `idle` when nothing is in flight, so a new flight
    /// (and the sample's clock) starts now. Returns its stamp.
    pub fn on_send(&mut self, now: Nanos, idle: bool) -> RateStamp {
        if idle {
            self.first_sent_at = now;
            self.delivered_at = now;
        }
        RateStamp {
            delivered: self.delivered,
            delivered_at: self.delivered_at,
            first_sent_at: self.first_sent_at,
            app_limited: self.app_limited_until != 0,
        }
    }

    /// The sender's smoothed RTT after this ACK: its minimum bounds a valid
    /// sample's interval (ns-3's `m_minRtt`, the least SRTT).
    pub fn note_srtt(&mut self, srtt: Nanos) {
        self.min_rtt = Some(self.min_rtt.map_or(srtt, |m| m.min(srtt)));
    }

    /// An ACK delivered `d`, and measured `rtt` if it did.
    pub fn on_delivered(&mut self, now: Nanos, d: Delivery, rtt: Option<Nanos>) {
        self.sample.acked_sacked = d.bytes;
        self.sample.rtt = rtt;
        let Some((sent_at, stamp)) = d.newest else { return };
        self.delivered += d.bytes;
        self.delivered_at = now;
        if self.sample.prior_delivered == 0 || stamp.delivered > self.sample.prior_delivered {
            self.ack_elapsed = now - stamp.delivered_at;
            self.sample.prior_delivered = stamp.delivered;
            self.prior_at = Some(stamp.delivered_at);
            self.sample.app_limited = stamp.app_limited;
            self.send_elapsed = sent_at - stamp.first_sent_at;
            self.first_sent_at = sent_at;
        }
    }

    /// ns-3's `CalculateAppLimited`: less than a segment left to send and
    /// room in cwnd, so samples from now on show the application's rate.
    pub fn note_app_limited(&mut self, inflight: u64) {
        self.app_limited_until = (self.delivered + inflight).max(1);
    }

    /// The sample for the last ACK, with the bytes lost since the one
    /// before and the bytes in flight before it.
    pub fn sample(&mut self, lost: u64, prior_inflight: u64) -> RateSample {
        if self.app_limited_until != 0 && self.delivered > self.app_limited_until {
            self.app_limited_until = 0;
        }
        let s = &mut self.sample;
        (s.lost, s.prior_inflight) = (lost, prior_inflight);
        if self.prior_at.is_none() {
            s.delivered = None;
            s.interval = 0;
            return *s;
        }
        s.interval = self.send_elapsed.max(self.ack_elapsed);
        let delivered = self.delivered - s.prior_delivered;
        s.delivered = Some(delivered);
        // Normally interval ≥ min RTT; shorter, the rate would be overestimated.
        if self.min_rtt.is_some_and(|m| s.interval < m) {
            s.interval = 0;
            self.prior_at = None;
            return *s;
        }
        // The last sample not app-limited, or the highest app-limited one.
        if !s.app_limited
            || delivered as u128 * self.rate_interval as u128 >= self.rate_delivered as u128 * s.interval as u128
        {
            self.rate_delivered = delivered;
            self.rate_interval = s.interval;
            s.rate = delivered as f64 * NS_PER_S as f64 / s.interval as f64;
        }
        *s
    }
}

#[cfg(test)]
mod tests {
    use super::super::rtt::RttTiming;
    use super::*;
    use crate::kernel::NS_PER_MS;

    const MSS: u64 = 1000;
    const MS: Nanos = NS_PER_MS;

    /// Send [seq, seq + MSS) at `now`, stamped by `r`, into the send record.
    fn send(r: &mut DeliveryRate, t: &mut RttTiming, seq: u64, now: Nanos, idle: bool, resent: bool) {
        let stamp = r.on_send(now, idle);
        t.on_transmit(seq, MSS, resent, now, stamp);
    }

    /// The ACK up to `ack` at `now`: the delivery and RTT it gives the sampler.
    fn ack(r: &mut DeliveryRate, t: &mut RttTiming, ack: u64, now: Nanos) -> (Delivery, Option<Nanos>) {
        let rtt = t.on_ack(ack, now).map(|s| s.cc);
        let d = t.take_delivery();
        r.on_delivered(now, d, rtt);
        (d, rtt)
    }

    #[test]
    fn the_rate_is_the_bytes_delivered_over_the_longer_of_send_and_ack_phases() {
        let (mut r, mut t) = (DeliveryRate::default(), RttTiming::for_sender(false, MSS));
        // Ten segments sent 1 ms apart from t = 0; each ACKed 100 ms after it left.
        for k in 0..10 {
            send(&mut r, &mut t, k * MSS, k * MS, k == 0, false);
        }
        let mut last = RateSample::default();
        for k in 0..10 {
            let (d, rtt) = ack(&mut r, &mut t, (k + 1) * MSS, 100 * MS + k * MS);
            assert_eq!((d.bytes, rtt), (MSS, Some(100 * MS)));
            last = r.sample(0, (10 - k) * MSS);
        }
        // The last: 10 kB delivered since the first send's flight began;
        // send phase 9 ms, ACK phase 109 ms.
        assert_eq!((last.delivered, last.interval, last.rtt), (Some(10 * MSS), 109 * MS, Some(100 * MS)));
        assert_eq!(last.rate, 10.0 * MSS as f64 / 0.109);
        assert_eq!(r.delivered(), 10 * MSS);
    }

    #[test]
    fn sacked_segments_count_once_and_a_resent_one_gives_no_rtt() {
        let (mut r, mut t) = (DeliveryRate::default(), RttTiming::for_sender(false, MSS));
        for k in 0..4 {
            send(&mut r, &mut t, k * MSS, k * MS, k == 0, false);
        }
        // Segment 0 is lost; 1–3 are SACKed, then 0 is resent and ACKed with them.
        t.on_sacked(MSS, 4 * MSS);
        let (d, _) = ack(&mut r, &mut t, 0, 100 * MS);
        assert_eq!(d.bytes, 3 * MSS);
        send(&mut r, &mut t, 0, 110 * MS, false, true);
        let (d, rtt) = ack(&mut r, &mut t, 4 * MSS, 210 * MS);
        assert_eq!((d.bytes, rtt), (MSS, None));
        assert_eq!(r.delivered(), 4 * MSS);
        // The resent segment's stamp is its second send's: 3 segments delivered by then.
        assert_eq!(d.newest.map(|(at, s)| (at, s.delivered)), Some((110 * MS, 3 * MSS)));
    }

    #[test]
    fn ns3_a_sample_shorter_than_the_least_srtt_is_invalid() {
        // ns-3's GenerateSample bounds the interval by m_minRtt, the least
        // SRTT: a shorter RTT sample does not lower the bound.
        let (mut r, mut t) = (DeliveryRate::default(), RttTiming::for_sender(false, MSS));
        for srtt in [150, 120, 140] {
            r.note_srtt(srtt * MS);
        }
        send(&mut r, &mut t, 0, 0, true, false);
        ack(&mut r, &mut t, MSS, 100 * MS);
        assert_eq!(r.sample(0, MSS).interval, 0);
        send(&mut r, &mut t, MSS, 200 * MS, true, false);
        ack(&mut r, &mut t, 2 * MSS, 330 * MS);
        assert_eq!(r.sample(0, MSS).interval, 130 * MS);
    }

    #[test]
    fn a_sample_shorter_than_the_min_rtt_is_invalid() {
        let (mut r, mut t) = (DeliveryRate::default(), RttTiming::for_sender(false, MSS));
        send(&mut r, &mut t, 0, 0, true, false);
        ack(&mut r, &mut t, MSS, 100 * MS);
        assert_eq!(r.sample(0, MSS).interval, 100 * MS);
        // A new flight whose ACK comes back after 50 ms, under the 100 ms seen.
        send(&mut r, &mut t, MSS, 200 * MS, true, false);
        r.min_rtt = Some(100 * MS);
        r.sample.rtt = None;
        t.on_ack(2 * MSS, 250 * MS);
        r.on_delivered(250 * MS, t.take_delivery(), None);
        assert_eq!(r.sample(0, MSS).interval, 0);
    }
}
