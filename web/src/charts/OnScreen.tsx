// Renders a chart only while it is on screen. Off screen it keeps showing
// what it last drew, and the chart's data is not even computed: `render` is
// only called when visible. Charts below the fold cost nothing while a run
// streams in.

import { useEffect, useRef, useState, type ReactNode } from 'react';

export function OnScreen({ render }: { render: () => ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(true);
  const last = useRef<ReactNode>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    // The margin starts drawing a little before a chart scrolls into view.
    const observer = new IntersectionObserver(([entry]) => setVisible(entry.isIntersecting), { rootMargin: '100px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  if (visible || last.current === null) last.current = render();
  return (
    <div ref={ref} className="on-screen">
      {last.current}
    </div>
  );
}
