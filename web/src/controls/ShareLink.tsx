// "Copy link": the running experiment (scenario with the current parameter
// values) and the view, as a link that reproduces it: the same link the
// address bar shows.

import { useState } from 'react';

interface ShareLinkProps {
  /** The link to the experiment on screen (also put in the address bar). */
  buildLink: () => string;
}

export function ShareLink({ buildLink }: ShareLinkProps) {
  const [link, setLink] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const copy = async () => {
    const next = buildLink();
    setLink(next);
    try {
      await navigator.clipboard.writeText(next);
      setStatus('Link copied (the same as the address bar)');
    } catch {
      setStatus('The browser refused the clipboard: copy the link from the box or the address bar');
    }
  };
  return (
    <div className="share">
      <button type="button" onClick={copy} data-testid="copy-link">
        Copy link
      </button>
      {link && (
        <input
          className="share-link"
          type="text"
          readOnly
          value={link}
          aria-label="Link to this experiment"
          onFocus={(event) => event.target.select()}
          data-testid="share-link"
        />
      )}
      <span className="share-status" role="status" data-testid="share-status">
        {status}
      </span>
    </div>
  );
}
