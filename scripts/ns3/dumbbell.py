"""The ns-3 side of the comparison in docs/model.md ("Against ns-3").

Runs the dumbbell of scenarios/ns3-dumbbell-sack.json in ns-3.44 (PyPI
`ns3==3.44.post0`) and prints, per seed, the aggregate goodput, the mean
bottleneck queue and Jain's index over the measurement window, then their
means:

    python3 -m venv /tmp/ns3 && /tmp/ns3/bin/pip install ns3==3.44.post0
    /tmp/ns3/bin/python scripts/ns3/dumbbell.py --cc dctcp --queue step --k 20

The set-up follows AQM Lab's: ten flows, sender i behind a 100 Mb/s access
link of 1 + 49·i/9 ms (base RTTs 42–140 ms), a 10 Mb/s, 20 ms bottleneck
with a 100-packet queue disc, receivers on the far router, 1000-byte
segments without timestamps, IW 2, min RTO 200 ms, an ACK for every
segment, SACK, starts uniform on [0, 1] s, measured from 50 s to 100 s.
Data on the access links gets AQM Lab's jitter: each packet an extra delay
uniform on [0, 1] ms, never overtaking the packet before it (a small
channel class below). The device queue holds one packet, so the queue disc
holds the queue.

`--queue step` is DCTCP's marker as ns-3 builds it: RedQueueDisc with
MinTh = MaxTh = K, QW = 1, UseEcn, UseHardDrop = false and Gentle off, so
every ECN-capable arrival that finds K or more packets queued is marked,
never dropped. `--queue red` is the RED of the other rows (5, 15, 0.1,
0.002, Wait). `--queue codel`, `fq_codel`, `fq_pie`, `cobalt` and
`fq_cobalt` are ns-3's CoDelQueueDisc, FqCoDelQueueDisc, FqPieQueueDisc,
CobaltQueueDisc and FqCobaltQueueDisc with their default parameters and a
100-packet limit. `--cc cubic` is ns-3's TcpCubic with its defaults
(HyStart on: ACK train and delay).

`--cc bbr` is ns-3's TcpBbr with its defaults; it turns pacing on itself
(ns-3's pacing holds each segment for its length at the pacing rate).

`--counters` adds, per flow and summed, what loss recovery did over the
measurement window: timeouts (each doubling of the RTO), entries into
CA_LOSS and CA_RECOVERY, retransmitted and sent data segments, segments
reaching the receiver's router a second time, the seconds spent in CA_LOSS
and in CA_RECOVERY, and the RTO's mean and minimum sampled every
millisecond.
"""

import argparse
import json

from ns import ns
import cppyy

cppyy.cppdef(r"""
#include <algorithm>
#include <vector>
namespace aqmlab {
using namespace ns3;

// A point-to-point channel that delays data leaving the sender by an extra
// uniform [0, jitter] in FIFO order (AQM Lab's access jitter).
class JitterChannel : public PointToPointChannel {
  public:
    Ptr<UniformRandomVariable> draw = CreateObject<UniformRandomVariable>();
    Time jitter;
    Time lastArrival;
    bool TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime) override {
        Ptr<PointToPointNetDevice> dst = GetPointToPointDevice(src == GetPointToPointDevice(0) ? 1 : 0);
        Time at = Simulator::Now() + txTime + GetDelay();
        if (src == GetPointToPointDevice(0)) {
            at = std::max(at + NanoSeconds(int64_t(draw->GetValue(0, double(jitter.GetNanoSeconds())))), lastArrival);
            lastArrival = at;
        }
        Simulator::ScheduleWithContext(dst->GetNode()->GetId(), at - Simulator::Now(), &PointToPointNetDevice::Receive,
                                       dst, p->Copy());
        return true;
    }
};

NetDeviceContainer Link(Ptr<Node> a, Ptr<Node> b, std::string rate, Time delay, Time jitter, int64_t stream) {
    Ptr<JitterChannel> ch = CreateObject<JitterChannel>();
    ch->SetAttribute("Delay", TimeValue(delay));
    ch->jitter = jitter;
    ch->draw->SetStream(stream);
    NetDeviceContainer devs;
    for (Ptr<Node> n : {a, b}) {
        Ptr<PointToPointNetDevice> d = CreateObject<PointToPointNetDevice>();
        d->SetAttribute("DataRate", DataRateValue(DataRate(rate)));
        d->SetAddress(Mac48Address::Allocate());
        n->AddDevice(d);
        Ptr<DropTailQueue<Packet>> q = CreateObject<DropTailQueue<Packet>>();
        q->SetMaxSize(QueueSize("1p"));
        d->SetQueue(q);
        // As PointToPointHelper does: lets the queue disc see the device queue fill (flow control).
        Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
        ndqi->GetTxQueue(0)->ConnectQueueTraces(q);
        d->AggregateObject(ndqi);
        d->Attach(ch);
        devs.Add(d);
    }
    return devs;
}

struct Sampler {
    Ptr<QueueDisc> q;
    double sum = 0;
    uint64_t n = 0;
    Time step, until;
    void Sample() {
        sum += q->GetNPackets();
        n++;
        if (Simulator::Now() + step <= until) Simulator::Schedule(step, &Sampler::Sample, this);
    }
};

// Per-flow loss-recovery counters over the measurement window (--counters):
// timeouts (the RTO doubling in ReTxTimeout), entries into CA_LOSS and
// CA_RECOVERY, retransmitted and sent segments, data segments reaching the
// receiver's router that it already had (delivered twice), and the RTO
// sampled every millisecond.
struct Counters {
    static const int kinds = 10;
    enum { Timeouts, LossEntries, RecoveryEntries, Retransmits, Sent, Delivered, DeliveredTwice, LossSeconds,
           RecoverySeconds, RtoSamples };
    std::vector<std::vector<double>> count;
    std::vector<double> rto, rtoSumMs, rtoMinMs;
    std::vector<TcpSocketState::TcpCongState_t> state;
    std::vector<Time> since;
    std::vector<std::vector<bool>> seen;
    Time from;
    explicit Counters(int flows) : count(flows, std::vector<double>(kinds)), rto(flows), rtoSumMs(flows),
                                   rtoMinMs(flows, 1e9), state(flows, TcpSocketState::CA_OPEN), since(flows), seen(flows) {}
    // Time spent in CA_LOSS and CA_RECOVERY within the window, up to now.
    void Leave(int i) {
        Time start = std::max(since[i], from);
        if (Simulator::Now() > start) {
            double s = (Simulator::Now() - start).GetSeconds();
            if (state[i] == TcpSocketState::CA_LOSS) count[i][LossSeconds] += s;
            if (state[i] == TcpSocketState::CA_RECOVERY) count[i][RecoverySeconds] += s;
        }
        since[i] = Simulator::Now();
    }
    bool Measuring() const { return Simulator::Now() >= from; }
};

void OnRto(Counters* c, int i, Time old, Time now) {
    c->rto[i] = now.GetMilliSeconds();
    if (c->Measuring() && old.IsStrictlyPositive() && (now == old + old || now == Seconds(60))) c->count[i][Counters::Timeouts]++;
}
void OnCongState(Counters* c, int i, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
    c->Leave(i);
    c->state[i] = now;
    if (!c->Measuring()) return;
    if (now == TcpSocketState::CA_LOSS) c->count[i][Counters::LossEntries]++;
    if (now == TcpSocketState::CA_RECOVERY) c->count[i][Counters::RecoveryEntries]++;
}
void OnTx(Counters* c, int i, Ptr<const Packet> p, const TcpHeader&, Ptr<const TcpSocketBase>) {
    if (c->Measuring() && p->GetSize() > 0) c->count[i][Counters::Sent]++;
}
void OnRetransmission(Counters* c, int i, Ptr<const Packet>, const TcpHeader&, const Address&, const Address&,
                      Ptr<const TcpSocketBase>) {
    if (c->Measuring()) c->count[i][Counters::Retransmits]++;
}
void OnDelivery(Counters* c, int flows, uint32_t mss, Ptr<const Packet> packet) {
    Ptr<Packet> p = packet->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    TcpHeader tcp;
    p->RemoveHeader(ppp);
    p->RemoveHeader(ip);
    p->RemoveHeader(tcp);
    int i = int(tcp.GetDestinationPort()) - 5000;
    if (i < 0 || i >= flows || p->GetSize() == 0) return;
    // Sequence numbers start at 1 after the SYN.
    uint32_t segment = (tcp.GetSequenceNumber().GetValue() - 1) / mss;
    std::vector<bool>& seen = c->seen[i];
    if (seen.size() <= segment) seen.resize(segment + 1, false);
    if (c->Measuring()) c->count[i][seen[segment] ? Counters::DeliveredTwice : Counters::Delivered]++;
    seen[segment] = true;
}
void SampleRto(Counters* c, Time step, Time until) {
    for (size_t i = 0; i < c->rto.size(); i++) {
        c->rtoSumMs[i] += c->rto[i];
        c->rtoMinMs[i] = std::min(c->rtoMinMs[i], c->rto[i]);
        c->count[i][Counters::RtoSamples]++;
    }
    if (Simulator::Now() + step <= until) Simulator::Schedule(step, &SampleRto, c, step, until);
}
void Instrument(Counters* c, std::vector<Ptr<BulkSendApplication>> apps) {
    for (size_t i = 0; i < apps.size(); i++) {
        Ptr<TcpSocketBase> s = DynamicCast<TcpSocketBase>(apps[i]->GetSocket());
        s->TraceConnectWithoutContext("RTO", MakeBoundCallback(&OnRto, c, int(i)));
        s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, c, int(i)));
        s->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, c, int(i)));
        s->TraceConnectWithoutContext("Retransmission", MakeBoundCallback(&OnRetransmission, c, int(i)));
    }
}

std::vector<double> Run(uint32_t seed, std::string cc, std::string queue, uint32_t k, bool counters) {
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    const int flows = 10;
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::" + cc));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1000));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 24));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 24));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
    if (cc == "TcpDctcp") Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue("On"));

    NodeContainer senders, routers;
    senders.Create(flows);
    routers.Create(2);
    InternetStackHelper stack;
    stack.Install(senders);
    stack.Install(routers);
    Ipv4AddressHelper addr;
    NetDeviceContainer bottleneck = Link(routers.Get(0), routers.Get(1), "10Mbps", MilliSeconds(20), Time(0), 1000);
    TrafficControlHelper tc;
    if (queue == "step") {
        tc.SetRootQueueDisc("ns3::RedQueueDisc", "MinTh", DoubleValue(k), "MaxTh", DoubleValue(k), "QW", DoubleValue(1.0),
                            "UseEcn", BooleanValue(true), "UseHardDrop", BooleanValue(false), "Gentle", BooleanValue(false),
                            "MaxSize", QueueSizeValue(QueueSize("100p")));
    } else if (queue == "red") {
        tc.SetRootQueueDisc("ns3::RedQueueDisc", "MinTh", DoubleValue(5), "MaxTh", DoubleValue(15), "LInterm", DoubleValue(10),
                            "QW", DoubleValue(0.002), "Gentle", BooleanValue(false),
                            "MaxSize", QueueSizeValue(QueueSize("100p")));
    } else if (queue == "codel") {
        tc.SetRootQueueDisc("ns3::CoDelQueueDisc", "MaxSize", QueueSizeValue(QueueSize("100p")));
    } else if (queue == "fq_codel") {
        tc.SetRootQueueDisc("ns3::FqCoDelQueueDisc", "MaxSize", QueueSizeValue(QueueSize("100p")));
    } else if (queue == "fq_pie") {
        tc.SetRootQueueDisc("ns3::FqPieQueueDisc", "MaxSize", QueueSizeValue(QueueSize("100p")));
    } else if (queue == "cobalt") {
        tc.SetRootQueueDisc("ns3::CobaltQueueDisc", "MaxSize", QueueSizeValue(QueueSize("100p")));
    } else if (queue == "fq_cobalt") {
        tc.SetRootQueueDisc("ns3::FqCobaltQueueDisc", "MaxSize", QueueSizeValue(QueueSize("100p")));
    } else {
        tc.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(QueueSize("100p")));
    }
    QueueDiscContainer qdiscs = tc.Install(bottleneck.Get(0));
    addr.SetBase("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer far = addr.Assign(bottleneck);
    for (int i = 0; i < flows; i++) {
        double delayMs = 1.0 + 49.0 * i / (flows - 1);
        NetDeviceContainer access = Link(senders.Get(i), routers.Get(0), "100Mbps",
                                         NanoSeconds(int64_t(delayMs * 1e6)), MilliSeconds(1), 2000 + i);
        std::ostringstream base;
        base << "10.1." << i << ".0";
        addr.SetBase(base.str().c_str(), "255.255.255.0");
        addr.Assign(access);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    std::vector<Ptr<PacketSink>> sinks;
    std::vector<Ptr<BulkSendApplication>> apps;
    Ptr<UniformRandomVariable> start = CreateObject<UniformRandomVariable>();
    start->SetStream(3000);
    for (int i = 0; i < flows; i++) {
        uint16_t port = 5000 + i;
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer s = sink.Install(routers.Get(1));
        s.Start(Seconds(0));
        sinks.push_back(DynamicCast<PacketSink>(s.Get(0)));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(far.GetAddress(1), port));
        bulk.SetAttribute("SendSize", UintegerValue(1000));
        ApplicationContainer b = bulk.Install(senders.Get(i));
        b.Start(Seconds(start->GetValue(0, 1)));
        apps.push_back(DynamicCast<BulkSendApplication>(b.Get(0)));
    }
    const double from = 50, until = 100;
    Sampler sampler;
    sampler.q = qdiscs.Get(0);
    sampler.step = MilliSeconds(1);
    sampler.until = Seconds(until);
    Simulator::Schedule(Seconds(from), &Sampler::Sample, &sampler);
    std::vector<uint64_t> at_from(flows);
    Simulator::Schedule(Seconds(from), [&]() { for (int i = 0; i < flows; i++) at_from[i] = sinks[i]->GetTotalRx(); });
    Counters ctr(flows);
    ctr.from = Seconds(from);
    if (counters) {
        // Every sender has started by 1 s; its socket exists from then on.
        Simulator::Schedule(Seconds(1.5), &Instrument, &ctr, apps);
        bottleneck.Get(1)->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&OnDelivery, &ctr, flows, 1000u));
        Simulator::Schedule(Seconds(from), &SampleRto, &ctr, MilliSeconds(1), Seconds(until));
    }
    Simulator::Stop(Seconds(until));
    Simulator::Run();
    std::vector<double> out;
    out.push_back(sampler.sum / sampler.n);
    for (int i = 0; i < flows; i++) out.push_back((sinks[i]->GetTotalRx() - at_from[i]) * 8.0 / (until - from));
    QueueDisc::Stats st = qdiscs.Get(0)->GetStats();
    out.push_back(st.nTotalMarkedPackets);
    out.push_back(st.nTotalDroppedPackets);
    for (int i = 0; counters && i < flows; i++) {
        ctr.Leave(i);
        for (int kind = 0; kind < Counters::RtoSamples; kind++) out.push_back(ctr.count[i][kind]);
        out.push_back(ctr.rtoSumMs[i] / ctr.count[i][Counters::RtoSamples]);
        out.push_back(ctr.rtoMinMs[i]);
    }
    Simulator::Destroy();
    return out;
}
}  // namespace aqmlab
""")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cc", default="dctcp", choices=["dctcp", "newreno", "cubic", "bbr"])
    ap.add_argument("--queue", default="step", choices=["step", "red", "droptail", "codel", "fq_codel", "fq_pie", "cobalt", "fq_cobalt"])
    ap.add_argument("--k", type=int, default=20, help="the step marker's threshold K, packets")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--counters", action="store_true",
                    help="also print each flow's timeouts, recoveries, retransmissions, segments delivered twice "
                         "and RTO over the measurement window")
    args = ap.parse_args()
    cc = {"dctcp": "TcpDctcp", "newreno": "TcpNewReno", "cubic": "TcpCubic", "bbr": "TcpBbr"}[args.cc]
    rows = []
    for seed in [int(s) for s in args.seeds.split(",")]:
        r = list(cppyy.gbl.aqmlab.Run(seed, cc, args.queue, args.k, args.counters))
        goodputs = r[1:11]
        total = sum(goodputs)
        jain = total * total / (len(goodputs) * sum(g * g for g in goodputs))
        row = {"seed": seed, "goodput_mbps": total / 1e6, "mean_queue_packets": r[0], "jain": jain,
               "marks": int(r[11]), "drops": int(r[12])}
        if args.counters:
            names = ["timeouts", "loss_entries", "recovery_entries", "retransmits", "sent", "delivered",
                     "delivered_twice", "loss_s", "recovery_s", "mean_rto_ms", "min_rto_ms"]
            per_flow = [r[13 + i * len(names):13 + (i + 1) * len(names)] for i in range(10)]
            row["per_flow"] = [dict(zip(names, f)) for f in per_flow]
            row["total"] = {n: sum(f[j] for f in per_flow) for j, n in enumerate(names[:9])}
        rows.append(row)
        print(json.dumps(row), flush=True)
    mean = {k: sum(r[k] for r in rows) / len(rows) for k in ("goodput_mbps", "mean_queue_packets", "jain")}
    print(json.dumps({"mean": mean}))


if __name__ == "__main__":
    main()
