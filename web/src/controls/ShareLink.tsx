// "Copy link": the running experiment (scenario with the current parameter
// values) and the view, as a link that reproduces it.

import { useState } from 'react';

interface ShareLinkProps {
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
      setStatus('Link copied');
    } catch {
      setStatus('Copy the link from the box');
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
      <span className="share-status" role="status">
        {status}
      </span>
    </div>
  );
}
