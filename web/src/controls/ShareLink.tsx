// "Copy link": the running experiment (scenario with the current parameter
// values) and the view, as a link that reproduces it: the same link the
// address bar shows. Once a link is out, "Copy embed code" gives the same
// experiment as an <iframe> for a slide or course page (embed mode: charts
// and transport only).

import { useEffect, useRef, useState } from 'react';

interface ShareLinkProps {
  /** The link to the experiment on screen (also put in the address bar). */
  buildLink: () => string;
  /** The experiment's name, for the embedded frame's title. */
  experimentName: string;
}

/** What the box shows: the link, or the embed code. */
interface Shown {
  kind: 'link' | 'embed';
  text: string;
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The iframe that shows `link` in embed mode. */
export function embedCode(link: string, experimentName: string): string {
  const embedded = /[#&]embed=1(&|$)/.test(link) ? link : `${link}&embed=1`;
  const title = `AQM Lab: ${experimentName || 'experiment'}`;
  return `<iframe src="${attribute(embedded)}" width="900" height="560" style="border:0" loading="lazy" title="${attribute(title)}"></iframe>`;
}

export function ShareLink({ buildLink, experimentName }: ShareLinkProps) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [status, setStatus] = useState('');
  const shareRef = useRef<HTMLDivElement>(null);
  // On a phone the header's buttons scroll sideways in one row: bring the whole box and its status into view.
  useEffect(() => {
    if (shown) shareRef.current?.scrollIntoView({ block: 'nearest', inline: 'end' });
  }, [shown]);
  const copy = async (next: Shown, copied: string) => {
    setShown(next);
    try {
      await navigator.clipboard.writeText(next.text);
      setStatus(copied);
    } catch {
      setStatus(`The browser refused the clipboard: copy the ${next.kind === 'link' ? 'link from the box or the address bar' : 'code from the box'}`);
    }
  };
  return (
    <div className="share" ref={shareRef}>
      <button type="button" onClick={() => copy({ kind: 'link', text: buildLink() }, 'Link copied (the same as the address bar)')} data-testid="copy-link">
        Copy link
      </button>
      {shown && (
        <>
          <input
            className="share-link"
            type="text"
            readOnly
            value={shown.text}
            aria-label={shown.kind === 'link' ? 'Link to this experiment' : 'Embed code for this experiment'}
            onFocus={(event) => event.target.select()}
            data-testid={shown.kind === 'link' ? 'share-link' : 'embed-code'}
          />
          <button
            type="button"
            onClick={() => copy({ kind: 'embed', text: embedCode(buildLink(), experimentName) }, 'Embed code copied: paste it into a slide or course page')}
            data-testid="copy-embed"
          >
            Copy embed code
          </button>
        </>
      )}
      <span className="share-status" role="status" data-testid="share-status">
        {status}
      </span>
    </div>
  );
}
