// Export → Capture (pcap): the page runs the experiment out of sight and
// hands over a capture Wireshark can read. The file is parsed here without
// tshark: pcap's headers, raw IPv4 with a valid header checksum, TCP whose
// sequence numbers run on from segment to segment.
import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { linkFor, watchForErrors } from './helpers';

interface IpPacket {
  protocol: number;
  source: string;
  headerChecksumOk: boolean;
  tcpSeq?: number;
  payloadBytes: number;
}

/** Records of a nanosecond pcap with LINKTYPE_RAW, parsed as IPv4. */
function parsePcap(bytes: Buffer): { magic: number; linkType: number; packets: IpPacket[] } {
  const magic = bytes.readUInt32LE(0);
  const linkType = bytes.readUInt32LE(20);
  const packets: IpPacket[] = [];
  for (let at = 24; at + 16 <= bytes.length;) {
    const captured = bytes.readUInt32LE(at + 8);
    const ip = bytes.subarray(at + 16, at + 16 + captured);
    const headerBytes = (ip[0] & 0x0f) * 4;
    let sum = 0;
    for (let i = 0; i < headerBytes; i += 2) sum += ip.readUInt16BE(i);
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
    const totalBytes = ip.readUInt16BE(2);
    const packet: IpPacket = {
      protocol: ip[9],
      source: `${ip[12]}.${ip[13]}.${ip[14]}.${ip[15]}`,
      headerChecksumOk: ip[0] >> 4 === 4 && sum === 0xffff,
      payloadBytes: totalBytes - headerBytes,
    };
    if (packet.protocol === 6) {
      const tcp = ip.subarray(headerBytes);
      packet.tcpSeq = tcp.readUInt32BE(4);
      packet.payloadBytes -= (tcp[12] >> 4) * 4;
    }
    packets.push(packet);
    at += 16 + captured;
  }
  return { magic, linkType, packets };
}

async function downloadCapture(page: Page): Promise<Buffer> {
  await page.getByTestId('export-toggle').click();
  await page.getByTestId('export-capture').click();
  await expect(page.getByTestId('capture-form')).toBeVisible();
  await page.getByTestId('capture-from').fill('1');
  await page.getByTestId('capture-to').fill('3');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('capture-download').click()]);
  expect(download.suggestedFilename()).toMatch(/capture\.pcap$/);
  return readFile(await download.path());
}

const scenario = {
  version: 1,
  name: 'Two TCP flows through RED',
  seed: 3,
  duration_s: 10,
  measure_from_s: 1,
  topology: { kind: 'dumbbell', bottleneck: { rate_bps: 2_000_000, delay_ms: 10 }, buffer: { packets: 40 } },
  queue: { scheme: 'red', params: { min_th: 5, max_th: 15 } },
  flows: [{ kind: 'tcp', label: 'Bulk', count: 2, sack: true }],
};

for (const [size, viewport] of [
  ['desktop', { width: 1280, height: 720 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`a capture downloads as nanosecond raw-IPv4 pcap with valid headers and continuous TCP sequence numbers (${size})`, async ({ page }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize(viewport);
    await page.goto(linkFor(scenario));
    await expect(page.getByTestId('experiment-name')).toHaveText(scenario.name);
    const pcap = parsePcap(await downloadCapture(page));
    expect(pcap.magic).toBe(0xa1b23c4d);
    expect(pcap.linkType).toBe(101);
    // 2 s of a 2 Mb/s link: hundreds of data segments and their ACKs.
    expect(pcap.packets.length).toBeGreaterThan(300);
    expect(pcap.packets.every((p) => p.headerChecksumOk)).toBe(true);
    // Per sender, data segments in order of leaving: each starts where an
    // earlier one ended, or is a retransmission of bytes already sent.
    const senders = new Map<string, { highest: number; segments: number }>();
    for (const p of pcap.packets.filter((p) => p.protocol === 6 && p.payloadBytes > 0)) {
      const seen = senders.get(p.source);
      if (seen) expect(p.tcpSeq!, `${p.source} jumps past what it sent`).toBeLessThanOrEqual(seen.highest);
      const end = p.tcpSeq! + p.payloadBytes;
      senders.set(p.source, { highest: Math.max(seen?.highest ?? end, end), segments: (seen?.segments ?? 0) + 1 });
    }
    expect([...senders.values()].map((s) => s.segments > 50)).toEqual([true, true]);
    expect(errors).toEqual([]);
  });
}
