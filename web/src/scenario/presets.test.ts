import { describe, expect, it } from 'vitest';
import { PRESETS } from './presets';

describe('presets', () => {
  it('every preset has a plain sentence for newcomers and a detailed caption', () => {
    for (const preset of PRESETS) {
      expect(preset.plain, preset.id).not.toBe('');
      expect(preset.caption, preset.id).not.toBe('');
    }
  });

  it('plain sentences stay short and free of the field’s abbreviations', () => {
    // Scheme names are allowed (the preset is about them); these words are what the glossary explains instead.
    const jargon = /\b(TCP|CBR|RTT|AQM|ECN|goodput|p99|CoV|Jain|max_p|min_th|max_th|Mb\/s|kb\/s)\b/;
    for (const preset of PRESETS) {
      expect(preset.plain, preset.id).not.toMatch(jargon);
      expect(preset.plain.length, preset.id).toBeLessThanOrEqual(130);
    }
  });
});
