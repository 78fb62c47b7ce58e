import { describe, expect, it } from 'vitest';
import { embedCode } from './ShareLink';

describe('embed code', () => {
  it('frames the link in embed mode, with the HTML attribute escaped', () => {
    const code = embedCode('https://lab.example/#s=abc&view=queue&window=30', 'RED "ten" flows');
    expect(code).toBe(
      '<iframe src="https://lab.example/#s=abc&amp;view=queue&amp;window=30&amp;embed=1" width="900" height="560" style="border:0" loading="lazy" title="AQM Lab: RED &quot;ten&quot; flows"></iframe>',
    );
  });

  it('adds embed=1 only once, and names an unnamed experiment', () => {
    const code = embedCode('https://lab.example/#s=abc&embed=1', '');
    expect(code.match(/embed=1/g)).toHaveLength(1);
    expect(code).toContain('title="AQM Lab: experiment"');
  });
});
