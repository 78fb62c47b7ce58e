// Under a scheme that shares the link between hosts first (CAKE), the
// summary's per-flow fair shares and Jain index read "unfair" for the split
// the scheme aims at: this table shows the hosts' shares instead.

import { Term } from '../glossary/Term';
import type { HostShares } from '../scenario/hosts';

const NUMBER = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });

export function HostTable({ shares }: { shares: HostShares }) {
  const rate = (bps: number) => NUMBER.format(bps / 1e6);
  return (
    <div className="host-shares" data-testid="summary-hosts">
      <p className="hint">
        This scheme shares the link between <Term id="host-isolation">hosts</Term> first, then between each host’s flows. The fair share above, the goodput
        bars’ fair-share ticks and the Jain index count flows, so a host with many flows reads “unfair” there when the hosts split evenly: compare the hosts
        here. Over the {shares.hosts} hosts, <Term id="jain">Jain</Term> ={' '}
        <strong data-testid="summary-host-jain">{shares.jain === null ? '–' : NUMBER.format(shares.jain)}</strong>.
      </p>
      <table className="group-table">
        <caption className="visually-hidden">Goodput per host over the measurement window</caption>
        <thead>
          <tr>
            <th scope="col">group</th>
            <th scope="col" title="One host for a group with “one host” set, else one per flow">
              hosts
            </th>
            <th scope="col" title="Goodput of one of the group's hosts, against an equal split of what the link delivered between all hosts">
              per host / equal split (Mb/s)
            </th>
          </tr>
        </thead>
        <tbody>
          {shares.rows.map((row) => (
            <tr key={row.group} data-testid={`summary-host-${row.group}`}>
              <th scope="row">{row.label}</th>
              <td>{row.hosts}</td>
              <td>
                {rate(row.goodputPerHostBps)} / {rate(shares.equalShareBps)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
