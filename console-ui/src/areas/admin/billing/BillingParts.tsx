import { useField } from 'formik';
import { useId, type ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import styled from 'styled-components';
import { formatEuro } from './billing-form';

/** Euro (a float, as monthly prices come) written the Dutch way: € 1.234,56. */
export function euro(amount: number): string {
  return formatEuro(Math.round(amount * 100));
}

/** A date-time for a table cell: the day and minute, in the browser's zone. */
export function when(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) {
    return '—';
  }
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** The links under a billing tab (subscription, invoicing, ... or invoices, legal entities, ...). */
export function SubTabs({ label, tabs }: { label: string; tabs: readonly { to: string; label: string }[] }) {
  return (
    <SubNav aria-label={label}>
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to}>
          {tab.label}
        </NavLink>
      ))}
    </SubNav>
  );
}

/** A formik select with its label. */
export function SelectField({ name, label, children }: { name: string; label: string; children: ReactNode }) {
  const [field] = useField<string>(name);
  const id = useId();
  return (
    <FieldBox>
      <label htmlFor={id}>{label}</label>
      <select id={id} {...field}>
        {children}
      </select>
    </FieldBox>
  );
}

/** Label and value pairs. */
export function Facts({ rows }: { rows: readonly [string, ReactNode][] }) {
  return (
    <FactList>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </FactList>
  );
}

const SubNav = styled.nav`
  display: flex;
  flex-wrap: wrap;
  gap: 4px 16px;
  margin-bottom: 16px;
  a {
    padding: 4px 0;
    color: ${({ theme }) => theme.colors.textMuted};
    text-decoration: none;
  }
  a.active {
    color: ${({ theme }) => theme.colors.primary};
    border-bottom: 2px solid currentColor;
  }
`;

const FieldBox = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin-bottom: 14px;
  label {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  select {
    min-height: 38px;
    padding: 0 10px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: 6px;
    background: ${({ theme }) => theme.colors.surface};
  }
`;

const FactList = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(200px, 1fr));
  gap: 12px 24px;
  margin: 0 0 16px;
  dt {
    font-size: 12px;
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 2px 0 0;
  }
`;

/** A plain table of a tab. */
export const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  margin-bottom: 12px;
  th,
  td {
    text-align: left;
    padding: 6px 8px;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
    vertical-align: top;
  }
  td.amount,
  th.amount {
    text-align: right;
    white-space: nowrap;
  }
`;

export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin-top: 8px;
`;
