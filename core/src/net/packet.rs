use crate::kernel::Nanos;

pub type FlowId = u32;

/// Bytes of IP + TCP header on every TCP packet (docs/scenario-format.md: `segment_bytes + 40`).
pub const TCP_HEADER_BYTES: u32 = 40;
/// A pure ACK on the wire.
pub const ACK_BYTES: u32 = 40;
/// Most SACK blocks one ACK carries: four fit in the 40 bytes of TCP
/// options when timestamps are off (RFC 2018 §3).
pub const MAX_SACK_BLOCKS: usize = 4;

/// Option bytes of `n` SACK blocks (RFC 2018 §3: kind, length, 8 bytes a
/// block); the 2 bytes of padding to a 4-byte boundary are not counted.
pub fn sack_option_bytes(n: usize) -> u32 {
    if n == 0 {
        0
    } else {
        8 * n as u32 + 2
    }
}

/// The ACE field's three bits count CE packets modulo 8.
pub const ACE_MODULUS: u8 = 8;

/// IP + UDP header (docs/scenario-format.md: `packet_bytes + 28`).
pub const UDP_HEADER_BYTES: u32 = 28;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    Data,
    Ack,
}

/// Direction along a flow's route: data goes forward, ACKs and feedback back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Forward,
    Reverse,
}

/// The two ECN bits of the IP header (RFC 3168 §5). A sender picks its
/// ECN-capable codepoint: ECT(0) for classic ECN (RFC 3168), ECT(1) for L4S
/// (RFC 9331 §8); a queue that signals congestion rewrites either to CE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ecn {
    #[default]
    NotEct,
    Ect0,
    Ect1,
    Ce,
}

/// Which queue of a dual-queue scheme (DualPI2) a packet was classified
/// into at the hop it is at; the port resets it on arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lane {
    /// A single-queue scheme, or not yet classified.
    #[default]
    Single,
    /// The low-latency (L4S) queue.
    L4s,
    /// The classic queue.
    Classic,
}

/// Header fields that edge routers write and core routers read: CSFQ/RQRD
/// rate labels, drop precedence, AFpFT tags, per-flow weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Labels {
    /// Rate label written at the edge (bits/s): the flow's estimated arrival
    /// rate divided by its weight (CSFQ, RQRD); 0 = not yet labelled.
    pub rate_bps: f64,
    /// 0 = normal, 1 = low priority (RQRD's second precedence).
    pub drop_precedence: u8,
    /// Scheme-defined tag. Sources start it negative (AFpFT (2011) §2): AFpFT
    /// reads a negative tag as "this router is the flow's edge".
    pub tag: f64,
    /// Relative weight of the flow (weighted BARE, weighted CSFQ).
    pub weight: f64,
}

impl Labels {
    /// The labels of a packet no router or source has labelled.
    pub const UNLABELLED: Labels = Labels { rate_bps: 0.0, drop_precedence: 0, tag: -1.0, weight: 1.0 };
}

impl Default for Labels {
    fn default() -> Self {
        Labels::UNLABELLED
    }
}

/// The SACK option of an ACK (RFC 2018 §3): up to [`MAX_SACK_BLOCKS`]
/// ranges [left, right) of data received above the cumulative ACK, in the
/// receiver's order (the most recent first). Stored as 32-bit offsets from
/// the ACK, as TCP's 32-bit sequence numbers would be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    len: u8,
    offsets: [(u32, u32); MAX_SACK_BLOCKS],
}

impl SackBlocks {
    /// Blocks of an ACK for `ack`, from absolute ranges above it; those past
    /// the first [`MAX_SACK_BLOCKS`] (or not above `ack`) are left out.
    pub fn new(ack: u64, ranges: impl IntoIterator<Item = (u64, u64)>) -> SackBlocks {
        let mut blocks = SackBlocks::default();
        for (left, right) in ranges.into_iter().filter(|&(l, r)| l > ack && r > l).take(MAX_SACK_BLOCKS) {
            let offset = |seq: u64| u32::try_from(seq - ack).unwrap_or(u32::MAX);
            blocks.offsets[blocks.len as usize] = (offset(left), offset(right));
            blocks.len += 1;
        }
        blocks
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The blocks as absolute [left, right) ranges, given the ACK they ride on.
    pub fn ranges(&self, ack: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.offsets[..self.len()].iter().map(move |&(l, r)| (ack + l as u64, ack + r as u64))
    }
}

/// Header fields that only some packets carry: router labels (the schemes
/// of the CSFQ family, weighted flows) and TFRC's header or a TCP ACK's
/// SACK blocks. They live behind one pointer so that every other packet
/// stays small: queues and links move packets by value, and a packet that
/// fits in 64 bytes is copied by a few inline loads and stores, where a
/// larger one costs a call to `memcpy` (in WebAssembly a `memory.copy`).
#[derive(Clone, Debug, PartialEq)]
pub struct Extension {
    pub labels: Labels,
    pub header: Option<Header>,
}

/// A transport header beyond TCP's and UDP's fixed fields.
#[derive(Clone, Debug, PartialEq)]
pub enum Header {
    Tfrc(TfrcHeader),
    Sack(SackBlocks),
}

/// TFRC's header fields (RFC 5348 §3.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TfrcHeader {
    /// §3.2.1: a data packet carries the sender's RTT estimate (0 until it
    /// has one); its sequence number is `seq` and its timestamp `sent_at`.
    Data { rtt_ns: Nanos },
    /// §3.2.2: the receiver's report.
    Feedback {
        /// `sent_at` of the last data packet received.
        t_recvdata: Nanos,
        /// Time from that packet's arrival to this report.
        t_delay: Nanos,
        /// Payload bytes per second received over the last RTT.
        x_recv: f64,
        /// Loss event rate.
        p: f64,
    },
}

#[derive(Clone, Debug)]
pub struct Packet {
    /// The flow as routers see it (its 5-tuple): what schemes classify by.
    /// Every connection of a web client is a flow of its own.
    pub flow: FlowId,
    /// The scenario flow (agent pair) the packet belongs to: its route and
    /// the statistics it counts towards. Equal to `flow` but for web clients.
    pub owner: FlowId,
    /// Connection within the owner: a web client opens one per transfer.
    pub conn: u32,
    pub kind: PacketKind,
    pub dir: Dir,
    /// Wire size: payload plus headers.
    pub size_bytes: u32,
    pub payload_bytes: u32,
    /// Data: sequence number of the first payload byte (TCP) or packet number (UDP).
    pub seq: u64,
    /// ACK: cumulative acknowledgement, the next byte expected. Ping echo
    /// reply: the request's send time (ns), as ping's payload carries it.
    pub ack: u64,
    pub ecn: Ecn,
    /// TCP ECN-Echo and Congestion-Window-Reduced flags (RFC 3168 §6.1).
    pub ece: bool,
    pub cwr: bool,
    /// Accurate ECN's ACE field (draft-ietf-tcpm-accurate-ecn §3.2.2): the
    /// receiver's count of CE-marked packets, modulo [`ACE_MODULUS`]. On
    /// the wire it takes the bits of ECE, CWR and AE; a sender that
    /// negotiated it reads it instead of `ece` and `cwr`.
    pub ace: u8,
    /// When the source handed the packet to the network.
    pub sent_at: Nanos,
    /// When the packet entered the queue it is in now (set by the port).
    pub enqueued_at: Nanos,
    /// Index of the next port on the route.
    pub hop: u8,
    /// The queue of a dual-queue scheme the packet is in at this hop.
    pub lane: Lane,
    /// Labels and extra headers; None on a packet with neither (most).
    /// Read and write them through [`Packet::labels`], [`Packet::tfrc`] and
    /// [`Packet::sack`] and their setters.
    pub(crate) ext: Option<Box<Extension>>,
}

impl Packet {
    /// May a queue mark this packet CE instead of dropping it? ECT(0),
    /// ECT(1) and CE packets are ECN-capable (RFC 3168 §5).
    pub fn ecn_capable(&self) -> bool {
        self.ecn != Ecn::NotEct
    }

    pub fn new(flow: FlowId, kind: PacketKind, dir: Dir, size_bytes: u32, payload_bytes: u32) -> Packet {
        Packet {
            flow,
            owner: flow,
            conn: 0,
            kind,
            dir,
            size_bytes,
            payload_bytes,
            seq: 0,
            ack: 0,
            ecn: Ecn::NotEct,
            ece: false,
            cwr: false,
            ace: 0,
            sent_at: 0,
            enqueued_at: 0,
            hop: 0,
            lane: Lane::Single,
            ext: None,
        }
    }

    /// The header fields edge routers write and core routers read.
    pub fn labels(&self) -> &Labels {
        self.ext.as_deref().map_or(&Labels::UNLABELLED, |ext| &ext.labels)
    }

    /// The labels, to write (the packet gets its extension if it had none).
    pub fn labels_mut(&mut self) -> &mut Labels {
        &mut self.ext.get_or_insert_with(|| Box::new(Extension { labels: Labels::UNLABELLED, header: None })).labels
    }

    fn header(&self) -> Option<&Header> {
        self.ext.as_deref().and_then(|ext| ext.header.as_ref())
    }

    /// Set or clear the extra header; the extension goes when nothing is left in it.
    fn set_header(&mut self, header: Option<Header>) {
        if let Some(ext) = self.ext.as_deref_mut() {
            ext.header = header;
            if ext.header.is_none() && ext.labels == Labels::UNLABELLED {
                self.ext = None;
            }
        } else if header.is_some() {
            self.ext = Some(Box::new(Extension { labels: Labels::UNLABELLED, header }));
        }
    }

    /// TFRC's header, if this is a TFRC packet.
    pub fn tfrc(&self) -> Option<&TfrcHeader> {
        match self.header() {
            Some(Header::Tfrc(header)) => Some(header),
            _ => None,
        }
    }

    pub fn set_tfrc(&mut self, header: TfrcHeader) {
        self.set_header(Some(Header::Tfrc(header)));
    }

    /// The SACK blocks of a TCP ACK (none without SACK).
    pub fn sack(&self) -> SackBlocks {
        match self.header() {
            Some(Header::Sack(blocks)) => *blocks,
            _ => SackBlocks::default(),
        }
    }

    /// Attach SACK blocks (nothing when there are none).
    pub fn set_sack(&mut self, blocks: SackBlocks) {
        self.set_header((!blocks.is_empty()).then_some(Header::Sack(blocks)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packet_stays_small_enough_to_move_without_a_memcpy_call() {
        // Queues and links move packets by value: up to 64 bytes (eight
        // 8-byte words) the compiler copies them inline, past that each
        // move is a call (in WebAssembly, where pointers take 4 bytes, a
        // `memory.copy`). With 8-byte pointers the same fields take 72.
        let limit = if cfg!(target_pointer_width = "32") { 64 } else { 72 };
        assert!(std::mem::size_of::<Packet>() <= limit, "{} bytes", std::mem::size_of::<Packet>());
    }

    #[test]
    fn sack_blocks_keep_the_first_four_ranges_above_the_ack() {
        let ranges = [(500, 900), (3000, 4000), (1000, 2000), (5000, 6000), (7000, 8000), (9000, 9500)];
        let blocks = SackBlocks::new(1000, ranges);
        assert_eq!(blocks.ranges(1000).collect::<Vec<_>>(), [(3000, 4000), (5000, 6000), (7000, 8000), (9000, 9500)]);
        assert_eq!(sack_option_bytes(blocks.len()), 34);
        let mut ack = Packet::new(0, PacketKind::Ack, Dir::Reverse, ACK_BYTES, 0);
        ack.set_sack(blocks);
        assert_eq!((ack.sack(), ack.tfrc()), (blocks, None));
        ack.set_sack(SackBlocks::new(1000, []));
        assert!(ack.ext.is_none() && ack.sack().is_empty());
    }
}
