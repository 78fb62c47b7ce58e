import { describe, expect, it } from 'vitest';
import { decodeFragment, encodeFragment } from './codec';
import { DEFAULT_PAGE_OPTIONS, decodePageOptions, withPageOptions } from './pageOptions';
import { DEFAULT_VIEW } from './view';

describe('page options in the link', () => {
  it('an old link (scenario and view only) opens the ordinary page', () => {
    const fragment = encodeFragment('{"version":1}', DEFAULT_VIEW);
    expect(decodePageOptions(fragment)).toEqual(DEFAULT_PAGE_OPTIONS);
    expect(decodePageOptions('')).toEqual(DEFAULT_PAGE_OPTIONS);
  });

  it('round-trips present, embed and a lesson step, counted from 1 in the link', () => {
    const options = { present: true, embed: true, lesson: { lessonId: 'bufferbloat', stepIndex: 2 }, reproduction: null, figure: null };
    const fragment = withPageOptions('', options);
    expect(fragment).toContain('step=3');
    expect(decodePageOptions(`#${fragment}`)).toEqual(options);
  });

  it('leaves the scenario and view of a link as they were', () => {
    const fragment = encodeFragment('{"version":1,"name":"x"}', { ...DEFAULT_VIEW, compare: { by: 'cc', cc: 'bbr' } });
    const withOptions = withPageOptions(fragment, { present: true, embed: false, lesson: null, reproduction: 'bare-fig9', figure: 'bare-fig8' });
    const decoded = decodeFragment(withOptions);
    expect(decoded).toEqual(decodeFragment(fragment));
    // And options can be switched off again without leaving a trace.
    expect(withPageOptions(withOptions, DEFAULT_PAGE_OPTIONS)).toBe(new URLSearchParams(fragment).toString());
  });

  it('round-trips the open reproduction, and reads an empty one as none', () => {
    const options = { ...DEFAULT_PAGE_OPTIONS, reproduction: 'dsred-table1' };
    expect(withPageOptions('', options)).toBe('repro=dsred-table1');
    expect(decodePageOptions('#repro=dsred-table1')).toEqual(options);
    expect(decodePageOptions('#repro=').reproduction).toBeNull();
  });

  it('round-trips the open figure beside a reproduction, and reads an empty one as none', () => {
    const options = { ...DEFAULT_PAGE_OPTIONS, reproduction: 'sfred-web-and-ftp', figure: 'sfred-fig6' };
    expect(withPageOptions('', options)).toBe('repro=sfred-web-and-ftp&figure=sfred-fig6');
    expect(decodePageOptions('#figure=sfred-fig6')).toEqual({ ...DEFAULT_PAGE_OPTIONS, figure: 'sfred-fig6' });
    expect(decodePageOptions('#repro=sfred-web-and-ftp&figure=sfred-fig6')).toEqual(options);
    expect(decodePageOptions('#figure=').figure).toBeNull();
  });

  it('reads 0 and false as off, and a bad step as the first', () => {
    expect(decodePageOptions('present=0&embed=false')).toEqual(DEFAULT_PAGE_OPTIONS);
    expect(decodePageOptions('lesson=ecn&step=-4').lesson).toEqual({ lessonId: 'ecn', stepIndex: 0 });
    expect(decodePageOptions('lesson=ecn&step=two').lesson).toEqual({ lessonId: 'ecn', stepIndex: 0 });
    expect(decodePageOptions('lesson=&step=2').lesson).toBeNull();
  });
});
