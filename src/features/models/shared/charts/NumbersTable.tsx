/**
 * A chart's or a view's numbers as a plain table (the table alternative every chart carries for
 * screen readers and for anyone who wants the figures): a caption, column heads, and rows whose
 * numbers are formatted the one way the models pages write numbers.
 */
import { formatNumber } from '../format-number';

export interface NumbersTableProps {
  caption: string;
  head: string[];
  rows: (string | number)[][];
}

export function NumbersTable({ caption, head, rows }: NumbersTableProps) {
  return (
    <table className="m-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {head.map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            {r.map((v, j) => (
              <td key={j}>{typeof v === 'number' ? formatNumber(v) : v}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
