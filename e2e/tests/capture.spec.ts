// Export → Capture (pcap): the page runs the experiment out of sight and
// hands over a capture Wireshark can read. The file is parsed here without
// tshark: pcap's headers, raw IPv4 with a valid header checksum, TCP whose
// sequence numbers run on from segment to segment.
import type { Download, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { readFile } from 'node:fs/promises';
import { linkFor, redDumbbell, watchForErrors } from './helpers';

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

/** The capture and its drops file, both downloaded from the form (drops are on by default). */
async function downloadCapture(page: Page): Promise<{ left: Buffer; dropped: Buffer }> {
  await page.getByTestId('export-toggle').click();
  await page.getByTestId('export-capture').click();
  await expect(page.getByTestId('capture-form')).toBeVisible();
  await expect(page.getByTestId('capture-drops')).toBeChecked();
  await page.getByTestId('capture-from').fill('1');
  await page.getByTestId('capture-to').fill('3');
  const downloads: Download[] = [];
  page.on('download', (download) => downloads.push(download));
  await page.getByTestId('capture-download').click();
  await expect.poll(() => downloads.length, { timeout: 60_000 }).toBe(2);
  const named = (suffix: string) => downloads.find((d) => d.suggestedFilename().endsWith(suffix))!;
  return { left: await readFile(await named('capture.pcap').path()), dropped: await readFile(await named('capture.drops.pcap').path()) };
}

/** Byte ranges [start, end) merged: the stretches of sequence space they cover. */
function coverage(ranges: [number, number][]): [number, number][] {
  const merged: [number, number][] = [];
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

const NAME = 'Two TCP flows through RED';
const flows = [{ kind: 'tcp', label: 'Bulk', count: 2, sack: true }];
const scenario = redDumbbell(
  { rate_bps: 2_000_000, delay_ms: 10, packets: 40 },
  { min_th: 5, max_th: 15 },
  { name: NAME, seed: 3, duration_s: 10, measure_from_s: 1, flows },
);

for (const [size, viewport] of [
  ['desktop', { width: 1280, height: 720 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`a capture downloads as nanosecond raw-IPv4 pcap with valid headers and continuous TCP sequence numbers (${size})`, async ({ page }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize(viewport);
    await page.goto(linkFor(scenario));
    await expect(page.getByTestId('experiment-name')).toHaveText(NAME);
    const files = await downloadCapture(page);
    const pcap = parsePcap(files.left);
    const drops = parsePcap(files.dropped);
    for (const file of [pcap, drops]) {
      expect(file.magic).toBe(0xa1b23c4d);
      expect(file.linkType).toBe(101);
      expect(file.packets.every((p) => p.headerChecksumOk)).toBe(true);
    }
    // 2 s of a 2 Mb/s link: hundreds of data segments and their ACKs; RED drops some.
    expect(pcap.packets.length).toBeGreaterThan(300);
    expect(drops.packets.length).toBeGreaterThan(0);
    // Per sender, what left the hop and what it dropped together cover the
    // sequence space without a hole: every gap in the capture is a drop.
    const ranges = new Map<string, [number, number][]>();
    for (const p of [...pcap.packets, ...drops.packets].filter((p) => p.protocol === 6 && p.payloadBytes > 0)) {
      ranges.set(p.source, [...(ranges.get(p.source) ?? []), [p.tcpSeq!, p.tcpSeq! + p.payloadBytes]]);
    }
    expect(ranges.size).toBe(2);
    for (const [source, sent] of ranges) {
      expect(sent.length, source).toBeGreaterThan(50);
      // Below the stretch of data first sent in the window lie only retransmissions
      // of older data, a segment or a few each: a gap in new data would split it.
      const stretches = coverage(sent);
      const [start, end] = stretches.at(-1)!;
      expect(end - start, source).toBeGreaterThan(50 * 1000);
      for (const [lo, hi] of stretches.slice(0, -1)) expect(hi - lo, `${source}: a gap that is not a drop at ${hi}`).toBeLessThanOrEqual(3 * 1000);
    }
    expect(errors).toEqual([]);
  });
}
